// The page's lab: the lean build first, because the first frame needs only it, and the
// full build on demand. Both builds have the same registry (the lean one without the
// prose its first frame does not show: docs, equations, citations, the definition's
// documentation) and give the same bits on the pairs both run, so switching never
// changes a run. A call the lean build refuses throws VilabError code 'full-module' (a
// Lagrangian given as data, Lobatto, automatic differentiation, compositions); the
// caller then loads the full build (loadFull, or withFull to retry there) and applies
// what was refused. Probing, as the lessons list does, loads nothing.
//
//   const lab = await createPageLab();          // or createPageLab({ wasmBinary }): full at once
//   createPageLab({ withFullBuild })            // withFullBuild() → Promise: what the full build's
//                                               // runs need besides it, awaited with it (field plots)
//   createPageLab({ loadDeferred: true })       // the lean build's second part fetched with its first
//                                               // (a page that opens on a link or a preset)
//   lab.simulate(…), lab.normalize(…), …        // whichever build is current
//   lab.build                                   // 'lean' | 'full'
//   lab.loadFull() → Promise                    // resolves once the full build is current
//   lab.withFull(fn) → Promise                  // fn(), retried on the full build if refused
import { createLab } from './vilab.js';

export const needsFull = (e) => e?.code === 'full-module';

export async function createPageLab({ wasmBinary, withFullBuild = async () => {}, loadDeferred = false } = {}) {
  // The single-file page carries one module, the full one, in its HTML.
  let current = await (wasmBinary
    ? Promise.all([createLab({ wasmBinary }), withFullBuild()]).then(([full]) => full)
    : createLab({ build: 'lean', loadDeferred }));
  let loading = null;

  const loadFull = () =>
    (loading ??= Promise.all([createLab({ build: 'full' }), withFullBuild()]).then(
      ([full]) => {
        current = full;
        return full;
      },
      (e) => {
        loading = null; // a later request tries again
        throw e;
      },
    ));

  const facade = {
    get build() {
      return current.build;
    },
    loadFull,
    /** fn(), or, when the lean build refuses it, fn() again once the full build is in. */
    async withFull(fn) {
      try {
        return fn();
      } catch (e) {
        if (!needsFull(e)) throw e;
        await loadFull();
        return fn();
      }
    },
  };
  for (const key of Object.keys(current)) {
    if (key === 'build') continue;
    if (typeof current[key] === 'function') {
      facade[key] = (...args) => current[key](...args);
    } else {
      Object.defineProperty(facade, key, { get: () => current[key], enumerable: true });
    }
  }
  return Object.freeze(facade);
}
