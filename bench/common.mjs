// Shared helpers of the benchmark sections: CPU-time measurement, the native programs,
// statistics of per-round ratios, and the one results table.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { change, rowKey } from './previous.mjs';

// Every wasm row measures V8's optimizing tier, which the page runs once warm. Node 20's
// dynamic tiering can leave a run's hot functions in the baseline tier for a whole
// section: a field run (N = 1024) stepped by one advance(3000) per round stayed at
// 7–8 µs per step where the optimizing tier takes 5.3; Chromium stepping it as the page
// does (many short calls) takes 5.1–5.5. Set before any module is compiled (a section's
// lab is created after its imports), for MuJoCo's wasm as for vilab's.
setFlagsFromString('--no-liftoff');

export const root = new URL('..', import.meta.url);
export const ROUNDS = Number(process.env.VILAB_BENCH_ROUNDS ?? 5);
export const nativeBin = (name) => new URL(`build/native/${name}`, root).pathname;

const presets = [
  ...JSON.parse(readFileSync(new URL('scenes/presets.json', root))),
  ...JSON.parse(readFileSync(new URL('scenes/rigid_body_presets.json', root))),
];
export const preset = (id) => {
  const p = presets.find((x) => x.id === id);
  if (!p) throw new Error(`bench: no preset ${id}`);
  return p.scenario;
};
export const dsp = { system: 'double-spherical-pendulum', h: 0.01 };
export const chain = (n) => ({
  system: 'chain',
  h: 0.01,
  params: { masses: Array(n).fill(0.1), lengths: Array(n).fill(0.25) },
  initial: { angles: Array(n).fill([0.6, 0]), rates: Array(n).fill([0, 1.0]) },
});

/** The wasm/native cases: [name, scenario, steps], one per (system, method) that matters for speed. */
export const wasmCases = () => {
  const body = preset('dzhanibekov');
  return [
    ['DSP midpoint', { ...dsp, integrator: 'midpoint' }, 100000],
    ['DSP energy-momentum', { ...dsp, integrator: 'energy-momentum' }, 50000],
    ['DSP rk4', { ...dsp, integrator: 'rk4' }, 50000],
    ['chain N=8 midpoint', { ...chain(8), integrator: 'midpoint' }, 50000],
    ['chain N=64 midpoint', { ...chain(64), integrator: 'midpoint' }, 5000],
    ['chain N=64 energy-momentum', { ...chain(64), integrator: 'energy-momentum' }, 3000],
    ['rigid body lie-group', { ...body, integrator: 'lie-group' }, 50000],
    ['rigid body quaternion (AD)', { ...body, integrator: 'quaternion' }, 5000],
    ['heavy top lie-group', { ...preset('heavy-top-nutation'), integrator: 'lie-group' }, 20000],
  ];
};

/** The default DSP typed as data (Cartesian, two constraints, unit masses), from the built-in default's state. */
export function dspAsData(lab) {
  const builtin = lab.simulate(dsp);
  const scenario = {
    system: 'lagrangian',
    h: 0.01,
    params: {
      coordinates: ['x1', 'y1', 'z1', 'x2', 'y2', 'z2'],
      constants: { g: 9.81 },
      lagrangian: "(x1'^2+y1'^2+z1'^2)/2 + (x2'^2+y2'^2+z2'^2)/2 - g*z1 - g*z2",
      constraints: ['x1^2+y1^2+z1^2-1', '(x2-x1)^2+(y2-y1)^2+(z2-z1)^2-1'],
      symmetries: { Jz: ['-y1', 'x1', '0', '-y2', 'x2', '0'] },
    },
    initial: { q: Array.from(builtin.q), qdot: Array.from(builtin.p) },
  };
  builtin.dispose();
  return scenario;
}

/** CPU milliseconds (user + system) of this process spent in fn (Node: process.cpuUsage). */
export function cpuMs(fn) {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/**
 * JSON printed by a native benchmark program, or null when it fails (refused, unknown, absent);
 * run on one core (taskset -c) when `core` is given.
 */
export function native(bin, args, timeout = 600000, core = null) {
  const command =
    core == null ? [nativeBin(bin), args.map(String)] : ['taskset', ['-c', String(core), nativeBin(bin), ...args.map(String)]];
  try {
    return JSON.parse(execFileSync(...command, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout }));
  } catch {
    return null;
  }
}

/** Native ns per step in thread CPU time, the best of `repeats` (rounds are interleaved by the caller). */
export const nativeNs = (scenario, steps, repeats = 1) =>
  native('vilab_bench', [JSON.stringify(scenario), steps, repeats])?.nsPerStep ?? NaN;

/** Wasm ns per step in process CPU time, the best of `repeats`, after a warm-up past V8's baseline tier. */
export const wasmNs = (lab, scenario, steps, repeats = 1) => wasmRun(lab, scenario, steps, repeats).ns;

