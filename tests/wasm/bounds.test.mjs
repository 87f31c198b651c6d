// advance(1e12) is capped: one call takes at most maxAdvance steps and returns
// within its time budget (50 ms by default), for every system × integrator pair.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, registryPairs, assertHealthy, VilabError } from './helpers.mjs';

// Slack over the budget for a loaded test machine (the budget is checked about
// every millisecond, or after every step when one step is slower).
const SLACK_MS = 250;

function chainOf(links) {
  return { masses: Array(links).fill(0.1), lengths: Array(links).fill(0.25) };
}

const cases = registryPairs().map((pair) => ({ ...pair }));
for (const integrator of lab.system('chain').integrators) {
  cases.push({ system: 'chain', integrator, params: chainOf(lab.system('chain').params[0].maxCount) });
}

test('advance(1e12): ≤ maxAdvance steps and ≤ the time budget, for every pair', () => {
  for (const scenario of cases) {
    const label = `${scenario.system}${scenario.params ? `×${scenario.params.masses.length}` : ''}/${scenario.integrator}`;
    const sim = lab.simulate(scenario);
    const max = sim.maxAdvance;
    assert.ok(Number.isInteger(max) && max >= 1, label);
    const t0 = performance.now();
    let taken;
    try {
      taken = sim.advance(1e12);
    } catch (e) {
      assert.ok(e instanceof VilabError && e.step >= 1, `${label}: ${e.message}`);
      taken = e.stepsTaken;
    }
    const ms = performance.now() - t0;
    assert.ok(taken >= 1 && taken <= max, `${label}: took ${taken} > maxAdvance ${max}`);
    assert.equal(sim.step, taken, label);
    assert.ok(ms <= 50 + SLACK_MS, `${label}: one advance(1e12) call took ${ms.toFixed(0)} ms`);
    sim.dispose();
  }
  assertHealthy();
});

test('advance(n) with a large budget takes exactly min(n, maxAdvance) steps', () => {
  const sim = lab.simulate({ system: 'oscillator' }, { timeBudgetMs: 60000 });
  assert.equal(sim.advance(1e12), sim.maxAdvance);
  assert.equal(sim.step, sim.maxAdvance);
  sim.dispose();
});

test('timeBudgetMs bounds one call', () => {
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'penalty' }, { timeBudgetMs: 5 });
  const t0 = performance.now();
  const taken = sim.advance(1e12);
  const ms = performance.now() - t0;
  assert.ok(taken >= 1 && taken < sim.maxAdvance);
  assert.ok(ms < 5 + SLACK_MS, `took ${ms.toFixed(0)} ms`);
  sim.dispose();
});
