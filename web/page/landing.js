// Landing on a far step (a link's `at`, a preset's jump to a time, the embed's vilab:step,
// the test hook's step(n)): the run steps there in slices of SLICE_MS between frames, so no
// frame waits on it; past SHOW_AFTER_MS a progress line says how far it is, how long is left
// (from the rate measured so far) and offers Cancel. A landing whose estimate at the
// measured rate exceeds the bound (LANDING_BOUND_MS of CPU) is refused before it starts.
// The steps are the runner's (web/sim/runner.js): the same bits as stepping live.
import { LandingProgress } from '../ui/landing.js';
import { landingEstimate } from '../sim/landing-estimate.js';

export const LANDING_BOUND_MS = 60_000; // CPU a landing may take at the measured rate
const SLICE_MS = 25; // stepping per slice; a frame comes between slices
const SHOW_AFTER_MS = 300; // shorter landings show no progress line

/**
 * Resolves just after the browser's next frame, so a frame comes between two slices however
 * slow frames are; a hidden tab gets no frames, and there the landing goes on at a timer's pace.
 */
function nextFrame() {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      setTimeout(resolve, 0);
    };
    requestAnimationFrame(go);
    const whileHidden = () => {
      if (done) return;
      if (document.hidden) go();
      else setTimeout(whileHidden, 100);
    };
    setTimeout(whileHidden, 100);
  });
}

/** Resolves once the page is idle (requestIdleCallback; a timer's turn where the browser has none), or after timeoutMs. */
export function whenIdle(timeoutMs = 1000) {
  return new Promise((resolve) => {
    if (window.requestIdleCallback) requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 0);
  });
}

/**
 * Lands the page's run: landAt(target, options) → Promise<result>. One landing at a time
 * (a new one cancels the one under way); a new run (a rebuilt A) ends it too.
 */
export class Landing {
  /** show(): draws the run where it landed (view, phase point, readout, plots). */
  constructor({ lab, runner, show }) {
    Object.assign(this, { lab, runner, show });
    this.progress = new LandingProgress();
    this.current = null; // the AbortController of the landing under way
    this.longestSliceMs = 0; // the longest slice of the last landing (main-thread ms without a frame)
    this.slices = 0; // slices of the last landing
  }

  get active() {
    return !!this.current;
  }

  /** Stops the landing under way (the run stays on the step it reached). */
  cancel() {
    this.current?.abort();
  }

  /** The step a target names: a number or { step }, or { time } (the first step that ends at or after it). */
  goalOf(target) {
    const runner = this.runner;
    if (typeof target === 'number') return { step: target };
    if (Number.isFinite(target?.step)) return { step: target.step };
    const time = Number(target?.time);
    if (!Number.isFinite(time)) throw new TypeError('landAt: target is a step, { step } or { time }');
    if (this.lab.integrator(runner.a.scenario.integrator)?.variableStep) return { time };
    return { step: Math.max(0, Math.ceil(time / runner.h - 1e-9)) };
  }

  /** Steps still to take to a goal (for a time goal of a variable-step run, at its nominal h). */
  remaining(goal) {
    const runner = this.runner;
    if (goal.time == null) return Math.max(0, goal.step - runner.step);
    return Math.max(0, Math.ceil((goal.time - runner.time) / runner.h));
  }

  /** Estimated ms to take `steps` steps of the run as it is now (A and B), measured in scratch simulations. */
  estimate(steps) {
    const { a, b } = this.runner;
    if (!a || steps <= 0) return 0;
    const scenarios = [a.scenario, ...(b && !b.failure ? [b.scenario] : [])];
    return landingEstimate(this.lab, scenarios, steps);
  }

