// The page inside an LMS package (npm run build:scorm): the package puts its launch in the
// file (script#vilab-launch: { preset } or { link }, and completeAt, model seconds). The
// file opens on that preset or link (a reload keeps the student's own address), and when a
// SCORM 1.2 API is found by the standard search (this window's parents, then its opener's)
// it reports cmi.core.lesson_status: "incomplete" on the first launch, "completed" once the
// run has reached completeAt. Any other page has no launch and does none of this.
import { t } from '../i18n/index.js';
import { num } from '../sim/format.js';

/** The launch the package put in the file, or null. */
export function readLaunch() {
  const block = document.getElementById('vilab-launch');
  if (!block) return null;
  try {
    const launch = JSON.parse(block.textContent);
    return launch && Number.isFinite(launch.completeAt) && launch.completeAt > 0 ? launch : null;
  } catch {
    return null;
  }
}

/** A link launch becomes the address's # part before the page reads it; returns whether the address had its own. */
export function adoptLaunchLink(launch) {
  const own = location.hash.length > 1;
  if (launch?.link && !own) history.replaceState(null, '', launch.link);
  return own;
}

/** SCORM 1.2's API object: up to 7 parents of win, as the run-time environment's search does. */
function findAPI(win) {
  for (let hops = 0; win && hops <= 7; hops++) {
    try {
      if (win.API) return win.API;
    } catch {
      // a parent of another origin: go on up
    }
    if (!win.parent || win.parent === win) break;
    win = win.parent;
  }
  return null;
}

/** Reports the lesson's status to the LMS once the run reaches completeAt. */
function reportCompletion(api, { launch, runner, notices }) {
  const call = (name, ...args) => {
    try {
      return String(api[name](...args));
    } catch {
      return 'false';
    }
  };
  if (call('LMSInitialize', '') !== 'true') return;
  window.addEventListener('pagehide', () => call('LMSFinish', ''), { once: true });
  const status = call('LMSGetValue', 'cmi.core.lesson_status');
  if (status === 'completed' || status === 'passed') return;
  if (status === 'not attempted' || status === '') {
    call('LMSSetValue', 'cmi.core.lesson_status', 'incomplete');
    call('LMSCommit', '');
  }
  const timer = setInterval(() => {
    if (!(runner.time >= launch.completeAt)) return;
    clearInterval(timer);
    if (call('LMSSetValue', 'cmi.core.lesson_status', 'completed') !== 'true') return;
    call('LMSCommit', '');
    notices.banner('lms', [t('ship.lms.completed', { time: num(launch.completeAt, 6) })], { kind: 'info' });
  }, 250);
}

/** Opens the launch's preset (unless the address names a run of its own) and reports to the LMS. */
export function startLaunch({ launch, ownAddress, presets, run, runner, notices }) {
  if (!launch) return;
  const preset = launch.preset && !ownAddress ? presets.find((p) => p.id === launch.preset) : null;
  if (preset) run.applyPreset(preset);
  let api = findAPI(window);
  try {
    api ??= window.opener ? findAPI(window.opener) : null;
  } catch {
    api = null;
  }
  if (api) reportCompletion(api, { launch, runner, notices });
}
