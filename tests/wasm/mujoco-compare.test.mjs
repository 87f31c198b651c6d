// A mechanism as MJCF and MuJoCo's state back (web/sim/mjcf-export.js, web/sim/mujoco-compare.js):
// every shipped mechanism scene MuJoCo can represent goes export → vilab's own importer →
// the same mechanism (the same bodies and joints, the same run to 1e-12 after 200 steps);
// the others are refused naming the field; and at t = 0 MuJoCo's energy (mj_energyPos +
// mj_energyVel) equals vilab's energy of the mapped state to 1e-12 relative, its joints
// closed to rounding, for RK4 and implicit alike; and the page's eval-free build of MuJoCo's
// loader steps the same bits as the package's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lab, root } from './helpers.mjs';
import { mechanismToMjcf, mjcfRefusal } from '../../web/sim/mjcf-export.js';
import { loadMujoco, MUJOCO_MEGABYTES, MUJOCO_METHODS, MujocoSimulation, mujocoRefusal } from '../../web/sim/mujoco-compare.js';

const dir = join(root, 'scenes/mechanisms');
const scenes = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f.replace(/\.json$/, ''), scenario: JSON.parse(readFileSync(join(dir, f), 'utf8')) }));
const exportable = scenes.filter((s) => !mjcfRefusal(s.scenario));
const STEPS = 200;

const gap = (a, b) => Math.max(...Array.from(a, (x, i) => Math.abs(x - b[i])));
const close = (a, b, tol, what) => assert.ok(gap(a, b) <= tol, `${what}: ${a} vs ${b}`);

test('five of the six shipped mechanism scenes export; the satellite is refused for its typed potential', () => {
  assert.deepEqual(
    exportable.map((s) => s.name),
    ['compound-double-pendulum', 'gyroscope', 'lagrange-top', 'middle-axis', 'physical-pendulum'],
  );
  const satellite = scenes.find((s) => s.name === 'gravity-gradient-satellite').scenario;
  assert.match(mujocoRefusal(satellite), /^params\.potential: a typed potential has no MJCF counterpart$/);
  assert.throws(() => mechanismToMjcf(satellite), /vilab: params\.potential: a typed potential/);
});

test('refusals name the field: torque, damping, a point mass, a closed loop, a body fixed to the world, no rigid bodies', () => {
  const base = exportable[0].scenario;
  const withBody = (patch) => ({
    ...base,
    params: { ...base.params, bodies: [{ ...base.params.bodies[0], ...patch }, base.params.bodies[1]] },
  });
  assert.match(mujocoRefusal(withBody({ torque: ['0', '0', '1'] })), /^params\.bodies\[0\]\.torque: /);
  assert.match(mujocoRefusal(withBody({ damping: 0.1 })), /^params\.bodies\[0\]\.damping: /);
  assert.match(mujocoRefusal(withBody({ inertia: 0 })), /^params\.bodies\[0\]\.inertia: a point mass \(inertia 0\)/);
  const loop = { ...base, params: { ...base.params, joints: [...base.params.joints, { type: 'ball', parent: 'world', child: 'lower' }] } };
  assert.match(mujocoRefusal(loop), /^params\.joints\[2\]: body "lower" has two parents: a closed loop/);
  const fixed = {
    ...base,
    params: { ...base.params, joints: [{ type: 'fixed', parent: 'world', child: 'upper' }, base.params.joints[1]] },
  };
  assert.match(mujocoRefusal(fixed), /^params\.joints\[0\]: a body fixed to the world/);
  assert.match(mujocoRefusal({ system: 'double-spherical-pendulum', params: {} }), /^params\.bodies: /);
});

test('round trip: export → lab.importMjcf gives the same bodies and joints, and the same run to 1e-12 after 200 steps', () => {
  for (const { name, scenario } of exportable) {
    const back = lab.importMjcf(mechanismToMjcf(scenario).xml);
    assert.equal(back.h, scenario.h, name);
    assert.deepEqual(back.params.gravity, scenario.params.gravity, name);
    assert.deepEqual(
      back.params.bodies.map((b) => [b.name, b.mass]),
      scenario.params.bodies.map((b) => [b.name, b.mass]),
      name,
    );
    // the moments exactly, but a flat body's largest, taken as the sum of the other two
    // (MuJoCo's triangle check, rounding's ulp)
    for (const [k, b] of scenario.params.bodies.entries()) close(back.params.bodies[k].inertia, b.inertia, 1e-17, `${name} inertia`);
    assert.deepEqual(
      back.params.joints.map((j) => [j.type, j.parent, j.child]),
      scenario.params.joints.map((j) => [j.type, j.parent ?? 'world', j.child]),
      name,
    );
    for (const [k, b] of scenario.params.bodies.entries())
      assert.equal(back.params.bodies[k].shape?.type, b.shape.type === 'tee' ? undefined : b.shape.type, name);
    const a = lab.simulate(scenario);
    const b = lab.simulate({ ...back, integrator: scenario.integrator });
    close(a.q, b.q, 1e-12, `${name} q at t = 0`);
    close(a.p, b.p, 1e-12, `${name} p at t = 0`);
    a.advance(STEPS);
    b.advance(STEPS);
    close(a.q, b.q, 1e-12, `${name} q after ${STEPS} steps`);
    close(a.p, b.p, 1e-12, `${name} p after ${STEPS} steps`);
    a.dispose();
    b.dispose();
  }
});