/** wasmNs and the run's hash after its steps (ns NaN and no hash when the run is refused); history unrecorded unless options say. */
export function wasmRun(lab, scenario, steps, repeats = 1, options = { historyStride: 1000000 }) {
  let best = Infinity;
  let hash = '';
  for (let r = 0; r < repeats; r++) {
    const sim = lab.simulate(scenario, options);
    try {
      sim.advance(Math.min(steps, 2000));
      best = Math.min(best, (cpuMs(() => sim.advance(steps)) * 1e6) / steps);
      hash = sim.hash();
    } catch {
      return { ns: NaN, hash: '' };
    } finally {
      sim.dispose();
    }
  }
  return { ns: best, hash };
}

/**
 * ns per step of two scenarios in wasm, each run kept alive and timed in interleaved
 * chunks (the order alternating), so that a burst of load on the machine falls on both:
 * { a, b } medians over the chunks and their ratio a ÷ b. Each run is first warmed up
 * over several calls (V8 swaps a wasm function's optimized code in at its next call, and
 * tiers up in the background), the typed systems' generated program modules included.
 */
export function wasmPairNs(lab, scenarioA, scenarioB, steps, chunks = 12) {
  const sims = [scenarioA, scenarioB].map((s) => lab.simulate(s, { historyStride: 1000000 }));
  const times = [[], []];
  try {
    // At least 12 calls and 150 ms of CPU each: a typed run's generated program modules
    // are new code, which V8 first runs unoptimized.
    for (const sim of sims) {
      let spent = 0;
      for (let i = 0; i < 12 || spent < 150; i++) spent += cpuMs(() => sim.advance(steps));
    }
    for (let c = 0; c < chunks; c++)
      for (const k of c % 2 ? [1, 0] : [0, 1]) times[k].push((cpuMs(() => sims[k].advance(steps)) * 1e6) / steps);
  } catch {
    return { a: NaN, b: NaN, ratio: NaN };
  } finally {
    for (const sim of sims) sim.dispose();
  }
  const a = median(times[0]),
    b = median(times[1]);
  return { a, b, ratio: a / b };
}

/** The least-squares slope of log y in log x. */
export function logSlope(xs, ys) {
  const lx = xs.map(Math.log),
    ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b) / lx.length,
    my = ly.reduce((a, b) => a + b) / ly.length;
  let num = 0,
    den = 0;
  for (let i = 0; i < lx.length; i++) (num += (lx[i] - mx) * (ly[i] - my)), (den += (lx[i] - mx) ** 2);
  return num / den;
}

export const median = (a) => {
  const s = a.filter(Number.isFinite).sort((x, y) => x - y);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Median and range of per-round values. */
export function stats(values) {
  const s = values.filter(Number.isFinite);
  return { median: median(s), min: Math.min(...s), max: Math.max(...s), n: s.length };
}

/** A row per core (label + `, CPU c alone`) of ratio(run) over the rounds run on that core; none when one core ran them all. */
export function perCoreRows(table, section, label, runs, cores, ratio) {
  if (cores.length < 2) return;
  for (const core of cores) {
    const own = runs.filter((x) => x.core === core);
    if (own.length) table.add(section, `${label}, CPU ${core} alone`, stats(own.map(ratio)), { unit: '×' });
  }
}

export const fmt = (x, digits = 3) => {
  if (x == null || !Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return x.toExponential(1);
  return Number(x.toPrecision(digits)).toString();
};

/** The one results table: every row a figure of this run, with its spread and goal, and the previous run's beside it. */
export class Table {
  rows = [];
  details = []; // [heading, markdown] blocks under the table
  /** previous: key → { median, unit, commit, date } (bench/previous.mjs previousRows). */
  constructor(previous = new Map()) {
    this.previous = previous;
  }
  add(section, what, s, { goal = '', met = null, unit = '', key = rowKey(section, what) } = {}) {
    const spread = s.n > 1 ? `${fmt(s.min)}–${fmt(s.max)}` : '';
    const before = this.previous.get(key);
    const prev = before ? `${fmt(before.median)}${before.unit} (${before.commit})` : '';
    const delta = change(s.median, before);
    this.rows.push({ section, key, what, ...s, unit, value: `${fmt(s.median)}${unit}`, spread, goal, met, prev, delta });
    const mark = met == null ? '' : met ? '  ✓' : '  ✗';
    const was = before ? `  was ${prev} ${delta}` : '';
    console.log(`  ${what.padEnd(62)} ${`${fmt(s.median)}${unit}`.padStart(10)}  ${spread.padEnd(17)} ${goal}${mark}${was}`);
  }
  detail(heading, markdown) {
    this.details.push([heading, markdown]);
  }
  markdown() {
    const out = [
      '| section | measure | median | range over rounds | goal | met | previous (commit) | change |',
      '|---|---|---:|---|---|---|---|---:|',
    ];
    for (const r of this.rows)
      out.push(
        `| ${r.section} | ${r.what} | ${r.value} | ${r.spread} | ${r.goal} | ${r.met == null ? '' : r.met ? 'yes' : 'no'} | ${r.prev} | ${r.delta} |`,
      );
    return out.join('\n');
  }
}

export const single = (x) => ({ median: x, min: x, max: x, n: 1 });
