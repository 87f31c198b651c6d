// Embedding: the "Embed" dialog (the iframe code of the current run for a course page),
// the bridge that obeys a host page's commands and posts the page's events
// (web/ui/embed.js, protocol in web/state/messages.js), and, embedded, the link to the
// full page.
import { apiError } from '../ui/api-error.js';
import { EmbedBridge, EmbedDialog } from '../ui/embed.js';
import { $ } from '../ui/dom.js';
import { t, registryText } from '../i18n/index.js';

/** Wires the dialog and the open-full link; returns the bridge (announce(), refusal()). */
export function createEmbed({ lab, store, runner, run, link, notices, embedKeys }) {
  new EmbedDialog($('#embed-code'), {
    shareURL: () => link.shareURL(),
    title: () => `vilab: ${registryText('system', lab.system(store.get().scenario.system), 'title')}`,
    status: (text) => notices.status(text),
  });
  const position = () => {
    const sim = runner.a?.sim;
    return sim ? { step: sim.step, time: sim.time, fingerprint: sim.hash() } : { step: 0, time: 0, fingerprint: null };
  };
  const bridge = new EmbedBridge({
    origins: embedKeys.origins,
    version: lab.version,
    report: (field, message, code) =>
      notices.banner('embed-command', [t('embed.commandInvalid', { field, problem: apiError({ field, message, code }).problem })], {
        kind: 'warn',
      }),
    controller: {
      load: (scenario) => run.setScenario(scenario),
      play: () => run.setPlaying(true),
      pause: () => run.setPlaying(false),
      step: (n) => {
        run.setPlaying(false);
        run.stepNow(n);
      },
      position,
      snapshot: () => {
        const sim = runner.a?.sim;
        const { playing } = store.session.get();
        return {
          ...position(),
          playing,
          scenario: sim ? sim.scenario() : store.get().scenario,
          diagnostics: sim ? sim.diagnostics() : null,
        };
      },
    },
  });
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
