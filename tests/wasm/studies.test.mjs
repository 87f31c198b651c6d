// Studies over many runs (web/sim/studies.js): the loop action ∮p·dq is kept by
// symplectic methods and not by the others; the fitted order of convergence matches
// each method's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';
import { readFileSync } from 'node:fs';
import {
  loopStudy,
  loopShape,
  polygonArea,
  convergenceStudy,
  spectralDerivative,
  loopAction,
  fittedOrder,
  seedOnEnergy,
  poincareSection,
  closedCurveResidual,
} from '../../web/sim/studies.js';

test('spectral quadrature: the area of an ellipse to round-off; derivative of sin', () => {
  const n = 64;
  const s = Array.from({ length: n }, (_, j) => (2 * Math.PI * j) / n);
  const d = spectralDerivative(s.map(Math.sin));
  assert.ok(Math.max(...s.map((x, j) => Math.abs(d[j] - Math.cos(x)))) < 1e-13);
  // ∮ p dq over q = 2 cos s, p = 3 sin s is −6π (clockwise in (q, p))
  const A = loopAction(
    s.map((x) => [2 * Math.cos(x)]),
    s.map((x) => [3 * Math.sin(x)]),
  );
  assert.ok(Math.abs(A + 6 * Math.PI) < 1e-12, String(A));
  assert.ok(Math.abs(fittedOrder([0.1, 0.05, 0.025], [1e-2, 2.5e-3, 6.25e-4]) - 2) < 1e-12);
});

function loopChange(integrator, { system = 'pendulum', steps = 1000, h = 0.05, points = 512 } = {}) {
  const loop = loopStudy(lab, { system, integrator, h }, { points });
  try {
    loop.advance(steps);
    return { change: loop.relativeChange(), points: loop.points, action: loop.initialAction, unresolvedAt: loop.unresolvedAt };
  } finally {
    loop.dispose();
  }
}

test('loop action on the pendulum, 1000 steps at h = 0.05: midpoint keeps it to 1e-10; RK4 and energy–momentum change it by more than 1e-4', () => {
  const mid = loopChange('midpoint');
  assert.ok(mid.change <= 1e-10, `midpoint ${mid.change}`);
  assert.equal(mid.unresolvedAt, null, 'the pendulum loop stays resolved');
  for (const id of ['rk4', 'energy-momentum']) {
    const r = loopChange(id);
    assert.ok(r.change >= 1e-4, `${id} ${r.change}`);
  }
  console.log(`loop action, pendulum, 1000 steps, h = 0.05, 512 points: midpoint ${mid.change.toExponential(2)}`);
});

test('loop action: every symplectic method keeps it on the double spherical pendulum (100 steps)', () => {
  for (const id of ['midpoint', 'rattle', 'symplectic-euler']) {
    const r = loopChange(id, { system: 'double-spherical-pendulum', steps: 100, h: 0.01, points: 256 });
    assert.ok(r.change <= 1e-9, `${id} ${r.change}`);
  }
  const rk4 = loopChange('rk4', { system: 'double-spherical-pendulum', steps: 100, h: 0.01, points: 256 });
  assert.ok(rk4.change >= 1e-9, `rk4 ${rk4.change}`);
});

test('loop study refuses rigid bodies and bad sizes, naming the field', () => {
  assert.throws(() => loopStudy(lab, { system: 'rigid-body' }), /vilab: loop/);
  assert.throws(() => loopStudy(lab, { system: 'pendulum' }, { points: 100 }), /loop\.points/);
});

async function order(system, integrator, hs, T, options) {
  const r = await convergenceStudy(lab, { system, integrator, options }, { hs, T });
  return r;
}

test('convergence: fitted orders 2 (midpoint), 1 (alpha = 0.25), 4 (composition4, lobatto) on the oscillator and the pendulum (both exact)', async () => {
  const cases = [
    ['oscillator', 'midpoint', 2, 0.1, [0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625]],
    ['oscillator', 'alpha', 1, 0.1, [0.025, 0.0125, 0.00625, 0.003125, 0.0015625, 0.00078125]],
    ['oscillator', 'composition4', 4, 0.2, [0.4, 0.2, 0.1, 0.05, 0.025, 0.0125]],
    ['pendulum', 'midpoint', 2, 0.1, [0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125]],
    ['pendulum', 'lobatto', 4, 0.2, [0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625]],
  ];
  const lines = [];
  for (const [system, integrator, p, tol, hs] of cases) {
    const r = await order(system, integrator, hs, 10);
    lines.push(`${system}/${integrator}: ${r.order.toFixed(3)} (${r.reference})`);
    assert.ok(
      Math.abs(r.order - p) <= tol,
      `${system}/${integrator}: order ${r.order} (errors ${r.errors.map((e) => e.toExponential(2)).join(' ')})`,
    );
  }
  console.log(`fitted orders: ${lines.join('; ')}`);
});

