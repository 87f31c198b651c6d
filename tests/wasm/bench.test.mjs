// The benchmark's MuJoCo models (bench/mujoco.mjs) are the systems vilab runs: the same
// start, energy and momentum map. And the benchmark-only packages stay out of the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { lab } from './helpers.mjs';
import { bodyModel, dspModel, DSP_ENERGY_OFFSET, measure } from '../../bench/mujoco.mjs';

const mj = await (await import('@mujoco/mujoco')).default();

test('MuJoCo DSP model: vilab default start (bob positions to 1e-12, energy and J_z to 1e-6)', () => {
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
  const q = Array.from(sim.q),
    p = Array.from(sim.p);
  const d0 = sim.diagnostics();
  sim.dispose();
  const { m, d } = dspModel(mj, 'RK4', q, p);
  try {
    const { e, L } = measure(mj, m, d);
    const xipos = Array.from(d.xipos); // body 0 is the world
    for (let i = 0; i < 6; i++) assert.ok(Math.abs(xipos[3 + i] - q[i]) < 1e-12, `bob coordinate ${i}: ${xipos[3 + i]} vs ${q[i]}`);
    assert.ok(Math.abs(e + DSP_ENERGY_OFFSET - d0.energy) / d0.energy < 1e-6, `energy ${e + DSP_ENERGY_OFFSET} vs ${d0.energy}`);
    assert.ok(Math.abs(L[2] - d0.momentum[0]) / Math.abs(d0.momentum[0]) < 1e-6, `J_z ${L[2]} vs ${d0.momentum[0]}`);
  } finally {
    m.delete();
    d.delete();
  }
});

test('MuJoCo free body: the dzhanibekov preset (energy and spatial angular momentum to 1e-12)', () => {
  const preset = JSON.parse(readFileSync(new URL('../../scenes/rigid_body_presets.json', import.meta.url))).find(
    (x) => x.id === 'dzhanibekov',
  ).scenario;
  const sim = lab.simulate(preset);
  const d0 = sim.diagnostics();
  sim.dispose();
  const { m, d } = bodyModel(mj, 'RK4', preset.params.inertia, preset.initial.omega);
  try {
    const { e, L } = measure(mj, m, d);
    assert.ok(Math.abs(e - d0.energy) < 1e-12 * d0.energy, `energy ${e} vs ${d0.energy}`);
    for (let i = 0; i < 3; i++) assert.ok(Math.abs(L[i] - d0.momentum[i]) < 1e-12, `L[${i}] ${L[i]} vs ${d0.momentum[i]}`);
  } finally {
    m.delete();
    d.delete();
  }
});

test('the app imports no benchmark-only package (@mujoco/mujoco, vega, vega-lite)', () => {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = `${dir}/${name}`;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js|ts|html)$/.test(name)) files.push(path);
    }
  };
  walk(new URL('../../web', import.meta.url).pathname);
  assert.ok(files.length > 10);
  for (const f of files) assert.doesNotMatch(readFileSync(f, 'utf8'), /from\s+['"](@mujoco\/|vega)/, f);
});
