// The dispersion of a field's integrators, measured through the JS API: what one run
// cannot show.
//
// Small waves u = u₀ + a e^{i(kx − ωt)} about a vacuum u₀ of ℒ = ½ρu_t² − ½κu_x² − V(u)
// obey ω² = (κ/ρ)k² + V''(u₀)/ρ. On a periodic grid the Fourier modes are exact modes of
// every translation-invariant scheme, so one step maps a mode's pair of amplitudes
// (u-amplitude, p-amplitude) by a 2×2 matrix M(k). It is measured, not derived: the state
// is set to cos(kx) in u (then in p), ONE step is taken, and the result is projected back
// on cos(kx). Its eigenvalues λ = |λ|e^{±iωΔt} give the method's ω(k) = arg λ/Δt and its
// growth per step |λ| (1 for a symplectic method while stable).
//
//   waveSetup(lab, scenario)              the linearization: ρ, κ, V''(u₀), u₀, Δx, N
//   oneStepMap(sim, setup, m, amplitude)  M of mode m (k = 2πm/(NΔx)) and its leakage
//   modeEigen(M)                          { omegaDt, growth } of the dominant eigenvalue
//   dispersionOf(lab, scenario, opts)     ω(k) and |λ| of one integrator over the modes
//   stabilityLimit(lab, scenario, opts)   the largest stable Δt of the top mode, by bisection
//   RELATIONS                             the continuous relation and two discrete ones
//
// The discrete relations (for the tests and the caption, never for the measurement):
// the leapfrog's sin(ωΔt/2) = (Δt/2)Ω(k), the box scheme's tan(ωΔt/2) = (Δt/2)Ω̃(k) with
// Ω² = 4κ/(ρΔx²) sin²(kΔx/2) + V''/ρ and tan in place of sin for Ω̃ (the box scheme of
// Marsden, Patrick & Shkoller 1998; core/include/vilab/models/field_box.hpp's
// boxFrequency), RK4's amplification R(iΩΔt).

/**
 * The vacua of the built-in densities (params.density.family) and V'' there: the
 * linearization the study measures about. φ⁴'s V = ¼λ(u² − 1)² has its vacua at ±1
 * (u = 0 is its unstable top): the study takes u₀ = 1, V''(1) = 2λ. `linear`: V'' is the
 * same at every u (the one-step map is then linear in the amplitude at any size).
 */
const VACUA = {
  wave: () => ({ vacuum: 0, curvature: 0, linear: true }),
  'klein-gordon': (d) => ({ vacuum: 0, curvature: (d.mass ?? 1) ** 2, linear: true }),
  'sine-gordon': () => ({ vacuum: 0, curvature: 1, linear: false }),
  phi4: (d) => ({ vacuum: 1, curvature: 2 * (d.lambda ?? 1), linear: false }),
};

/**
 * The wave amplitude of a measurement: 1 where V is quadratic (the map is linear), else
 * 1e-5, where the nonlinear terms change M by O(a²) ≈ 1e-10 (the mode's own cubic term
 * projects to zero on it) while rounding about u₀ = 1 stays at 1e-16/a ≈ 1e-11.
 */
const amplitudeOf = (setup) => (setup.linear ? 1 : 1e-5);

/** The linearization of a model's waves, by the system's model (registry `model`). */
const WAVES = {
  field: (scenario) => {
    const { density, grid } = scenario.params;
    if (typeof density?.lagrangian === 'string')
      throw fieldError(
        'params.density.lagrangian',
        'the dispersion study linearizes the built-in densities (wave, Klein–Gordon, sine-Gordon, φ⁴); a typed ℒ has no stated ρ, κ, V″',
      );
    if (typeof density?.kappa === 'string')
      throw fieldError(
        'params.density.kappa',
        'the dispersion study linearizes a constant κ (a number); with κ(x) varying along the string the Fourier modes are not its waves',
      );
    const family = density?.family ?? 'wave';
    const base = VACUA[family]?.(density);
    if (!base) throw fieldError('params.density.family', `no vacuum is known for "${family}"`);
    const ends = grid.ends ?? 'fixed';
    const length = grid.length ?? 1;
    const points = grid.points;
    const dx = ends === 'periodic' ? length / points : length / (points - 1);
    return { family, rho: density.rho ?? 1, kappa: density.kappa ?? 1, ...base, dx, points };
  },
};

/** An error named by field, with a code of lab.vocabulary.inputErrorCodes (the page words it in its language). */
function fieldError(field, problem, code = 'not-applicable') {
  return Object.assign(new Error(`vilab: ${field}: ${problem}`), { field, code });
}

/** Whether a system's runs have a dispersion study (its model's waves are known). */
export const hasDispersion = (system) => Object.hasOwn(WAVES, system.model);

