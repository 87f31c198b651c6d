// The field system's speed: the linear wave on N = 128…4096 nodes (fixed ends, Courant
// number ½ so that the leapfrog is stable at every N) stepped by each field integrator,
// natively and in wasm, nothing recorded and, as the page runs it, a history row every
// step. CPU time, interleaved rounds (each round times every N and both sides once);
// the slope of log(cost) in log(N) is fitted per round.
import { fmt, logSlope, median, native, ROUNDS, stats, wasmRun } from './common.mjs';

export const FIELD_NS = [128, 256, 512, 1024, 2048, 4096];
// [integrator, relative cost]: the timed steps are ≈ 1.5e6 node-steps / cost, ≈ 20–50 ms.
const METHODS = [
  ['trapezoid', 1],
  ['midpoint', 4],
  ['rk4', 3],
  ['dopri5', 6],
  ['avi', 3],
];
const PAGE = { historyStride: 1 };

/** The linear wave on n nodes of [0, 1], fixed ends, h = Δx/2: a Gaussian bump at rest. */
export const fieldWave = (n, integrator) => ({
  system: 'field',
  integrator,
  h: 0.5 / (n - 1),
  params: { density: { family: 'wave' }, grid: { length: 1, points: n, ends: 'fixed' } },
  initial: { u: '0.05*exp(-((x - 0.3)/0.05)^2)', ut: '0' },
});

const nativeFieldNs = (scenario, steps, stride) => native('vilab_bench', [JSON.stringify(scenario), steps, 1, stride])?.nsPerStep ?? NaN;

// One round of one method: ns per step at every N, native and wasm, each way of recording.
function round(lab, id, cost) {
  const out = { native: [], wasm: [], nativePage: [], wasmPage: [] };
  for (const n of FIELD_NS) {
    const scenario = fieldWave(n, id);
    const steps = Math.max(50, Math.round(1.5e6 / (n * cost)));
    out.native.push(nativeFieldNs(scenario, steps, 1000000));
    out.wasm.push(wasmRun(lab, scenario, steps).ns);
    out.nativePage.push(nativeFieldNs(scenario, steps, 1));
    out.wasmPage.push(wasmRun(lab, scenario, steps, 1, PAGE).ns);
  }
  return out;
}

const AT_1024 = FIELD_NS.indexOf(1024);
const slopes = (rounds, key) => stats(rounds.map((x) => logSlope(FIELD_NS, x[key])));
const slopeGoal = (s) => ({ goal: '1 ± 0.1', met: Math.abs(s.median - 1) <= 0.1 });

// The table's rows of one method: steps/s at N = 1024 as the page runs (and, for the
// leapfrog, whose goal it is, with nothing recorded), wasm/native, the slopes.
function addRows(table, id, rounds) {
  const rate = (key) => stats(rounds.map((x) => 1e9 / x[key][AT_1024]));
  const goal = (s) => (id === 'trapezoid' ? { goal: '≥ 20000', met: s.median >= 20000 } : {});
  const page = rate('wasmPage');
  table.add('fields', `wave N=1024 ${id}: wasm steps/s, history every step (the page)`, page, goal(page));
  if (id === 'trapezoid') {
    const quiet = rate('wasm');
    table.add('fields', `wave N=1024 ${id}: wasm steps/s, nothing recorded`, quiet, goal(quiet));
  }
  const ratio = stats(rounds.map((x) => x.wasm[AT_1024] / x.native[AT_1024]));
  table.add('fields', `wave N=1024 ${id}: wasm/native`, ratio, { goal: '≤ 1.25', met: ratio.median <= 1.25 });
  for (const [where, key] of [
    ['wasm', 'wasm'],
    ['native', 'native'],
  ]) {
    const s = slopes(rounds, key);
    table.add('fields', `wave ${id}: log–log slope of step cost in N (128…4096), ${where}`, s, slopeGoal(s));
  }
}

// The detail table's rows of one method: ns per step at each N, medians over rounds.
function detailRows(id, rounds) {
  const labels = [
    ['wasm, nothing recorded', 'wasm'],
    ['wasm, every step (page)', 'wasmPage'],
    ['native, nothing recorded', 'native'],
    ['native, every step', 'nativePage'],
  ];
  return labels.map(([label, key]) => {
    const ns = FIELD_NS.map((_, i) => fmt(median(rounds.map((x) => x[key][i]))));
    return `| ${id} | ${label} | ${ns.join(' | ')} | ${fmt(slopes(rounds, key).median)} |`;
  });
}

/** Four components (a and b, c and d rotating pairs) on the box scheme, n nodes. */
export const fourComponents = (n) => ({
  system: 'field',
  integrator: 'midpoint',
  h: 0.004,
  params: {
    density: {
      lagrangian: '0.5*(a_t^2 + b_t^2 + c_t^2 + d_t^2) - (sqrt(1 + a_x^2 + b_x^2 + c_x^2 + d_x^2) - 1)',
      fields: ['a', 'b', 'c', 'd'],
    },
    grid: { length: 1, points: n, ends: 'fixed' },
  },
  initial: { a: '0.1*sin(pi*x)', bt: '0.3*sin(pi*x)', b: '0', c: '0.05*sin(2*pi*x)', dt: '0.3*sin(2*pi*x)', d: '0' },
});

// Fields of several components: the box scheme's block-tridiagonal Newton is O(N m³), so a
// step at 4N costs 4× one at N (quadratic would be 16×). Native, CPU time, per round.
function addComponentRows(table) {
  const ratios = [];
  for (let r = 0; r < ROUNDS; r++) {
    const [small, large] = [256, 1024].map((n) => nativeFieldNs(fourComponents(n), Math.round(40000 / n), 1000000));
    ratios.push(large / small);
  }
  const s = stats(ratios);
  table.add('fields', 'four components, box scheme: step cost at N = 1024 ÷ N = 256, native (linear: 4)', s, {
    goal: '≤ 4.6',
    met: s.median <= 4.6,
  });
}

/** Adds the field rows to the table; returns the detail table (markdown). */
export async function fieldSection(lab, table) {
  const md = [
    `| integrator | where, recording | ${FIELD_NS.map((n) => `N = ${n}`).join(' | ')} | slope |`,
    `|---|---|${FIELD_NS.map(() => '---:|').join('')}---:|`,
  ];
  for (const [id, cost] of METHODS) {
    wasmRun(lab, fieldWave(1024, id), 1000); // warm-up: the first field run pays V8's tiering
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) rounds.push(round(lab, id, cost));
    addRows(table, id, rounds);
    md.push(...detailRows(id, rounds));
  }
  addComponentRows(table);
  return md.join('\n');
}
