// Fields in wasm: every shipped scene of scenes/fields/ on every integrator it accepts
// gives the native `vilab hash` after the same steps (the AVI also with two step sizes),
// or, where the scene's h is beyond the method's limit (the stiff string's leapfrog and
// RK4), the native refusal at the same step,
// a typed density refuses the other integrators by field, and the lean module leaves
// fields to the full one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { lab, runNative, VilabError } from './helpers.mjs';

const dir = new URL('../../scenes/fields/', import.meta.url);
const scenes = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => {
    const { about, ...scenario } = JSON.parse(readFileSync(new URL(f, dir), 'utf8'));
    return { id: f.replace(/\.json$/, ''), about, scenario };
  });
const STEPS = 300;

test('scenes/fields ships the eight field scenes, each with its lesson', () => {
  const ids = scenes.map((s) => s.id).sort();
  assert.deepEqual(ids, [
    'breather',
    'kink-antikink',
    'klein-gordon',
    'nonlinear-string',
    'phi4-kink',
    'plucked-string',
    'sine-gordon-kink',
    'stiff-string',
  ]);
  for (const { id, about } of scenes) assert.ok(about.title && about.lesson, id);
});

const typed = (scenario) => typeof scenario.params.density.lagrangian === 'string';

for (const { id, scenario } of scenes) {
  for (const integrator of lab.system('field').integrators) {
    if (typed(scenario) && integrator !== 'midpoint') continue;
    const variants = integrator === 'avi' ? [{}, { options: { fine: 3, from: 0.5 } }] : [{}];
    // the scene's options are its own integrator's
    const { options, ...base } = scenario;
    const own = integrator === scenario.integrator && options ? { options } : {};
    for (const extra of variants) {
      const run = { ...base, integrator, ...own, ...extra };
      test(`native = wasm hash: ${id}/${integrator}${extra.options ? ' (two steps)' : ''}`, () => {
        const sim = lab.simulate(run, { historyStride: 100 });
        const native = runNative(['hash', '-', '--steps', String(STEPS)], JSON.stringify(run));
        try {
          sim.advance(STEPS);
        } catch (e) {
          // beyond the method's limit: refused as natively, at the same step
          const at = e.message.match(/step \d+ refused/)?.[0];
          assert.ok(e instanceof VilabError && at, e.message);
          assert.equal(native.status, 1, `native ran on where wasm refused: ${e.message}`);
          assert.ok(native.stderr.includes(at), `${native.stderr} | wasm: ${e.message}`);
          sim.dispose();
          return;
        }
        assert.equal(native.status, 0, native.stderr);
        assert.equal(native.stdout, `${sim.hash()}\n`);
        assert.ok(Number.isFinite(sim.diagnostics().energy));
        sim.dispose();
      });
    }
  }
}

test('the stiff string: a κ(x) out of range and a fine too small for the stiff cells are refused by field', () => {
  const { scenario } = scenes.find((s) => s.id === 'stiff-string');
  const refusal = (change) => {
    try {
      lab.simulate(change(structuredClone(scenario))).dispose();
    } catch (e) {
      assert.ok(e instanceof VilabError, e.message);
      return { field: e.field, message: e.message };
    }
    return null;
  };
  const negative = refusal((s) => {
    s.params.density.kappa = '1 - 2*x'; // 0 at the centre x = 0.5
    return s;
  });
  assert.equal(negative?.field, 'params.density.kappa');
  assert.match(negative.message, /at x = 0\.5/);
  const few = refusal((s) => {
    s.options.fine = 2; // h/2 is the stiff cells' limit itself
    return s;
  });
  assert.equal(few?.field, 'options.fine');
  assert.match(few.message, /needs 3 steps per h/);
});

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
