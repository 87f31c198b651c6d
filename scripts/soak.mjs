// The soak's two runs, measured: a long run (1e7 double spherical pendulum steps in one
// simulation, advance() in batches) and many lifetimes (simulate/dispose cycles over every
// built-in system and the shipped systems defined by data). Used by the soak test
// (tests/wasm/soak.test.mjs, which asserts on the figures) and by the hardening report
// (scripts/hardening-report.mjs, which records them). Wall and CPU time are both kept: on
// shared cores the wall time depends on the other work, the CPU time much less.
import { readFileSync, readdirSync } from 'node:fs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Rates of the first and last tenth of `rates` (per-batch throughputs), by their medians.
function deciles(rates) {
  const k = Math.max(1, Math.floor(rates.length / 10));
  const first = median(rates.slice(0, k));
  const last = median(rates.slice(-k));
  return { first, last, ratio: last / first };
}

// Runs fn(i) for i < rounds; returns per-round rates (work per CPU second: other work on
// shared cores slows the wall clock, not this) and the wall and CPU totals.
const cpuSecondsSince = (start) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
};
function timed(rounds, work, fn) {
  const rates = [];
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) {
    const round = process.cpuUsage();
    fn(i);
    rates.push(work / Math.max(1e-6, cpuSecondsSince(round)));
  }
  return { rates, seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSecondsSince(cpu0) };
}

/** 1e7 steps (batches × batch) of the double spherical pendulum; the heap before and after. */
export function soakSteps(lab, { batches = 100, batch = 1e5 } = {}) {
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
  try {
    sim.advance(batch); // warm up: the history ring fills, the JIT settles
    const heapBefore = lab.heapUsed();
    const memoryBefore = lab.heapBytes();
    const energy0 = sim.diagnostics().energy;
    const { rates, seconds, cpuSeconds } = timed(batches, batch, () => sim.advance(batch));
    const steps = batches * batch;
    return {
      steps,
      finalStep: sim.step,
      seconds,
      cpuSeconds,
      nsPerStep: (cpuSeconds / steps) * 1e9,
      ...deciles(rates),
      heapBefore,
      heapAfter: lab.heapUsed(),
      memoryBefore,
      memoryAfter: lab.heapBytes(),
      energyDrift: Math.abs(sim.diagnostics().energy - energy0) / Math.abs(energy0),
    };
  } finally {
    sim.dispose();
  }
}

/**
 * ≥ 1e4 simulate/dispose cycles in 20 rounds of whole passes over the scenarios: every
 * built-in system, then the scenes of `root`/scenes/lagrangian (all but the 16-coordinate
 * FPUT chain, whose compilation alone takes ~20 ms: it would dominate the time).
 */
export function soakCycles(lab, root, { rounds = 20, atLeast = 1e4 } = {}) {
  const dir = new URL('scenes/lagrangian/', `file://${root.endsWith('/') ? root : `${root}/`}`);
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
  const heapBefore = lab.heapUsed();
  const memoryBefore = lab.heapBytes();
  const perRound = scenarios.length * Math.ceil(atLeast / rounds / scenarios.length);
  const { rates, seconds, cpuSeconds } = timed(rounds, perRound, (r) => {
    for (let i = 0; i < perRound; i++) cycle(r * perRound + i);
  });
  const cycles = rounds * perRound;
  const dataDefined = (cycles / scenarios.length) * scenes.length;
  return {
    cycles,
    builtIn: cycles - dataDefined,
    dataDefined,
    scenarios: scenarios.length,
    seconds,
    cpuSeconds,
    ...deciles(rates),
    heapBefore,
    heapAfter: lab.heapUsed(),
    memoryBefore,
    memoryAfter: lab.heapBytes(),
  };
}
