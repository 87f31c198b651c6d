// npm run bench: step-time benchmarks measured in one run, with the ratios the project
// tracks. Scenarios come from the shared scene files.
//
//   1. Before/after: every integrator on the double spherical pendulum (DSP), the
//      64-link chain and the free rigid body, timed natively with this tree's
//      vilab_bench and with the Engine 1 baseline's (built once from git, see
//      baseline.mjs), interleaved round by round so that load on the machine hits both
//      alike; the ratio is after/before.
//   2. wasm/native: the same scenarios in the wasm build (Node), against native.
//   3. The family side by side: per-step cost relative to midpoint on the DSP and the
//      64-link chain, and the cost to keep the DSP's energy error below 1e-6 to T = 1000 s.
//   4. The page figures (bench/page.mjs).
//
// VILAB_BENCH_ROUNDS (interleaved rounds, 5) and VILAB_BENCH_BASELINE (a commit; "none"
// skips the before/after) tune it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createLab } from '../web/sim/vilab.js';
import { baselineBench } from './baseline.mjs';

const root = new URL('..', import.meta.url);
const ROUNDS = Number(process.env.VILAB_BENCH_ROUNDS ?? 5);
// The last commit of Engine 1 (before one state, one Newton, exact stepping).
const BASELINE = process.env.VILAB_BENCH_BASELINE ?? '8f1ec57166247c87b64b68ddc6cfdeaffb15f4d5';

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
  h: 0.01,
  params: { masses: Array(n).fill(0.1), lengths: Array(n).fill(0.25) },
  initial: { angles: Array(n).fill([0.6, 0]), rates: Array(n).fill([0, 1.0]) },
});
// A DSP start that stays away from the spherical-angle poles, so that the old chart
// integrator (`generalized` before, `angles-midpoint` now) runs too.
const dspAwayFromPoles = {
  system: 'double-spherical-pendulum',
  h: 0.005,
  initial: { angles: [[1.0, 0], [1.3, 0.7]], rates: [[0, 1.8], [0.3, 1.5]] },
};
const dsp = { system: 'double-spherical-pendulum', h: 0.01 };
const body = preset('dzhanibekov');

// [name, scenario of this tree, integrator id in the baseline (null: new), steps]
const cases = [];
for (const [id, steps] of [
  ['midpoint', 100000], ['trapezoid', 100000], ['alpha', 100000], ['energy-momentum', 50000],
  ['rk4', 10000], ['euler', 2000], ['dopri5', 50000], ['penalty', 5000],
]) {
  // Euler and penalty at h = 0.001: Euler's energy growth refuses the default h's step
  // 438, and the penalty springs want a small step. The unprojected RK4 of the baseline
  // breaks down after about 12000 steps, so RK4 is timed over 10000.
  const h = id === 'penalty' || id === 'euler' ? { h: 0.001 } : {};
  cases.push([`DSP ${id}`, { ...dsp, integrator: id, ...h }, id === 'dopri5' ? null : id, steps]);
}
cases.push(['DSP generalized (W–M §4.2)', { ...dspAwayFromPoles, integrator: 'generalized' }, 'generalized', 10000]);
cases.push(['DSP angles-midpoint', { ...dspAwayFromPoles, integrator: 'angles-midpoint' }, 'generalized', 10000]);
for (const [id, steps] of [['midpoint', 10000], ['energy-momentum', 5000], ['rk4', 5000], ['dopri5', 5000]]) {
  cases.push([`chain N=64 ${id}`, { ...chain(64), integrator: id }, id === 'dopri5' ? null : id, steps]);
}
cases.push(['chain N=8 midpoint', { ...chain(8), integrator: 'midpoint' }, 'midpoint', 50000]);
// The double spherical pendulum typed as data (Cartesian, two constraints) from the
// built-in default's state: the interpreted expressions against the compiled system.
const lab = await createLab();
const dspAsData = (() => {
  const builtin = lab.simulate(dsp);
  const scenario = {
    system: 'lagrangian',
    h: 0.01,
    params: {
      coordinates: ['x1', 'y1', 'z1', 'x2', 'y2', 'z2'],
      constants: { g: 9.81 },
      lagrangian: "(x1'^2+y1'^2+z1'^2)/2 + (x2'^2+y2'^2+z2'^2)/2 - g*z1 - g*z2",
      constraints: ['x1^2+y1^2+z1^2-1', '(x2-x1)^2+(y2-y1)^2+(z2-z1)^2-1'],
      symmetries: { Jz: ['-y1', 'x1', '0', '-y2', 'x2', '0'] },
    },
    initial: { q: Array.from(builtin.q), qdot: Array.from(builtin.p) },  // masses 1
  };
  builtin.dispose();
  return scenario;
})();
for (const [id, steps] of [['midpoint', 100000], ['trapezoid', 100000], ['rk4', 10000]]) {
  cases.push([`DSP as data ${id}`, { ...dspAsData, integrator: id }, null, steps]);
}
for (const [id, steps] of [['lie-group', 50000], ['quaternion', 5000], ['energy-momentum', 50000], ['rk4', 50000], ['dopri5', 20000]]) {
  cases.push([`rigid body ${id}`, { ...body, integrator: id }, id === 'dopri5' ? null : id, steps]);
}

