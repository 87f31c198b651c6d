// Studies over many runs of the JS API: what one run cannot show.
//
//   loopStudy(lab, scenario, options)        a closed loop of initial conditions carried by
//                                             the integrator; its action ∮ p·dq (the
//                                             Poincaré–Cartan integral invariant) over time
//   convergenceStudy(lab, scenario, options) the error at time T for a sweep of h, against
//                                             the exact solution or a fine reference; the
//                                             fitted order (slope on log–log axes)
//
// A symplectic map preserves ∮ p·dq over every closed loop (Marsden & West §2.1; for
// constrained systems with the canonical (q, p) on T*Q restricted to the constraint
// manifold). The loop is a smooth periodic curve s ↦ (q(s), p(s)), sampled at N equally
// spaced s; the integral ∫ p·q'(s) ds is taken with q'(s) from the discrete Fourier
// transform, whose trapezoidal rule converges exponentially for smooth periodic curves,
// so the quadrature error stays far below what a non-symplectic method changes.
import { describeRun, usesTime } from './describe.js';

/** Where an initial field's entry lives: ['angles', 0] is initial.angles[0], ['angles', 1, 0] initial.angles[1][0]. */
function readPath(initial, path) {
  let x = initial[path[0]];
  for (const i of path.slice(1)) x = x?.[i];
  if (typeof x !== 'number') throw new Error(`vilab: loop: initial.${path.join('.')} is not a number of this scenario's initial data`);
  return x;
}

function writePath(initial, path, value) {
  const copy = structuredClone(initial);
  if (path.length === 1) copy[path[0]] = value;
  else {
    let x = copy[path[0]];
    for (const i of path.slice(1, -1)) x = x[i];
    x[path[path.length - 1]] = value;
  }
  return copy;
}

/**
 * The default plane of a loop: the first coordinate and its rate, as initial-data paths
 * (oscillator position/velocity, a chain's first angle and its rate, a data system's
 * q[0]/qdot[0]). Rigid bodies have no canonical (q, p) pair in their state: null.
 */
export function defaultLoopPlane(normalized) {
  const ini = normalized.initial;
  const first = (name) => (Array.isArray(ini[name]?.[0]) ? [name, 0, 0] : [name, 0]);
  if ('position' in ini && 'velocity' in ini) return [['position'], ['velocity']];
  if ('angles' in ini && 'rates' in ini) return [first('angles'), first('rates')];
  if ('q' in ini && 'qdot' in ini) return [first('q'), first('qdot')];
  return null;
}

/** The max norm of the difference of two canonical states. */
function stateDistance(a, b) {
  let d = 0;
  for (let k = 0; k < a.q.length; k++) d = Math.max(d, Math.abs(a.q[k] - b.q[k]));
  for (let k = 0; k < a.p.length; k++) d = Math.max(d, Math.abs(a.p[k] - b.p[k]));
  return d;
}

/** The canonical state at t = 0 of a scenario with the given initial data. */
function startState(lab, base, initial) {
  const sim = lab.simulate({ ...base, initial }, { historyCapacity: lab.limits.historyCapacity.min });
  try {
    return { q: sim.q, p: sim.p };
  } finally {
    sim.dispose();
  }
}

/**
 * Initial data whose run starts at the canonical state { q, p } (a state of a run of this
 * scenario): the oscillator's position and velocity, a chain's angles and rates (its
 * natural variables), a data system's q and q̇ (p is affine in q̇ for a kinetic energy
 * quadratic in q̇: p(q̇) = M q̇ + b is sampled at q̇ = 0 and the unit vectors, and
 * M q̇ = p − b solved). Checked by a round trip (the run started from it is within
 * 1e-9 of the state); null where that fails or where the time origin matters (a
 * time-dependent Lagrangian, constraints of a data system, rigid bodies).
 */
export function initialFromState(lab, scenario, state) {
  const base = lab.normalize(scenario);
  const system = lab.system(base.system);
  const initial = INITIAL_FROM_STATE[system.model]?.(lab, system, base, state) ?? null;
  if (!initial) return null;
  try {
    return stateDistance(startState(lab, base, initial), state) <= 1e-9 ? initial : null;
  } catch {
    return null;
  }
}

