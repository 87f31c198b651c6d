// The midpoint rule on unit quaternions on mechanisms (`quaternion` on the `mechanism`
// system) in the wasm module: the registry offers it, every scene of scenes/mechanisms
// runs with it to the native CLI's bits, keeps its joints and |q| = 1, and follows the
// Lie-group step's motion to rounding (the same discrete Lagrangian on the joints, the
// same split of the loads).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lab, root, runNative } from './helpers.mjs';

const STEPS = 2000;
const dir = join(root, 'scenes', 'mechanisms');
const scenes = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => {
    const { about, ...scenario } = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    return { name: f.slice(0, -'.json'.length), scenario };
  });

test('the registry offers the quaternion midpoint on mechanisms, order 2', () => {
  const entry = lab.integrators.find((i) => i.id === 'quaternion');
  assert.equal(entry.order, 2);
  assert.ok(entry.systems.includes('mechanism'), `systems: ${entry.systems.join(', ')}`);
  assert.ok(lab.systems.find((s) => s.id === 'mechanism').integrators.includes('quaternion'));
});

// The registry's forcing claim is per system (forcedSystems), and it is what the parser does:
// a forced scenario of each system is accepted by exactly the integrators that list it.
test('forces and forcedSystems: the quaternion midpoint models forcing on mechanisms only, as the parser enforces', () => {
  const entry = lab.integrators.find((i) => i.id === 'quaternion');
  assert.equal(entry.forces, false, 'not on every system it applies to');
  assert.deepEqual(entry.forcedSystems, ['mechanism']);
  for (const i of lab.integrators) {
    assert.ok(
      i.forcedSystems.every((s) => i.systems.includes(s)),
      `${i.id}: forcedSystems ⊆ systems`,
    );
    assert.equal(i.forces, i.forcedSystems.length === i.systems.length, `${i.id}: forces means every system`);
  }
  const pendulum = JSON.parse(readFileSync(join(dir, 'compound-double-pendulum.json'), 'utf8'));
  const forced = {
    'rigid-body': { system: 'rigid-body', params: { damping: 0.1 } },
    'heavy-top': { system: 'heavy-top', params: { damping: 0.1 } },
    mechanism: {
      system: 'mechanism',
      params: { ...pendulum.params, bodies: pendulum.params.bodies.map((b) => ({ ...b, damping: 0.2 })) },
    },
  };
  for (const [system, scenario] of Object.entries(forced)) {
    for (const id of lab.systems.find((s) => s.id === system).integrators) {
      const claims = lab.integrators.find((i) => i.id === id).forcedSystems.includes(system);
      let error = null;
      try {
        lab.normalize({ ...scenario, integrator: id });
      } catch (e) {
        error = e;
      }
      if (claims) assert.equal(error, null, `${id} on a forced ${system}: accepted (${error?.message})`);
      else {
        assert.equal(error?.field, 'integrator', `${id} on a forced ${system}: refused naming integrator`);
        // (energy-momentum on a mechanism names the term that breaks its energy first)
        assert.match(error.message, /does not model forcing|conserves the energy of a mechanism under gravity alone/);
      }
    }
  }
});

// Every scene, the gravity-gradient satellite's potential V(R, t) included, and the
// compound double pendulum with damping (angular and linear) and a torque: the loads
// enter both geometric steps by the same discrete Lagrange–d'Alembert split.
const pendulum = scenes.find((s) => s.name === 'compound-double-pendulum').scenario;
const forced = {
  name: 'compound-double-pendulum, damped and torqued',
  scenario: {
    ...pendulum,
    params: {
      ...pendulum.params,
      bodies: pendulum.params.bodies.map((b, i) =>
        i === 1 ? { ...b, damping: 0.3, linearDamping: 0.5, torque: ['0.3*cos(t)', 'z1', '0'] } : { ...b, damping: 0.2 },
      ),
    },
  },
};

for (const { name, scenario } of [...scenes, forced]) {
  test(`${name}: the quaternion midpoint gives the native bits, keeps its joints and |q|, follows the Lie-group step`, () => {
    const run = (integrator) => {
      const sim = lab.simulate({ ...scenario, integrator }, { historyStride: 1000 });
      try {
        sim.advance(STEPS);
        return { q: Array.from(sim.q), hash: sim.hash(), constraint: sim.diagnostics().constraint };
      } finally {
        sim.dispose();
      }
    };
    const quaternion = run('quaternion');
    const native = runNative(['hash', '-', '--steps', String(STEPS)], JSON.stringify({ ...scenario, integrator: 'quaternion' }));
    assert.equal(native.status, 0, native.stderr);
    assert.equal(native.stdout, `${quaternion.hash}\n`);
    assert.ok(quaternion.constraint <= 1e-12, `joints and | |q| − 1 |: ${quaternion.constraint}`);
    const lieGroup = run('lie-group');
    const apart = Math.max(...quaternion.q.map((x, i) => Math.abs(x - lieGroup.q[i])));
    assert.ok(apart <= 1e-10, `|Δq| from the Lie-group step after ${STEPS} steps: ${apart}`);
  });
}
