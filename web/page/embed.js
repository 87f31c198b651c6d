// Embedding: the "Embed" dialog (the iframe code of the current run for a course page),
// the bridge that obeys a host page's commands and posts the page's events
// (web/ui/embed.js, protocol in web/state/messages.js), what the reader changes told to
// the host (vilab:change), and, embedded, the link to the full page.
import { apiError } from '../ui/api-error.js';
import { EmbedBridge } from '../ui/embed.js';
import { $ } from '../ui/dom.js';
import { t, registryText } from '../i18n/index.js';
import { changeOf } from '../state/messages.js';
import { compareRefusal } from '../sim/external-b.js';

/** Below this |E₀| the energy error is absolute (E − E₀), as the energy plot's (web/plots/plots.js). */
const TINY_ENERGY = 1e-12;

/** A's energy error now: (E − E₀)/|E₀|, or E − E₀ when |E₀| is tiny; null without a finite energy. */
export function energyError(track) {
  const E = track?.sim.diagnostics().energy;
  const E0 = track?.E0;
  if (!Number.isFinite(E) || !Number.isFinite(E0)) return { energyError: null, energyErrorRelative: false };
  const relative = Math.abs(E0) > TINY_ENERGY;
  return { energyError: relative ? (E - E0) / Math.abs(E0) : E - E0, energyErrorRelative: relative };
}

/** What the bridge reads of the page and asks of it (web/ui/embed.js EmbedBridge). */
function controllerOf({ lab, store, runner, run, link }) {
  const position = () => {
    const sim = runner.a?.sim;
    return sim ? { step: sim.step, time: sim.time, fingerprint: sim.hash() } : { step: 0, time: 0, fingerprint: null };
  };
  return {
    /** compare: B's id, null (none) or undefined (B kept where it applies). */
    load: (scenario, meta, compare) => {
      const waiting = store.session.get().deferred;
      const err = compare === undefined ? run.setScenario(scenario, meta) : run.setState({ scenario, compare }, meta);
      const deferred = store.session.get().deferred;
      // a scenario the lean build leaves out is applied (or refused) once the full build is in
      return err ?? (deferred !== waiting ? deferred : null);
    },
    /** Why `compare` cannot be B of this scenario's system (null when it can, or when the load refuses the scenario). */
    compareRefusal: (scenario, compare) => {
      if (compare === null) return null;
      const system = scenario?.system ?? store.get().scenario.system;
      return typeof system === 'string' && lab.system(system) ? compareRefusal(lab, compare, system) : null;
    },
    play: () => run.setPlaying(true),
    pause: () => run.setPlaying(false),
    step: (n) => {
      run.setPlaying(false);
      return run.stepNow(n);
    },
    position,
    snapshot: () => {
      const sim = runner.a?.sim;
      const doc = store.get();
      return {
        ...position(),
        playing: store.session.get().playing,
        scenario: sim ? sim.scenario() : doc.scenario,
        compare: doc.compare,
        diagnostics: sim ? sim.diagnostics() : null,
        ...energyError(runner.a),
        shareURL: link.shareURL(),
      };
    },
  };
}

/** vilab:change for each thing the reader (or a host's command) changes: the document, play / pause, Reset. */
function reportChanges({ store, run, bridge }) {
  store.subscribe((next, prev, meta) => {
    const change = changeOf(next, prev, meta);
    if (change) bridge.change({ ...change, source: meta.source });
  });
  store.session.subscribe((next, prev) => {
    if (next.playing !== prev.playing) bridge.change({ change: next.playing ? 'play' : 'pause' });
  });
  run.onRestart(() => bridge.change({ change: 'reset' }));
}

/** Wires the dialog and the open-full link; returns the bridge (announce(), refusal()). */
export function createEmbed({ lab, store, runner, run, link, notices, embedKeys }) {
  // the dialog's code comes with the first press of its button
  const button = $('#embed-code');
  let dialog = null;
  button.addEventListener('click', async () => {
    dialog ??= import('../ui/embed-dialog.js').then(
      ({ EmbedDialog }) =>
        new EmbedDialog(button, {
          shareURL: () => link.shareURL(),
          title: () => `vilab: ${registryText('system', lab.system(store.get().scenario.system), 'title')}`,
          status: (text) => notices.status(text),
        }),
    );
    (await dialog).open();
  });
  const bridge = new EmbedBridge({
    origins: embedKeys.origins,
    version: lab.version,
    report: (field, message, code) =>
      notices.banner('embed-command', [t('embed.commandInvalid', { field, problem: apiError({ field, message, code }).problem })], {
        kind: 'warn',
      }),
    controller: controllerOf({ lab, store, runner, run, link }),
  });
  reportChanges({ store, run, bridge });
  if (embedKeys.embed) {
    const full = $('#open-full');
    full.hidden = false;
    const update = () => {
      const u = new URL(location.href);
      u.searchParams.delete('embed');
      full.href = u.toString();
    };
    update();
    store.subscribe(update);
  }
  return bridge;
}
