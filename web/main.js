// vilab page: wires the JS API (web/sim/vilab.js) to the three.js view, the uPlot
// diagnostics and the controls over one store (web/state/store.js: the document a link
// carries, and the session of this tab). Each part of the page is a module of web/page/,
// named for what it does; this file only makes them, in the order the first frame needs.
// The test hook window.vilabPage: web/page/test-hook.js (its members in web/README.md).
import { createPageLab } from './sim/page-lab.js';
import { Runner } from './sim/runner.js';
import { createStore } from './state/store.js';
import { View } from './scene/view.js';
import { isDark } from './scene/palette.js';
import { PlotsSlot } from './plots/plots-slot.js';
import { fullBuildParts } from './page/full-build.js';
import { Notices } from './ui/banner.js';
import { $ } from './ui/dom.js';
import { setupLayout } from './ui/layout.js';
import { readEmbedKeys } from './ui/embed.js';
import { Run } from './page/run.js';
import { FrameLoop } from './page/frame-loop.js';
import { readStartLink, Links } from './page/link.js';
import { Toolbar } from './page/toolbar.js';
import { createPanel } from './page/panel.js';
import { createLegend } from './page/legend.js';
import { Readout } from './page/readout.js';
import { createDrawers } from './page/drawers.js';
import { createPresets, startNeedsPresets } from './page/presets.js';
import { createDownloads } from './page/downloads.js';
import { createBobDrag } from './page/drag.js';
import { createEmbed } from './page/embed.js';
import { createModelOpening } from './page/model.js';
import { createFailureReport } from './page/failure.js';
import { createLessonLayout } from './page/lesson-layout.js';
import { openTestHook, fillTestHook } from './page/test-hook.js';
import { registerServiceWorker } from './page/offline.js';
import { createActivities } from './page/activity.js';
import { setupOfflineCopy } from './page/offline-copy.js';
import { readLaunch, adoptLaunchLink, startLaunch } from './page/lms.js';
import inlinedWasm from 'virtual:vilab-wasm';
import { t, ready as languageReady } from './i18n/index.js';
import { apiError } from './ui/api-error.js';

const SINGLE_FILE = import.meta.env.MODE === 'single';
const SITE_URL = SINGLE_FILE ? (import.meta.env.VITE_SITE_URL ?? '') : '';
if (SINGLE_FILE) document.documentElement.classList.add('single-file');
// inside an LMS package: the link it launches becomes the address before the page reads it
const launch = readLaunch();
const ownAddress = adoptLaunchLink(launch);
// embed=1, paused=1, chrome=0, origin=… (state/messages.js); a bad key is reported once the page is up
const embedProblems = [];
const embedKeys = readEmbedKeys(location.search, (field, problem, code) => embedProblems.push({ field, problem, code }));
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
const ready = openTestHook();
if (embedKeys.embed) document.documentElement.classList.add('embed');
if (!embedKeys.chrome) document.documentElement.classList.add('bare');
// a link, a preset or an embed may start other than the default document: the presets come before the first run,
// and the lean module's second part (what the default document's first frame does not run) with its first part
const notDefault = startNeedsPresets(launch, embedKeys);

