// Drives one or two simulations (A, and B in compare mode) in lockstep on a
// fixed-step accumulator that is decoupled from requestAnimationFrame's dt:
//
//   acc += min(dt, LAG_CLAMP) · speed;   n = floor(acc / h);   acc −= n·h
//
// A takes up to n steps within a per-frame time budget (sim.advanceFor: the time
// slicing lives in the core), B then takes exactly as many (sim.advance), and the
// lag beyond what fitted is dropped, so a slow machine runs slower than real time
// instead of spiralling. Histories are read incrementally (history.read(from): one
// call per frame), never one JS call per step.

const LAG_CLAMP = 0.1; // s of wall-clock time one frame may account for
const FRAME_BUDGET_MS = 2.5; // simulation time budget per frame

/** A refused step (a VilabError with .step, .code, .action, .reason, .suggestion) as the page reports it. */
export function failureOf(error) {
  const e = error && typeof error === 'object' ? error : { message: String(error) };
  return {
    step: Number.isInteger(e.step) ? e.step : null,
    code: typeof e.code === 'string' ? e.code : null,
    action: typeof e.action === 'string' ? e.action : null,
    reason: typeof e.reason === 'string' && e.reason ? e.reason : String(e.message ?? e).replace(/^vilab:\s*/, ''),
    suggestion: typeof e.suggestion === 'string' && e.suggestion ? e.suggestion : null,
    message: String(e.message ?? e),
  };
}