/** initialFromState by model: (lab, system, normalized scenario, { q, p }) → initial data, or null. */
const INITIAL_FROM_STATE = {
  oscillator: (lab, system, base, state) => ({ position: state.q[0], velocity: state.p[0] / base.params.mass }),
  chain: (lab, system, base, state) => {
    const run = describeRun(system, base, []);
    const v = new Float64Array(run.variables.length);
    run.values(state.q, state.p, v);
    const half = v.length / 2;
    const planar = !Array.isArray(base.initial.angles[0]);
    const group = (xs) => (planar ? xs : Array.from({ length: xs.length / 2 }, (_, i) => [xs[2 * i], xs[2 * i + 1]]));
    return { angles: group(Array.from(v.subarray(0, half))), rates: group(Array.from(v.subarray(half))) };
  },
  lagrangian: (lab, system, base, state) => {
    if ((base.params.constraints ?? []).length || usesTime(base.params.lagrangian)) return null;
    const q = Array.from(state.q);
    const n = q.length;
    const pAt = (qdot) => startState(lab, base, { q, qdot }).p;
    const b = pAt(new Array(n).fill(0));
    const M = Array.from({ length: n }, (_, j) => {
      const e = new Array(n).fill(0);
      e[j] = 1;
      return Array.from(pAt(e), (x, i) => x - b[i]); // column j
    });
    return {
      q,
      qdot: solve(
        (i, j) => M[j][i],
        Array.from(state.p, (x, i) => x - b[i]),
      ),
    };
  },
};

/** Solves A x = y (A(i, j) its entries) by Gaussian elimination with partial pivoting. */
function solve(A, y) {
  const n = y.length;
  const M = Array.from({ length: n }, (_, i) => [...Array.from({ length: n }, (_, j) => A(i, j)), y[i]]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(M[i][c]) > Math.abs(M[piv][c])) piv = i;
    [M[c], M[piv]] = [M[piv], M[c]];
    for (let i = c + 1; i < n; i++) {
      const f = M[i][c] / M[c][c];
      for (let k = c; k <= n; k++) M[i][k] -= f * M[c][k];
    }
  }
  const x = new Array(n).fill(0);
  for (let c = n - 1; c >= 0; c--) {
    let s = M[c][n];
    for (let k = c + 1; k < n; k++) s -= M[c][k] * x[k];
    x[c] = s / M[c][c];
  }
  return x;
}

/** In-place radix-2 FFT (n a power of 2) of (re, im). */
function fft(re, im) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k);
        const wi = Math.sin(ang * k);
        const a = i + k;
        const b = a + len / 2;
        const xr = re[b] * wr - im[b] * wi;
        const xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
}

/** d/ds of periodic samples x(s_j), s_j = 2πj/N, by the discrete Fourier transform. */
export function spectralDerivative(x) {
  const n = x.length;
  const re = Float64Array.from(x);
  const im = new Float64Array(n);
  fft(re, im);
  for (let k = 0; k < n; k++) {
    const wave = k < n / 2 ? k : k === n / 2 ? 0 : k - n; // the Nyquist mode has no derivative
    const r = re[k];
    re[k] = -wave * im[k];
    im[k] = wave * r;
  }
  // inverse transform: conj(FFT(conj(X))) / n
  for (let k = 0; k < n; k++) im[k] = -im[k];
  fft(re, im);
  for (let k = 0; k < n; k++) re[k] /= n;
  return re;
}

/** ∮ p·dq = Σ_i ∫ p_i(s) q_i'(s) ds over a loop sampled at N equally spaced s. */
export function loopAction(qs, ps) {
  const n = qs.length;
  const dim = qs[0].length;
  let action = 0;
  for (let i = 0; i < dim; i++) {
    const dq = spectralDerivative(Float64Array.from(qs, (q) => q[i]));
    for (let j = 0; j < n; j++) action += ps[j][i] * dq[j];
  }
  return (action * 2 * Math.PI) / n;
}

const isPowerOfTwo = (n) => Number.isInteger(n) && n >= 8 && (n & (n - 1)) === 0;

