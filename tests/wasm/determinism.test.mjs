// Native = wasm: the same scenario and step count give the same hash() in Node as
// the native `vilab hash`, for EVERY system × integrator pair of the registry (so
// pairs added later are covered), 1e5 steps each; fewer for the longest chain and
// for slow pairs (a per-pair time budget). Pairs expected to break down within the
// run must refuse the same step natively, with the same message, and agree on the
// state before it; every other pair must run all its steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, registryPairs, runNative, refusalOf, pairLabel } from './helpers.mjs';

const STEPS = 1e5;
const LONG_CHAIN_STEPS = 1e4;
const PAIR_BUDGET_MS = 4000; // wasm time per pair; the native run costs about as much
const MIN_STEPS = 5000;

// Pairs whose default motion is refused within STEPS, and why.
const EXPECTED_REFUSALS = [
  { applies: (s) => s.integrator === 'euler', why: 'explicit Euler gains energy at every step until the state blows up' },
  {
    applies: (s) => s.integrator === 'angles-midpoint' && s.system === 'double-spherical-pendulum' && !s.params,
    why: "the default double pendulum swings through the pole of the angles' chart",
  },
];
const expectedRefusal = (scenario) => EXPECTED_REFUSALS.find((r) => r.applies(scenario))?.why ?? null;

const cases = registryPairs().map((scenario) => ({ scenario, cap: STEPS }));
for (const system of lab.systems) {
  // Systems with a variable number of bodies: also at the largest (the 64-link chain).
  const perBody = system.params.find((p) => p.kind === 'per-body' && p.maxCount > p.default.length);
  if (!perBody) continue;
  const n = perBody.maxCount;
  const params = {};
  for (const p of system.params) if (p.kind === 'per-body') params[p.name] = Array(n).fill(p.default[0]);
  for (const integrator of system.integrators) cases.push({ scenario: { system: system.id, integrator, params }, cap: LONG_CHAIN_STEPS });
}

// Steps affordable within the budget at this pair's speed in wasm (a refusal ends a run early: full cap).
function stepsFor(scenario, cap) {
  if (expectedRefusal(scenario)) return cap;
  const sim = lab.simulate(scenario, { historyStride: 1000 });
  const probe = 500;
  try {
    sim.advance(100); // warm up (the JIT tiers up)
    const t0 = performance.now();
    sim.advance(probe);
    const perStep = (performance.now() - t0) / probe;
    return Math.min(cap, Math.max(MIN_STEPS, Math.floor(PAIR_BUDGET_MS / perStep / 1000) * 1000));
  } finally {
    sim.dispose();
  }
}

const summary = [];

for (const { scenario, cap } of cases) {
  const name = pairLabel(scenario);
  test(`native = wasm hash: ${name}`, (t) => {
    const steps = stepsFor(scenario, cap);
    const text = JSON.stringify(scenario);
    const sim = lab.simulate(scenario, { historyStride: 1000 });
    const failure = refusalOf(() => sim.advance(steps));
    const native = runNative(['hash', '-', '--steps', String(steps)], text);
    const why = expectedRefusal(scenario);
    if (failure) {
      assert.ok(why, `${name}: step ${failure.step} refused unexpectedly: ${failure.message}`);
      assert.equal(native.status, 1, `native ran ${steps} steps but wasm refused step ${failure.step}`);
      assert.equal(native.stderr, `${failure.message}\n`);
      const before = runNative(['hash', '-', '--steps', String(failure.step - 1)], text);
      assert.equal(before.status, 0, before.stderr);
      assert.equal(before.stdout, `${sim.hash()}\n`, `state before the refused step ${failure.step}`);
      summary.push(`${name}: ${failure.step - 1} steps, then step ${failure.step} refused in both (${failure.code}; expected: ${why})`);
    } else {
      assert.equal(why, null, `${name}: expected a refusal within ${steps} steps (${why})`);
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
