// lab.integrate: one wasm call gives what advance(1) and sim.q / sim.p read, bit for bit;
// oversize and malformed requests are refused by field; a refused step keeps the samples
// before it; both CLIs print the same trajectory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertHealthy, lab, root, runNative, runWasmCli } from './helpers.mjs';

const scene = (name) => {
  const { about: _about, ...scenario } = JSON.parse(readFileSync(join(root, 'scenes/lagrangian', `${name}.json`), 'utf8'));
  return scenario;
};

const sameBits = (a, b) => Object.is(a, b) || (a === b && a !== 0);

// Steps a simulation one step at a time and checks every sample against it.
function compareWithStepping(scenario, traj, every) {
  const sim = lab.simulate(scenario);
  try {
    for (let k = 0; k < traj.samples; k++) {
      if (k > 0) for (let s = 0; s < every; s++) sim.advance(1);
      assert.ok(sameBits(traj.t[k], sim.time), `t at sample ${k}`);
      const q = sim.q;
      const p = sim.p;
      q.forEach((x, i) => assert.ok(sameBits(traj.q[i][k], x), `q[${i}] at sample ${k}: ${traj.q[i][k]} vs ${x}`));
      p.forEach((x, i) => assert.ok(sameBits(traj.p[i][k], x), `p[${i}] at sample ${k}`));
      const d = sim.diagnostics();
      if (traj.energy) assert.ok(sameBits(traj.energy[k], d.energy), `energy at sample ${k}`);
      if (traj.constraint) assert.ok(sameBits(traj.constraint[k], d.constraint), `constraint at sample ${k}`);
      traj.momentum?.forEach((c, i) => assert.ok(sameBits(c[k], d.momentum[i]), `momentum[${i}] at sample ${k}`));
      traj.bodyMomentum?.forEach((c, i) => assert.ok(sameBits(c[k], d.bodyMomentum[i]), `bodyMomentum[${i}]`));
      for (const [name, c] of Object.entries(traj.conserved ?? {})) assert.ok(sameBits(c[k], d.conserved[name]), name);
    }
    return sim.step;
  } finally {
    sim.dispose();
  }
}

test('integrate equals advance(1) + sim.q, sim.p bit for bit (several systems and integrators)', () => {
  const cases = [
    [{ system: 'pendulum', integrator: 'midpoint' }, 400, 1, ['energy', 'constraint', 'iterations']],
    [{ system: 'double-spherical-pendulum', integrator: 'trapezoid' }, 300, 7, ['energy', 'momentum']],
    [{ system: 'rigid-body' }, 200, 3, ['energy', 'momentum', 'bodyMomentum']],
    [{ system: 'oscillator', integrator: 'sem' }, 250, 1, ['energy', 'dt']],
    [{ system: 'chain', integrator: 'rk4' }, 100, 10, []],
    [scene('kepler'), 300, 2, ['energy', 'momentum', 'conserved']],
    [scene('elastic-pendulum'), 200, 1, ['energy']],
  ];
  for (const [scenario, steps, every, include] of cases) {
    const traj = lab.integrate(scenario, { steps, every, include });
    assert.equal(traj.refusal, null);
    assert.equal(traj.samples, Math.floor(steps / every) + 1);
    for (const column of Object.values(traj.columns)) assert.equal(column.length, traj.samples);
    assert.equal(compareWithStepping(scenario, traj, every), (traj.samples - 1) * every);
  }
  // the variable step: its t is the sum of the steps recorded in dt
  const sem = lab.integrate({ system: 'oscillator', integrator: 'sem' }, { steps: 50, include: ['dt'] });
  let t = 0;
  for (let k = 1; k < sem.samples; k++) {
    t += sem.dt[k];
    assert.ok(sameBits(sem.t[k], t), `sem t at ${k}`);
  }
});

test('a refused step ends the trajectory: the samples before it and the refusal', () => {
  const scenario = { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.1 };
  const traj = lab.integrate(scenario, { steps: 3000, include: ['energy'] });
  assert.ok(traj.refusal, 'the run was not refused');
  const { step, code, stepsTaken, message } = traj.refusal;
  assert.ok(step > 1 && step < 3000);
  assert.equal(traj.samples, step);
  assert.equal(stepsTaken, step - 1);
  assert.ok(lab.vocabulary.refusalCodes.includes(code));
  assert.match(message, new RegExp(`^vilab: step ${step} refused: `));
  assert.equal(compareWithStepping(scenario, traj, 1), step - 1);
  // stepping one by one is refused at the same step
  const sim = lab.simulate(scenario);
  sim.advance(step - 1);
  assert.throws(
    () => sim.advance(1),
    (e) => e.step === step && e.code === code,
  );
  sim.dispose();
});

