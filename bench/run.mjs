// npm run bench: step-time benchmarks, native and wasm, measured in one run, with
// the ratios the issues ask for. Scenarios come from the shared scene files.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createLab } from '../web/sim/vilab.js';

const root = new URL('..', import.meta.url);
const presets = [
  ...JSON.parse(readFileSync(new URL('scenes/presets.json', root))),
  ...JSON.parse(readFileSync(new URL('scenes/rigid_body_presets.json', root))),
];
const preset = (id) => {
  const p = presets.find((x) => x.id === id);
  if (!p) throw new Error(`bench: no preset ${id}`);
  return p.scenario;
};
const chain = (n) => ({
  system: 'chain',
  integrator: 'midpoint',
  h: 0.01,
  params: { masses: Array(n).fill(0.1), lengths: Array(n).fill(0.25) },
  initial: { angles: Array(n).fill([0.6, 0]), rates: Array(n).fill([0, 1.0]) },
});
const dsp = preset('dsp-energy');

const cases = [
  { name: 'dsp midpoint', scenario: { ...dsp, integrator: 'midpoint' }, steps: 200000 },
  { name: 'dsp rk4', scenario: { ...dsp, integrator: 'rk4' }, steps: 10000 },
  { name: 'dsp energy-momentum', scenario: { ...dsp, integrator: 'energy-momentum' }, steps: 100000 },
  { name: 'dsp generalized', scenario: { ...preset('spherical-precession'), system: 'double-spherical-pendulum', initial: { angles: [[1.0, 0], [1.3, 0.7]], rates: [[0, 1.8], [0.3, 1.5]] }, integrator: 'generalized', h: 0.005 }, steps: 20000 },
  { name: 'dsp penalty', scenario: { ...dsp, integrator: 'penalty', h: 0.001 }, steps: 20000 },
  { name: 'chain N=8 midpoint', scenario: chain(8), steps: 100000 },
  { name: 'chain N=64 midpoint', scenario: chain(64), steps: 20000 },
  { name: 'chain N=64 energy-mom.', scenario: { ...chain(64), integrator: 'energy-momentum' }, steps: 10000 },
];
for (const id of ['dzhanibekov']) {
  const p = presets.find((x) => x.id === id);
  if (!p) continue;
  for (const integrator of ['lie-group', 'quaternion', 'energy-momentum', 'rk4'])
    cases.push({ name: `rigid body ${integrator}`, scenario: { ...p.scenario, integrator }, steps: 50000 });
}

const native = (c) =>
  JSON.parse(
    execFileSync(new URL('build/native/vilab_bench', root).pathname, [JSON.stringify(c.scenario), String(c.steps), '5'], {
      encoding: 'utf8',
    }),
  ).nsPerStep;

const lab = await createLab();
const wasm = (c) => {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const sim = lab.simulate(c.scenario, { historyStride: 1000000 });
    const t0 = performance.now();
    sim.advance(c.steps); // exactly c.steps steps, one wasm call
    best = Math.min(best, ((performance.now() - t0) * 1e6) / c.steps);
    sim.dispose();
  }
  return best;
};

const rows = [];
for (const c of cases) {
  const n = native(c);
  const w = wasm(c);
  rows.push({ name: c.name, n, w });
  console.log(
    `${c.name.padEnd(24)} native ${n.toFixed(0).padStart(7)} ns/step (${(1e9 / n).toExponential(2)} steps/s)   ` +
      `wasm ${w.toFixed(0).padStart(7)} ns/step (${(1e9 / w).toExponential(2)} steps/s)   wasm/native ${(w / n).toFixed(2)}`,
  );
}
const get = (name) => rows.find((r) => r.name === name);
const ratio = (a, b, key) => get(a)[key] / get(b)[key];
console.log('\nratios (measured in this run)');
console.log(`  DSP midpoint step / RK4 step      native ${ratio('dsp midpoint', 'dsp rk4', 'n').toFixed(2)}   wasm ${ratio('dsp midpoint', 'dsp rk4', 'w').toFixed(2)}   (goal <= 4)`);
console.log(`  chain N=64 step / N=8 step        native ${ratio('chain N=64 midpoint', 'chain N=8 midpoint', 'n').toFixed(2)}   wasm ${ratio('chain N=64 midpoint', 'chain N=8 midpoint', 'w').toFixed(2)}   (goal <= 10; O(N) means about 8)`);

// The issue-6 page figures (first-load size, first frame, main-thread time per frame).
const { pageFigures } = await import('./page.mjs');
await pageFigures();