test('convergence: progress, cancel, and T that is not a whole number of steps', async () => {
  const seen = [];
  await convergenceStudy(
    lab,
    { system: 'oscillator', integrator: 'midpoint' },
    { hs: [0.1, 0.05, 0.025], T: 1, onProgress: (d, n) => seen.push(`${d}/${n}`) },
  );
  assert.deepEqual(seen, ['1/4', '2/4', '3/4', '4/4']);
  const ctl = new AbortController();
  ctl.abort();
  await assert.rejects(convergenceStudy(lab, { system: 'oscillator' }, { hs: [0.1, 0.05, 0.025], T: 1, signal: ctl.signal }), /cancelled/);
  await assert.rejects(convergenceStudy(lab, { system: 'oscillator' }, { hs: [0.3, 0.05, 0.025], T: 1 }), /whole number/);
});

test('Poincaré section of Hénon–Heiles: a regular orbit at E = 1/12 lies on a closed curve (within 1e-3), a chaotic one at E = 1/6 does not', async () => {
  const scene = JSON.parse(readFileSync(new URL('../../scenes/lagrangian/henon-heiles.json', import.meta.url), 'utf8'));
  delete scene.about;
  const section = async (E, y) => {
    const initial = seedOnEnergy(lab, scene, E, [y, 0]);
    const sim = lab.simulate({ ...scene, initial });
    const energy = sim.diagnostics().energy;
    sim.dispose();
    assert.ok(Math.abs(energy - E) < 1e-12, `seeded on the energy surface: ${energy}`);
    return (await poincareSection(lab, { ...scene, initial }, { crossings: 200 })).points;
  };
  const regular = await section(1 / 12, 0.1);
  assert.equal(regular.length, 200);
  const rRegular = closedCurveResidual(regular);
  assert.ok(rRegular < 1e-3, `regular orbit: ${rRegular}`);
  const rChaotic = closedCurveResidual(await section(1 / 6, 0));
  assert.ok(rChaotic > 1e-2, `chaotic orbit: ${rChaotic}`);
  assert.equal(seedOnEnergy(lab, scene, 1 / 12, [0.9, 0]), null, 'outside the energy surface');
  console.log(`Poincaré: regular E = 1/12 residual ${rRegular.toExponential(2)}, chaotic E = 1/6 ${rChaotic.toExponential(2)}`);
});

test('the loop drawn for one degree of freedom encloses ∮p·dq: pendulum (θ, m l² θ̇) area = the action, at the start and after 1000 midpoint steps; RK4 changes it', () => {
  const enclosed = (loop) => {
    const [theta, rate] = loopShape(loop); // m = l = 1: p_θ = θ̇
    return polygonArea(Float64Array.from(theta), Float64Array.from(rate));
  };
  for (const integrator of ['midpoint', 'rk4']) {
    const loop = loopStudy(lab, { system: 'pendulum', integrator, h: 0.05 }, { points: 1024 });
    try {
      const a0 = enclosed(loop);
      // the polygon of N points misses the smooth loop's area by ~(2π/N)²/6 (Float32 drawing data: 1e-7)
      assert.ok(
        Math.abs(Math.abs(a0) - Math.abs(loop.initialAction)) <= 1e-5 * Math.abs(loop.initialAction),
        `${integrator}: ${a0} vs ${loop.initialAction}`,
      );
      loop.advance(1000);
      const a1 = enclosed(loop);
      const change = Math.abs(Math.abs(a1) - Math.abs(a0)) / Math.abs(a0);
      if (integrator === 'midpoint') assert.ok(change <= 1e-5, `midpoint: the area changed by ${change}`);
      else assert.ok(change >= 1e-3, `rk4: the area changed by only ${change}`);
      console.log(
        `loop area, pendulum, ${integrator}, 1000 steps at h = 0.05: relative change ${change.toExponential(2)} (${loop.points} points)`,
      );
    } finally {
      loop.dispose();
    }
  }
});

test('a chaotic loop outgrows its points: the DSP loop (midpoint) is flagged unresolved before its quadrature breaks down, and its measured change is tiny until then', () => {
  const loop = loopStudy(lab, { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 }, { points: 512 });
  try {
    let before = 0;
    while (loop.unresolvedAt === null && loop.step < 1500) {
      loop.advance(50);
      if (loop.unresolvedAt === null) before = Math.max(before, loop.relativeChange());
    }
    assert.ok(loop.unresolvedAt !== null && loop.unresolvedAt < 15, `flagged at ${loop.unresolvedAt}`);
    assert.ok(before <= 1e-10, `while resolved the change stays at round-off: ${before}`);
    loop.advance(300);
    // what the flag guards against: past it the "change" is the sampling's, not the method's
    assert.ok(loop.relativeChange() > 1e-6, `after: ${loop.relativeChange()}`);
    console.log(
      `DSP loop (midpoint, h = 0.01, ${loop.points} points): resolved until t = ${loop.unresolvedAt} s with change ≤ ${before.toExponential(2)}; 3 s later the quadrature gives ${loop.relativeChange().toExponential(2)}`,
    );
  } finally {
    loop.dispose();
  }
});
