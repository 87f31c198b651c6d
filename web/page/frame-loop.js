// The frame loop: every animation frame advances the run (runner.frame: the accumulator
// and its budget), updates and renders the view, ticks the plots, the energy bars and the
// live summary, and the readout, timing each phase into the session's frame statistics
// (the test hook's frameStats(); bench/page.mjs reads them). After the first simulated
// frame it starts the plots (uPlot is fetched then) and resolves the page's `ready`.
import { t, onLanguageChange, loadLaterWords } from '../i18n/index.js';
import { $ } from '../ui/dom.js';
import { samplePhase } from './run.js';

const RING = 600; // frames the statistics keep
const PHASES = ['sim', 'view', 'render', 'plots', 'other'];

/**
 * Main-thread ms per frame over the last RING frames, split into phases: sim (steps,
 * history reads, plot ingest), view (three.js object updates), render (renderer.render:
 * the three.js JS and the WebGL calls), plots (uPlot redraws), other (readout).
 */
export class FrameStats {
  constructor() {
    this.count = 0; // frames drawn so far
    this.firstAt = null; // ms since navigation start when the first simulated frame was drawn
    this.from = 0; // summary({ reset: true }) counts frames from here
    this.total = new Float64Array(RING);
    this.phases = Object.fromEntries(PHASES.map((p) => [p, new Float64Array(RING)]));
  }

  /** One frame, from the times its phases start and the time it ends. */
  record(t0, t1, t2, t3, t4, t5) {
    const k = this.count % RING;
    const { sim, view, render, plots, other } = this.phases;
    this.total[k] = t5 - t0;
    sim[k] = t1 - t0;
    view[k] = t2 - t1;
    render[k] = t3 - t2;
    plots[k] = t4 - t3;
    other[k] = t5 - t4;
    this.count++;
  }

  /** { n, mean, median, p95, max, phases: { sim|view|render|plots|other: { mean, median, p95, max } } }; reset: start afresh. */
  summary({ reset = false } = {}) {
    const frames = this.count;
    const n = Math.min(frames - this.from, RING);
    const stats = (ring) => {
      const a = Array.from({ length: n }, (_, i) => ring[(frames - 1 - i) % RING]).sort((x, y) => x - y);
      return {
        mean: a.reduce((x, y) => x + y, 0) / Math.max(n, 1),
        median: a[Math.floor(n / 2)] ?? 0,
        p95: a[Math.floor(n * 0.95)] ?? 0,
        max: a[n - 1] ?? 0,
      };
    };
    const out = { n, ...stats(this.total), phases: Object.fromEntries(Object.entries(this.phases).map(([k, r]) => [k, stats(r)])) };
    if (reset) this.from = frames;
    return out;
  }
}

export class FrameLoop {
  /**
   * ready: { resolve } of the page's `ready` promise; later: functions started after the
   * first frame (each returns a promise that `ready` waits for: what the first frame did not need).
   */
  constructor({ store, runner, view, plots, fieldPlots = null, readout, notices, ready, later = [] }) {
    Object.assign(this, { store, runner, view, plots, fieldPlots, readout, notices, ready, later });
    this.stats = new FrameStats();
    store.session.set({ frames: this.stats });
    this.summaryEl = $('#diag-summary');
    this.last = performance.now(); // the previous frame's timestamp
    this.lastBars = 0;
    this.lastSummary = performance.now();
    this.frame = (now) => this.#frame(now);
    // on pause, the live summary says where things stand
    store.session.subscribe((s, prev) => {
      if (prev.playing && !s.playing) requestAnimationFrame(() => (this.summaryEl.textContent = plots.summary()));
    });
    onLanguageChange(() => {
      if (this.summaryEl.textContent) this.summaryEl.textContent = plots.summary();
    });
  }

  /** Draws the first picture now and runs from the next animation frame on. */
  start() {
    // The page's panels were filled since the view was made: its size is read from the
    // settled layout, so that the first picture is not drawn stretched and its drawing
    // buffer not allocated again when the resize observer reports the change (40–80 ms
    // of the main thread right after the first frame with software WebGL).
    this.view.resize();
    this.view.render(true);
    requestAnimationFrame(this.frame);
  }

  #frame(now) {
    const { runner, view, plots, stats } = this;
    const t0 = performance.now();
    const dt = (now - this.last) / 1000;
    this.last = now;
    const settling = !runner.settled; // a stopped run being brought back to its last good step
    const taken = runner.frame(dt);
    const t1 = performance.now();
    if (taken > 0 || (settling && runner.settled)) {
      // trails only while they can be drawn smoothly (≤ 0.1 s of motion per frame)
      view.setTrailsVisible(taken * runner.h <= 0.1);
      view.update(runner.a, runner.b, runner.time);
      samplePhase(runner, plots);
    }
    const t2 = performance.now();
    view.render();
    const t3 = performance.now();
    plots.tick(now, runner.time);
    this.fieldPlots?.tick(now);
    if (now - this.lastBars > 100 && runner.a) {
      this.lastBars = now;
      plots.energyBars($('#energy-bars'), runner.a.diag, runner.b && !runner.b.failure ? runner.b.diag : null);
    }
    // a live text summary of the diagnostics, at most every 5 s while playing
    if (this.store.session.get().playing && now - this.lastSummary > 5000) {
      this.lastSummary = now;
      this.summaryEl.textContent = plots.summary();
    }
    const t4 = performance.now();
    this.readout.update();
    const t5 = performance.now();
    stats.record(t0, t1, t2, t3, t4, t5);
    if (stats.firstAt == null) this.#firstFrame();
    requestAnimationFrame(this.frame);
  }

  #firstFrame() {
    // the first simulated frame is on screen: now the plots (uPlot is fetched here), the
    // camera's orbit controls, the English words the first frame did not show and `later`
    this.stats.firstAt = performance.now();
    const plots = this.plots.start().catch((e) => {
      this.notices.banner('plots', [t('main.plotsFailed', { message: e?.message ?? String(e) })], { kind: 'warn' });
    });
    const controls = this.view.startControls().catch((e) => console.error(e)); // the view stays still without them
    // A failed fetch is not the page's error: loadLaterWords forgets it, and the card that
    // needs the words fetches them again.
    const words = loadLaterWords().catch((e) => console.warn(`vilab: the later words are fetched again when needed (${e?.message ?? e})`));
    const rest = this.later.map((start) => start().catch((e) => console.error(e)));
    Promise.all([plots, controls, words, ...rest]).then(this.ready.resolve);
  }
}
