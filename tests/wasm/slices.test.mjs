// The page's slices of work (web/sim/runner.js: advance with a time budget, as a landing,
// stepNow and each frame call it) take a bounded amount of CPU however many steps are
// asked for and however slow a step is: the budget is checked inside the core's stepping
// (advanceFor) and between chunks that are read and scanned. The main thread's CPU time
// (threadCpuMs): what the page's thread is held for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, threadCpuMs as cpuMs } from './helpers.mjs';
import { Runner } from '../../web/sim/runner.js';

const N = 64;
const CHAIN = {
  system: 'chain',
  integrator: 'dopri5',
  h: 0.05,
  options: { tol: 1e-12 },
  params: { masses: Array(N).fill(1), lengths: Array(N).fill(0.1) },
  initial: { angles: Array.from({ length: N }, (_, i) => [0.3 + 0.01 * i, 0]) },
};

test('a budgeted slice of 25 ms takes at most 100 ms of main-thread CPU: 10^6 steps asked of the DSP with a comparison, and of the 64-link DOPRI5 chain', () => {
  const dsp = lab.normalize({ system: 'double-spherical-pendulum' });
  const cases = [
    [dsp, lab.normalize({ ...dsp, integrator: 'rk4' })],
    [lab.normalize(CHAIN), null],
  ];
  for (const [a, b] of cases) {
    const runner = new Runner(lab, { onSamples: () => {} });
    runner.configure(a, b);
    try {
      runner.advance(1, { budgeted: true, budgetMs: 25 }); // warm up
      const slices = [];
      for (let k = 0; k < 5; k++) slices.push(cpuMs(() => runner.advance(1e6, { budgeted: true, budgetMs: 25 })));
      console.log(`${a.system}: CPU per slice ${slices.map((x) => x.toFixed(1)).join(', ')} ms, ${runner.step} steps`);
      assert.ok(Math.max(...slices) <= 100, `${a.system}: CPU per slice ${slices.map((x) => x.toFixed(0)).join(', ')} ms`);
      assert.ok(runner.step > 5, `${a.system}: it moves (${runner.step} steps)`);
    } finally {
      runner.disposeTracks();
    }
  }
});

/** Holds the thread for ms of wall-clock time (the CPU a slower step would take). */
function spin(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/**
 * B as an outside source (the runner's sourceOf shape): vilab's RK4 on the DSP, each step
 * then holding the thread for `cost.msPerStep` more. A browser's B changes its rate several-fold
 * between chunks (its hot code compiled while it runs, the GPU process on the other core).
 */
function slowingB(scenario, cost) {
  return {
    scenario,
    integrator: lab.integrator(scenario.integrator),
    simulate: (historyCapacity) => {
      const sim = lab.simulate(scenario, { historyStride: 1, historyCapacity });
      return new Proxy(sim, {
        get(target, key) {
          if (key === 'advance')
            return (n) => {
              target.advance(n);
              spin(n * cost.msPerStep);
            };
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  };
}

test('a B that turns 10× slower between two chunks overruns a 25 ms slice by one short chunk: at most 100 ms of main-thread CPU (its whole planned share at the old rate: 125 ms)', () => {
  const dsp = lab.normalize({ system: 'double-spherical-pendulum' });
  const cost = { msPerStep: 0.02 };
  const runner = new Runner(lab, { onSamples: () => {} });
  runner.configure(dsp, slowingB(lab.normalize({ ...dsp, integrator: 'rk4' }), cost));
  try {
    for (let k = 0; k < 3; k++) runner.advance(1e6, { budgeted: true, budgetMs: 25 }); // B's rate measured
    cost.msPerStep = 0.2;
    const ms = cpuMs(() => runner.advance(1e6, { budgeted: true, budgetMs: 25 }));
    console.log(`the slice in which B became 10× slower: ${ms.toFixed(1)} ms of CPU, ${runner.step} steps`);
    assert.ok(ms <= 100, `${ms.toFixed(0)} ms`);
    assert.equal(runner.b.sim.step, runner.step, 'B took A’s steps');
  } finally {
    runner.disposeTracks();
  }
});

test('negative control: the same steps asked without a budget hold the thread far longer', () => {
  const runner = new Runner(lab, { onSamples: () => {} });
  runner.configure(lab.normalize(CHAIN));
  try {
    const ms = cpuMs(() => runner.advance(200));
    assert.ok(ms > 100, `200 steps of the chain in one call: ${ms.toFixed(0)} ms of CPU`);
  } finally {
    runner.disposeTracks();
  }
});
