// lab.exact: each system's exact solution (its registry capability `exact`, the conditions
// checked by the core) behind one call; and lab.exactRigidBody: the exact free rigid body
// (core FreeRigidBodyExact) through the bindings. It agrees with a Lie-group run to O(h²),
// starts exactly where the simulation starts, refuses other systems and bad input, and
// frees its memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, root, assertHealthy, assertInputError } from './helpers.mjs';

const presets = JSON.parse(readFileSync(`${root}/scenes/rigid_body_presets.json`, 'utf8'));
const DZHANIBEKOV = presets.find((p) => p.id === 'dzhanibekov').scenario;

/** Rotation angle between two unit quaternions (sign-insensitive; |a − b| = 2 sin(θ/4)), rad. */
function angle(a, b) {
  const minus = Math.hypot(...a.map((x, i) => x - b[i]));
  const plus = Math.hypot(...a.map((x, i) => x + b[i]));
  return 4 * Math.asin(Math.min(1, Math.min(minus, plus) / 2));
}
const dist = (a, b) => Math.hypot(...a.map((x, i) => x - b[i]));

/** Errors of Π and of the orientation of a lie-group run against the exact solution at t = T. */
function errors(scenario, h, T) {
  const sc = { ...scenario, integrator: 'lie-group', h };
  const exact = lab.exactRigidBody(sc);
  const sim = lab.simulate(sc, { historyStride: 1e6 });
  try {
    sim.advance(Math.round(T / h));
    return {
      Pi: dist(sim.diagnostics().bodyMomentum, exact.Pi(sim.time)),
      R: angle(sim.visualState(), exact.orientation(sim.time)),
    };
  } finally {
    sim.dispose();
    exact.dispose();
  }
}

test('the exact solution and a lie-group run agree to O(h²) (Dzhanibekov preset, t = 5)', () => {
  const coarse = errors(DZHANIBEKOV, 0.004, 5);
  const fine = errors(DZHANIBEKOV, 0.002, 5);
  for (const key of ['Pi', 'R']) {
    const order = Math.log2(coarse[key] / fine[key]);
    assert.ok(Math.abs(order - 2) < 0.15, `${key}: observed order ${order.toFixed(3)} (errors ${coarse[key]}, ${fine[key]})`);
  }
  assert.ok(fine.Pi < 1e-4 * 4 && fine.R < 1e-4, `small errors at h = 0.002: ${JSON.stringify(fine)}`);
});

test('the exact solution starts where the simulation starts; period and branch', () => {
  // a generic orientation, unit only to 1e-10 (normalized exactly as the core does)
  const q = [0.8, 0.36, -0.48, 0.0];
  const n = Math.hypot(...q) * (1 + 1e-10);
  const sc = { ...DZHANIBEKOV, initial: { orientation: q.map((x) => x / n), omega: [0.3, 1.7, -0.2] } };
  const exact = lab.exactRigidBody(sc);
  const sim = lab.simulate(sc);
  assert.ok(angle(exact.orientation(0), sim.visualState()) < 1e-14);
  const Pi0 = sim.diagnostics().bodyMomentum;
  assert.ok(dist(exact.Pi(0), Pi0) < 1e-13 * Math.hypot(...Pi0));
  const o = exact.orientation(3.7);
  assert.ok(Array.isArray(o) && o.length === 4 && Math.abs(Math.hypot(...o) - 1) < 1e-14);
  assert.ok(Array.isArray(exact.Pi(3.7)) && exact.Pi(3.7).length === 3);
  // |Π| and the energy are constant along the exact solution
  const I = sc.params.inertia;
  const H = (P) => P.reduce((s, p, i) => s + (p * p) / I[i], 0);
  for (const t of [1, 10, 100]) {
    const P = exact.Pi(t);
    assert.ok(Math.abs(Math.hypot(...P) / Math.hypot(...Pi0) - 1) < 1e-12);
    assert.ok(Math.abs(H(P) / H(Pi0) - 1) < 1e-12);
  }
  sim.dispose();
  exact.dispose();

  const dz = lab.exactRigidBody(DZHANIBEKOV);
  assert.ok(Math.abs(dz.period - 19.55) < 0.01, `period ${dz.period}`); // the preset's text
  assert.ok(['max-axis', 'min-axis'].includes(dz.branch));
  assert.ok(Math.abs(dist(dz.Pi(dz.period), dz.Pi(0))) < 1e-9, 'Π is periodic with that period');
  dz.dispose();
  const sym = lab.exactRigidBody({ system: 'rigid-body', params: { inertia: [1, 1, 2] }, initial: { omega: [0.5, 0, 2] } });
  assert.equal(sym.branch, 'symmetric');
  assert.ok(Math.abs(sym.period - (2 * Math.PI) / Math.abs(2 * 2 * (1 / 2 - 1))) < 1e-12);
  sym.dispose();
  const steady = lab.exactRigidBody({ system: 'rigid-body', initial: { omega: [0, 0, 0] } });
  assert.equal(steady.period, Infinity);
  steady.dispose();
});

