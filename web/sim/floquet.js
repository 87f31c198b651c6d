// Linear stability from the step's Jacobian (sim.linearize()): the monodromy matrix of a
// periodically forced system, the product of the step Jacobians over one forcing period,
// and its Floquet multipliers (a periodic orbit is stable when none lies outside the unit
// circle); the rotation angle of a one-degree-of-freedom step, from the eigenvalues
// e^{±iθ} of its Jacobian.

/** The product A·B of two n×n row-major matrices. */
function multiply(a, b, n) {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const x = a[i * n + k];
      for (let j = 0; j < n; j++) out[i * n + j] += x * b[k * n + j];
    }
  return out;
}

/** The eigenvalues' moduli of a 2×2 row-major matrix, largest first. */
export function moduli2(m) {
  if (m.length !== 4) throw new Error(`vilab: multipliers: a 2×2 matrix, got ${m.length} entries (one degree of freedom)`);
  const half = (m[0] + m[3]) / 2;
  const det = m[0] * m[3] - m[1] * m[2];
  const disc = half * half - det;
  if (disc < 0) {
    const r = Math.sqrt(det); // a complex pair: |μ|² = det
    return [r, r];
  }
  const s = Math.sqrt(disc);
  const a = Math.abs(half + s);
  const b = Math.abs(half - s);
  return a >= b ? [a, b] : [b, a];
}

/**
 * The rotation angle θ of a 2×2 step Jacobian with complex eigenvalues √det·e^{±iθ}:
 * atan2(√(det − (tr/2)²), tr/2), NaN when they are real.
 */
export function rotationAngle(m) {
  const half = (m[0] + m[3]) / 2;
  const det = m[0] * m[3] - m[1] * m[2];
  return Math.atan2(Math.sqrt(det - half * half), half);
}

/**
 * The monodromy matrix over `steps` steps from the scenario's start: Π J_k (the latest on
 * the left), each J_k = sim.linearize() at step k, row-major (2n)².
 */
export function monodromy(lab, scenario, steps) {
  const sim = lab.simulate(scenario, { historyCapacity: lab.limits.historyCapacity.min });
  try {
    const size = 2 * sim.q.length;
    let m = new Float64Array(size * size);
    for (let i = 0; i < size; i++) m[i * size + i] = 1;
    for (let k = 0; k < steps; k++) {
      m = multiply(sim.linearize(), m, size);
      sim.advance(1);
    }
    return m;
  } finally {
    sim.dispose();
  }
}

/**
 * Floquet multipliers of a one-degree-of-freedom system with a periodic forcing of
 * angular frequency ω = the constant `constant` of its definition, about its initial
 * state, for each ω of `omegas`: the run is set to h = 2π/(ω·stepsPerPeriod), so one
 * period is a whole number of steps. Returns { omegas, largest, smallest, h }.
 */
export function floquetSweep(lab, { scenario, constant, omegas, stepsPerPeriod }, progress) {
  const out = { omegas: [], largest: [], smallest: [], h: [] };
  for (const w of omegas) {
    const h = (2 * Math.PI) / (w * stepsPerPeriod);
    const constants = { ...scenario.params.constants, [constant]: w };
    const run = { ...scenario, h, params: { ...scenario.params, constants } };
    const [largest, smallest] = moduli2(monodromy(lab, run, stepsPerPeriod));
    out.omegas.push(w);
    out.largest.push(largest);
    out.smallest.push(smallest);
    out.h.push(h);
    progress?.(out.omegas.length / omegas.length);
  }
  return out;
}

/**
 * The rotation angle of one step of a linear oscillator, from the eigenvalues of its
 * Jacobian at the start, for each h of `hs`: { hs, angles }.
 */
export function stepAngles(lab, { scenario, hs }) {
  const angles = hs.map((h) => {
    const sim = lab.simulate({ ...scenario, h }, { historyCapacity: lab.limits.historyCapacity.min });
    try {
      return rotationAngle(sim.linearize());
    } finally {
      sim.dispose();
    }
  });
  return { hs, angles };
}
