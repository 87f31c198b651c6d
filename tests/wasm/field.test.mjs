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
