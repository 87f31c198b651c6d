// The cost of recording the history at every step, on the DSP midpoint step (the
// `limit` section's row), measured robustly on a loaded machine: each round times,
// interleaved, the step with a row every step and with nothing recorded, natively
// (vilab_bench --profile, thread CPU time; and a fresh process per timing, which touches
// the ring's pages first) and in wasm (Node, CPU time, alternating order): from a fresh
// simulation as bench/run.mjs times it (the ring's storage grows to 32768 rows during the
// timed steps), and with the ring already full (40 000 steps first: the page's runner
// after its first 33 s at 1000 steps/s). Per-round ratios.
// Optional trees given as arguments (each with build/native/vilab_bench, build/wasm/
// and web/sim/) are timed in the same rounds, so a change can be compared with the
// build before it in the same process and load.
//
//   node bench/history.mjs [rounds] [tree …]
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { cpuMs, dsp, root, stats, wasmRun } from './common.mjs';

const rounds = Number(process.argv[2] ?? 7);
const trees = [new URL('.', root).pathname, ...process.argv.slice(3)].map((t) => t.replace(/\/?$/, '/'));
const scenario = { ...dsp, integrator: 'midpoint' };
const STEPS = 100000;

// vilab_bench --profile: recorded and not, best of 5 each, interleaved in one process
// (as the `limit` section times them; a fresh process per timing adds the first touch
// of the ring's pages to the recorded side).
const nativeProfile = (tree) =>
  JSON.parse(execFileSync(`${tree}build/native/vilab_bench`, ['--profile', JSON.stringify(scenario), STEPS], { encoding: 'utf8' }));

// vilab_bench in a process of its own: one fresh simulation, history every `stride` steps.
const nativeFreshNs = (tree, stride) =>
  JSON.parse(execFileSync(`${tree}build/native/vilab_bench`, [JSON.stringify(scenario), STEPS, 1, stride], { encoding: 'utf8' })).nsPerStep;

const labs = [];
for (const tree of trees) labs.push(await (await import(pathToFileURL(`${tree}web/sim/vilab.js`))).createLab());

// ns per step of STEPS steps after `warm` untimed steps: the ring is full when warm ≥ 32768.
const fullRingNs = (lab, stride, warm = 40000) => {
  const sim = lab.simulate(scenario, { historyStride: stride });
  try {
    sim.advance(warm);
    return (cpuMs(() => sim.advance(STEPS)) * 1e6) / STEPS;
  } finally {
    sim.dispose();
  }
};

const runs = trees.map(() => ({
  native: { none: [], every: [] },
  'native, fresh process': { none: [], every: [] },
  wasm: { none: [], every: [] },
  'wasm, ring full': { none: [], every: [] },
}));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? ['every', 'none'] : ['none', 'every'];
  trees.forEach((tree, i) => {
    const profile = nativeProfile(tree);
    runs[i].native.none.push(profile.nsPerStep);
    runs[i].native.every.push(profile.nsPerStepHistoryEveryStep);
    for (const k of order) runs[i]['native, fresh process'][k].push(nativeFreshNs(tree, k === 'every' ? 1 : 1000000));
    for (const k of order) runs[i].wasm[k].push(wasmRun(labs[i], scenario, STEPS, 1, { historyStride: k === 'every' ? 1 : 1000000 }).ns);
    for (const k of order) runs[i]['wasm, ring full'][k].push(fullRingNs(labs[i], k === 'every' ? 1 : 1000000));
  });
}

const range = (s, digits) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
trees.forEach((tree, i) => {
  console.log(`${tree} (${rounds} rounds)`);
  for (const where of Object.keys(runs[i])) {
    const { none, every } = runs[i][where];
    const ratio = stats(every.map((e, r) => e / none[r]));
    console.log(`  ${where}: none ${range(stats(none), 1)} ns, every step ${range(stats(every), 1)} ns, ratio ${range(ratio, 3)}`);
  }
});
