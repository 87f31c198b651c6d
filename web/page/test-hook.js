// The test hook, window.vilabPage (for the e2e tests, bench/page.mjs and the curious; its
// members are listed in web/README.md). It exists from the page's first line with `ready`
// (the layout and the language select add to it) and is filled once the first run is up,
// reading the store and the page's modules.
import { clone } from '../state/store.js';

/** window.vilabPage = { ready }; returns { resolve, reject } of `ready`. */
export function openTestHook() {
  const settle = {};
  const ready = new Promise((resolve, reject) => Object.assign(settle, { resolve, reject }));
  window.vilabPage = { ready };
  return settle;
}

export function fillTestHook({ lab, store, runner, view, plots, fieldPlots, presets, run, link, downloads, drag, lessonLayout }) {
  const session = () => store.session.get();
  Object.assign(window.vilabPage, {
    lab,
    /** a copy of the document: { scenario, compare, speed, stepsPerFrame, window } */
    state: () => clone(store.get()),
    sim: () => runner.a?.sim ?? null,
    simB: () => runner.b?.sim ?? null,
    step: (n = 1) => run.stepNow(n),
    runTo: (k) => {
      const cur = runner.step;
      return k > cur ? run.stepNow(k - cur) : cur;
    },
    fingerprint: () => runner.a?.sim.hash() ?? null,
    /** run.landAt(target, options) (web/page/landing.js): resolves { step, time, reached, cancelled, refused, estimateMs, failure } */
    landAt: (target, options) => run.landAt(target, options),
    /** whether a landing is under way, whether no stopped run is still being brought back to its last good step, the longest slice of the last landing (ms) and its slices */
    landing: () => ({
      active: run.landing.active,
      settled: runner.settled,
      longestSliceMs: run.landing.longestSliceMs,
      slices: run.landing.slices,
    }),
    cancelLanding: () => run.landing.cancel(),
    play: () => run.setPlaying(true),
    pause: () => run.setPlaying(false),
    playing: () => session().playing,
    shareURL: () => link.shareURL(),
    /** as the controls apply a patch: Error or null, or a promise of it when the change waits for the full build */
    setState: (patch) => {
      store.session.set({ deferred: null });
      return run.setState(patch) ?? session().deferred;
    },
    /** the promise of the full build (loads it if not yet) */
    loadFull: () => lab.loadFull().then(() => lab.build),
    drawPlots: () => plots.drawAll(runner.time),
    plotSeries: () => plots.latestValues(),
    /** the times the plots' whole-run table spans: { first, last }, or null before any sample */
    plotSpan: () => plots.span(),
    frames: () => session().frames.count,
    failure: () => ({ A: runner.a?.failure ?? null, B: runner.b?.failure ?? null }),
    presets: () => presets.map((p) => p.id),
    /** the preset's object (a copy), or null */
    preset: (id) => clone(presets.find((p) => p.id === id) ?? null),
    /** applies a preset object (a shipped one or a test's own) as the preset menu does */
    applyPreset: (p) => run.applyPreset(p),
    /** the lesson layout: { on, featured, pinned, plot, hidden } */
    lessonLayout: () => lessonLayout.state(),
    /** a plot card's drawn size and type: { width, height, tickPx, labelPx } (CSS px) */
    plotText: (id) => plots.textSize(id),
    camera: () => view.getCamera(),
    /** ms since navigation start when the first simulated frame was drawn */
    firstFrameAt: () => session().frames.firstAt,
    /**
     * main-thread ms per frame over the last ≤ 600 frames: { n, mean, median, p95, max,
     * phases: { sim|view|render|plots|other: { mean, median, p95, max } } }; reset: true starts afresh
     */
    frameStats: (options) => session().frames.summary(options),
    csv: () => downloads.csvText(),
    png: () => downloads.pngURL(),
    plotRange: (id) => plots.yRange(id),
    /** a field run's space–time image and kinks (web/plots/field-plots.js state()), or null for other systems */
    fieldPlots: () => fieldPlots?.state() ?? null,
    setPlotView: (v) => plots.setView(v),
    summary: () => plots.summary(),
    /** a lesson's rotating frame as drawn: { available, on, angle, x (the first body's drawn x axis) } */
    frameView: () => view.frameView(),
    /** the exact ghost's drawn orientation [w, x, y, z] and the time it shows, or null */
    exactGhost: () => view.exactGhost(),
    /** shows or hides B and draws the view at once (what A looks like without the comparison) */
    showB: (on) => {
      view.setComparisonVisible(on);
      view.render(true);
    },
    /** furniture, trails and rigid shape as the scene draws them (view.sceneFacts) */
    sceneFacts: () => view.sceneFacts(),
    /** client coordinates of A's bob i (drag tests) */
    bobScreen: (i) => drag.screenOf(runner.a.visual, i),
  });
}
