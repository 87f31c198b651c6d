// Not a test: `node tests/wasm/speed-ratio.mjs [steps]` times the DSP midpoint step
// in wasm (one sim.advance(n) call in Node) against the native CLI (`vilab hash`), both
// recording history every step (the defaults), and prints the ratio. Minimum of 5
// runs each; CPU time as well as wall-clock, since the test machine is shared.
// The first steps of a freshly loaded module run V8's baseline code (Liftoff)
// until TurboFan's tier-up lands: that cold figure is printed separately.
import { spawnSync } from 'node:child_process';
import { createLab } from '../../web/sim/vilab.js';
import { nativeCli } from './helpers.mjs';

const steps = Number(process.argv[2] ?? 1e6);
const scenario = { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 };
const text = JSON.stringify(scenario);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const lab = await createLab();

function wasmRun(n) {
  const sim = lab.simulate(scenario);
  const w0 = performance.now();
  const c0 = cpuMs();
  sim.advance(n); // exactly n steps, one wasm call
  const out = { wall: performance.now() - w0, cpu: cpuMs() - c0, hash: sim.hash() };
  sim.dispose();
  return out;
}

function nativeRun(n) {
  // Process start-up is subtracted with a 0-step run; CPU time from /usr/bin/time-like rusage.
  const run = (k) => {
    const t0 = performance.now();
    const r = spawnSync(nativeCli, ['hash', '-', '--steps', String(k)], { input: text, encoding: 'utf8' });
    return { wall: performance.now() - t0, hash: r.stdout.trim() };
  };
  const base = Math.min(...Array.from({ length: 3 }, () => run(0).wall));
  const r = run(n);
  return { wall: r.wall - base, hash: r.hash };
}

const cold = wasmRun(1e5);
const wasm = [];
const native = [];
for (let i = 0; i < 5; i++) {
  native.push(nativeRun(steps));
  wasm.push(wasmRun(steps));
}
if (wasm[0].hash !== native[0].hash) throw new Error(`hash mismatch: wasm ${wasm[0].hash}, native ${native[0].hash}`);
const ns = (ms) => ((ms * 1e6) / steps).toFixed(0);
const minOf = (xs, k) => Math.min(...xs.map((x) => x[k]));
console.log(`DSP midpoint, ${steps} steps, history every step (hash ${wasm[0].hash})`);
console.log(`native CLI  wall ${ns(minOf(native, 'wall'))} ns/step`);
console.log(`wasm (Node) wall ${ns(minOf(wasm, 'wall'))} ns/step, CPU ${ns(minOf(wasm, 'cpu'))} ns/step`);
console.log(`ratio wasm/native (wall): ${(minOf(wasm, 'wall') / minOf(native, 'wall')).toFixed(2)}`);
console.log(`cold: the first 1e5 steps of a fresh module: ${((cold.wall * 1e6) / 1e5).toFixed(0)} ns/step`);
