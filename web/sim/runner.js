// Drives one or two simulations (A, and B in compare mode) in lockstep on a
// fixed-step accumulator that is decoupled from requestAnimationFrame's dt:
//
//   acc += min(dt, LAG_CLAMP) · speed;   n = floor(acc / h);   acc −= n·h
//
// A takes up to n steps within a per-frame time budget (sim.advanceFor: the time
// slicing lives in the core), B then takes exactly as many (sim.advance), and the
// lag beyond what fitted is dropped, so a slow machine runs slower than real time
// instead of spiralling. Histories are read incrementally (history.read(from): one
// call per chunk), never one JS call per step.
//
// Where a run stops is decided per step (web/sim/breakdown.js): every recorded sample is
// checked, in chunks that never outrun the history ring, and a run that broke down inside
// a chunk is brought back to its last good step by replaying it from t = 0 (the same
// bits), so the stop step, its reason and the state shown are those of the scenario and
// the step alone, however the steps were batched.
import { breakdownCriterion, findBreakdown } from './breakdown.js';

const LAG_CLAMP = 0.1; // s of wall-clock time one frame may account for
const FRAME_BUDGET_MS = 2.5; // simulation time budget per frame
const REPLAY_NOW_MS = 20; // a replay to the last good step done at once when it fits this
const CHUNK_MAX = 1024; // steps between two scans: the time budget is checked between chunks
const PROBE_STEPS = 16; // a bounded chunk while B's cost per step is not yet measured
// B's share of a bounded chunk, planned at its last measured rate: B runs unbounded
// (it must take A's steps), and its rate can change several-fold between chunks (the
// browser compiling the module's hot code while it runs), so chunks stay short and the
// clock is read between them.
const B_CHUNK_MS = 6;

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

/** The first `count` samples of a history read (all of it when it has no more; null for none). */
function headOf(read, count) {
  if (!read || count >= read.count) return read;
  if (!(count > 0)) return null;
  const cut = (v) => {
    if (ArrayBuffer.isView(v)) return v.subarray(0, count);
    if (Array.isArray(v)) return v.map(cut);
    return v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)])) : v;
  };
  return { ...cut(read), start: read.start, count };
}

/** A breakdown found by the per-step scan, as the page reports it (step: the one that broke; t: the last good step's time). */
function breakdownFailure(found) {
  return {
    step: found.step,
    t: found.lastGood.t,
    code: 'breakdown',
    action: null,
    kind: found.kind,
    amount: found.amount,
    reason: '',
    suggestion: null,
    message: `breakdown: ${found.kind}`,
  };
}