/**
 * The scenario a loop is centred on: the normalized scenario, or, with `around` (a
 * canonical state of a run of it), the scenario started there where that state has
 * initial data (initialFromState). Returns { base, centre: 'start' | 'state' }.
 */
function loopCentre(lab, scenario, around) {
  const base = lab.normalize(scenario);
  if (lab.system(base.system).state !== 'cotangent') {
    throw new Error(`vilab: loop: ${base.system} carries a quaternion and a body angular momentum, not a canonical (q, p) pair`);
  }
  if (!around) return { base, centre: 'start' };
  if (!Array.isArray(around.q) && !ArrayBuffer.isView(around.q)) throw new Error('vilab: loop.around: must be a canonical state { q, p }');
  const initial = initialFromState(lab, base, around);
  return initial ? { base: { ...base, initial }, centre: 'state' } : { base, centre: 'start' };
}

/** The loop's curve s ↦ scenario: an ellipse in the plane of two initial-data paths (default defaultLoopPlane). */
function loopCurve(base, plane, radii) {
  const [pa, pb] = plane ?? defaultLoopPlane(base) ?? [];
  if (!pa || !pb) throw new Error(`vilab: loop.plane: no default plane for ${base.system}; give two initial-data paths`);
  const ca = readPath(base.initial, pa);
  const cb = readPath(base.initial, pb);
  const [ra, rb] = radii ?? [Math.max(0.01, 0.02 * Math.abs(ca)), Math.max(0.01, 0.02 * Math.abs(cb))];
  return (s) => ({ ...base, initial: writePath(writePath(base.initial, pa, ca + ra * Math.cos(s)), pb, cb + rb * Math.sin(s)) });
}

/** The simulations of a loop's n points, started at s_j = 2πj/n (all disposed when one fails). */
function loopPoints(make, n) {
  const sims = [];
  try {
    for (let j = 0; j < n; j++) sims.push(make((2 * Math.PI * j) / n));
  } catch (e) {
    sims.forEach((s) => s.dispose());
    throw e;
  }
  return sims;
}

/** The largest distance between neighbouring points of a loop of simulations, in (q, p). */
function loopSpacing(sims) {
  const states = sims.map((s) => [s.q, s.p]); // one copy out of the heap per point
  let worst = 0;
  for (let j = 0; j < states.length; j++) {
    const [qa, xa] = states[j];
    const [qb, xb] = states[(j + 1) % states.length];
    let d = 0;
    for (let i = 0; i < qa.length; i++) d += (qa[i] - qb[i]) ** 2 + (xa[i] - xb[i]) ** 2;
    worst = Math.max(worst, Math.sqrt(d));
  }
  return worst;
}

/** The spectral quadrature's own error estimate: ∮p·dq over every point against over every other point. */
function loopQuadratureError(sims) {
  const qs = sims.map((s) => s.q);
  const ps = sims.map((s) => s.p);
  const all = loopAction(qs, ps);
  const half = loopAction(
    qs.filter((_, j) => j % 2 === 0),
    ps.filter((_, j) => j % 2 === 0),
  );
  return Math.abs(all - half) / Math.abs(all);
}

/**
 * A loop of initial conditions around the scenario's start (or around `around`, a
 * canonical state { q, p } of a run of it, e.g. where the page is now: see
 * initialFromState; `centre` then says 'state', or 'start' where that state has no
 * initial data), in the plane of two
 * initial-data entries (plane: [pathA, pathB], default defaultLoopPlane), an ellipse
 * of radii (default 2 % of each entry's scale, at least 0.01), carried by the scenario's
 * integrator. The loop is refined (N doubled, up to maxPoints) when neighbours drift
 * apart by more than `stretch` times their start spacing, so it stays resolved.
 *
 * Returns { points, step, time, centre, initialAction, action(), relativeChange(),
 * unresolvedAt, advance(n), variables(), dispose() }; time counts from the loop's start. A refused step of any member throws its VilabError with
 * .loopPoint set. Systems whose canonical state is not a (q, p) pair (lab.system(id).state
 * other than 'cotangent': rigid bodies) have no loop action.
 */
