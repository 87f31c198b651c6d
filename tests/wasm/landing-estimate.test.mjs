// What a landing will cost before it starts (web/sim/landing-estimate.js): a simulation's
// first step, which pays what a run pays once, counts once and not as the rate of every
// step, so a landing that takes seconds is not refused as one of minutes; a run refused
// while it is measured costs what it took. The fake runs take their time on a clock of
// their own (on a loaded machine the wall clock would make their rates several times too
// high: the browser's layer runs beside this one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';
import { landingEstimate } from '../../web/sim/landing-estimate.js';

/** A lab whose simulations take firstMs for their first step and msPerStep for each later one, on clock.ms. */
function labWith({ firstMs, msPerStep }, clock) {
  return {
    simulate: () => {
      let step = 0;
      const take = () => {
        clock.ms += step++ === 0 ? firstMs : msPerStep;
      };
      return {
        advance(n) {
          for (let k = 0; k < n; k++) take();
        },
        advanceFor({ maxSteps, budgetMs }) {
          const t0 = clock.ms;
          let steps = 0;
          while (steps < maxSteps && (steps === 0 || clock.ms - t0 < budgetMs)) {
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

/** landingEstimate on a fake lab and its own clock. */
function estimate(costs, scenarios, steps) {
  const clock = { ms: 0 };
  return landingEstimate(labWith(costs, clock), scenarios, steps, () => clock.ms);
}

const near = (x, y) => Math.abs(x - y) <= 1e-6 * Math.abs(y);

test('a first step of 40 ms (a run’s one-off cost) counts once: 12,000 steps of two runs at 0.01 ms each are estimated at 2 × (40 + 11,999 × 0.01) = 320 ms, not 16 min', () => {
  const ms = estimate({ firstMs: 40, msPerStep: 0.01 }, [{}, {}], 12000);
  assert.ok(near(ms, 2 * (40 + 11999 * 0.01)), `${ms} ms`);
});

test('the rate of later steps is what scales: 12,000 steps at 1 ms after a first of 1 ms are estimated at 12 s', () => {
  assert.ok(near(estimate({ firstMs: 1, msPerStep: 1 }, [{}], 12000), 12000));
});

test('one step, and none: the first step alone, and nothing', () => {
  assert.equal(estimate({ firstMs: 5, msPerStep: 1000 }, [{}], 1), 5);
  assert.equal(estimate({ firstMs: 5, msPerStep: 1 }, [{}], 0), 0);
});

test('the lab’s own runs: 10,000 steps of the DSP with RK4 beside it are estimated far under the 60 s bound', () => {
  const a = lab.normalize({ system: 'double-spherical-pendulum' });
  const scenarios = [a, lab.normalize({ ...a, integrator: 'rk4' })];
  const ms = landingEstimate(lab, scenarios, 10000);
  const t0 = performance.now();
  for (const s of scenarios) {
    const sim = lab.simulate(s, { historyStride: 1, historyCapacity: 1024 });
    sim.advance(10000);
    sim.dispose();
  }
  console.log(`estimate ${ms.toFixed(1)} ms, stepped in ${(performance.now() - t0).toFixed(1)} ms`);
  assert.ok(ms > 0 && ms < 60000, `${ms} ms`);
});

test('a run refused while it is measured costs what it took, not its rate times the steps', () => {
  const clock = { ms: 0 };
  const refuse = () => {
    clock.ms += 2;
    throw Object.assign(new Error('vilab: refused'), { stepsTaken: 0 });
  };
  const refusing = { simulate: () => ({ advance: refuse, advanceFor: refuse, dispose() {} }) };
  assert.equal(
    landingEstimate(refusing, [{}], 1e6, () => clock.ms),
    2,
  );
});
