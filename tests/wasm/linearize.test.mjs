// sim.linearize(): the step's Jacobian from the core's derivatives through the JS API,
// against a central difference of the step; det 1 for the symplectic steps and not for
// RK4; the refusal of an integrator that does not declare it; and the Floquet lesson's
// numbers (Kapitza's multipliers, the midpoint rule's rotation angle).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, root } from './helpers.mjs';
import { lessonById, lessonSetup, runLesson } from '../../web/sim/lessons.js';
import { floquetSweep, moduli2, monodromy, rotationAngle, stepAngles } from '../../web/sim/floquet.js';

const scene = (id) => {
  const { about, ...scenario } = JSON.parse(readFileSync(`${root}/scenes/lagrangian/${id}.json`, 'utf8'));
  return { id, title: about.title, scenario, compare: about.compare };
};

const data = (lagrangian, coordinates, q, qdot, extra = {}) => ({
  system: 'lagrangian',
  integrator: 'midpoint',
  h: 0.05,
  params: {
    coordinates,
    constants: {},
    lagrangian,
    constraints: [],
    conserved: {},
    symmetries: {},
    bodies: [{ position: [coordinates[0], '0', '0'], radius: 0.05 }],
    ...extra,
  },
  initial: { q, qdot },
});

const PENDULUM = data("th'^2/2 + 9.81*cos(th)", ['th'], [1.2], [0.4]);
const GYROSCOPIC = data("(x'^2 + y'^2)/2 + 1.3*(x*y' - y*x')/2 - (x^2 + 2*y^2)/2 - x^2*y/3", ['x', 'y'], [0.4, -0.2], [0.3, 0.5]);

/** One step from the canonical state s (the clock at 0), as [q, p]. */
function stepFrom(scenario, s) {
  const sim = lab.simulate(scenario, { historyCapacity: 1 });
  try {
    sim.setState(s);
    sim.advance(1);
    return [...sim.q, ...sim.p];
  } finally {
    sim.dispose();
  }
}

/** max |J − J_fd| / max(1, max |J|), J_fd the central difference with relative increments 1e-5. */
function mismatch(scenario, steps) {
  const sim = lab.simulate(scenario, { historyCapacity: 1 });
  let s;
  let J;
  try {
    sim.advance(steps);
    s = { q: sim.q, p: sim.p };
    sim.setState(s);
    J = sim.linearize();
  } finally {
    sim.dispose();
  }
  const n = s.q.length;
  const size = 2 * n;
  assert.equal(J.length, size * size);
  let worst = 0;
  let scale = 1;
  for (let j = 0; j < size; j++) {
    const plus = { q: Float64Array.from(s.q), p: Float64Array.from(s.p) };
    const minus = { q: Float64Array.from(s.q), p: Float64Array.from(s.p) };
    const [key, i] = j < n ? ['q', j] : ['p', j - n];
    const e = 1e-5 * Math.max(1, Math.abs(s[key][i]));
    plus[key][i] += e;
    minus[key][i] -= e;
    const a = stepFrom(scenario, plus);
    const b = stepFrom(scenario, minus);
    for (let r = 0; r < size; r++) {
      worst = Math.max(worst, Math.abs(J[r * size + j] - (a[r] - b[r]) / (2 * e)));
      scale = Math.max(scale, Math.abs(J[r * size + j]));
    }
  }
  return worst / scale;
}

test('the registry says where linearize() applies: midpoint and alpha on systems defined by data, rk4 and euler on the oscillator', () => {
  assert.ok(lab.integrator('midpoint').linearizes.includes('lagrangian'));
  assert.ok(lab.integrator('alpha').linearizes.includes('lagrangian'));
  assert.deepEqual([...lab.integrator('rk4').linearizes], ['oscillator']);
  assert.ok(lab.integrator('rattle').linearizes.includes('double-spherical-pendulum'));
  assert.deepEqual([...lab.integrator('energy-momentum').linearizes], []);
});

test('linearize() equals a central difference of the step to 1e-7 (relative)', () => {
  const kapitza = { ...scene('kapitza').scenario, initial: { q: [2.9], qdot: [0.4] } };
  const cases = {
    pendulum: PENDULUM,
    gyroscopic: GYROSCOPIC,
    kepler: scene('kepler').scenario,
    kapitza,
    'driven damped pendulum': scene('driven-damped-pendulum').scenario,
    'alpha 0.3': { ...GYROSCOPIC, integrator: 'alpha', options: { alpha: 0.3 } },
    'oscillator rk4': { system: 'oscillator', integrator: 'rk4', h: 0.1 },
  };
  for (const [name, scenario] of Object.entries(cases)) {
    const m = mismatch(scenario, 7);
    assert.ok(m <= 1e-7, `${name}: ${m}`);
    console.log(`linearize vs central difference, ${name}: ${m.toExponential(2)}`);
  }
});