async function main() {
  // the lean build first, the full one when a scenario needs it (web/sim/page-lab.js), with the field plots and scenes
  // that run there only; the single-file build carries the full wasm in the page (web/pwa/inline-wasm-plugin.js)
  const { fieldPlots, withFullBuild } = fullBuildParts();
  const labLoaded = createPageLab({ ...(inlinedWasm && { wasmBinary: inlinedWasm }), withFullBuild, loadDeferred: notDefault });
  labLoaded.catch(() => {}); // reported below
  await languageReady; // the reader's language, fetched alongside the engine
  const notices = new Notices($('#banners'), $('#status'));
  for (const { field, problem, code } of embedProblems) {
    const words = apiError({ field, message: problem, code }).problem; // in the reader's language
    notices.banner(`embed-key-${field}`, [t('embed.keyInvalid', { field, problem: words })], { kind: 'warn' });
  }
  const layout = setupLayout({ status: (text) => notices.status(text) });
  // the WebGL context is made while the engine loads
  const view = new View($('#view'), { reducedMotion: reducedMotion.matches });
  const lab = await labLoaded.catch((e) => {
    $('#loading').textContent = t('main.engineFailed');
    throw e;
  });
  const catalog = createPresets(lab); // the presets: their chunk before the first run only when it may be a preset
  const { list: presets } = catalog;
  const start = await readStartLink(lab, notices);
  if (notDefault) await Promise.all([catalog.load(), lab.loadDeferred()]);
  const store = createStore(start.state);

  let lessonLayout = null;
  const plots = new PlotsSlot($('#plots'), {
    onPhaseChange: () => plots.drawAll(runner.time),
    onPin: (id) => lessonLayout?.pin(id),
    onArrange: (info) => lessonLayout?.arranged(info),
    // a run whose numbers left the physics (energy, constraint, overflow) stops there
    onBreakdown: (label, info) => runner.halt(label, info),
  });
  const runner = new Runner(lab, {
    onSamples: (ra, rb) => {
      plots.ingest(ra, rb, runner.a, runner.b);
      legend.ingest(ra, rb); // the caption's claims, after the plots' breakdown check
    },
    onFailure: (track, info) => reportFailure(track, info),
    onRow: () => fieldPlots.sample(runner),
    onTarget: (step) => link.check(step),
    onVisualProblem: (track, { step }) =>
      notices.banner('visual', [t('main.visualProblem', { track: track.label, step })], { kind: 'warn' }),
  });
  // the store's subscribers run in the order these are made: the run first, the address bar last
  const readout = new Readout({ store, runner });
  const run = new Run({ lab, store, runner, view, plots, fieldPlots, readout, notices, presets });
  const drag = createBobDrag({ store, runner, view, run, notices });
  new Toolbar({ lab, store, view, run, notices, presets });
  const controls = createPanel({ lab, store, run, notices, presets, onPresets: catalog.onLoad });
  createDrawers({ lab, store, runner, presets, loadPresets: catalog.load, run });
  createModelOpening({ lab, run, notices }); // Open model: a MuJoCo model (MJCF) pasted, chosen or dropped
  setupOfflineCopy({ single: SINGLE_FILE }); // Help: the offline copy and the licences
  createActivities({ lab, store, run, embedKeys, siteURL: SITE_URL }); // a prediction before a preset or lesson plays
  const legend = createLegend({ lab, store, runner, view, controls });
  const link = new Links({ lab, store, runner, view, plots, notices, run, embedKeys, siteURL: SITE_URL, reducedMotion });
  run.land = (step, options) => link.land(step, options); // a lesson's jumpTo lands as a link's at= does
  lessonLayout = createLessonLayout({ store, plots, layout, notices });
  const downloads = createDownloads({ lab, store, runner, view, plots, notices });
  const bridge = createEmbed({ lab, store, runner, run, link, notices, embedKeys });
  const reportFailure = createFailureReport({ lab, plots, notices, run, legend, bridge });
  layout.usePlots(plots); // projector mode reaches the plots (the phone sheet is wired in setupLayout)
  fieldPlots.useProjector(layout.projector);
  const loop = new FrameLoop({ store, runner, view, plots, fieldPlots, readout, notices, ready, later: [catalog.load, lab.loadDeferred] });

  // the first run: built, its link's camera and fingerprint check, then landing or playing
  run.build(store.get());
  link.arrive(start);
  $('#loading').remove();
  bridge.announce();
  link.landOnceOpen(start.at, window.vilabPage.ready);
  startLaunch({ launch, ownAddress, presets, run, runner, notices }); // an LMS package's preset and its report
  reducedMotion.addEventListener?.('change', (e) => {
    view.reducedMotion = e.matches;
    if (e.matches) run.setPlaying(false);
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
    // restyle without restarting the run
    view.setTheme(isDark());
    view.update(runner.a, runner.b, runner.time);
    plots.retheme(runner.time);
  });
  window.addEventListener('resize', () => plots.resize());
  new ResizeObserver(() => plots.resize()).observe($('#plots'));

  loop.start();
  fillTestHook({ lab, store, runner, view, plots, fieldPlots, presets, run, link, downloads, drag, lessonLayout });
  registerServiceWorker(notices);
}

main().catch((e) => {
  console.error(e);
  ready.reject(e);
});
