// Fields in wasm: every shipped scene of scenes/fields/ on every integrator it accepts
// gives the native `vilab hash` after the same steps (the AVI also with two step sizes),
// or, where the scene's h is beyond the method's limit (the stiff string's leapfrog and
// RK4), the native refusal at the same step,
// a typed density refuses the AVI by field, a density of several components
// reports its declared symmetries' charges (kept by the box scheme and the leapfrog, not by
// RK4), keeps the multisymplectic law on the box scheme and refuses bad components by
// field, and the lean
// module leaves fields to the full one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, runNative, VilabError } from './helpers.mjs';
import { fieldSceneRuns, fieldScenes } from './field-runs.mjs';

const scenes = fieldScenes();
const STEPS = 300;

test('scenes/fields ships the nine field scenes, each with its lesson', () => {
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
    'whirling-string',
  ]);
  for (const { id, about } of scenes) assert.ok(about.title && about.lesson, id);
});

for (const { name, scenario: run } of fieldSceneRuns(lab.system('field').integrators)) {
  test(`native = wasm hash: ${name}`, () => {
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

test('a typed density runs every field integrator: the box scheme, the leapfrog, the AVI, RK4 and DOPRI5', () => {
  const { scenario } = scenes.find((s) => s.id === 'nonlinear-string');
  for (const integrator of ['midpoint', 'trapezoid', 'avi', 'rk4', 'dopri5']) lab.simulate({ ...scenario, integrator }).dispose();
});

test('several components: the whirling string reports its rotation’s charge, kept to rounding; bad components are refused by field', () => {
  const { scenario, about } = scenes.find((s) => s.id === 'whirling-string');
  // the lesson's numbers: a = 0.1, two components (2 × 2 blocks)
  assert.equal(scenario.params.constants.a, 0.1);
  assert.match(about.lesson, /a = 0\.1/);
  assert.deepEqual(scenario.params.density.fields, ['u', 'v']);
  assert.match(about.lesson, /2 × 2 blocks/);
  const sim = lab.simulate(scenario, { historyStride: 10 });
  assert.ok(sim.history.columns.includes('momentum.rotation'), sim.history.columns.join(', '));
  const n = scenario.params.grid.points;
  assert.equal(sim.q.length, 2 * n);
  assert.equal(sim.visualState().length, 2 * n);
  const J0 = sim.diagnostics().momentum[0];
  let expected = 0;
  for (let i = 0; i < n; i++) expected += sim.q[i] * sim.p[n + i] - sim.q[n + i] * sim.p[i];
  assert.ok(Math.abs(J0 - expected) <= 1e-15, `J = Σ(u p_v − v p_u): ${J0} against ${expected}`);
  sim.advance(2000);
  const J = sim.diagnostics().momentum[0];
  assert.ok(Math.abs(J - J0) <= 1e-12 * Math.abs(J0), `J_rotation ${J0} → ${J}`);
  sim.dispose();
  const refusal = (change) => {
    try {
      lab.simulate(change(structuredClone(scenario))).dispose();
    } catch (e) {
      assert.ok(e instanceof VilabError, e.message);
      return e.field;
    }
    return null;
  };
  assert.equal(
    refusal((s) => ((s.params.density.fields = ['u', 'u']), s)),
    'params.density.fields[1]',
  );
  assert.equal(
    refusal((s) => ((s.params.density.fields = ['u', 'v', 'w', 'y', 'z']), s)),
    'params.density.fields',
  );
  assert.equal(
    refusal((s) => (delete s.initial.v, s)),
    'initial.v',
  );
  assert.equal(
    refusal(
      (s) => (
        (s.params.density.symmetries.rotation = [
          [1, 0],
          [0, 1],
        ]),
        s
      ),
    ),
    'params.density.symmetries.rotation',
  );
  // the AVI runs it; a step beyond the cells' CFL limit is refused naming h
  assert.equal(
    refusal((s) => ((s.integrator = 'avi'), s)),
    null,
  );
  assert.equal(
    refusal((s) => ((s.integrator = 'avi'), (s.h = 0.01), s)),
    'h',
  );
  // the explicit methods need a kinetic part ½ u_tᵀ M u_t with M constant
  assert.equal(
    refusal(
      (s) => (
        (s.integrator = 'trapezoid'),
        (s.params.density.lagrangian = '0.5*((1 + u^2 + v^2)*(u_t^2 + v_t^2)) - (sqrt(1 + u_x^2 + v_x^2) - 1)'),
        s
      ),
    ),
    'integrator',
  );
});

test('several components on the explicit methods: the leapfrog keeps the rotation’s charge to rounding, RK4 does not', () => {
  const { scenario } = scenes.find((s) => s.id === 'whirling-string');
  const drift = (integrator) => {
    const sim = lab.simulate({ ...scenario, integrator }, { historyStride: 100 });
    const J0 = sim.diagnostics().momentum[0];
    sim.advance(2000);
    const J = sim.diagnostics().momentum[0];
    sim.dispose();
    return Math.abs(J - J0) / Math.abs(J0);
  };
  const leapfrog = drift('trapezoid');
  const rk4 = drift('rk4');
  assert.ok(leapfrog <= 1e-12, `leapfrog ${leapfrog}`);
  assert.ok(rk4 >= 1e-11, `RK4 ${rk4}`);
});

test('sim.lawResidual() on typed densities: the leapfrog keeps the law of its trapezoid cell to rounding, RK4 breaks it, DOPRI5 says why it has none', () => {
  for (const id of ['nonlinear-string', 'whirling-string']) {
    const { scenario } = scenes.find((s) => s.id === id);
    const residual = (integrator) => {
      const sim = lab.simulate({ ...scenario, integrator }, { historyStride: 100 });
      sim.advance(100);
      const before = sim.hash();
      const out = sim.lawResidual();
      assert.equal(sim.hash(), before, 'the run is unchanged');
      assert.equal(out.nodes.length, scenario.params.grid.points);
      assert.equal(out.law, 'trapezoid');
      sim.dispose();
      return out.max;
    };
    const leapfrog = residual('trapezoid');
    const rk4 = residual('rk4');
    assert.ok(leapfrog <= 1e-12, `${id}: leapfrog ${leapfrog}`);
    assert.ok(rk4 >= 1e-8, `${id}: RK4 ${rk4}`);
    const sim = lab.simulate({ ...scenario, integrator: 'dopri5' });
    assert.throws(
      () => sim.lawResidual(),
      (e) => e instanceof VilabError && e.field === 'integrator' && /substeps adapt/.test(e.message),
      id,
    );
    sim.dispose();
  }
});

test('several components on the box scheme: sim.lawResidual() keeps the multisymplectic law to rounding, fixed and periodic ends', () => {
  const { scenario } = scenes.find((s) => s.id === 'whirling-string');
  const ring = structuredClone(scenario);
  ring.params.grid = { ...ring.params.grid, ends: 'periodic', points: 64 };
  ring.initial = { u: '0.05*cos(2*pi*x)', ut: '0.3*sin(2*pi*x)', v: '0.05*sin(2*pi*x)', vt: '0' };
  for (const s of [scenario, ring]) {
    const sim = lab.simulate(s, { historyStride: 100 });
    sim.advance(100);
    const before = sim.hash();
    const out = sim.lawResidual();
    assert.equal(sim.hash(), before, 'the run is unchanged');
    assert.equal(out.law, 'midpoint');
    assert.equal(out.nodes.length, s.params.grid.points, 'one number per node, the components summed');
    assert.ok(out.max <= 1e-12, `${s.params.grid.ends} ends: box ${out.max}`);
    sim.dispose();
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
