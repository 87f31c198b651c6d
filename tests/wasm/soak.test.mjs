// Soak: a long run and many lifetimes in one module (the runs: scripts/soak.mjs). 1e7
// steps of the double spherical pendulum (advance() in 100 batches of 1e5) and 1e4
// simulate/dispose cycles over every built-in system and the shipped systems defined by
// data. Asserted: the heap is flat (bytes held by malloc back to their value, linear
// memory not grown) and throughput per CPU second does not degrade (last decile ÷ first decile ≥ 0.5, a
// generous bound measured in the same run; a leak or a growing structure would fall far
// below it). Figures are printed; the hardening report records them
// (scripts/hardening-report.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, root, assertHealthy } from './helpers.mjs';
import { soakSteps, soakCycles } from '../../scripts/soak.mjs';

test('1e7 double spherical pendulum steps: heap flat, steps/s not degrading', (t) => {
  const r = soakSteps(lab, { batches: 100, batch: 1e5 });
  t.diagnostic(
    `soak: ${r.steps} DSP steps in ${r.seconds.toFixed(1)} s (${r.cpuSeconds.toFixed(1)} s CPU, ${r.nsPerStep.toFixed(0)} ns/step); ` +
      `steps per CPU second: first decile ${r.first.toFixed(0)}, last ${r.last.toFixed(0)}, ratio ${r.ratio.toFixed(2)}; ` +
      `heap used ${r.heapBefore} -> ${r.heapAfter} B, wasm memory ${r.memoryBefore} -> ${r.memoryAfter} B; |ΔE/E| ${r.energyDrift.toExponential(1)}`,
  );
  assert.equal(r.finalStep, 101 * 1e5);
  assert.equal(r.heapAfter, r.heapBefore, 'bytes held by malloc after 1e7 steps');
  assert.equal(r.memoryAfter, r.memoryBefore, 'wasm memory grew over 1e7 steps');
  assert.ok(r.ratio >= 0.5, `steps/s fell from ${r.first.toFixed(0)} to ${r.last.toFixed(0)}`);
  assert.ok(r.energyDrift < 1e-2, `energy drifted by ${r.energyDrift}`); // the run stayed sane
});

test('1e4 simulate/dispose cycles over built-in and data-defined systems: heap flat, cycles/s not degrading', (t) => {
  const r = soakCycles(lab, root);
  t.diagnostic(
    `soak: ${r.cycles} simulate/dispose cycles (${r.builtIn} built-in, ${r.dataDefined} defined by data, ${r.scenarios} scenarios) ` +
      `in ${r.seconds.toFixed(1)} s (${r.cpuSeconds.toFixed(1)} s CPU); cycles per CPU second: first decile ${r.first.toFixed(0)}, last ${r.last.toFixed(0)}, ratio ${r.ratio.toFixed(2)}; ` +
      `heap used ${r.heapBefore} -> ${r.heapAfter} B, wasm memory ${r.memoryBefore} -> ${r.memoryAfter} B`,
  );
  assert.ok(r.cycles >= 1e4, `${r.cycles} cycles`);
  assert.equal(r.heapAfter, r.heapBefore, 'bytes held by malloc after 1e4 cycles');
  assert.equal(r.memoryAfter, r.memoryBefore, 'wasm memory grew over 1e4 cycles');
  assert.ok(r.ratio >= 0.5, `cycles/s fell from ${r.first.toFixed(0)} to ${r.last.toFixed(0)}`);
  assertHealthy();
});