export function loopStudy(
  lab,
  scenario,
  { points = 512, plane, radii, maxPoints = 4096, stretch = 8, quadratureTolerance = 1e-8, around } = {},
) {
  if (!isPowerOfTwo(points) || !isPowerOfTwo(maxPoints) || maxPoints < points) {
    throw new Error('vilab: loop.points: must be a power of two ≥ 8, at most maxPoints (a power of two)');
  }
  const { base, centre } = loopCentre(lab, scenario, around);
  const at = loopCurve(base, plane, radii);
  let step = 0;
  const make = (s) => {
    const sim = lab.simulate(at(s), { historyCapacity: lab.limits.historyCapacity.min });
    if (step > 0) sim.advance(step); // the same bits as having run along with the others
    return sim;
  };
  let sims = loopPoints(make, points);
  const start = loopSpacing(sims);
  const action = () =>
    loopAction(
      sims.map((s) => s.q),
      sims.map((s) => s.p),
    );
  const initialAction = action();

  // Once the loop has outgrown maxPoints (chaos stretches it exponentially) its points
  // may no longer resolve it, and the quadrature of ∮p·dq then measures the sampling, not
  // the integrator. The spectral quadrature's own error estimate (every point against
  // every other point) tells: the time it first exceeds quadratureTolerance is kept.
  let unresolvedAt = null;
  function refine() {
    while (sims.length < maxPoints && loopSpacing(sims) > stretch * start * (points / sims.length)) {
      const n = sims.length;
      const finer = [];
      for (let j = 0; j < n; j++) finer.push(sims[j], make((2 * Math.PI * (2 * j + 1)) / (2 * n)));
      sims = finer;
    }
    if (unresolvedAt === null && sims.length === maxPoints && loopQuadratureError(sims) > quadratureTolerance) unresolvedAt = sims[0].time;
  }

  return {
    get points() {
      return sims.length;
    },
    get step() {
      return step;
    },
    get time() {
      return sims[0].time;
    },
    centre,
    initialAction,
    action,
    /** The loop's time when it first outgrew maxPoints (its ∮p·dq is no longer measured), or null. */
    get unresolvedAt() {
      return unresolvedAt;
    },
    /** |∮p·dq(t) − ∮p·dq(0)| / |∮p·dq(0)|. */
    relativeChange: () => Math.abs(action() - initialAction) / Math.abs(initialAction),
    /** Advances every point by n steps, in chunks that let the loop refine as it stretches. */
    advance(n) {
      let left = n;
      while (left > 0) {
        const chunk = Math.min(left, 50);
        sims.forEach((sim, j) => {
          try {
            sim.advance(chunk);
          } catch (e) {
            e.loopPoint = j;
            throw e;
          }
        });
        step += chunk;
        left -= chunk;
        refine();
      }
    },
    /** Each point's natural variables (sim.variables()), for drawing the loop in a phase plane. */
    variables: () => sims.map((s) => s.variables()),
    dispose() {
      sims.forEach((s) => s.dispose());
      sims = [];
    },
  };
}

/**
 * The loop as curves of its points' natural variables: vars[k][j] = variable k of point
 * j (Float32Array each: for drawing, not for measuring).
 */
export function loopShape(loop) {
  const rows = loop.variables();
  const n = rows[0]?.length ?? 0;
  const vars = Array.from({ length: n }, () => new Float32Array(rows.length));
  rows.forEach((row, j) => {
    for (let k = 0; k < n; k++) vars[k][j] = row[k];
  });
  return vars;
}

/** The signed area of the closed polygon (x_j, y_j) (the shoelace formula). */
export function polygonArea(x, y) {
  let twice = 0;
  for (let j = 0, n = x.length; j < n; j++) {
    const k = (j + 1) % n;
    twice += x[j] * y[k] - x[k] * y[j];
  }
  return twice / 2;
}

/** Least-squares slope of log(error) against log(h). */
export function fittedOrder(hs, errors) {
  const xs = hs.map(Math.log);
  const ys = errors.map(Math.log);
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  return sxy / sxx;
}

/** The number of steps of h in T; an error when T is not a whole number of them. */
function stepsIn(T, h) {
  const n = Math.round(T / h);
  if (!(n >= 1) || Math.abs(n * h - T) > 1e-9 * T)
    throw new Error(`vilab: convergence.hs: T = ${T} is not a whole number of steps of h = ${h}`);
  return n;
}