  /**
   * Takes the run to a step or time, time-sliced. target: a step (number or { step }) or
   * { time } (s). options: signal (an AbortSignal: Cancel), onProgress({ step, goal,
   * fraction, leftMs }), boundMs (refuse a landing estimated beyond it; LANDING_BOUND_MS;
   * Infinity: never), estimateMs (the estimate when the caller measured it already: no
   * second measurement), label (the progress line's words: { key, params } of the catalogue).
   * Resolves { step, time, reached, cancelled, refused, estimateMs, failure }: refused
   * (nothing stepped) when the estimate exceeds boundMs, cancelled when stopped by the
   * signal, Cancel or a new run; failure when the run stopped on its way (a refused step or
   * a breakdown: the run rests on its last good step).
   */
  async landAt(target, { signal, onProgress, boundMs = LANDING_BOUND_MS, estimateMs: known, label } = {}) {
    const runner = this.runner;
    if (!runner.a) return { step: 0, time: 0, reached: false, cancelled: true, refused: false, estimateMs: 0, failure: null };
    const goal = this.goalOf(target);
    const estimateMs = known ?? (this.remaining(goal) > 0 && Number.isFinite(boundMs) ? this.estimate(this.remaining(goal)) : 0);
    if (estimateMs > boundMs) return this.#result({ refused: true, estimateMs });
    this.cancel();
    const own = new AbortController();
    this.current = own;
    const abort = () => own.abort();
    signal?.addEventListener('abort', abort);
    if (signal?.aborted) own.abort();
    let superseded = false;
    try {
      superseded = await this.#steps(goal, own.signal, { onProgress, label, estimateMs });
    } finally {
      signal?.removeEventListener('abort', abort);
      if (this.current === own) this.current = null;
      this.progress.hide();
    }
    this.show();
    return this.#result({ cancelled: own.signal.aborted || superseded, estimateMs });
  }

  #result({ refused = false, cancelled = false, estimateMs = 0 }) {
    const { runner } = this;
    const failure = runner.a?.failure ?? null;
    return { step: runner.step, time: runner.time, reached: !refused && !cancelled && !failure, cancelled, refused, estimateMs, failure };
  }

  /**
   * The slices: step for SLICE_MS, let a frame through, until the goal, a stop, or a
   * cancel; true when a new run took the old one's place. The progress line shows from the
   * start when the estimate is long, else once SHOW_AFTER_MS have passed.
   */
  async #steps(goal, signal, { onProgress, label, estimateMs }) {
    const runner = this.runner;
    const a = runner.a;
    const started = performance.now();
    const from = runner.step;
    let lastShown = -Infinity;
    this.longestSliceMs = 0;
    this.slices = 0;
    // the task that asked (an estimate, stepNow's first batch) ends and a frame comes before the first slice
    await nextFrame();
    for (;;) {
      if (runner.a !== a) return true;
      if (signal.aborted || ((a.failure || this.remaining(goal) === 0) && runner.settled)) return false;
      const now = performance.now();
      if ((estimateMs > SHOW_AFTER_MS || now - started > SHOW_AFTER_MS) && now - lastShown > 100) {
        lastShown = now;
        const done = runner.step - from;
        const left = this.remaining(goal);
        const leftMs = done > 0 ? (left * (now - started)) / done : estimateMs;
        const state = { step: runner.step, goal, fraction: done / Math.max(1, done + left), leftMs };
        onProgress?.(state);
        this.progress.show({ ...state, label, onCancel: () => this.cancel() });
      }
      const t0 = performance.now();
      this.#slice(goal);
      this.longestSliceMs = Math.max(this.longestSliceMs, performance.now() - t0);
      this.slices++;
      await nextFrame();
    }
  }

  /** One slice of steps towards the goal (a time goal of a variable-step run: one step at a time). */
  #slice(goal) {
    const runner = this.runner;
    const t0 = performance.now();
    if (!runner.a.failure) {
      if (goal.time == null) runner.advance(goal.step - runner.step, { budgeted: true, budgetMs: SLICE_MS * (runner.b ? 2 : 1) });
      else while (!runner.a.failure && runner.time < goal.time && performance.now() - t0 < SLICE_MS) runner.advance(1);
    }
    if (!runner.settled) runner.settle(Math.max(1, SLICE_MS - (performance.now() - t0)));
  }
}
