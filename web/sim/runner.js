// Drives one or two simulations (A, and B in compare mode) in lockstep on a
// fixed-step accumulator that is decoupled from requestAnimationFrame's dt:
//
//   acc += min(dt, LAG_CLAMP) · speed;   n = floor(acc / h);   acc −= n·h
//
// n is further capped by a per-frame time budget (measured cost per step), and
// the lag beyond the cap is dropped, so a slow machine runs slower than real
// time instead of spiralling. Steps are taken in batches (sim.advance(n): one
// wasm call), and histories are read incrementally (history.read(from): one call
// per frame), never one JS call per step.

const LAG_CLAMP = 0.1; // s of wall-clock time one frame may account for
const FRAME_BUDGET_MS = 2.5; // simulation time budget per frame
const STEP_REFUSED = /step (\d+) refused: ([\s\S]*?)(?:;\s*([^;(]*?))?\s*(?:\(the state stays at step (\d+)\))?\s*$/;

/** Parses 'vilab: step k refused: <reason>; <suggestion> (the state stays at step j)'. */
export function parseStepError(error) {
  const message = typeof error === 'string' ? error : error?.message;
  const text = String(message ?? '').replace(/^vilab:\s*/, '');
  const m = text.match(STEP_REFUSED);
  const out = m
    ? { step: Number(m[1]), reason: m[2].trim(), suggestion: m[3] ? m[3].trim() : null }
    : { step: null, reason: text, suggestion: null };
  // VilabError carries .step and .reason itself; prefer them when present.
  if (error && typeof error === 'object') {
    if (Number.isInteger(error.step)) out.step = error.step;
    if (typeof error.reason === 'string' && error.reason) {
      const r = error.reason.match(/^([\s\S]*?);\s*([^;]*)$/);
      if (r && !out.suggestion) {
        out.reason = r[1].trim();
        out.suggestion = r[2].trim();
      } else out.reason = error.reason.replace(/\s*\(the state stays at step \d+\)\s*$/, '');
    }
  }
  if (!out.suggestion && /newton|converge|singular|non-finite|undefined/i.test(out.reason)) out.suggestion = 'reduce h';
  return out;
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
    this.columns = this.sim.history.columns;
    this.read = 0; // history samples consumed
    this.failure = null; // { step, reason, suggestion, message }
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
   * @param callbacks  { onSamples(readA, readB), onFailure(track, info), onTarget(step) }
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
    this.costPerStep = 2e-4; // ms, refined by measurement
    this.behind = false; // true when the budget cap dropped lag this frame
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
    let n;
    if (this.stepsPerFrame > 0) {
      n = this.stepsPerFrame;
      this.acc = 0;
    } else {
      this.acc += Math.min(Math.max(dt, 0), LAG_CLAMP) * this.speed;
      n = Math.floor(this.acc / this.h + 1e-9);
      this.acc -= n * this.h;
    }
    const cap = Math.max(1, Math.floor(FRAME_BUDGET_MS / (this.costPerStep * (this.b ? 2 : 1))));
    this.behind = n > cap && this.stepsPerFrame === 0; // only meaningful in real-time pacing
    if (n > cap) {
      n = cap;
      this.acc = 0; // lag clamp: drop what we cannot afford
    }
    return n;
  }

  /** Advances A and B by n steps in lockstep; returns the steps A took. */
  advance(n) {
    const a = this.a;
    if (!a || a.failure || n <= 0) return 0;
    if (this.target != null && a.sim.step < this.target) n = Math.min(n, this.target - a.sim.step);
    const t0 = performance.now();
    let taken = 0;
    while (taken < n) {
      const before = a.sim.step;
      let got = 0;
      try {
        got = a.sim.advance(n - taken);
      } catch (e) {
        got = a.sim.step - before;
        this.#fail(a, e);
      }
      if (got > 0 && this.b && !this.b.failure) this.#advanceB(got);
      taken += got;
      if (a.failure || got === 0) break;
    }
    const ms = performance.now() - t0;
    if (taken > 0) {
      const per = ms / (taken * (this.b ? 2 : 1));
      this.costPerStep = 0.8 * this.costPerStep + 0.2 * Math.max(per, 1e-5);
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

  #advanceB(n) {
    const b = this.b;
    let done = 0;
    while (done < n && !b.failure) {
      const before = b.sim.step;
      try {
        const got = b.sim.advance(n - done);
        done += got;
        if (got === 0) break;
      } catch (e) {
        done += b.sim.step - before;
        this.#fail(b, e);
      }
    }
  }

  #refreshVisual(track) {
    if (track.failure && track.visual === track.lastGood) return;
    const v = track.sim.visualState();
    if (allFinite(v)) {
      track.visual = v;
      track.lastGood = v;
    } else {
      // A NaN never reaches the renderer: keep the last finite state.
      track.visual = track.lastGood;
      if (!track.failure) this.#fail(track, `vilab: step ${track.sim.step} refused: the state became non-finite; reduce h`);
    }
    track.diag = track.sim.diagnostics();
  }

  #fail(track, error) {
    const message = typeof error === 'string' ? error : String(error?.message ?? error);
    track.failure = { ...parseStepError(error), message };
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
    return n > 0 ? this.advance(n) : 0;
  }
}