/**
 * The linearization of a scenario's waves: { family, rho, kappa, curvature (V''(u₀)),
 * vacuum (u₀), linear, dx (the run's Δx), points (N) }. Throws, naming the field, where
 * there is none (a typed density, another system).
 */
export function waveSetup(lab, scenario) {
  const base = lab.normalize(scenario);
  const system = lab.system(base.system);
  if (!hasDispersion(system)) throw fieldError('system', `"${base.system}" has no waves to measure: the study is for fields`);
  return WAVES[system.model](base);
}

/** The scenario the study steps: periodic ends, N points at this run's Δx, u = u₀ at rest. */
function periodicScenario(lab, scenario, setup, { integrator, options = {}, h }) {
  const base = lab.normalize(scenario);
  const { density } = base.params;
  return {
    system: base.system,
    integrator,
    options,
    h: h ?? base.h,
    params: { density, grid: { length: setup.points * setup.dx, points: setup.points, ends: 'periodic' } },
    initial: { u: String(setup.vacuum), ut: '0' },
  };
}

/** cos(kx_i) at the nodes for k = 2πm/(NΔx): the angle from the integer m·i mod N, exactly. */
function modeShape(points, m) {
  return Float64Array.from({ length: points }, (_, i) => Math.cos((2 * Math.PI * ((m * i) % points)) / points));
}

/** The coefficient of y − u₀ on the shape c and the relative size of what is left. */
function project(y, c, offset) {
  let yc = 0;
  let cc = 0;
  for (let i = 0; i < c.length; i++) {
    yc += (y[i] - offset) * c[i];
    cc += c[i] * c[i];
  }
  const coef = yc / cc;
  let rest = 0;
  let all = 0;
  for (let i = 0; i < c.length; i++) {
    rest += (y[i] - offset - coef * c[i]) ** 2;
    all += (y[i] - offset) ** 2;
  }
  return { coef, rest: all > 0 ? Math.sqrt(rest / all) : 0 };
}

/**
 * The one-step map of mode m on (u-amplitude, p-amplitude), measured on sim (a run of the
 * periodic scenario): M = [uu, up, pu, pp] (row-major) and leakage, the largest relative
 * part of a stepped state outside the mode (0 for a translation-invariant linear step).
 */
export function oneStepMap(sim, setup, m, amplitude) {
  const c = modeShape(setup.points, m);
  const rest = new Float64Array(setup.points).fill(setup.vacuum);
  const column = (q, p) => {
    sim.setState({ q, p });
    sim.advance(1);
    const u = project(sim.q, c, setup.vacuum);
    const v = project(sim.p, c, 0);
    return { u: u.coef / amplitude, p: v.coef / amplitude, rest: Math.max(u.rest, v.rest) };
  };
  const a = column(
    c.map((x) => setup.vacuum + amplitude * x),
    new Float64Array(setup.points),
  );
  const b = column(
    rest,
    c.map((x) => amplitude * x),
  );
  return { M: [a.u, b.u, a.p, b.p], leakage: Math.max(a.rest, b.rest) };
}

/**
 * The dominant eigenvalue of a real 2×2 M = [a, b, c, d] as { omegaDt (its argument, in
 * [0, π]), growth (its modulus) }. The discriminant ((a − d)/2)² + bc is formed from
 * products of the small entries, not as tr²/4 − det, so a slow mode keeps its digits.
 */
export function modeEigen([a, b, c, d]) {
  const re = (a + d) / 2;
  const disc = ((a - d) / 2) ** 2 + b * c;
  if (disc < 0) {
    const im = Math.sqrt(-disc);
    return { omegaDt: Math.atan2(im, re), growth: Math.hypot(re, im) };
  }
  const r = Math.sqrt(disc);
  const top = Math.abs(re + r) >= Math.abs(re - r) ? re + r : re - r;
  return { omegaDt: top < 0 ? Math.PI : 0, growth: Math.abs(top) };
}

/** The modes measured: every m = 1 … ⌊N/2⌋, or `most` of them evenly spread, the top one kept. */
export function modeNumbers(points, most) {
  const top = Math.floor(points / 2);
  if (top <= most) return Array.from({ length: top }, (_, i) => i + 1);
  const out = new Set(Array.from({ length: most }, (_, i) => Math.max(1, Math.round(((i + 1) * top) / most))));
  return [...out];
}

export const MAX_MODES = 512;

/** Checks `modes` (how many wavenumbers to measure): a whole number in [2, MAX_MODES]. */
export function checkModes(modes) {
  if (!Number.isInteger(modes) || modes < 2 || modes > MAX_MODES)
    throw fieldError(
      'dispersion.modes',
      `must be a whole number from 2 to ${MAX_MODES} (each costs two steps of every method), got ${modes}`,
    );
  return modes;
}

