// MJCF import through the API and both CLIs: `vilab import` natively and on the wasm
// build prints the same bytes as lab.importMjcfText for the files of tests/native/mjcf/,
// a refusal carries its line, and what is imported is what MuJoCo compiles from the same
// file: per body the mass, principal moments, centre of mass and its velocity, and the
// energy and angular momentum at the first keyframe (a body imported as a point mass, its
// moments at most 1e-6 m L², without the spin's ½ ω·Jω and Jω MuJoCo counts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLab } from '../../web/sim/vilab.js';
import { lab, root, runNative, runWasmCli } from './helpers.mjs';
import { measure } from '../../bench/mujoco.mjs';
import { staticPotential } from '../../bench/mjcf.mjs';

const dir = join(root, 'tests/native/mjcf');
const MODELS = ['free-body', 'hinge-pendulum', 'physical-pendulum', 'dsp', 'frames', 'free-offset'];
const file = (name) => join(dir, `${name}.xml`);

test('vilab import: native, wasm CLI and lab.importMjcfText print the same JSON', () => {
  for (const name of MODELS) {
    const native = runNative(['import', file(name)]);
    assert.equal(native.status, 0, native.stderr);
    const wasm = runWasmCli(['import', file(name)]);
    assert.equal(wasm.status, 0, wasm.stderr);
    assert.ok(wasm.stdout === native.stdout, `${name}: the CLIs differ`);
    assert.equal(lab.importMjcfText(readFileSync(file(name), 'utf8')) + '\n', native.stdout, name);
    assert.deepEqual(lab.importMjcf(readFileSync(file(name), 'utf8')), JSON.parse(native.stdout), name);
  }
});

test('vilab import: a refusal names its line, the same in both CLIs and the API', () => {
  for (const [name, line, says] of [
    ['tendon', 5, '<tendon> is not supported'],
    ['damping', 6, 'attribute damping of <joint> is not supported'],
    ['mismatched', 6, '</bdy> closes <body> of line 3'],
    ['triangle', 3, 'triangle inequality'],
  ]) {
    const path = join(dir, 'bad', `${name}.xml`);
    const native = runNative(['import', path]);
    const wasm = runWasmCli(['import', path]);
    assert.equal(native.status, 2);
    assert.equal(wasm.status, 2);
    assert.equal(wasm.stderr, native.stderr);
    assert.ok(native.stderr.startsWith(`vilab: mjcf line ${line}: `), native.stderr);
    assert.ok(native.stderr.includes(says), native.stderr);
    assert.throws(
      () => lab.importMjcf(readFileSync(path, 'utf8')),
      (e) => e.name === 'VilabError' && e.field === `mjcf line ${line}` && e.message === native.stderr.trimEnd(),
    );
  }
  assert.throws(
    () => lab.importMjcf(42),
    (e) => e.field === 'mjcf' && e.code === 'type',
  );
});

test('the lean build refuses the importer (code full-module)', async () => {
  const lean = await createLab({ build: 'lean' });
  assert.throws(
    () => lean.importMjcf('<mujoco/>'),
    (e) => e.code === 'full-module' && e.field === 'mjcf',
  );
});

test('what is imported is what MuJoCo compiles: masses, moments, centres, velocities, energy and momentum at t = 0', async () => {
  const mj = await (await import('@mujoco/mujoco')).default();
  for (const name of MODELS) {
    const xml = readFileSync(file(name), 'utf8');
    const scenario = lab.importMjcf(xml);
    const m = mj.MjModel.from_xml_string(xml);
    m.opt.enableflags = m.opt.enableflags | mj.mjtEnableBit.mjENBL_ENERGY.value;
    const d = new mj.MjData(m);
    try {
      if (m.nkey > 0) mj.mj_resetDataKeyframe(m, d, 0);
      const { e, L } = measure(mj, m, d);
      const cvel = Array.from(d.cvel); // per body (ω, v), world frame
      // The bodies welded to the world are the world in vilab: their weight is a constant.
      const still = staticPotential(m, d);
      const x0 = Array.from(d.xipos);
      // Centres' velocities: MuJoCo's positions a short step along qvel.
      const dt = 1e-7;
      mj.mj_integratePos(m, d.qpos, d.qvel, dt);
      mj.mj_kinematics(m, d);
      const x1 = Array.from(d.xipos);
      // What the point masses drop: bounds of ½ ω·Jω and |Jω|.
      let spinEnergy = 0;
      let spinMomentum = 0;
      for (const body of scenario.params.bodies) {
        const id = mj.mj_name2id(m, mj.mjtObj.mjOBJ_BODY.value, body.name);
        assert.ok(id > 0, `${name}: MuJoCo has no body ${body.name}`);
        const at = `${name}, body ${body.name}`;
        assert.ok(Math.abs(m.body_mass[id] - body.mass) <= 1e-12 * body.mass, `${at}: mass`);
        const moments = Array.from(m.body_inertia.slice(3 * id, 3 * id + 3)).sort((a, b) => a - b);
        if (body.inertia === 0) {
          const j = m.jnt_bodyid.indexOf(id);
          const arm = [0, 1, 2].map((k) => m.jnt_pos[3 * j + k] - m.body_ipos[3 * id + k]);
          const lever = arm[0] ** 2 + arm[1] ** 2 + arm[2] ** 2;
          assert.ok(moments[2] <= 1e-6 * body.mass * lever, `${at}: a point mass's moments ${moments} vs 1e-6 m L²`);
          const w = Math.hypot(...cvel.slice(6 * id, 6 * id + 3));
          spinEnergy += 0.5 * moments[2] * w * w;
          spinMomentum += moments[2] * w;
        } else {
          const ours = [...body.inertia].sort((a, b) => a - b);
          for (let k = 0; k < 3; k++) assert.ok(Math.abs(moments[k] - ours[k]) <= 1e-12 * moments[2], `${at}: moment ${k}`);
        }
        for (let k = 0; k < 3; k++) {
          assert.ok(Math.abs(x0[3 * id + k] - body.position[k]) <= 1e-12, `${at}: centre ${k}`);
          const v = (x1[3 * id + k] - x0[3 * id + k]) / dt;
          assert.ok(Math.abs(v - body.velocity[k]) <= 1e-5 * (1 + Math.abs(v)), `${at}: velocity ${k}: ${v} vs ${body.velocity[k]}`);
        }
      }
      const sim = lab.simulate(scenario);
      const diag = sim.diagnostics();
      sim.dispose();
      assert.ok(
        Math.abs(e - still - diag.energy) <= 1e-12 * Math.max(1, Math.abs(diag.energy)) + spinEnergy,
        `${name}: energy ${diag.energy} vs ${e - still}`,
      );
      for (let k = 0; k < 3; k++)
        assert.ok(Math.abs(L[k] - diag.momentum[k]) <= 1e-12 * Math.max(1, Math.hypot(...L)) + spinMomentum, `${name}: L ${k}`);
    } finally {
      m.delete();
      d.delete();
    }
  }
});