function allFinite(a) {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/**
 * B from outside vilab's registry (web/sim/mujoco-compare.js): { scenario, integrator (a
 * registry-shaped record), simulate(historyCapacity) → an object with the Simulation
 * subset the runner reads }. A scenario alone is vilab's own.
 */
const sourceOf = (lab, scenario) =>
  scenario.simulate
    ? scenario
    : {
        scenario,
        integrator: lab.integrator(scenario.integrator),
        simulate: (historyCapacity) => lab.simulate(scenario, { historyStride: 1, historyCapacity }),
      };

/** One integrator's simulation plus what the page tracks about it. */
class Track {
  constructor(lab, label, scenario, historyCapacity) {
    const source = sourceOf(lab, scenario);
    this.label = label;
    this.scenario = source.scenario;
    this.integrator = source.integrator;
    this.simulate = () => source.simulate(historyCapacity);
    this.sim = this.simulate();
    const d = this.sim.diagnostics();
    this.E0 = d.energy;
    this.J0 = d.momentum.slice();
    this.msPerStep = 0; // measured by the runner's bounded chunks (0: not yet)
    // a system defined by data reports its conserved quantities by name (diagnostics().conserved)
    this.X0 = d.conserved && typeof d.conserved === 'object' ? { ...d.conserved } : {};
    this.columns = this.sim.history.columns;
    // sample 0, the reference of every drift (kept: the ring may later drop it)
    this.first = this.sim.history.read(0);
    this.criterion = breakdownCriterion(this.sim.describe(), this.first);
    this.lastT = this.sim.time; // the time of the last sample scanned
    this.read = 0; // history samples consumed
    this.failure = null; // failureOf(error): { step, code, action, reason, suggestion, message }
    this.lastSample = Infinity; // the last history sample the plots get (a stopped run's first broken one)
    this.unsent = null; // a history read not yet given to the plots
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
   *                    onVisualProblem(track, { step }) (a finite state whose picture is not finite),
   *                    onRow() (A is on a multiple of rows.every steps) }
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
    this.replays = new Map(); // track → { sim, to }: a stopped run replayed to its last good step
    // a field run's space–time rows: A's chunks end on every rows.every-th step among the
    // last rows.keep steps of an advance (the earlier ones would leave the image's ring
    // unseen: a far landing is not slowed), and onRow() is called there (every 0: no
    // rows), so rows fall on the same steps however frames batch them
    this.rows = { every: 0, keep: 0 };
  }

  /** (Re)creates A and B (B only when compareScenario is given: a scenario, or an external source). Throws the API's error. */
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
    this.#dropReplay(this.b);
    this.b?.dispose();
    this.b = b;
    const to = this.a ? this.a.sim.step : 0;
    const chunkMax = this.#chunkMax();
    while (b && !b.failure && b.sim.step < to) {
      let refused = null;
      try {
        b.sim.advance(Math.min(chunkMax, to - b.sim.step));
      } catch (e) {
        refused = e;
      }
      const stop = this.#check(b, refused, Infinity);
      if (stop) this.cb.onFailure?.(b, b.failure);
    }
    if (b) {
      b.unsent = null;
      this.#refreshVisual(b);
    }
    if (this.replays.size) this.settle(REPLAY_NOW_MS);
  }

  /** Steps per chunk: at most half the history ring (no sample is dropped before it is scanned), and CHUNK_MAX. */
  #chunkMax() {
    return Math.max(1, Math.min(CHUNK_MAX, Math.floor(this.historyCapacity / 2)));
  }

  /** The next flush delivers every sample A and B still hold (after the plots were reset). */
  rewindReads() {
    for (const t of [this.a, this.b]) if (t) t.read = t.sim.history.oldest;
  }

  disposeTracks() {
    this.#dropReplay(this.a);
    this.#dropReplay(this.b);
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
   * `budgeted`, A stops when the time budget (budgetMs, default a frame's) is spent, B
   * then takes as many, and in real-time pacing the lag that did not fit is dropped;
   * otherwise exactly n steps are taken (unless the run stops). Steps go in chunks of at
   * most half the history ring, each scanned for a breakdown before the next.
   */
  advance(n, { budgeted = false, budgetMs = FRAME_BUDGET_MS } = {}) {
    const a = this.a;
    if (!a || a.failure || n <= 0) return 0;
    if (this.target != null && a.sim.step < this.target) n = Math.min(n, this.target - a.sim.step);
    const t0 = performance.now();
    const chunkMax = this.#chunkMax();
    let taken = 0;
    let done = true;
    while (taken < n && !a.failure) {
      const left = budgetMs / (this.b ? 2 : 1) - (performance.now() - t0);
      if (budgeted && left <= 0) {
        done = false;
        break;
      }
      const chunk = this.#chunk(this.#rowBound(Math.min(n - taken, chunkMax), n - taken), budgeted ? left : null);
      taken += chunk.steps;
      if (!chunk.done) {
        done = false;
        break;
      }
    }
    if (budgeted) {
      this.behind = !done && this.stepsPerFrame === 0; // only meaningful in real-time pacing
      if (!done) this.acc = 0; // lag clamp: drop what we cannot afford
    }
    if (this.replays.size) this.settle(REPLAY_NOW_MS);
    if (this.target != null && a.sim.step === this.target) {
      const target = this.target;
      this.target = null;
      this.cb.onTarget?.(target);
    }
    return taken;
  }

  /** A chunk of n steps cut at the next row's step when that step is among the last rows.keep of the `left` to go. */
  #rowBound(n, left) {
    const { every, keep } = this.rows;
    if (!(every > 0)) return n;
    const next = every - (this.a.sim.step % every);
    if (left - next < keep) return Math.min(n, next);
    // run up to where the kept rows begin, then row by row
    return Math.min(n, Math.max(next, left - keep - ((left - keep - next) % every)));
  }

  /**
   * One chunk of A's steps (budgetMs: bounded, else all n), B as many, then the per-step scan.
   * Bounded, B caps the chunk at what it takes in the budget, and in B_CHUNK_MS at most, at
   * its ms per step measured on the last chunk (unmeasured: PROBE_STEPS), so a change of
   * B's rate overruns the budget by one short chunk at most; the steps are the same, only
   * their batching changes.
   */
  #chunk(n, budgetMs) {
    const a = this.a;
    const b = this.b && !this.b.failure ? this.b : null;
    if (budgetMs != null && b) {
      const planMs = Math.min(budgetMs, B_CHUNK_MS);
      n = b.msPerStep > 0 ? Math.max(1, Math.min(n, Math.floor(planMs / b.msPerStep))) : Math.min(n, PROBE_STEPS);
    }
    let steps = 0;
    let done = true;
    let refusedA = null;
    try {
      if (budgetMs != null) ({ steps, done } = a.sim.advanceFor({ maxSteps: n, budgetMs: Math.max(0.1, budgetMs) }));
      else {
        a.sim.advance(n);
        steps = n;
      }
    } catch (e) {
      steps = e.stepsTaken ?? 0;
      refusedA = e;
    }
    let refusedB = null;
    if (steps > 0 && b) {
      const t0 = performance.now();
      try {
        b.sim.advance(steps);
      } catch (e) {
        refusedB = e;
      }
      b.msPerStep = (performance.now() - t0) / steps;
    }
    this.#scan(refusedA, refusedB);
    this.#refreshVisual(a);
    if (this.b) this.#refreshVisual(this.b);
    if (this.rows.every > 0 && steps > 0 && a.sim.step % this.rows.every === 0) this.cb.onRow?.();
    return { steps, done: done && !refusedA };
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

  /**
   * Reads what A and B recorded since the last read and checks every sample: a run stops
   * at its first broken step (a breakdown before a refusal in the same chunk wins), rests
   * on the step before it, and B takes no step beyond A's last good one. The plots then get
   * the samples up to where each run stopped.
   */
  #scan(refusedA = null, refusedB = null) {
    const { a, b } = this;
    const stopA = a ? this.#check(a, refusedA, Infinity) : null;
    const limit = stopA ? stopA.rest : Infinity;
    const stopB = b ? this.#check(b, refusedB && b.sim.step <= limit ? refusedB : null, limit) : null;
    if (b && stopA && !b.failure) {
      b.lastSample = Math.min(b.lastSample, limit);
      if (b.sim.step > limit) this.#replay(b, limit);
    }
    if (stopA) this.cb.onFailure?.(a, a.failure);
    if (stopB) this.cb.onFailure?.(b, b.failure);
    const send = (track) => {
      const read = track?.unsent;
      if (!track || !read) return null;
      track.unsent = null;
      return headOf(read, track.lastSample - read.start + 1);
    };
    const ra = send(a);
    const rb = send(b);
    if (ra || rb) this.cb.onSamples?.(ra, rb);
  }

  /**
   * One track's new samples (kept in track.unsent) against its criterion, up to sample
   * `limit`; a stop ({ rest }: the step it rests on) marks the track failed and replays it
   * there when it went past. refused: the error of a step refused in this chunk.
   */
  #check(track, refused, limit) {
    const hist = track.sim.history;
    const read = hist.total > track.read ? hist.read(track.read) : null;
    if (read) track.read = read.start + read.count;
    track.unsent = read;
    if (track.failure) return null;
    const found = findBreakdown(track.criterion, headOf(read, limit - (read?.start ?? 0) + 1), { prevT: track.lastT });
    if (read?.count) track.lastT = read.t[read.count - 1];
    let stop = null;
    if (found) stop = { failure: breakdownFailure(found), rest: found.step - 1, last: found.sample };
    else if (refused) stop = { failure: failureOf(refused), rest: track.sim.step, last: Infinity };
    if (!stop) return null;
    track.failure = stop.failure;
    track.lastSample = Math.min(track.lastSample, stop.last);
    if (track === this.a) this.playing = false;
    if (track.sim.step > stop.rest) this.#replay(track, stop.rest);
    return stop;
  }

  /** Brings a track back to `step` (its last good one): a fresh simulation replayed from t = 0 (the same bits), by settle(). */
  #replay(track, step) {
    this.#dropReplay(track);
    this.replays.set(track, { sim: track.simulate(), to: step });
  }

  #dropReplay(track) {
    this.replays.get(track)?.sim.dispose();
    this.replays.delete(track);
  }

  /** True when no stopped run is still being brought back to its last good step. */
  get settled() {
    return this.replays.size === 0;
  }

  /**
   * Advances the replays of stopped runs for at most budgetMs (the frame loop calls it,
   * and advance() with a small budget); each one done takes its track's place, showing
   * the last good step. Returns `settled`.
   */
  settle(budgetMs = FRAME_BUDGET_MS) {
    const t0 = performance.now();
    for (const [track, r] of this.replays) {
      const left = budgetMs - (performance.now() - t0);
      if (left <= 0) break;
      try {
        if (r.sim.step < r.to) r.sim.advanceFor({ maxSteps: r.to - r.sim.step, budgetMs: Math.max(0.1, left) });
      } catch {
        r.to = r.sim.step; // not expected: these steps were taken before
      }
      if (r.sim.step < r.to) continue;
      this.replays.delete(track);
      track.sim.dispose();
      track.sim = r.sim;
      track.read = r.sim.history.total;
      const v = r.sim.visualState();
      if (allFinite(v)) track.visual = track.lastGood = v;
      track.diag = r.sim.diagnostics();
    }
    return this.settled;
  }

  /** Delivers any unread history samples (e.g. sample 0 right after configure). */
  flush() {
    this.#scan();
  }

  /** Re-reads the last samples from A's and B's histories (for a new plot window). */
  rereadFrom(sampleIndex) {
    const ra = this.a ? this.a.sim.history.read(sampleIndex) : null;
    const rb = this.b ? this.b.sim.history.read(sampleIndex) : null;
    return { ra, rb };
  }

  /** Called once per animation frame with the wall-clock dt (s). */
  frame(dt) {
    if (!this.settled) this.settle(FRAME_BUDGET_MS);
    const n = this.stepsFor(dt);
    return n > 0 ? this.advance(n, { budgeted: true }) : 0;
  }
}
