// Soak: a long run and many lifetimes in one module. 1e7 steps of the double spherical
// pendulum (advance() in 100 batches of 1e5) and 1e4 simulate/dispose cycles over every
// built-in system and the shipped systems defined by data. Asserted: the heap is flat
// (bytes held by malloc back to their value, linear memory not grown) and throughput
// does not degrade (last decile ÷ first decile ≥ 0.5, a generous bound measured in the
// same run; a leak or a growing structure would fall far below it). Figures are printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { lab, root, assertHealthy } from './helpers.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Rates of the first and last tenth of `rates` (per-batch throughputs), by their medians.
function deciles(rates) {
  const k = Math.max(1, Math.floor(rates.length / 10));
  const first = median(rates.slice(0, k));
  const last = median(rates.slice(-k));
  return { first, last, ratio: last / first };
}

test('1e7 double spherical pendulum steps: heap flat, steps/s not degrading', (t) => {
  const batches = 100;
  const batch = 1e5;
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
  sim.advance(batch); // warm up: the history ring fills, the JIT settles
  const used = lab.heapUsed();
  const bytes = lab.heapBytes();
  const energy0 = sim.diagnostics().energy;
  const rates = [];
  const started = performance.now();
  for (let i = 0; i < batches; i++) {
    const t0 = performance.now();
    sim.advance(batch);
    rates.push(batch / ((performance.now() - t0) / 1000));
  }
  const seconds = (performance.now() - started) / 1000;
  const { first, last, ratio } = deciles(rates);
  const drift = Math.abs(sim.diagnostics().energy - energy0) / Math.abs(energy0);
  t.diagnostic(
    `soak: ${batches * batch} DSP steps in ${seconds.toFixed(1)} s (${((seconds / (batches * batch)) * 1e9).toFixed(0)} ns/step); ` +
      `steps/s first decile ${first.toFixed(0)}, last ${last.toFixed(0)}, ratio ${ratio.toFixed(2)}; ` +
      `heap used ${used} -> ${lab.heapUsed()} B, wasm memory ${bytes} -> ${lab.heapBytes()} B; |ΔE/E| ${drift.toExponential(1)}`,
  );
  assert.equal(sim.step, (batches + 1) * batch);
  assert.equal(lab.heapUsed(), used, 'bytes held by malloc after 1e7 steps');
  assert.equal(lab.heapBytes(), bytes, 'wasm memory grew over 1e7 steps');
  assert.ok(ratio >= 0.5, `steps/s fell from ${first.toFixed(0)} to ${last.toFixed(0)}`);
  assert.ok(drift < 1e-2, `energy drifted by ${drift}`); // the run stayed sane
  sim.dispose();
});

test('1e4 simulate/dispose cycles over built-in and data-defined systems: heap flat, cycles/s not degrading', (t) => {
  // Every built-in system, then the scenes defined by data (all but the 16-coordinate
  // FPUT chain, whose compilation alone takes ~20 ms: it would dominate the time).
  const dir = new URL('scenes/lagrangian/', `file://${root}/`);
  const scenes = readdirSync(dir)
    .filter((f) => f !== 'fput.json')
    .map((f) => {
      const { about, ...scenario } = JSON.parse(readFileSync(new URL(f, dir), 'utf8'));
      return scenario;
    });
  const scenarios = [...lab.systems.map((s) => ({ system: s.id })), ...scenes];
  const cycle = (i) => {
    const sim = lab.simulate(scenarios[i % scenarios.length]);
    sim.advance(3);
    sim.q;
    sim.diagnostics();
    sim.history.read(0);
    sim.visualState();
    sim.dispose();
  };
  for (let i = 0; i < 2 * scenarios.length; i++) cycle(i); // warm up
  const used = lab.heapUsed();
  const bytes = lab.heapBytes();
  // 20 rounds of whole passes over the scenarios, so rounds compare: ≥ 1e4 cycles.
  const rounds = 20;
  const perRound = scenarios.length * Math.ceil(1e4 / rounds / scenarios.length);
  const cycles = rounds * perRound;
  const rates = [];
  const started = performance.now();
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < perRound; i++) cycle(r * perRound + i);
    rates.push(perRound / ((performance.now() - t0) / 1000));
  }
  const seconds = (performance.now() - started) / 1000;
  const { first, last, ratio } = deciles(rates);
  const data = (cycles / scenarios.length) * scenes.length;
  t.diagnostic(
    `soak: ${cycles} simulate/dispose cycles (${cycles - data} built-in, ${data} defined by data, ${scenarios.length} scenarios) ` +
      `in ${seconds.toFixed(1)} s; cycles/s first decile ${first.toFixed(0)}, last ${last.toFixed(0)}, ratio ${ratio.toFixed(2)}; ` +
      `heap used ${used} -> ${lab.heapUsed()} B, wasm memory ${bytes} -> ${lab.heapBytes()} B`,
  );
  assert.equal(lab.heapUsed(), used, 'bytes held by malloc after 1e4 cycles');
  assert.equal(lab.heapBytes(), bytes, 'wasm memory grew over 1e4 cycles');
  assert.ok(ratio >= 0.5, `cycles/s fell from ${first.toFixed(0)} to ${last.toFixed(0)}`);
  assertHealthy();
});