function timeNative(bin, scenario, steps) {
  try {
    const out = execFileSync(bin, [JSON.stringify(scenario), String(steps), '1'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return JSON.parse(out).nsPerStep;
  } catch {
    return NaN;  // refused or not known to that build
  }
}

function timeWasm(scenario, steps) {
  const sim = lab.simulate(scenario, { historyStride: 1000000 });
  try {
    sim.advance(Math.min(steps, 2000));  // past V8's baseline tier for this code
    const t0 = performance.now();
    sim.advance(steps);
    return ((performance.now() - t0) * 1e6) / steps;
  } catch {
    return NaN;  // refused, as timeNative
  } finally {
    sim.dispose();
  }
}

const here = new URL('build/native/vilab_bench', root).pathname;
const before = BASELINE === 'none' ? null : baselineBench(BASELINE);
const best = (xs) => Math.min(...xs.filter(Number.isFinite));
const rows = [];
for (const [name, scenario, oldId, steps] of cases) {
  const after = [], old = [], wasm = [];
  const oldScenario = oldId && { ...scenario, integrator: oldId };
  for (let r = 0; r < ROUNDS; r++) {
    after.push(timeNative(here, scenario, steps));
    if (before && oldScenario) old.push(timeNative(before, oldScenario, steps));
    wasm.push(timeWasm(scenario, steps));
  }
  const row = { name, after: best(after), before: old.length ? best(old) : NaN, wasm: best(wasm) };
  rows.push(row);
  const ratio = Number.isFinite(row.before) ? (row.after / row.before).toFixed(2) : '  -  ';
  console.log(
    `${name.padEnd(30)} native ${row.after.toFixed(0).padStart(7)} ns/step` +
      `   before ${Number.isFinite(row.before) ? row.before.toFixed(0).padStart(7) : '      -'} ns   after/before ${ratio}` +
      `   wasm ${row.wasm.toFixed(0).padStart(7)} ns   wasm/native ${(row.wasm / row.after).toFixed(2)}`,
  );
}

const get = (name) => rows.find((r) => r.name === name);
const ratio = (a, b, key) => (get(a)[key] / get(b)[key]).toFixed(2);
console.log('\nratios (measured in this run)');
console.log(`  DSP midpoint step / RK4 step            native ${ratio('DSP midpoint', 'DSP rk4', 'after')}   wasm ${ratio('DSP midpoint', 'DSP rk4', 'wasm')}   (goal <= 4)`);
console.log(`  chain N=64 / N=8 midpoint step          native ${ratio('chain N=64 midpoint', 'chain N=8 midpoint', 'after')}   wasm ${ratio('chain N=64 midpoint', 'chain N=8 midpoint', 'wasm')}   (goal <= 10; O(N) means about 8)`);
console.log(`  chain N=64 energy-momentum, before/after ${(get('chain N=64 energy-momentum').before / get('chain N=64 energy-momentum').after).toFixed(2)}× faster   (goal >= 3)`);
console.log(`  DSP as data / built-in DSP, midpoint    native ${ratio('DSP as data midpoint', 'DSP midpoint', 'after')}   wasm ${ratio('DSP as data midpoint', 'DSP midpoint', 'wasm')}   (goal <= 10)`);
console.log(`  generic AD paths / specialised ones     penalty DSP ÷ midpoint DSP ${ratio('DSP penalty', 'DSP midpoint', 'after')}, quaternion ÷ lie-group ${ratio('rigid body quaternion', 'rigid body lie-group', 'after')}   (goal <= 5)`);

// The family side by side: every integrator that applies, per step relative to the
// midpoint rule on the DSP and on the 64-link chain (native and wasm, this run), and the
// cost of keeping the DSP's relative energy error below 1e-6 up to T = 1000 s: the
// largest h that does it (searched by vilab_bench --accuracy), its steps and wall time.
// Exact-energy methods (energy–momentum, sem) meet it at any h they can take.
console.log('\nthe family: cost per step relative to midpoint (this run)');
const familyRows = [];
for (const [label, base] of [['DSP', dsp], ['chain N=64', { ...chain(64) }]]) {
  const system = lab.system(base.system);
  const steps = label === 'DSP' ? 20000 : 2000;
  const timed = [];
  for (const id of system.integrators) {
    const integ = lab.integrator(id);
    const scenario = { ...base, integrator: id, ...(id === 'penalty' || id === 'euler' ? { h: 0.001 } : {}) };
    const n = ['euler', 'penalty', 'generalized', 'angles-midpoint'].includes(id) ? Math.min(steps, 2000) : steps;
    const native = [], wasm = [];
    for (let r = 0; r < Math.max(1, Math.min(ROUNDS, 3)); r++) {
      native.push(timeNative(here, scenario, n));
      wasm.push(timeWasm(scenario, n));
    }
    timed.push({ id, family: integ.family, order: integ.order, native: best(native), wasm: best(wasm) });
  }
  const mid = timed.find((t) => t.id === 'midpoint');
  for (const t of timed) {
    const rel = (x, m) => (Number.isFinite(x) ? (x / m).toFixed(2) : ' n/a');
    console.log(
      `  ${label.padEnd(11)} ${t.id.padEnd(24)} order ${t.order}  native ${rel(t.native, mid.native).padStart(6)}×` +
        `  wasm ${rel(t.wasm, mid.wasm).padStart(6)}×   (${Number.isFinite(t.native) ? t.native.toFixed(0) : '-'} ns/step)`,
    );
    familyRows.push({ label, ...t });
  }
}
console.log('\nthe family: keeping the DSP energy error below 1e-6 up to T = 1000 s');
const bench = new URL('build/native/vilab_bench', root).pathname;
for (const id of lab.system('double-spherical-pendulum').integrators) {
  let result = { h: null };
  try {
    const out = execFileSync(bench, ['--accuracy', JSON.stringify({ ...dsp, integrator: id }), '1000', '1e-6'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120000,
    });
    result = JSON.parse(out);
  } catch {
    result = { h: null };
  }
  console.log(
    result.h == null
      ? `  ${id.padEnd(24)} does not reach it on the ladder (refused or too costly)`
      : `  ${id.padEnd(24)} h = ${String(result.h).padEnd(10)} ${String(result.steps).padStart(9)} steps  ${result.ms.toFixed(0).padStart(7)} ms  (error ${result.error})`,
  );
}

const { pageFigures } = await import('./page.mjs');
await pageFigures();
