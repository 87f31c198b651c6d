// Kinks of a field run (system "field"): where u crosses the level halfway between two
// vacua, and how fast those crossings move. Pure numbers, no DOM: the page's kink card
// (web/plots/field-plots.js) and tests/wasm/kinks.test.mjs use the same code.
//
// Which runs have kinks comes from the scenario and its initial state alone: a built-in
// density with two or more vacua (sine-Gordon: u = 2πn, levels (2n+1)π; φ⁴: u = ±1,
// level 0) whose initial u goes more than halfway from a level to the vacua on both
// sides of it. A kink's position is a crossing of such a level, located by linear
// interpolation between the two nodes around it; its speed is the least-squares slope of
// its positions over the samples, never one step's difference.

const TAU = 2 * Math.PI;

/** The levels halfway between vacua, and the gap d from a level to its vacua, per family. */
const FAMILIES = {
  'sine-gordon': {
    gap: Math.PI,
    // the odd multiples of π in (min(a, b), max(a, b)]: a node on a level counts once
    levelsBetween(a, b, out) {
      const lo = Math.min(a, b);
      const hi = Math.max(a, b);
      for (let k = Math.floor((lo - Math.PI) / TAU); Math.PI + k * TAU <= hi; k++) {
        const level = Math.PI + k * TAU;
        if (level > lo) out.push(level);
      }
      return out;
    },
    // the travelling kink through `level` with sign s: u = level − π + 4 atan(exp(s ξ/w))
    profile: (level, s, xi, w) => level - Math.PI + 4 * Math.atan(Math.exp((s * xi) / w)),
    // w² = κ − ρv² (ρu_tt = κu_xx − sin u with u = u(x − vt))
    width: (d, v) => Math.sqrt(d.kappa - d.rho * v * v),
  },
  phi4: {
    gap: 1,
    levelsBetween(a, b, out) {
      if (Math.min(a, b) < 0 && Math.max(a, b) >= 0) out.push(0);
      return out;
    },
    profile: (level, s, xi, w) => s * Math.tanh(xi / w),
    // w² = 2(κ − ρv²)/λ (ρu_tt = κu_xx − λu(u² − 1) with u = u(x − vt))
    width: (d, v) => Math.sqrt((2 * (d.kappa - d.rho * v * v)) / d.lambda),
  },
};

/** The nodes' x of a grid { length, points, ends } (periodic ends leave out x = L). */
export function nodePositions(grid) {
  const n = grid.points;
  const dx = grid.ends === 'periodic' ? grid.length / n : grid.length / (n - 1);
  return Float64Array.from({ length: n }, (_, i) => i * dx);
}

/**
 * What tracking kinks needs of a field scenario (normalized: params.density, params.grid),
 * or null when it has none:
 * { family, density: { rho, kappa, lambda }, grid, xs, dx, levels (those the initial u
 * spans) }. u0: the initial u at the nodes.
 */
export function kinkSetup(scenario, u0) {
  const density = scenario?.params?.density ?? {};
  const family = FAMILIES[density.family];
  const grid = scenario.params?.grid;
  if (!family || !grid || !u0?.length) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const u of u0) {
    if (!Number.isFinite(u)) return null;
    lo = Math.min(lo, u);
    hi = Math.max(hi, u);
  }
  // a level counts when u reaches past halfway to the vacuum on each side of it
  const half = family.gap / 2;
  const levels = family.levelsBetween(lo + half, hi - half, []);
  if (!levels.length) return null;
  const xs = nodePositions(grid);
  return {
    family: density.family,
    density: { rho: density.rho ?? 1, kappa: density.kappa ?? 1, lambda: density.lambda ?? 1 },
    grid,
    xs,
    dx: xs[1] - xs[0],
    levels,
  };
}

/**
 * The level crossings of u (kinks: u rises through the level, sign +1; antikinks: it
 * falls, −1), sorted by x: [{ x, sign, level }]. With periodic ends the cell from the last
 * node to x = L counts too (its crossing is wrapped into [0, L)).
 */