/**
 * What a measured map may differ by when its amplitude is quartered (a nonlinear density
 * at 1e-5: O(a²) ≈ 1e-10; DOPRI5's step control at tol 1e-6: 1.5e-6 on Klein–Gordon), and
 * how much of a stepped wave may leave its mode (φ⁴'s cubic term about u₀ = 1 moves O(a)
 * ≈ 1e-5 into the harmonics 0 and 2k; an AVI with three steps on half the grid 8 %).
 */
export const LINEAR_TO = 1e-8;
export const MODAL_TO = 1e-3;

/** A simulation of the periodic scenario (disposed by the caller). */
function periodicRun(lab, scenario, setup, run) {
  return lab.simulate(periodicScenario(lab, scenario, setup, run), { historyCapacity: lab.limits.historyCapacity.min });
}

/**
 * One integrator's measured dispersion on the periodic grid of this run's N and Δx:
 * { integrator, modes (m), kdx (kΔx), omegaDt, growth, leakage, amplitude,
 * amplitudeChange }, per mode; omegaDt and growth null where the stepped
 * wave left its mode by more than MODAL_TO (e.g. the box scheme's top mode about φ⁴'s
 * u₀ = 1, where its averaging A_x vanishes and Newton's tolerance, relative to |u| = 1,
 * is all that is left). amplitudeChange is how much M changes when the amplitude is
 * quartered (the middle mode): a method whose step depends on the wave's size (an
 * adaptive step size control) has no single M(k). onProgress(fraction).
 */
export function dispersionOf(lab, scenario, { integrator, options = {}, modes = 128, onProgress } = {}) {
  checkModes(modes);
  const setup = waveSetup(lab, scenario);
  const amplitude = amplitudeOf(setup);
  const ms = modeNumbers(setup.points, modes);
  const sim = periodicRun(lab, scenario, setup, { integrator, options });
  try {
    const out = { integrator, modes: ms, kdx: [], omegaDt: [], growth: [], leakage: [], amplitude };
    ms.forEach((m, j) => {
      const { M, leakage } = oneStepMap(sim, setup, m, amplitude);
      // a wave the step does not keep to itself has no M(k) there: a gap
      const { omegaDt, growth } = leakage <= MODAL_TO ? modeEigen(M) : { omegaDt: null, growth: null };
      out.kdx.push((2 * Math.PI * m) / setup.points);
      out.omegaDt.push(omegaDt);
      out.growth.push(growth);
      out.leakage.push(leakage);
      onProgress?.((j + 1) / ms.length);
    });
    const mid = ms[Math.floor(ms.length / 2)];
    const big = oneStepMap(sim, setup, mid, amplitude).M;
    const small = oneStepMap(sim, setup, mid, amplitude / 4).M;
    const scale = Math.max(...big.map(Math.abs));
    out.amplitudeChange = Math.max(...big.map((x, i) => Math.abs(x - small[i]))) / scale;
    return out;
  } finally {
    sim.dispose();
  }
}

/**
 * Whether an error is an integrator's own stability check refusing the step at load (the
 * AVI's per-cell limit: naming `h` or an `options` field): that Δt is past its limit.
 */
export const refusedStep = (e) => typeof e?.field === 'string' && (e.field === 'h' || e.field.startsWith('options.'));

/** The top mode's growth per step at step h (Infinity where the integrator refuses h as unstable). */
function topGrowth(lab, scenario, setup, { integrator, options }, h) {
  let sim;
  try {
    sim = periodicRun(lab, scenario, setup, { integrator, options, h });
  } catch (e) {
    if (refusedStep(e)) return Number.POSITIVE_INFINITY;
    throw e;
  }
  try {
    return modeEigen(oneStepMap(sim, setup, Math.floor(setup.points / 2), amplitudeOf(setup)).M).growth;
  } finally {
    sim.dispose();
  }
}

/** |λ| above 1 by more than this is growth: rounding of a double eigenvalue −1 gives √ε ≈ 1e-8. */
const GROWTH = 1e-6;

/**
 * The largest Δt at which the top mode of this grid does not grow (|λ| ≤ 1 + 1e-6), by
 * doubling from the run's h and then bisection to `tolerance` relative, within the
 * system's [h.min, h.max]. Returns { limit } (null: stable up to h.max), { searched }
 * (the largest h tried), the growth at the run's h.
 */
