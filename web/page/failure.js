// A run that stops, reported: A's refused step (or breakdown) pauses the run behind an
// error banner with "Reset" and, when the core suggests a smaller h, "Halve h"; B's is a
// warning, and the legend marks where B stopped. The status line and the host page of an
// embedded page (vilab:refusal) hear of both. The words: web/ui/failure.js.
import { failureMessage } from '../ui/failure.js';
import { t } from '../i18n/index.js';

/** The runner's onFailure(track, info). */
export function createFailureReport({ lab, plots, notices, run, legend, bridge }) {
  return (track, info) => {
    const message = failureMessage(track.label, info, lab.integrator(track.scenario.integrator), track.scenario.h, plots.description);
    const data = info.code ? { code: info.code } : {};
    if (track.label === 'A') {
      run.setPlaying(false);
      const actions = [{ label: t('main.action.reset'), onClick: () => run.restart() }];
      if (message.halve) actions.unshift({ label: t('main.action.halve'), onClick: () => run.halveH() });
      notices.banner('failure', [message.text], { kind: 'error', actions, data });
    } else {
      notices.banner('failure-b', [message.text], { kind: 'warn', data });
      legend.render();
    }
    notices.status(message.status);
    bridge.refusal({ track: track.label, step: info.step ?? null, code: info.code, message: message.text });
  };
}