test("MuJoCo's state mapped to vilab's: at t = 0 its energy (mj_energyPos + mj_energyVel) is vilab's of the mapped state to 1e-12", async () => {
  const mj = await loadMujoco();
  for (const { name, scenario } of exportable) {
    const ref = lab.simulate(scenario);
    const E = ref.diagnostics().energy;
    for (const method of MUJOCO_METHODS) {
      const sim = new MujocoSimulation(mj, lab, scenario, method);
      mj.mj_forward(sim.m, sim.d);
      const mujocoEnergy = sim.d.energy[0] + sim.d.energy[1];
      const vilabEnergy = sim.diagnostics().energy;
      const scale = Math.max(1, Math.abs(E));
      assert.ok(
        Math.abs(mujocoEnergy - vilabEnergy) <= 1e-12 * scale,
        `${name} ${method.id}: MuJoCo ${mujocoEnergy}, vilab ${vilabEnergy}`,
      );
      assert.ok(Math.abs(vilabEnergy - E) <= 1e-12 * scale, `${name} ${method.id}: mapped ${vilabEnergy}, scene ${E}`);
      assert.ok(sim.diagnostics().constraint <= 1e-12, `${name}: joints closed at t = 0`);
      // and after 200 steps, the joints turned: the mapping through the tree, checked the same way
      sim.advance(STEPS);
      mj.mj_forward(sim.m, sim.d);
      const later = sim.d.energy[0] + sim.d.energy[1];
      assert.ok(
        Math.abs(later - sim.diagnostics().energy) <= 1e-12 * scale,
        `${name} ${method.id} after ${STEPS} steps: MuJoCo ${later}, vilab ${sim.diagnostics().energy}`,
      );
      assert.ok(sim.diagnostics().constraint <= 1e-12, `${name}: joints closed after ${STEPS} steps`);
      sim.dispose();
    }
    ref.dispose();
  }
});

test('a body with a full inertia tensor goes as fullinertia: the same energy in MuJoCo and vilab at t = 0 and after 200 steps', async () => {
  const mj = await loadMujoco();
  const pendulum = scenes.find((s) => s.name === 'physical-pendulum').scenario;
  const J = [
    [0.06, 0.01, 0],
    [0.01, 0.05, 0.005],
    [0, 0.005, 0.04],
  ];
  const scenario = { ...pendulum, params: { ...pendulum.params, bodies: [{ ...pendulum.params.bodies[0], inertia: J }] } };
  assert.match(mechanismToMjcf(scenario).xml, /fullinertia="0\.06 0\.05 0\.04 0\.01 0 0\.005"/);
  const ref = lab.simulate(scenario);
  const E = ref.diagnostics().energy;
  ref.dispose();
  const sim = new MujocoSimulation(mj, lab, scenario, MUJOCO_METHODS[0]);
  for (const steps of [0, STEPS]) {
    sim.advance(steps);
    mj.mj_forward(sim.m, sim.d);
    const mujocoEnergy = sim.d.energy[0] + sim.d.energy[1];
    assert.ok(
      Math.abs(mujocoEnergy - sim.diagnostics().energy) <= 1e-12 * Math.abs(E),
      `step ${sim.step}: MuJoCo ${mujocoEnergy}, vilab ${sim.diagnostics().energy}`,
    );
  }
  sim.dispose();
});

test("MuJoCo's loader without eval (web/pwa/mujoco-no-eval-plugin.js) runs the same bits as the package's", async () => {
  const { withoutEval } = await import('../../web/pwa/mujoco-no-eval-plugin.js');
  const pkg = join(root, 'node_modules/@mujoco/mujoco');
  const dirOut = mkdtempSync(join(tmpdir(), 'vilab-mujoco-'));
  try {
    const patched = withoutEval(readFileSync(join(pkg, 'mujoco.js'), 'utf8'));
    assert.doesNotMatch(patched, /new Function\(/);
    writeFileSync(join(dirOut, 'mujoco.js'), patched);
    symlinkSync(join(pkg, 'mujoco.wasm'), join(dirOut, 'mujoco.wasm'));
    const mjPatched = await (await import(pathToFileURL(join(dirOut, 'mujoco.js')).href)).default();
    const mj = await loadMujoco();
    const { xml } = mechanismToMjcf(exportable[0].scenario);
    const run = (m) => {
      const model = m.MjModel.from_xml_string(xml);
      const data = new m.MjData(model);
      m.mj_resetDataKeyframe(model, data, 0);
      for (let i = 0; i < STEPS; i++) m.mj_step(model, data);
      const out = [...data.qpos, ...data.qvel];
      data.delete();
      model.delete();
      return out;
    };
    assert.deepEqual(run(mjPatched), run(mj));
  } finally {
    rmSync(dirOut, { recursive: true, force: true });
  }
});

test("the loading status's size is mujoco.wasm's, to the megabyte", () => {
  const bytes = statSync(join(root, 'node_modules/@mujoco/mujoco/mujoco.wasm')).size;
  assert.ok(Math.abs(bytes / 1e6 - MUJOCO_MEGABYTES) < 0.5, `${bytes} bytes, the status says ${MUJOCO_MEGABYTES} MB`);
});
