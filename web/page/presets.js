// The page's presets: one list that the run, the panel, the toolbar, the drawers and the
// test hook all hold, filled once from its own chunk (web/sim/presets.js). The page's
// default first run is no preset (tests/e2e/first-load.test.mjs checks it), so with no
// link the list is fetched after the first frame; a link's document, an LMS launch's
// preset or an embedding host's first command may be one, and then it is fetched before
// the first run. The code that measures their captions' claims and the activities'
// registry (keyed by preset and lesson) come with them.
import { loadPresets } from '../sim/presets.js';
import { loadClaimsCode } from './caption-claims.js';
import { loadActivities } from './activity.js';

/** { list, load(): the promise of the filled list (fetched once), onLoad(fn) }. */
export function createPresets(lab) {
  const list = [];
  const listeners = [];
  let loading = null;
  const load = () =>
    (loading ??= Promise.all([loadPresets(lab), loadClaimsCode(), loadActivities()]).then(
      ([found]) => {
        list.push(...found);
        for (const fn of listeners) fn(list);
        return list;
      },
      (e) => {
        loading = null; // a later call tries again
        throw e;
      },
    ));
  return { list, load, onLoad: (fn) => listeners.push(fn) };
}

/**
 * Whether the first runs may be presets: a link's document (the hash), an LMS launch's
 * preset, or an embedded page (its host may load a preset's document as soon as the page
 * says it is ready).
 */
export const startNeedsPresets = (launch, embedKeys) => location.hash.length > 1 || !!launch?.preset || !!embedKeys?.embed;
