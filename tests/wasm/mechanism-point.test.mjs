// Point masses in a mechanism (`"inertia": 0`) in the wasm module: the double spherical
// pendulum built from two point masses on rods runs to the native CLI's bits with the
// Lie-group step and RK4, follows the built-in DSP in Node as natively (a regular motion,
// 2000 steps), and the quaternion midpoint is refused naming the integrator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, runNative } from './helpers.mjs';

const STEPS = 2000;
const low = {
  system: 'double-spherical-pendulum',
  integrator: 'midpoint',
  h: 0.01,
  initial: {
    angles: [
      [0.3, 0],
      [0.5, 0.4],
    ],
    rates: [
      [0, 0.4],
      [0, -0.2],
    ],
  },
};

/** The mechanism of two point masses on rods from the DSP's canonical state (masses 1). */
function fromBodies(q, p, integrator) {
  const x1 = [q[0], q[1], q[2]];
  const x2 = [q[3], q[4], q[5]];
  return {
    system: 'mechanism',
    integrator,
    h: 0.01,
    params: {
      gravity: [0, 0, -9.81],
      bodies: [
        { name: 'bob1', mass: 1, inertia: 0, position: x1, velocity: [p[0], p[1], p[2]] },
        { name: 'bob2', mass: 1, inertia: 0, position: x2, velocity: [p[3], p[4], p[5]] },
      ],
      joints: [
        { type: 'ball', parent: 'world', child: 'bob1', childPoint: x1.map((x) => -x) },
        { type: 'ball', parent: 'bob1', child: 'bob2', childPoint: x1.map((x, k) => x - x2[k]) },
      ],
    },
  };
}

test('the DSP from point masses: the native bits in Node (lie-group, rk4), and the built-in DSP to 1e-12 after 2000 steps', () => {
  const dsp = lab.simulate(low);
  try {
    const bodies = fromBodies(Array.from(dsp.q), Array.from(dsp.p), 'lie-group');
    dsp.advance(STEPS);
    for (const integrator of ['lie-group', 'rk4']) {
      const scenario = { ...bodies, integrator };
      const sim = lab.simulate(scenario);
      try {
        sim.advance(STEPS);
        const native = runNative(['hash', '-', '--steps', String(STEPS)], JSON.stringify(scenario));
        assert.equal(native.status, 0, native.stderr);
        assert.equal(native.stdout, `${sim.hash()}\n`, integrator);
        if (integrator !== 'lie-group') continue;
        let gap = 0;
        for (let i = 0; i < 2; i++)
          for (let k = 0; k < 3; k++) {
            gap = Math.max(gap, Math.abs(sim.q[7 * i + k] - dsp.q[3 * i + k]), Math.abs(sim.p[6 * i + k] - dsp.p[3 * i + k]));
          }
        assert.ok(gap <= 1e-12, `the bobs differ by ${gap}`);
        assert.deepEqual(Array.from(sim.q.slice(3, 7)), [1, 0, 0, 0]);
      } finally {
        sim.dispose();
      }
    }
  } finally {
    dsp.dispose();
  }
});

test('the quaternion midpoint refuses a point mass by the integrator', () => {
  assert.throws(
    () => lab.simulate(fromBodies([0.6, 0, -0.8, 0.6, 0.8, -1.4], [0, 0, 0, 0, 0, 0], 'quaternion')),
    (e) => e.field === 'integrator' && /point mass/.test(e.message),
  );
});