export function crossings(u, setup) {
  const { xs, dx, grid } = setup;
  const family = FAMILIES[setup.family];
  const n = xs.length;
  const cells = grid.ends === 'periodic' ? n : n - 1;
  const out = [];
  const levels = [];
  for (let i = 0; i < cells; i++) {
    const a = u[i];
    const b = u[(i + 1) % n];
    if (a === b) continue;
    levels.length = 0;
    for (const level of family.levelsBetween(a, b, levels)) {
      const x = xs[i] + ((level - a) / (b - a)) * dx;
      out.push({ x: x >= grid.length ? x - grid.length : x, sign: b > a ? 1 : -1, level });
    }
  }
  return out.sort((p, q) => p.x - q.x);
}

/** The least-squares slope of x against t (NaN for fewer than two samples or one time). */
export function fitSpeed(ts, xs, from = 0, to = ts.length) {
  const n = to - from;
  if (n < 2) return NaN;
  let mt = 0;
  let mx = 0;
  for (let i = from; i < to; i++) {
    mt += ts[i];
    mx += xs[i];
  }
  mt /= n;
  mx /= n;
  let stt = 0;
  let stx = 0;
  for (let i = from; i < to; i++) {
    stt += (ts[i] - mt) ** 2;
    stx += (ts[i] - mt) * (xs[i] - mx);
  }
  return stt > 0 ? stx / stt : NaN;
}

/** u_x at node i by the fourth-order centred difference (NaN within two nodes of an end). */
function slope4(u, i, dx) {
  if (i < 2 || i > u.length - 3) return NaN;
  return (u[i - 2] - 8 * u[i - 1] + 8 * u[i + 1] - u[i + 2]) / (12 * dx);
}

/**
 * The exact speed of a single kink whose initial data are the family's travelling kink,
 * or null. For a travelling wave u(x − vt), u_t = −v u_x: v is the least-squares fit of
 * −u_t/u_x over the nodes (u_x by fourth-order differences). The data are that kink
 * when the fit leaves no residual and u is the kink of speed v and width w(v) through
 * the crossing (sine-Gordon: 4 atan(e^{ξ/w}), w = √(κ − ρv²); φ⁴: tanh(ξ/w),
 * w = √(2(κ − ρv²)/λ)). Returns { v, width, x0, residual, deviation }.
 */
export function exactKinkSpeed(setup, u, ut) {
  const found = crossings(u, setup);
  if (found.length !== 1) return null;
  const { x: x0, sign, level } = found[0];
  const { xs, dx, density } = setup;
  let sxx = 0;
  let stx = 0;
  let stt = 0;
  for (let i = 2; i < u.length - 2; i++) {
    const ux = slope4(u, i, dx);
    sxx += ux * ux;
    stx += ut[i] * ux;
    stt += ut[i] * ut[i];
  }
  if (!(sxx > 0)) return null;
  const v = -stx / sxx;
  // ‖u_t + v u_x‖² = Σu_t² + 2vΣu_t u_x + v²Σu_x², relative to ‖u_x‖²: a speed's square
  const residual = Math.sqrt(Math.max(0, stt + 2 * v * stx + v * v * sxx) / sxx);
  const family = FAMILIES[setup.family];
  const width = family.width(density, v);
  if (!(width > 0)) return null;
  let deviation = 0;
  for (let i = 0; i < u.length; i++) deviation = Math.max(deviation, Math.abs(u[i] - family.profile(level, sign, xs[i] - x0, width)));
  return { v, width, x0, residual, deviation };
}

/** How close a kink's data must be to the exact travelling kink (residual in units of the speed of waves, deviation of the gap). */
export const EXACT_TOLERANCE = { residual: 1e-4, deviation: 1e-3 };

/** The exact speed when the data pass exactKinkSpeed's checks (EXACT_TOLERANCE), else null. */
export function exactSpeedOf(setup, u, ut) {
  const e = exactKinkSpeed(setup, u, ut);
  if (!e) return null;
  const c = Math.sqrt(setup.density.kappa / setup.density.rho);
  const gap = FAMILIES[setup.family].gap;
  return e.residual <= EXACT_TOLERANCE.residual * c && e.deviation <= EXACT_TOLERANCE.deviation * gap ? e : null;
}