/** The determinant of a size×size row-major matrix, by elimination with partial pivoting. */
function determinant(J, size) {
  const a = Array.from({ length: size }, (_, i) => Array.from(J.subarray(size * i, size * i + size)));
  let det = 1;
  for (let c = 0; c < size; c++) {
    let p = c;
    for (let r = c + 1; r < size; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    if (p !== c) [a[p], a[c], det] = [a[c], a[p], -det];
    det *= a[c][c];
    for (let r = c + 1; r < size; r++) {
      const f = a[r][c] / a[c][c];
      for (let k = c; k < size; k++) a[r][k] -= f * a[c][k];
    }
  }
  return det;
}

test('det J = 1 to 1e-12 for the symplectic steps (gyroscopic data system; the DSP in its tangent basis); RK4 misses it', () => {
  for (const [scenario, size] of [
    [GYROSCOPIC, 4],
    [{ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.02 }, 8],
    [{ system: 'double-spherical-pendulum', integrator: 'rattle', h: 0.02 }, 8],
  ]) {
    const sim = lab.simulate(scenario, { historyCapacity: 1 });
    try {
      for (let k = 0; k < 10; k++) {
        const J = sim.linearize();
        assert.equal(J.length, size * size);
        const det = determinant(J, size);
        assert.ok(Math.abs(det - 1) <= 1e-12, `${scenario.system} by ${scenario.integrator}, step ${sim.step}: det ${det}`);
        sim.advance(5);
      }
    } finally {
      sim.dispose();
    }
  }
  const rk4 = lab.simulate({ system: 'oscillator', integrator: 'rk4', h: 0.1 }, { historyCapacity: 1 });
  const det = determinant(rk4.linearize(), 2);
  rk4.dispose();
  assert.ok(Math.abs(det - 1) > 1e-9, `RK4 det ${det}`);
});

test('an integrator without the capability refuses with a clear error; linearize() never changes the run', () => {
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'energy-momentum' }, { historyCapacity: 1 });
  assert.throws(
    () => sim.linearize(),
    (e) => e.name === 'VilabError' && e.field === 'integrator' && /Jacobian/.test(e.message),
  );
  sim.advance(3); // still usable
  assert.equal(sim.step, 3);
  sim.dispose();
  const a = lab.simulate(scene('kepler').scenario, { historyCapacity: 1 });
  const b = lab.simulate(scene('kepler').scenario, { historyCapacity: 1 });
  for (let k = 0; k < 20; k++) {
    a.linearize();
    a.advance(5);
    b.advance(5);
  }
  assert.equal(a.hash(), b.hash());
  a.dispose();
  b.dispose();
  const gone = lab.simulate(PENDULUM, { historyCapacity: 1 });
  gone.dispose();
  assert.throws(() => gone.linearize(), /used after dispose/);
});

test("Kapitza's Floquet multipliers: on the unit circle (1e-9) at ω = 60, one above 1.01 at ω = 30", () => {
  const { scenario } = scene('kapitza');
  const sweep = floquetSweep(lab, {
    scenario: lab.normalize({ ...scenario, initial: { q: [Math.PI], qdot: [0] } }),
    constant: 'w',
    omegas: [30, 60],
    stepsPerPeriod: 200,
  });
  assert.ok(
    Math.abs(sweep.largest[1] - 1) <= 1e-9 && Math.abs(sweep.smallest[1] - 1) <= 1e-9,
    `ω = 60: ${sweep.largest[1]}, ${sweep.smallest[1]}`,
  );
  assert.ok(sweep.largest[0] > 1.01, `ω = 30: ${sweep.largest[0]}`);
  // μ and 1/μ: the monodromy matrix of a symplectic step has determinant 1
  assert.ok(Math.abs(sweep.largest[0] * sweep.smallest[0] - 1) <= 1e-9);
  console.log(`Kapitza |μ|: ω = 60 ${sweep.largest[1]}, ${sweep.smallest[1]}; ω = 30 ${sweep.largest[0]}`);
  // the same product taken by hand for one period is the monodromy the sweep used
  const h = (2 * Math.PI) / (60 * 200);
  const m = monodromy(lab, { ...scenario, h, initial: { q: [Math.PI], qdot: [0] } }, 200);
  assert.deepEqual(moduli2(m), [sweep.largest[1], sweep.smallest[1]]);
});

test('the midpoint rule rotates the oscillator by 2·atan(hω/2) to 1e-13 (Lu), not by hω', () => {
  const hs = [0.01, 0.1, 0.5, 1];
  const scenario = data("x'^2/2 - 4*x^2/2", ['x'], [1], [0]);
  const { angles } = stepAngles(lab, { scenario, hs });
  hs.forEach((h, i) => {
    assert.ok(Math.abs(angles[i] - 2 * Math.atan(h)) <= 1e-13, `h = ${h}: ${angles[i]} vs ${2 * Math.atan(h)}`);
    assert.ok(Math.abs(angles[i] - 2 * h) > 1e-7, `h = ${h}: the exact flow's angle`);
  });
  assert.ok(Number.isNaN(rotationAngle([2, 0, 0, 0.5]))); // real eigenvalues: no rotation
});

test('the Floquet lesson: its verdicts and numbers, as the page computes them', async () => {
  const l = lessonById('floquet');
  const setup = lessonSetup(l, [scene('kapitza')]);
  const { measured, curves, summary } = await runLesson(lab, l, setup.scenario);
  assert.equal(summary, 'measured.floquet');
  assert.ok(measured.off60 <= 1e-9 && measured.mu30 > 1.01, JSON.stringify(measured));
  assert.ok(measured.angleError <= 1e-13);
  assert.ok(measured.firstStable >= 40 && measured.firstStable <= 50, `stable from ${measured.firstStable}`);
  assert.equal(curves[0].x.length, 13);
  console.log(`Floquet lesson: ${JSON.stringify(measured)}`);
});