function stateAt(lab, scenario, h, T) {
  const sim = lab.simulate({ ...scenario, h }, { historyCapacity: lab.limits.historyCapacity.min });
  try {
    sim.advance(stepsIn(T, h));
    return { q: Array.from(sim.q), p: Array.from(sim.p) };
  } finally {
    sim.dispose();
  }
}

/**
 * The exact state at T where the system's exact solution holds for this scenario (lab.exact:
 * the undamped oscillator, the pendulum via Jacobi sn, the free rigid body), in the canonical
 * (q, p); quaternion: true where q is a unit quaternion (q and −q are the same rotation).
 */
function exactState(lab, base, T) {
  const system = lab.system(base.system);
  if (!system.exact) return null;
  let exact;
  try {
    exact = lab.exact(base);
  } catch (e) {
    if (e?.code === 'no-exact-solution') return null;
    throw e;
  }
  try {
    const state = exact.state(T);
    // a quaternion and its negative are the same rotation: errors take the nearer sign
    return system.state === 'quaternion' ? { ...state, quaternion: true } : state;
  } finally {
    exact.dispose();
  }
}

/**
 * The state to measure errors against at T: the exact solution where one is known (the
 * undamped oscillator, the pendulum via Jacobi sn, the free rigid body via Jacobi
 * elliptic functions), else an order-6 composition at min(hs)/8.
 * Returns { q, p, kind: 'exact' | 'composition6', quaternion? }.
 */
export function convergenceReference(lab, scenario, hs, T) {
  const base = lab.normalize(scenario);
  for (const h of hs) stepsIn(T, h);
  const exact = exactState(lab, base, T);
  if (exact) return { ...exact, kind: 'exact' };
  return { ...stateAt(lab, { ...base, integrator: 'composition6', options: {} }, Math.min(...hs) / 8, T), kind: 'composition6' };
}

/** The error at T of one run of step h: the max norm of its canonical (q, p) minus the reference. */
export function convergenceError(lab, scenario, h, T, reference) {
  const got = stateAt(lab, lab.normalize(scenario), h, T);
  const sign = reference.quaternion && got.q.reduce((a, x, k) => a + x * reference.q[k], 0) < 0 ? -1 : 1;
  let err = 0;
  for (let k = 0; k < got.q.length; k++) err = Math.max(err, Math.abs(sign * got.q[k] - reference.q[k]));
  for (let k = 0; k < got.p.length; k++) err = Math.max(err, Math.abs(got.p[k] - reference.p[k]));
  return err;
}

/**
 * The error at time T of a sweep of steps hs (T/h must be whole), in the canonical state
 * (max norm over q and p), against convergenceReference. Async: yields between runs
 * (onProgress(done, total)); signal (AbortSignal) cancels. Resolves to
 * { hs, errors, order, reference: 'exact' | 'composition6' }. (The page runs the same
 * pieces in workers, one h each: web/sim/study-pool.js.)
 */
export async function convergenceStudy(lab, scenario, { hs, T, onProgress, signal } = {}) {
  if (!Array.isArray(hs) || hs.length < 3) throw new Error('vilab: convergence.hs: at least 3 steps');
  const total = hs.length + 1;
  const reference = convergenceReference(lab, scenario, hs, T);
  onProgress?.(1, total);
  const errors = [];
  for (const [i, h] of hs.entries()) {
    if (signal?.aborted) throw new Error('vilab: convergence: cancelled');
    await new Promise((r) => setTimeout(r, 0));
    errors.push(convergenceError(lab, scenario, h, T, reference));
    onProgress?.(i + 2, total);
  }
  return { hs: [...hs], errors, order: fittedOrder(hs, errors), reference: reference.kind };
}

/**
 * Initial data on the energy surface E for a system defined by data with ≥ 2 coordinates:
 * q = [0, y, …rest of the scenario's q], q̇ = [v, vy, …] with v ≥ 0 found by bisection so
 * that the run's energy at t = 0 is E (the energy grows with |v| for a kinetic energy that
 * is positive definite). Returns the initial data, or null when (y, vy) is outside the
 * energy surface (even v = 0 has energy above E).
 */
