// What a landing will cost before it starts (web/sim/landing-estimate.js): a simulation's
// first step, which pays what a run pays once, counts once and not as the rate of every
// step, so a landing that takes seconds is not refused as one of minutes; a run refused
// while it is measured costs what it took.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';
import { landingEstimate } from '../../web/sim/landing-estimate.js';

/** Holds the thread for ms of wall-clock time. */
function spin(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** A lab whose simulations take firstMs for their first step and msPerStep for each later one. */
function labWith({ firstMs, msPerStep }) {
  return {
    simulate: () => {
      let step = 0;
      const take = () => spin(step++ === 0 ? firstMs : msPerStep);
      return {
        advance(n) {
          for (let k = 0; k < n; k++) take();
        },
        advanceFor({ maxSteps, budgetMs }) {
          const t0 = performance.now();
          let steps = 0;
          while (steps < maxSteps && (steps === 0 || performance.now() - t0 < budgetMs)) {
            take();
            steps++;
          }
          return { steps, done: steps === maxSteps };
        },
        dispose() {},
      };
    },
  };
}

test('a first step of 40 ms (a run’s one-off cost) counts once: 12,000 steps of two runs at 0.01 ms each are estimated at about 0.3 s, not 16 min', () => {
  const ms = landingEstimate(labWith({ firstMs: 40, msPerStep: 0.01 }), [{}, {}], 12000);
  console.log(`estimate: ${ms.toFixed(0)} ms (2 × (40 + 11,999 × 0.01) = 320 ms)`);
  assert.ok(ms >= 2 * 40 && ms < 1000, `${ms.toFixed(0)} ms`);
});

test('the rate of later steps is what scales: 12,000 steps at 1 ms are estimated at about 12 s', () => {
  const ms = landingEstimate(labWith({ firstMs: 1, msPerStep: 1 }), [{}], 12000);
  assert.ok(ms > 9000 && ms < 16000, `${ms.toFixed(0)} ms`);
});

test('one step, and none: the first step alone, and nothing', () => {
  const ms = landingEstimate(labWith({ firstMs: 5, msPerStep: 1000 }), [{}], 1);
  assert.ok(ms >= 5 && ms < 100, `${ms.toFixed(0)} ms`);
  assert.equal(landingEstimate(labWith({ firstMs: 5, msPerStep: 1 }), [{}], 0), 0);
});

test('the lab’s own runs: the DSP with RK4 beside it, 10,000 steps estimated within a factor 4 of stepping them', () => {
  const a = lab.normalize({ system: 'double-spherical-pendulum' });
  const scenarios = [a, lab.normalize({ ...a, integrator: 'rk4' })];
  const estimate = landingEstimate(lab, scenarios, 10000);
  const t0 = performance.now();
  for (const s of scenarios) {
    const sim = lab.simulate(s, { historyStride: 1, historyCapacity: 1024 });
    sim.advance(10000);
    sim.dispose();
  }
  const actual = performance.now() - t0;
  console.log(`estimate ${estimate.toFixed(1)} ms, stepped in ${actual.toFixed(1)} ms`);
  assert.ok(estimate > actual / 4 && estimate < actual * 4, `estimate ${estimate.toFixed(1)} ms, actual ${actual.toFixed(1)} ms`);
});

test('a run refused while it is measured costs what it took, not its rate times the steps', () => {
  const refuse = () => {
    spin(2);
    throw Object.assign(new Error('vilab: refused'), { stepsTaken: 0 });
  };
  const refusing = { simulate: () => ({ advance: refuse, advanceFor: refuse, dispose() {} }) };
  const ms = landingEstimate(refusing, [{}], 1e6);
  assert.ok(ms >= 2 && ms < 100, `${ms.toFixed(0)} ms`);
});