test('integrate refuses oversize and malformed requests by field, and the module stays usable', () => {
  const max = lab.limits.maxTrajectoryValues;
  assert.equal(max, 2 ** 23);
  const pendulum = { system: 'pendulum' }; // t + 3 q + 3 p = 7 columns
  const fits = Math.floor(max / 7) - 1;
  const field = (options, scenario = pendulum) => {
    try {
      lab.integrate(scenario, options);
      return '(accepted)';
    } catch (e) {
      assert.ok(e.message.startsWith(`vilab: ${e.field}: `), e.message);
      return e.field;
    }
  };
  assert.equal(field({ steps: fits, every: 1 }), '(accepted)');
  assert.equal(field({ steps: fits + 1, every: 1 }), 'steps');
  assert.equal(field({ steps: fits + 1, every: 2 }), '(accepted)');
  assert.equal(field({ steps: 2 ** 53 - 1 }), 'steps');
  assert.equal(field({ steps: 2 ** 53 }), 'steps');
  assert.equal(field({ steps: -1 }), 'steps');
  assert.equal(field({ steps: 1.5 }), 'steps');
  assert.equal(field({ steps: '10' }), 'steps');
  assert.equal(field({}), 'steps');
  assert.equal(field({ steps: 10, every: 0 }), 'every');
  assert.equal(field({ steps: 10, every: Number.NaN }), 'every');
  assert.equal(field({ steps: 10, include: 'energy' }), 'include');
  assert.equal(field({ steps: 10, include: ['energy', 'enrgy'] }), 'include[1]');
  assert.equal(field({ steps: 10, include: ['energy', 3] }), 'include[1]');
  assert.equal(field({ steps: 10, include: ['dt'] }), 'include[0]');
  assert.equal(field({ steps: 10, stride: 2 }), 'options.stride');
  assert.equal(field({ steps: 10 }, { system: 'pendulum', h: -1 }), 'h');
  assert.throws(() => lab.integrate(pendulum, { steps: fits + 1 }), /raise every/);
  assertHealthy();
});

test('vilab integrate prints the same CSV natively and in wasm, with the same refusal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vilab-integrate-'));
  const file = (name, scenario) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(scenario));
    return path;
  };
  const kepler = file('kepler', scene('kepler'));
  const args = ['integrate', kepler, '--steps', '100', '--every', '10', '--include', 'energy,momentum'];
  const native = runNative(args);
  const wasm = runWasmCli(args);
  assert.equal(native.status, 0, native.stderr);
  assert.equal(wasm.stdout, native.stdout);
  const lines = native.stdout.trim().split('\n');
  assert.equal(lines.length, 12);
  const traj = lab.integrate(scene('kepler'), { steps: 100, every: 10, include: ['energy', 'momentum'] });
  assert.equal(lines[0], Object.keys(traj.columns).join(','));
  assert.deepEqual(
    lines[11].split(',').map(Number),
    Object.values(traj.columns).map((c) => c[10]),
  );
  const refused = file('refused', { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.1 });
  const a = runNative(['integrate', refused, '--steps', '3000']);
  const b = runWasmCli(['integrate', refused, '--steps', '3000']);
  assert.equal(a.status, 1);
  assert.equal(b.status, 1);
  assert.equal(b.stdout, a.stdout);
  assert.equal(b.stderr, a.stderr);
  for (const bad of [
    ['--include', 'enrgy'],
    ['--every', '0'],
  ]) {
    const n = runNative(['integrate', kepler, '--steps', '10', ...bad]);
    const w = runWasmCli(['integrate', kepler, '--steps', '10', ...bad]);
    assert.equal(n.status, 2);
    assert.equal(w.status, 2);
    assert.equal(w.stderr, n.stderr);
  }
});

test("docs/api.md's plotting example: the columns it plots, and the midpoint's bounded energy error", () => {
  const traj = lab.integrate(
    { system: 'pendulum', integrator: 'midpoint', h: 0.01, initial: { angles: [2.5] } },
    { steps: 100000, every: 10, include: ['energy'] },
  );
  assert.equal(traj.refusal, null);
  assert.equal(traj.samples, 10001);
  assert.equal(traj.t[10000], 1000);
  const drift = traj.energy.map((e) => e - traj.energy[0]);
  const worst = drift.reduce((m, d) => Math.max(m, Math.abs(d)), 0);
  assert.ok(worst < 1e-3 * Math.abs(traj.energy[0]), `|E − E₀| ≤ ${worst}`);
  assert.ok(worst > 0, 'the energy error is measured, not zero');
});
