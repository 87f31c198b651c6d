// The stepping contract of Simulation (web/sim/vilab.js): advance(n) takes exactly n
// steps in one call, for every system × integrator pair; advanceFor({ maxSteps,
// budgetMs }) is the bounded call for interactive use: it returns within its budget
// and never changes the trajectory (the same hash as an exact advance of as many steps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, registryPairs, assertHealthy, assertRefusal, pairLabel, threadCpuMs } from './helpers.mjs';

// Slack over the budget for a loaded test machine (the budget is checked about
// every millisecond, or after every step when one step is slower).
const SLACK_MS = 250;
const BUDGET_MS = 20;

/** Every pair with its default scenario, and every chain integrator at the most links. */
function casesWithLongestChain() {
  const cases = registryPairs();
  const chain = lab.system('chain');
  const links = chain.params.find((p) => p.kind === 'per-body').maxCount;
  for (const integrator of chain.integrators) {
    cases.push({ system: 'chain', integrator, params: { masses: Array(links).fill(0.1), lengths: Array(links).fill(0.25) } });
  }
  return cases;
}

test('advance(n) takes exactly n steps for every system × integrator pair, however the steps are split', () => {
  const n = 257;
  for (const pair of registryPairs()) {
    const label = pairLabel(pair);
    const split = lab.simulate(pair);
    const whole = lab.simulate(pair);
    split.advance(0);
    assert.equal(split.step, 0, label);
    split.advance(1);
    assert.equal(split.step, 1, label);
    split.advance(n - 1);
    whole.advance(n);
    assert.equal(split.step, n, label);
    assert.equal(whole.step, n, label);
    // The clock: step × h, or the sum of the steps of a variable-step integrator.
    if (lab.integrator(pair.integrator).variableStep) assert.equal(split.time, whole.time, label);
    else assert.equal(split.time, n * split.scenario().h, label);
    assert.equal(split.history.total, n + 1, `${label}: one history sample per step, plus the initial one`);
    assert.equal(split.hash(), whole.hash(), `${label}: the same steps whatever the calls`);
    split.dispose();
    whole.dispose();
  }
});

test(`advanceFor({ maxSteps: 1e12, budgetMs: ${BUDGET_MS} }) returns within its budget, not done, on the exact trajectory, for every pair`, () => {
  for (const scenario of casesWithLongestChain()) {
    const label = pairLabel(scenario);
    const sim = lab.simulate(scenario);
    const t0 = performance.now();
    let progress = null;
    let refusal = null;
    // The call's own time is its thread's CPU time: this layer runs niced beside the
    // browser's, and a preempted call's wall time includes what the others ran (one took
    // 276 ms of wall time in CI). A call that checked its clock too rarely would overrun in
    // CPU time too.
    const cpuMs = threadCpuMs(() => {
      try {
        progress = sim.advanceFor({ maxSteps: 1e12, budgetMs: BUDGET_MS });
      } catch (e) {
        refusal = e; // a pair that breaks down within the budget (explicit Euler on the long chain)
      }
    });
    const ms = performance.now() - t0;
    assert.ok(
      cpuMs <= BUDGET_MS + SLACK_MS,
      `${label}: one advanceFor call took ${cpuMs.toFixed(0)} ms of CPU (${ms.toFixed(0)} ms of wall time)`,
    );
    const exact = lab.simulate(scenario);
    if (refusal) {
      assertRefusal(refusal);
      assert.equal(refusal.stepsTaken, sim.step, label);
      exact.advance(refusal.step - 1);
    } else {
      assert.equal(progress.done, false, label);
      assert.ok(Number.isSafeInteger(progress.steps) && progress.steps >= 1, `${label}: ${progress.steps} steps`);
      assert.equal(sim.step, progress.steps, label);
      exact.advance(progress.steps);
    }
    assert.equal(sim.hash(), exact.hash(), `${label}: advanceFor must take the same steps as advance`);
    sim.dispose();
    exact.dispose();
  }
  assertHealthy();
});

test('advanceFor in small slices adds up to an exact advance', () => {
  const scenario = { system: 'double-spherical-pendulum', integrator: 'penalty', h: 0.005 };
  const n = 400;
  const sliced = lab.simulate(scenario);
  let calls = 0;
  for (let left = n; left > 0; calls++) {
    const { steps, done } = sliced.advanceFor({ maxSteps: left, budgetMs: lab.limits.budgetMs.min });
    assert.ok(steps >= 1 && steps <= left);
    assert.equal(done, steps === left);
    left -= steps;
  }
  assert.ok(calls > 1, 'the budget split the run into several calls');
  const exact = lab.simulate(scenario);
  exact.advance(n);
  assert.equal(sliced.step, n);
  assert.equal(sliced.hash(), exact.hash());
  sliced.dispose();
  exact.dispose();
});

test('the smallest budget still takes a step, and returns quickly', () => {
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'penalty' });
  let progress = null;
  const cpuMs = threadCpuMs(() => {
    progress = sim.advanceFor({ maxSteps: 1e12, budgetMs: lab.limits.budgetMs.min });
  });
  const { steps, done } = progress;
  assert.ok(steps >= 1 && !done);
  assert.ok(cpuMs < lab.limits.budgetMs.min + SLACK_MS, `took ${cpuMs.toFixed(0)} ms of CPU`);
  sim.dispose();
});