function allFinite(a) {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/** One integrator's simulation plus what the page tracks about it. */
class Track {
  constructor(lab, label, scenario, historyCapacity) {
    this.label = label;
    this.scenario = scenario;
    this.integrator = lab.integrator(scenario.integrator);
    this.sim = lab.simulate(scenario, { historyStride: 1, historyCapacity });
    const d = this.sim.diagnostics();
    this.E0 = d.energy;
    this.J0 = d.momentum.slice();
    // a system defined by data reports its conserved quantities by name (diagnostics().conserved)
    this.X0 = d.conserved && typeof d.conserved === 'object' ? { ...d.conserved } : {};
    this.columns = this.sim.history.columns;
    // sample 0, the reference of every drift (kept: the ring may later drop it)
    this.first = this.sim.history.read(0);
    this.read = 0; // history samples consumed
    this.failure = null; // failureOf(error): { step, code, action, reason, suggestion, message }
    this.visual = this.sim.visualState();
    this.lastGood = this.visual;
    this.diag = d;
  }
  dispose() {
    this.sim.dispose();
  }
}

export class Runner {
  /**
   * @param lab        the vilab lab
   * @param callbacks  { onSamples(readA, readB), onFailure(track, info), onTarget(step),
   *                    onVisualProblem(track, { step }) (a finite state whose picture is not finite) }
   */
  constructor(lab, callbacks = {}) {
    this.lab = lab;
    this.cb = callbacks;
    this.a = null;
    this.b = null;
    this.playing = false;
    this.speed = 1;
    this.stepsPerFrame = 0;
    this.acc = 0;
    this.behind = false; // true when the frame budget dropped lag this frame
    this.target = null; // a step to land on exactly (link fingerprint check)
    this.historyCapacity = 32768;
  }

  /** (Re)creates A and B (B only when compareScenario is given). Throws the API's error. */
  configure(scenarioA, scenarioB = null) {
    const a = new Track(this.lab, 'A', scenarioA, this.historyCapacity);
    let b = null;
    try {
      if (scenarioB) b = new Track(this.lab, 'B', scenarioB, this.historyCapacity);
    } catch (e) {
      a.dispose();
      throw e;
    }
    this.disposeTracks();
    this.a = a;
    this.b = b;
    this.acc = 0;
    this.behind = false;
  }

  /**
   * Replaces B only (null: compare off); A's run and step stay. The new B starts from
   * A's initial data at t = 0 and is brought to A's step in one batch call (the same
   * bits as if it had run alongside).
   */
  configureB(scenarioB) {
    const b = scenarioB ? new Track(this.lab, 'B', scenarioB, this.historyCapacity) : null;
    this.b?.dispose();
    this.b = b;
    if (b && this.a && this.a.sim.step > 0) {
      try {
        b.sim.advance(this.a.sim.step);
      } catch (e) {
        this.#fail(b, e);
      }
      this.#refreshVisual(b);
    }
  }

  /** The next flush delivers every sample A and B still hold (after the plots were reset). */
  rewindReads() {
    for (const t of [this.a, this.b]) if (t) t.read = t.sim.history.oldest;
  }

  disposeTracks() {
    this.a?.dispose();
    this.b?.dispose();
    this.a = this.b = null;
  }

  get h() {
    return this.a ? this.a.scenario.h : 0.01;
  }
  get step() {
    return this.a ? this.a.sim.step : 0;
  }
  get time() {
    return this.a ? this.a.sim.time : 0;
  }

  /** Steps to take this frame for a wall-clock interval dt (s). */
  stepsFor(dt) {
    if (!this.playing || !this.a || this.a.failure) return 0;
    if (this.stepsPerFrame > 0) {
      this.acc = 0;
      return this.stepsPerFrame;
    }
    this.acc += Math.min(Math.max(dt, 0), LAG_CLAMP) * this.speed;
    const n = Math.floor(this.acc / this.h + 1e-9);
    this.acc -= n * this.h;
    return n;
  }

  /**
   * Advances A and B by n steps in lockstep; returns the steps A took. With
   * `budgeted`, A stops when the frame's time budget is spent (B then takes as many),
   * and the lag that did not fit is dropped; otherwise exactly n steps are taken.
   */
  advance(n, { budgeted = false } = {}) {
    const a = this.a;
    if (!a || a.failure || n <= 0) return 0;
    if (this.target != null && a.sim.step < this.target) n = Math.min(n, this.target - a.sim.step);
    let taken = 0;
    try {
      if (budgeted) {
        const { steps, done } = a.sim.advanceFor({ maxSteps: n, budgetMs: FRAME_BUDGET_MS / (this.b ? 2 : 1) });
        taken = steps;
        this.behind = !done && this.stepsPerFrame === 0; // only meaningful in real-time pacing
        if (!done) this.acc = 0; // lag clamp: drop what we cannot afford
      } else {
        a.sim.advance(n);
        taken = n;
      }
    } catch (e) {
      taken = e.stepsTaken ?? 0;
      this.#fail(a, e);
    }
    if (taken > 0 && this.b && !this.b.failure) {
      try {
        this.b.sim.advance(taken);
      } catch (e) {
        this.#fail(this.b, e);
      }
    }
    this.#refreshVisual(a);
    if (this.b) this.#refreshVisual(this.b);
    this.#readHistories();
    if (this.target != null && a.sim.step === this.target) {
      const target = this.target;
      this.target = null;
      this.cb.onTarget?.(target);
    }
    return taken;
  }

  #refreshVisual(track) {
    if (track.failure && track.visual === track.lastGood) return;
    const v = track.sim.visualState();
    if (allFinite(v)) {
      track.visual = v;
      track.lastGood = v;
    } else if (!track.failure && allFinite(track.sim.q) && allFinite(track.sim.p)) {
      // The state is fine but what to draw is not (a body's position expression of a
      // system defined by data, e.g. sqrt of a negative): draw the last finite picture
      // and say so once; the run goes on.
      track.visual = track.lastGood;
      if (!track.visualProblem) {
        track.visualProblem = { step: track.sim.step };
        this.cb.onVisualProblem?.(track, track.visualProblem);
      }
    } else {
      // A NaN never reaches the renderer: keep the last finite state.
      track.visual = track.lastGood;
      if (!track.failure) {
        this.#fail(track, {
          step: track.sim.step,
          code: 'non-finite',
          action: 'reduce-h',
          reason: 'the state became non-finite',
          suggestion: 'reduce h',
          message: 'non-finite state',
        });
      }
    }
    track.diag = track.sim.diagnostics();
  }

  /**
   * Stops a track whose numbers have left the physics (the plots' breakdown check:
   * { t, kind: 'energy'|'constraint'|'non-finite', amount }): it takes no more steps,
   * and is reported like a refused step, with code 'breakdown'.
   */
  halt(label, info) {
    const track = label === 'A' ? this.a : label === 'B' ? this.b : null;
    if (!track || track.failure) return;
    track.failure = {
      step: null,
      t: info.t,
      code: 'breakdown',
      action: null,
      kind: info.kind,
      amount: info.amount,
      reason: '',
      suggestion: null,
      message: `breakdown: ${info.kind}`,
    };
    if (track === this.a) this.playing = false;
    this.cb.onFailure?.(track, track.failure);
  }

  #fail(track, error) {
    track.failure = failureOf(error);
    if (track === this.a) this.playing = false;
    this.cb.onFailure?.(track, track.failure);
  }

  #readHistories() {
    const readOne = (track) => {
      if (!track) return null;
      const hist = track.sim.history;
      if (hist.total <= track.read) return null;
      const r = hist.read(track.read);
      track.read = r.start + r.count;
      return r;
    };
    const ra = readOne(this.a);
    const rb = readOne(this.b);
    if (ra || rb) this.cb.onSamples?.(ra, rb);
  }

  /** Delivers any unread history samples (e.g. sample 0 right after configure). */
  flush() {
    this.#readHistories();
  }

  /** Re-reads the last samples from A's and B's histories (for a new plot window). */
  rereadFrom(sampleIndex) {
    const ra = this.a ? this.a.sim.history.read(sampleIndex) : null;
    const rb = this.b ? this.b.sim.history.read(sampleIndex) : null;
    return { ra, rb };
  }

  /** Called once per animation frame with the wall-clock dt (s). */
  frame(dt) {
    const n = this.stepsFor(dt);
    return n > 0 ? this.advance(n, { budgeted: true }) : 0;
  }
}
