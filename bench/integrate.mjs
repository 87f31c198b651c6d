// The trajectory API against stepping one by one: lab.integrate (one wasm call, every
// sample recorded) vs advance(1) + sim.q + sim.p in a loop, and vs advance(n) (the same
// steps, nothing recorded). CPU time per step, interleaved rounds.
import { chain, cpuMs, dsp, ROUNDS, stats } from './common.mjs';

const CASES = [
  ['oscillator midpoint', { system: 'oscillator', integrator: 'midpoint' }, 100000],
  ['DSP midpoint', dsp, 20000],
  ['chain N=8 midpoint', chain(8), 5000],
];

function perStep(steps, fn) {
  return (cpuMs(fn) * 1e6) / steps;
}

function oneByOne(lab, scenario, steps) {
  const sim = lab.simulate(scenario, { historyStride: 1000000 });
  const q = [];
  const p = [];
  try {
    return perStep(steps, () => {
      for (let k = 0; k < steps; k++) {
        sim.advance(1);
        q.push(sim.q);
        p.push(sim.p);
      }
    });
  } finally {
    sim.dispose();
  }
}

function batched(lab, scenario, steps) {
  const sim = lab.simulate(scenario, { historyStride: 1000000 });
  try {
    return perStep(steps, () => sim.advance(steps));
  } finally {
    sim.dispose();
  }
}

const integrated = (lab, scenario, steps) => perStep(steps, () => lab.integrate(scenario, { steps }));

/** Adds the ratios to the table; prints them. */
export async function integrateSection(lab, table) {
  for (const [name, scenario, steps] of CASES) {
    integrated(lab, scenario, Math.min(steps, 2000)); // warm-up past V8's baseline tier
    const speedup = [];
    const overhead = [];
    for (let r = 0; r < ROUNDS; r++) {
      const single = oneByOne(lab, scenario, steps);
      const whole = integrated(lab, scenario, steps);
      const bare = batched(lab, scenario, steps);
      speedup.push(single / whole);
      overhead.push(whole / bare);
    }
    const s = stats(speedup);
    table.add('integrate', `${name}: (advance(1) + q, p) / integrate`, s, { goal: '≥ 4', met: s.median >= 4 });
    const o = stats(overhead);
    table.add('integrate', `${name}: integrate / advance(n) (every step recorded)`, o, { goal: '≤ 1.5', met: o.median <= 1.5 });
  }
}
