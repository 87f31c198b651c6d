// Native = wasm: the same scenario and step count give the same hash() in Node as
// the native `vilab hash`, for EVERY system × integrator pair of the registry (so
// pairs added later are covered), 1e5 steps each; fewer for the longest chain and
// for slow pairs (a per-pair time budget). A pair whose run refuses a step must
// refuse the same step natively, and agree on the state before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, registryPairs, runNative } from './helpers.mjs';

const STEPS = 1e5;
const LONG_CHAIN_STEPS = 1e4;
const PAIR_BUDGET_MS = 6000; // wasm time per pair; the native run costs about as much
const MIN_STEPS = 2000;

const cases = registryPairs().map((pair) => ({ scenario: pair, cap: STEPS }));
for (const system of lab.systems) {
  // Systems with a variable number of bodies: also at the largest (the 64-link chain).
  const perBody = system.params.find((p) => p.kind === 'per-body' && p.maxCount > (p.default.length ?? 1));
  if (!perBody) continue;
  const n = perBody.maxCount;
  const params = {};
  for (const p of system.params) if (p.kind === 'per-body') params[p.name] = Array(n).fill(p.default[0]);
  for (const integrator of system.integrators) cases.push({ scenario: { system: system.id, integrator, params }, cap: LONG_CHAIN_STEPS, label: `${system.id}×${n}` });
}

function run(sim, n) {
  let done = 0;
  while (done < n) done += sim.advance(n - done); // throws on a refused step
}

function stepsFor(scenario, cap) {
  const sim = lab.simulate(scenario);
  const probe = 500;
  let t0;
  try {
    run(sim, 100); // warm up (the JIT tiers up)
    t0 = performance.now();
    run(sim, probe);
  } catch {
    return cap; // fails early: cheap whatever the cap
  } finally {
    sim.dispose();
  }
  const perStep = (performance.now() - t0) / probe;
  return Math.min(cap, Math.max(MIN_STEPS, Math.floor(PAIR_BUDGET_MS / perStep / 1000) * 1000));
}

const summary = [];

for (const { scenario, cap, label } of cases) {
  const name = `${label ?? scenario.system}/${scenario.integrator}`;
  test(`native = wasm hash: ${name}`, (t) => {
    const steps = stepsFor(scenario, cap);
    const text = JSON.stringify(scenario);
    const sim = lab.simulate(scenario);
    let failure = null;
    try {
      run(sim, steps);
    } catch (e) {
      failure = e;
    }
    const native = runNative(['hash', '-', '--steps', String(steps)], text);
    if (failure) {
      assert.ok(failure.step >= 1, failure.message);
      assert.equal(native.status, 1, `native ran ${steps} steps but wasm refused step ${failure.step}`);
      assert.equal(native.stderr, `${failure.message}\n`);
      const before = runNative(['hash', '-', '--steps', String(failure.step - 1)], text);
      assert.equal(before.status, 0, before.stderr);
      assert.equal(before.stdout, `${sim.hash()}\n`, `state before the refused step ${failure.step}`);
      summary.push(`${name}: ${failure.step - 1} steps (then step ${failure.step} refused in both)`);
    } else {
      assert.equal(native.status, 0, native.stderr);
      assert.equal(native.stdout, `${sim.hash()}\n`);
      summary.push(`${name}: ${steps} steps`);
    }
    t.diagnostic(summary.at(-1));
    sim.dispose();
  });
}

test('determinism summary', (t) => {
  assert.equal(summary.length, cases.length);
  t.diagnostic(`${summary.length} system × integrator cases checked (native = wasm)`);
});