/** The nodes' velocities u_t from the canonical momenta (built-in density: p_i = ρ w_i Δx u_t, w = ½ at a free end; a fixed end has p = 0). */
export function nodeVelocities(setup, p) {
  const n = p.length;
  const free = setup.grid.ends === 'free';
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const w = free && (i === 0 || i === n - 1) ? 0.5 : 1;
    out[i] = p[i] / (setup.density.rho * w * setup.dx);
  }
  return out;
}

// a track unmatched this long (in samples) ends; until then a crossing of its sign near
// where it would be continues it (a kink passing through an antikink crosses no level for
// a while, then crosses the next one: it keeps its sign, its topological charge)
const DORMANT_SAMPLES = 40;
// the samples a speed is fitted over; a track keeps at most KEEP_SAMPLES (the oldest half goes)
export const SPEED_SAMPLES = 64;
const KEEP_SAMPLES = 4096;

/**
 * Follows the crossings from sample to sample: each continues the track of its sign
 * nearest to where that track would be now (its last position moved at its speed),
 * within the distance waves travel in between (c Δt) plus four cells; the others start
 * tracks. tracks: [{ id, sign, t: [], x: [] }].
 */
export class KinkTracker {
  constructor(setup) {
    this.setup = setup;
    this.c = Math.sqrt(setup.density.kappa / setup.density.rho);
    this.tracks = [];
    this.samples = 0;
  }

  /** One sample: u at time t (finite numbers only; returns false and takes nothing otherwise). */
  push(t, u) {
    for (let i = 0; i < u.length; i++) if (!Number.isFinite(u[i])) return false;
    const found = crossings(u, this.setup);
    const open = this.tracks.filter((k) => this.samples - k.lastSample <= DORMANT_SAMPLES);
    const pairs = [];
    for (const [ci, cr] of found.entries())
      for (const k of open) {
        if (k.sign !== cr.sign) continue;
        const dt = t - k.t[k.t.length - 1];
        const v = Number.isFinite(k.v) ? k.v : 0;
        const miss = Math.abs(cr.x - (k.x[k.x.length - 1] + v * dt));
        if (miss <= this.c * dt + 4 * this.setup.dx) pairs.push({ ci, k, miss });
      }
    pairs.sort((a, b) => a.miss - b.miss);
    const usedC = new Set();
    const usedK = new Set();
    for (const { ci, k } of pairs) {
      if (usedC.has(ci) || usedK.has(k)) continue;
      usedC.add(ci);
      usedK.add(k);
      this.#extend(k, t, found[ci].x);
    }
    for (const [ci, cr] of found.entries()) {
      if (usedC.has(ci)) continue;
      const k = { id: this.tracks.length + 1, sign: cr.sign, t: [], x: [], v: NaN, lastSample: 0 };
      this.tracks.push(k);
      this.#extend(k, t, cr.x);
    }
    this.samples++;
    return true;
  }

  #extend(k, t, x) {
    if (k.t.length >= KEEP_SAMPLES) {
      k.t.splice(0, KEEP_SAMPLES / 2);
      k.x.splice(0, KEEP_SAMPLES / 2);
    }
    k.t.push(t);
    k.x.push(x);
    k.lastSample = this.samples;
    k.v = fitSpeed(k.t, k.x, Math.max(0, k.t.length - 8));
  }

  /** The tracks seen at the last sample: [{ id, sign, x, speed }] (speed over the last SPEED_SAMPLES samples). */
  current() {
    const last = this.samples - 1;
    return this.tracks
      .filter((k) => k.lastSample === last)
      .map((k) => ({ id: k.id, sign: k.sign, x: k.x[k.x.length - 1], speed: fitSpeed(k.t, k.x, Math.max(0, k.t.length - SPEED_SAMPLES)) }));
  }
}