export function seedOnEnergy(lab, scenario, E, [y, vy]) {
  const base = lab.normalize(scenario);
  const energyAt = (v) => {
    const q = [...base.initial.q];
    const qdot = [...base.initial.qdot];
    q[0] = 0;
    q[1] = y;
    qdot[0] = v;
    qdot[1] = vy;
    const sim = lab.simulate({ ...base, initial: { q, qdot } }, { historyCapacity: lab.limits.historyCapacity.min });
    try {
      return { energy: sim.diagnostics().energy, initial: { q, qdot } };
    } finally {
      sim.dispose();
    }
  };
  if (energyAt(0).energy > E) return null;
  let lo = 0;
  let hi = 1;
  while (energyAt(hi).energy < E) {
    hi *= 2;
    if (hi > 1e6) return null;
  }
  for (let i = 0; i < 80 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (energyAt(mid).energy < E) lo = mid;
    else hi = mid;
  }
  return energyAt((lo + hi) / 2).initial;
}

/**
 * A Poincaré section of a run: the points (q[1], p[1]) where q[0] crosses 0 upwards
 * (p[0] > 0), linearly interpolated between steps (error O(h²)). Stops after `crossings`
 * points or maxSteps steps. Resolves to { points: [[y, py], …], steps }.
 */
export async function poincareSection(lab, scenario, { crossings = 200, maxSteps = 2_000_000, chunk = 2000, signal, onCrossing } = {}) {
  const sim = lab.simulate(scenario, { historyCapacity: lab.limits.historyCapacity.min });
  const points = [];
  try {
    // sim.q and sim.p are fresh copies already: keep them as they come
    let prevQ = sim.q;
    let prevP = sim.p;
    while (points.length < crossings && sim.step < maxSteps) {
      if (signal?.aborted) throw new Error('vilab: poincare: cancelled');
      for (let i = 0; i < chunk && points.length < crossings; i++) {
        sim.advance(1);
        const q = sim.q;
        const p = sim.p;
        if (prevQ[0] < 0 && q[0] >= 0 && p[0] > 0) {
          const w = -prevQ[0] / (q[0] - prevQ[0]);
          points.push([prevQ[1] + w * (q[1] - prevQ[1]), prevP[1] + w * (p[1] - prevP[1])]);
          onCrossing?.(points.length);
        }
        prevQ = q;
        prevP = p;
      }
      await new Promise((r) => setTimeout(r, 0));
    }
    return { points, steps: sim.step };
  } finally {
    sim.dispose();
  }
}

/**
 * How far section points lie from one smooth closed curve: the curve r(θ) around their
 * centroid fitted by least squares with `harmonics` Fourier modes; returns the largest
 * residual |r − r_fit|. A regular orbit (a KAM torus) gives a small value; a chaotic one
 * a large value.
 */
export function closedCurveResidual(points, harmonics = 8) {
  const n = points.length;
  const cx = points.reduce((a, p) => a + p[0], 0) / n;
  const cy = points.reduce((a, p) => a + p[1], 0) / n;
  const th = points.map(([x, y]) => Math.atan2(y - cy, x - cx));
  const r = points.map(([x, y]) => Math.hypot(x - cx, y - cy));
  const m = 2 * harmonics + 1;
  const row = (t) => [1, ...Array.from({ length: harmonics }, (_, k) => [Math.cos((k + 1) * t), Math.sin((k + 1) * t)]).flat()];
  // the normal equations AᵀA c = Aᵀr
  const N = Array.from({ length: m }, () => new Float64Array(m));
  const rhs = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    const a = row(th[i]);
    for (let j = 0; j < m; j++) {
      for (let k = 0; k < m; k++) N[j][k] += a[j] * a[k];
      rhs[j] += a[j] * r[i];
    }
  }
  const coef = solve((j, k) => N[j][k], rhs);
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const a = row(th[i]);
    const fit = a.reduce((acc, v, j) => acc + v * coef[j], 0);
    worst = Math.max(worst, Math.abs(r[i] - fit));
  }
  return worst;
}