test('exactRigidBody refuses other systems, bad scenarios and bad times', () => {
  for (const system of ['heavy-top', 'double-spherical-pendulum', 'oscillator']) {
    assertInputError(() => lab.exactRigidBody({ system }), 'system', /free rigid body only.*heavy-top|free rigid body only/);
  }
  assertInputError(() => lab.exactRigidBody({ system: 'rigid-body', params: { inertia: [1, -2, 3] } }), 'params.inertia[1]');
  assertInputError(() => lab.exactRigidBody({ system: 'rigid-body', initial: { orientation: [1, 1, 0, 0] } }), 'initial.orientation');
  assertInputError(() => lab.exactRigidBody({ system: 'rigid-body', params: { inertia: [1, 2, 4] } }), 'params.inertia');
  assertInputError(() => lab.exactRigidBody(42), 'scenario');
  const exact = lab.exactRigidBody(DZHANIBEKOV);
  for (const t of [NaN, Infinity, '1', undefined]) {
    assertInputError(() => exact.Pi(t), 't');
    assertInputError(() => exact.orientation(t), 't');
  }
  exact.dispose();
  assertHealthy();
});

test('dispose frees the exact solution; using it afterwards throws', () => {
  for (let i = 0; i < 50; i++) lab.exactRigidBody(DZHANIBEKOV).dispose();
  const used = lab.heapUsed();
  for (let i = 0; i < 2000; i++) {
    const e = lab.exactRigidBody(DZHANIBEKOV);
    e.orientation(i * 0.01);
    e.Pi(i * 0.01);
    e.dispose();
    e.dispose(); // idempotent
  }
  assert.equal(lab.heapUsed(), used, 'heap not flat');
  const e = lab.exactRigidBody(DZHANIBEKOV);
  e.dispose();
  assert.equal(e.disposed, true);
  assertInputError(() => e.orientation(0), 'exactRigidBody', /after dispose/);
  assertInputError(() => e.Pi(0), 'exactRigidBody', /after dispose/);
  assertInputError(() => e.period, 'exactRigidBody', /after dispose/);
});

test('lab.exact: the solution each system declares, where its conditions hold, in canonical coordinates', () => {
  for (const system of lab.systems) {
    if (!system.exact) {
      assertInputError(() => lab.exact({ system: system.id }), 'system', /no exact solution/);
      continue;
    }
    const exact = lab.exact({ system: system.id });
    const sim = lab.simulate({ system: system.id });
    try {
      assert.equal(exact.solution, system.exact.solution);
      // it starts where the simulation starts, in the same canonical (q, p)
      const { q, p } = exact.state(0);
      assert.ok(dist(q, sim.q) < 1e-13 && dist(p, sim.p) < 1e-13, `${system.id}: ${q}, ${p} against ${sim.q}, ${sim.p}`);
      assert.ok(exact.period > 0);
    } finally {
      sim.dispose();
      exact[Symbol.dispose]();
    }
    assert.equal(exact.disposed, true);
    assert.throws(
      () => exact.state(0),
      (e) => e.code === 'disposed' && /used after dispose/.test(e.message),
    );
  }
});

test('lab.exact names the unmet condition (code no-exact-solution)', () => {
  for (const [scenario, field] of [
    [{ system: 'oscillator', params: { damping: 0.5 } }, 'params.damping'],
    [{ system: 'pendulum', params: { g: 0 } }, 'params.g'],
    [{ system: 'pendulum', params: { damping: 0.1 } }, 'params.damping'],
    [{ system: 'rigid-body', params: { torque: [0, 0.1, 0] } }, 'params.torque'],
    [{ system: 'rigid-body', params: { damping: 0.1 } }, 'params.damping'],
    [{ system: 'heavy-top' }, 'system'],
  ]) {
    const e = assertInputError(() => lab.exact(scenario), field);
    assert.equal(e.code, 'no-exact-solution');
  }
  // what each system declares is what the core checks
  const pendulum = lab.system('pendulum').exact;
  assert.deepEqual(pendulum, {
    solution: 'pendulum',
    requires: [
      { field: 'params.damping', equals: 0 },
      { field: 'params.g', above: 0 },
    ],
  });
  assertInputError(() => lab.exact({ system: 'pendulum', h: -1 }), 'h');
});

test('the exact oscillator (core exact/oscillator.hpp): x₀ cos ωt + (v₀/ω) sin ωt, period 2π/ω', () => {
  const sc = { system: 'oscillator', params: { mass: 2, stiffness: 8 }, initial: { position: 0.5, velocity: -1 } };
  const exact = lab.exact(sc);
  const w = 2;
  assert.ok(Math.abs(exact.period - Math.PI) < 1e-15);
  for (const t of [0, 0.3, 7, 1e4]) {
    const [x, v] = exact.at(t);
    assert.ok(Math.abs(x - (0.5 * Math.cos(w * t) - 0.5 * Math.sin(w * t))) < 1e-11 * Math.max(1, t), `x(${t})`);
    assert.ok(Math.abs(v - (-1 * Math.sin(w * t) - Math.cos(w * t))) < 1e-11 * Math.max(1, t), `v(${t})`);
    assert.deepEqual(exact.state(t), { q: [x], p: [2 * v] });
  }
  assertInputError(() => exact.at(NaN), 't');
  exact.dispose();
  // the wrappers are lab.exact for their one system
  const viaWrapper = lab.exactPendulum({ system: 'pendulum' });
  const direct = lab.exact({ system: 'pendulum' });
  assert.deepEqual(viaWrapper.state(1.3), direct.state(1.3));
  viaWrapper.dispose();
  direct.dispose();
  const body = lab.exact(DZHANIBEKOV);
  assert.deepEqual(body.state(2), { q: body.orientation(2), p: body.Pi(2) });
  body.dispose();
});
