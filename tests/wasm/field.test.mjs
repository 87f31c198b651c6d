// Fields in wasm: every shipped scene of scenes/fields/ on every integrator it accepts
// gives the native `vilab hash` after the same steps (the AVI also with two step sizes),
// a typed density refuses the other integrators by field, and the lean module leaves
// fields to the full one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, runNative, VilabError } from './helpers.mjs';
import { fieldSceneRuns, fieldScenes } from './field-runs.mjs';

const scenes = fieldScenes();
const STEPS = 300;

test('scenes/fields ships the seven field scenes, each with its lesson', () => {
  const ids = scenes.map((s) => s.id).sort();
  assert.deepEqual(ids, [
    'breather',
    'kink-antikink',
    'klein-gordon',
    'nonlinear-string',
    'phi4-kink',
    'plucked-string',
    'sine-gordon-kink',
  ]);
  for (const { id, about } of scenes) assert.ok(about.title && about.lesson, id);
});

for (const { name, scenario: run } of fieldSceneRuns(lab.system('field').integrators)) {
  test(`native = wasm hash: ${name}`, () => {
    const sim = lab.simulate(run, { historyStride: 100 });
    sim.advance(STEPS);
    const native = runNative(['hash', '-', '--steps', String(STEPS)], JSON.stringify(run));
    assert.equal(native.status, 0, native.stderr);
    assert.equal(native.stdout, `${sim.hash()}\n`);
    assert.ok(Number.isFinite(sim.diagnostics().energy));
    sim.dispose();
  });
}

test('a typed density runs the box scheme only: the others are refused by field', () => {
  const { scenario } = scenes.find((s) => s.id === 'nonlinear-string');
  for (const integrator of ['trapezoid', 'rk4', 'dopri5', 'avi']) {
    assert.throws(
      () => lab.simulate({ ...scenario, integrator }),
      (e) => e instanceof VilabError && e.field === 'integrator',
      integrator,
    );
  }
});

test('the field system: model, view and its integrators in the registry', () => {
  const system = lab.system('field');
  assert.equal(system.model, 'field');
  assert.equal(system.view, 'field');
  assert.equal(system.state, 'cotangent');
  assert.deepEqual([...system.integrators].sort(), ['avi', 'dopri5', 'midpoint', 'rk4', 'trapezoid']);
  const avi = lab.integrators.find((i) => i.id === 'avi');
  assert.equal(avi.family, 'variational');
  assert.equal(avi.order, 2);
});

test('sim.lawResidual(): the multisymplectic law per node, kept by the box and the leapfrog, broken by RK4', () => {
  const { scenario } = scenes.find((s) => s.id === 'plucked-string');
  const residual = (integrator) => {
    const sim = lab.simulate({ ...scenario, integrator }, { historyStride: 100 });
    sim.advance(200);
    const before = sim.hash();
    const out = sim.lawResidual();
    assert.equal(sim.hash(), before, 'the run is unchanged');
    assert.ok(out.nodes instanceof Float64Array);
    assert.equal(out.nodes.length, scenario.params.grid.points);
    assert.equal(out.nodes[0], 0, 'a fixed end has no dual cell');
    assert.equal(out.max, Math.max(...out.nodes));
    sim.dispose();
    return out;
  };
  const box = residual('midpoint');
  const leapfrog = residual('trapezoid');
  const rk4 = residual('rk4');
  assert.equal(box.law, 'midpoint');
  assert.equal(leapfrog.law, 'trapezoid');
  assert.equal(rk4.law, 'trapezoid');
  assert.ok(box.max <= 1e-12, `box ${box.max}`);
  assert.ok(leapfrog.max <= 1e-12, `leapfrog ${leapfrog.max}`);
  assert.ok(rk4.max >= 1e-8, `RK4 ${rk4.max}`);
  for (const integrator of ['dopri5', 'avi']) {
    const sim = lab.simulate({ ...scenario, integrator });
    assert.throws(
      () => sim.lawResidual(),
      (e) => e instanceof VilabError && e.field === 'integrator',
      integrator,
    );
    sim.dispose();
  }
  const pendulum = lab.simulate({ system: 'pendulum' });
  assert.throws(
    () => pendulum.lawResidual(),
    (e) => e instanceof VilabError && e.field === 'integrator',
  );
  pendulum.dispose();
});