export function stabilityLimit(lab, scenario, { integrator, options = {}, tolerance = 1e-9 } = {}) {
  const setup = waveSetup(lab, scenario);
  const base = lab.normalize(scenario);
  const { min, max } = lab.system(base.system).h;
  const stable = (h) => topGrowth(lab, scenario, setup, { integrator, options }, h) <= 1 + GROWTH;
  let lo = base.h;
  let hi = base.h;
  if (stable(base.h)) {
    hi = Math.min(2 * lo, max);
    while (stable(hi)) {
      if (hi >= max) return { integrator, limit: null, searched: max };
      lo = hi;
      hi = Math.min(2 * hi, max);
    }
  } else {
    lo = Math.max(hi / 2, min);
    while (!stable(lo)) {
      if (lo <= min) return { integrator, limit: 0, searched: min };
      hi = lo;
      lo = Math.max(lo / 2, min);
    }
  }
  while (hi - lo > tolerance * hi) {
    const mid = (lo + hi) / 2;
    if (stable(mid)) lo = mid;
    else hi = mid;
  }
  return { integrator, limit: lo, searched: hi };
}

/**
 * The relations on the study's periodic grid as functions of (setup, kΔx, Δt) → ωΔt:
 * the continuous one, the leapfrog's and the box scheme's discrete ones (NaN where the
 * leapfrog's has no real ω: past its CFL limit), and RK4's |R(iΩΔt)| as `rk4Growth`.
 */
const semiDiscrete = (s, kdx, trig) => 4 * (s.kappa / (s.rho * s.dx * s.dx)) * trig(kdx / 2) ** 2 + s.curvature / s.rho;
export const RELATIONS = {
  continuous: (s, kdx, dt) => dt * Math.sqrt((s.kappa / s.rho) * (kdx / s.dx) ** 2 + s.curvature / s.rho),
  leapfrog: (s, kdx, dt) => 2 * Math.asin((dt / 2) * Math.sqrt(semiDiscrete(s, kdx, Math.sin))),
  box: (s, kdx, dt) => 2 * Math.atan((dt / 2) * Math.sqrt(semiDiscrete(s, kdx, Math.tan))),
  /** arg R(iy) of classical RK4, y = ΩΔt: R(iy) = 1 − y²/2 + y⁴/24 + i(y − y³/6). */
  rk4: (s, kdx, dt) => {
    const y = dt * Math.sqrt(semiDiscrete(s, kdx, Math.sin));
    return Math.abs(Math.atan2(y - y ** 3 / 6, 1 - (y * y) / 2 + y ** 4 / 24));
  },
  /** |R(iy)| of classical RK4. */
  rk4Growth: (s, kdx, dt) => {
    const y = dt * Math.sqrt(semiDiscrete(s, kdx, Math.sin));
    return Math.hypot(1 - (y * y) / 2 + y ** 4 / 24, y - y ** 3 / 6);
  },
};

/** The largest stable Δt of the top mode, by formula: the leapfrog's 2/Ω_max and RK4's 2√2/Ω_max. */
export function formulaLimits(setup) {
  const top = Math.sqrt(semiDiscrete(setup, (2 * Math.PI * Math.floor(setup.points / 2)) / setup.points, Math.sin));
  return { leapfrog: 2 / top, rk4: (2 * Math.SQRT2) / top };
}

/** The discrete relations a measured method is matched against, and the largest stable Δt each implies (null: none). */
const KNOWN = [
  { relation: 'leapfrog', limit: (s) => formulaLimits(s).leapfrog },
  { relation: 'box', limit: () => null },
  { relation: 'rk4', limit: (s) => formulaLimits(s).rk4 },
];

/**
 * The known relation a measured dispersion follows at step h (every measured k within
 * `within` relative), or null: { relation, difference (the largest), limit (its formula) }.
 * Which scheme a method is comes from its measurement, not from its id.
 */
export function followedRelation(result, setup, h, within = 1e-8) {
  for (const { relation, limit } of KNOWN) {
    let difference = 0;
    result.kdx.forEach((kdx, j) => {
      if (result.omegaDt[j] === null) return;
      const want = RELATIONS[relation](setup, kdx, h);
      difference = Math.max(difference, Math.abs(result.omegaDt[j] - want) / want);
    });
    if (difference <= within) return { relation, difference, limit: limit(setup) };
  }
  return null;
}

/** The Courant number ν = cΔt/Δx, c = √(κ/ρ). */
export const courant = (setup, h) => (Math.sqrt(setup.kappa / setup.rho) * h) / setup.dx;

/**
 * Why a measured dispersion is not one method's M(k), or null: its map changed with the
 * amplitude (`amplitude`: step control that reads the state's size) or most waves left
 * their mode (`leakage`, the least of theirs: a step that is not the same at every node,
 * e.g. an AVI with two steps).
 */
export function notModal(result) {
  if (!(result.amplitudeChange <= LINEAR_TO)) return { reason: 'amplitude', value: result.amplitudeChange };
  const leaky = result.leakage.filter((x) => !(x <= MODAL_TO));
  if (2 * leaky.length > result.leakage.length) return { reason: 'leakage', value: Math.min(...leaky) };
  return null;
}

/** How many of the measured waves left their mode (no ω there). */
export const unresolved = (result) => result.leakage.filter((x) => !(x <= MODAL_TO)).length;
