// The cost of recording the history at every step, on the DSP midpoint step (the
// `limit` section's row), measured robustly on a loaded machine: each round times,
// interleaved and in alternating order, the step with a row every step and with
// nothing recorded, natively (vilab_bench, thread CPU time) and in wasm (Node, CPU
// time), and reports per-round ratios. Optional trees given as arguments (each with
// build/native/vilab_bench, build/wasm/ and web/sim/) are timed in the same rounds, so
// a change can be compared with the build before it in the same process and load.
//
//   node bench/history.mjs [rounds] [tree …]
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { dsp, root, stats, wasmRun } from './common.mjs';

const rounds = Number(process.argv[2] ?? 7);
const trees = [new URL('.', root).pathname, ...process.argv.slice(3)].map((t) => t.replace(/\/?$/, '/'));
const scenario = { ...dsp, integrator: 'midpoint' };
const STEPS = 100000;

const nativeNs = (tree, stride) =>
  JSON.parse(execFileSync(`${tree}build/native/vilab_bench`, [JSON.stringify(scenario), STEPS, 1, stride], { encoding: 'utf8' })).nsPerStep;

const labs = [];
for (const tree of trees) labs.push(await (await import(pathToFileURL(`${tree}web/sim/vilab.js`))).createLab());

const runs = trees.map(() => ({ native: { none: [], every: [] }, wasm: { none: [], every: [] } }));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? ['every', 'none'] : ['none', 'every'];
  trees.forEach((tree, i) => {
    for (const k of order) runs[i].native[k].push(nativeNs(tree, k === 'every' ? 1 : 1000000));
    for (const k of order) runs[i].wasm[k].push(wasmRun(labs[i], scenario, STEPS, 1, { historyStride: k === 'every' ? 1 : 1000000 }).ns);
  });
}

const range = (s, digits) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
trees.forEach((tree, i) => {
  console.log(`${tree} (${rounds} rounds)`);
  for (const where of ['native', 'wasm']) {
    const { none, every } = runs[i][where];
    const ratio = stats(every.map((e, r) => e / none[r]));
    console.log(`  ${where}: none ${range(stats(none), 1)} ns, every step ${range(stats(every), 1)} ns, ratio ${range(ratio, 3)}`);
  }
});
