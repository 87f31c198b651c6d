// npm run bench: one table of figures measured in one run, written as markdown (and the
// work–precision diagram) to bench/results/. Every comparison is a ratio measured in this
// run in CPU time (thread CPU time natively, process.cpuUsage in Node), over interleaved
// rounds, reported as the median and the range over rounds. Sections (all by default,
// or those listed in VILAB_BENCH_SECTIONS, comma-separated):
//
//   wasm     wasm/native per step for each system and method
//   mujoco   against MuJoCo's official wasm build (bench/mujoco.mjs), and the MJCF files
//            of tests/native/mjcf/ imported and run side by side (bench/mjcf.mjs)
//   odeint   work–precision against Boost.Odeint to T = 1e4 s (bench/odeint.mjs)
//   scaling  chains N = 2…64 (log–log slope) and data-defined systems against compiled twins
//   limit    the DSP midpoint step against a fixed-size kernel of the same bits, native and
//            wasm (bench/kernel_wasm.mjs; em++ builds the kernel), flops, where the time goes
//   family   every integrator's step cost relative to midpoint (DSP, 64-link chain)
//   page     the page figures in headless Chromium (bench/page.mjs; needs dist/)
//   integrate lab.integrate against advance(1) + sim.q, sim.p and against advance(n) (bench/integrate.mjs)
//   fields   the field integrators on the linear wave, N = 128…4096: steps/s, wasm/native,
//            the log–log slope in N, with and without a history row per step (bench/field.mjs)
//   baseline (not by default) before/after against an earlier commit built from git
//   accuracy (not by default) the largest h keeping the DSP's energy error below 1e-6 to 1000 s
//   flags    (not by default) wasm speed and size under -msimd128 and -Oz (bench/wasm_flags.mjs)
//
// VILAB_BENCH_ROUNDS (interleaved rounds, 5), VILAB_BENCH_BASELINE (a commit, for
// `baseline`), VILAB_BENCH_WP_T (the work–precision horizon, 1e4 s) tune it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { createLab } from '../web/sim/vilab.js';
import { loadRuns, previousRows, resultsJson } from './previous.mjs';
import {
  chain,
  dsp,
  dspAsData,
  fmt,
  logSlope,
  median,
  native,
  nativeBin,
  perCoreRows,
  nativeNs,
  root,
  ROUNDS,
  single,
  stats,
  Table,
  wasmCases,
  wasmNs,
  wasmPairNs,
  wasmRun,
} from './common.mjs';
import { programRows } from './programs.mjs';

const ALL = ['wasm', 'mujoco', 'odeint', 'scaling', 'limit', 'family', 'page', 'integrate', 'fields'];
const SECTIONS = (process.env.VILAB_BENCH_SECTIONS ?? ALL.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const resultsDir = new URL('bench/results/', root);
mkdirSync(resultsDir, { recursive: true });
const lab = await createLab();
const cpu = cpus()[0]?.model?.trim() ?? 'unknown CPU';
const slug = cpu
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '-')
  .replace(/^-|-$/g, '');
// Each row beside the newest earlier run's (bench/previous.mjs).
const table = new Table(previousRows(loadRuns(resultsDir), slug));
const load0 = loadavg();
let tree = 'unknown';
let commit = 'unknown';
try {
  const git = (args) =>
    execFileSync('git', ['-C', root.pathname, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  commit = git(['describe', '--always']);
  // Dirty only for changes outside bench/results/ (which this run rewrites).
  tree = commit + (git(['status', '--porcelain', '--', '.', ':!bench/results']) ? '-dirty' : '');
} catch {}
const started = Date.now();
const heading = (s) => console.log(`\n== ${s}`);

// ---- wasm/native --------------------------------------------------------------------
async function wasmSection() {
  heading('wasm/native per step (CPU time, interleaved rounds)');
  const cases = wasmCases();
  for (const [name, scenario, steps] of cases) {
    const ratios = [];
    const ns = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Best of 3 on each side within a round: a preempted repeat does not set the ratio.
      const n = nativeNs(scenario, steps, 3);
      const w = wasmNs(lab, scenario, steps, 3);
      ratios.push(w / n);
      ns.push(n);
    }
    const s = stats(ratios);
    table.add('wasm', `${name}: wasm/native (native ${fmt(median(ns))} ns/step)`, s, { goal: '≤ 1.25', met: s.median <= 1.25 });
  }
}

// ---- scaling ------------------------------------------------------------------------
async function scalingSection() {
  heading('how cost grows: chains N = 2…64 (native, thread CPU time)');
  const Ns = [2, 4, 8, 16, 32, 64];
  const md = [
    '| method | ' + Ns.map((n) => `N = ${n}`).join(' | ') + ' | slope | iterations N=2 → 64 |',
    '|---|' + Ns.map(() => '---:|').join('') + '---:|---|',
  ];
  for (const id of ['midpoint', 'energy-momentum', 'rattle']) {
    const perN = Ns.map(() => []),
      iters = Ns.map(() => NaN);
    for (let r = 0; r < ROUNDS; r++) {
      Ns.forEach((n, i) => {
        const steps = Math.round(200000 / n);
        const res = native('vilab_bench', ['--run', JSON.stringify({ ...chain(n), integrator: id }), steps * 0.01, 100]);
        perN[i].push(res?.refusedAt == null ? (res?.nsPerStep ?? NaN) : NaN);
        if (r === 0 && res) iters[i] = res.iterations;
      });
    }
    const ns = perN.map(median);
    // The slope over rounds: one fit per round, median and range.
    const slopes = [];
    for (let r = 0; r < ROUNDS; r++)
      slopes.push(
        logSlope(
          Ns,
          perN.map((a) => a[r]),
        ),
      );
    const s = stats(slopes);
    table.add('scaling', `chain ${id}: log–log slope of step cost in N (2…64)`, s, { goal: '≤ 1.1', met: s.median <= 1.1 });
    md.push(`| ${id} | ${ns.map((x) => fmt(x)).join(' | ')} | ${fmt(s.median)} | ${fmt(iters[0])} → ${fmt(iters.at(-1))} |`);
  }
  table.detail('Chains: ns per step (native, median over rounds), the fitted slope and Newton iterations per step', md.join('\n'));
  console.log(md.join('\n'));

  // Systems typed as data against their compiled twins: the DSP (Cartesian, two
  // constraints) and the planar pendulum (Cartesian x, z, one constraint). In wasm both
  // runs of a pair stay alive and are timed in interleaved chunks (wasmPairNs): fresh
  // runs timed one after the other moved by ±30 % with the machine's load.
  const asData = dspAsData(lab);
  const pendulum = { system: 'pendulum', h: 0.01 };
  const start = lab.simulate(pendulum);
  const pendulumAsData = {
    system: 'lagrangian',
    h: 0.01,
    params: { coordinates: ['x', 'z'], constants: { g: 9.81 }, lagrangian: "(x'^2+z'^2)/2 - g*z", constraints: ['x^2+z^2-1'] },
    initial: { q: [start.q[0], start.q[2]], qdot: [start.p[0], start.p[2]] }, // mass 1
  };
  start.dispose();
  {
    const nat = [],
      wasm = [];
    for (let r = 0; r < ROUNDS; r++) {
      const sc = { ...pendulumAsData, integrator: 'midpoint' },
        tw = { ...pendulum, integrator: 'midpoint' };
      nat.push(nativeNs(sc, 50000, 2) / nativeNs(tw, 50000, 2));
      wasm.push(wasmPairNs(lab, sc, tw, 10000).ratio);
    }
    // The goal is the page's (wasm): a typed pendulum within 2× its compiled twin.
    table.add('scaling', 'pendulum as data ÷ compiled pendulum, midpoint, native', stats(nat), { unit: '×' });
    table.add('scaling', 'pendulum as data ÷ compiled pendulum, midpoint, wasm', stats(wasm), {
      goal: '≤ 2',
      met: stats(wasm).median <= 2,
      unit: '×',
    });
  }
  for (const id of ['midpoint', 'rk4']) {
    const nat = [],
      wasm = [];
    for (let r = 0; r < ROUNDS; r++) {
      nat.push(nativeNs({ ...asData, integrator: id }, 20000, 2) / nativeNs({ ...dsp, integrator: id }, 20000, 2));
      wasm.push(wasmPairNs(lab, { ...asData, integrator: id }, { ...dsp, integrator: id }, 5000).ratio);
    }
    // The goal is the midpoint rule's in wasm, where the page runs (the typed Lagrangian
    // inside an implicit step): within 3× the compiled DSP.
    const goal = id === 'midpoint' ? (x) => ({ goal: '≤ 3', met: stats(x).median <= 3 }) : () => ({});
    table.add('scaling', `DSP as data ÷ compiled DSP, ${id}, native`, stats(nat), { unit: '×' });
    table.add('scaling', `DSP as data ÷ compiled DSP, ${id}, wasm`, stats(wasm), { ...goal(wasm), unit: '×' });
  }
  const programs = (await programRows(lab, table)).join('\n');
  table.detail('Expression programs per evaluation in wasm, interpreted and compiled (median over rounds)', programs);
  console.log(programs);
}

// ---- the physical limit -------------------------------------------------------------
function clockGHz() {
  try {
    const mhz = readFileSync('/proc/cpuinfo', 'utf8').match(/cpu MHz\s*:\s*([\d.]+)/);
    return mhz ? Number(mhz[1]) / 1000 : NaN;
  } catch {
    return NaN;
  }
}
// The cores a benchmark can be pinned to with taskset (util-linux), at most four; [null]
// (the scheduler's choice) where taskset is missing or there is one core.
function pinnableCores() {
  try {
    execFileSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
  } catch {
    return [null];
  }
  const n = Math.min(cpus().length, 4);
  return n > 1 ? Array.from({ length: n }, (_, i) => i) : [null];
}

// The library's DSP midpoint step under `perf record` (Linux perf; skipped when absent):
// self time by function, the top entries.
function perfBreakdown() {
  const data = '/tmp/vilab-bench-perf.data';
  try {
    execFileSync(
      'perf',
      ['record', '-q', '-o', data, nativeBin('vilab_bench'), JSON.stringify({ ...dsp, integrator: 'midpoint' }), '1000000', '1'],
      { stdio: 'ignore' },
    );
    const report = execFileSync('perf', ['report', '-i', data, '--no-children', '--stdio', '--sort', 'symbol'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const rows = report
      .split('\n')
      .map((l) => l.match(/^\s+([\d.]+)%\s+\[\.\]\s+(.*)$/))
      .filter(Boolean)
      .slice(0, 10);
    if (!rows.length) return null;
    const short = (f) =>
      f
        .split(/\s{2,}/)[0]
        .trim()
        .replace(/vilab::/g, '')
        .replace(/std::__cxx11::basic_string<.*$/, 'std::string (construction)')
        .slice(0, 90);
    return ['| self time | function |', '|---:|---|', ...rows.map(([, pc, f]) => `| ${pc} % | \`${short(f)}\` |`)].join('\n');
  } catch {
    console.log('  perf is not available: the time breakdown is skipped');
    return null;
  }
}

async function limitSection() {
  heading('the physical limit: DSP midpoint step against a fixed-size kernel');
  // Each round pinned to one core in turn (taskset, where present): on this shared host one
  // core at times runs the library's step 1.25× slower while the kernel barely changes,
  // so a process the scheduler happened to place there read 1.42× against 1.16× on the
  // other. The goal row is over every core's rounds; a row per core shows the spread.
  const cores = pinnableCores();
  const runs = [];
  for (let r = 0; r < ROUNDS; r++)
    for (const core of cores) {
      const k = native('vilab_bench', ['--kernel', 300000], undefined, core);
      if (k) runs.push({ ...k, core });
    }
  if (!runs.length) return;
  const k = runs[0];
  const ratio = stats(runs.map((x) => x.libraryNs / x.kernelNs));
  perCoreRows(table, 'limit', 'DSP midpoint step, library ÷ fixed-size kernel (native)', runs, cores, (x) => x.libraryNs / x.kernelNs);
  const lib = stats(runs.map((x) => x.libraryNs));
  const ker = stats(runs.map((x) => x.kernelNs));
  const ghz = clockGHz();
  table.add('limit', 'DSP midpoint step, library ÷ fixed-size kernel (native)', ratio, {
    goal: '≤ 1.15',
    met: ratio.median <= 1.15,
    unit: '×',
  });
  table.add('limit', 'DSP midpoint step, library (native, ns)', lib, { goal: '≤ 150', met: lib.median <= 150 });
  table.add('limit', 'DSP midpoint step, fixed-size kernel (native, ns)', ker);
  if (runs.every((x) => x.kernelLiteralsNs != null))
    table.add(
      'limit',
      'DSP midpoint step, the kernel with h, g, masses and lengths as literals (native, ns)',
      stats(runs.map((x) => x.kernelLiteralsNs)),
    );
  table.add('limit', `flops per step (kernel, counted; ${k.flopsPerIteration} per Newton iteration)`, single(k.flops));
  table.add('limit', `flops per cycle at ${fmt(ghz)} GHz: library / kernel`, single(k.flops / (lib.median * ghz)), {
    key: 'limit: flops per cycle: library / kernel',
  });
  table.add('limit', 'flops per cycle, kernel', single(k.flops / (ker.median * ghz)));
  const { wasmKernelRows } = await import('./kernel_wasm.mjs');
  wasmKernelRows(table, cores);
  const profiles = [];
  for (let r = 0; r < ROUNDS; r++) {
    const prof = native('vilab_bench', ['--profile', JSON.stringify({ ...dsp, integrator: 'midpoint' }), 100000]);
    if (prof) profiles.push(prof);
  }
  if (profiles.length) {
    table.add(
      'limit',
      'DSP midpoint: Newton iterations per step (library; kernel ' + fmt(k.kernelIterations) + ')',
      single(profiles[0].iterations),
    );
    const native = stats(profiles.map((p) => p.nsPerStepHistoryEveryStep / p.nsPerStep));
    table.add('limit', 'DSP midpoint: history recorded every step ÷ not recorded', native, {
      goal: '≤ 1.05',
      met: native.median <= 1.05,
      unit: '×',
    });
  }
  // The same in wasm: the page's runner and the API default record every step (capacity
  // 32768, so the ring wraps); best of 3 each way per round, interleaved.
  const wasm = [];
  for (let r = 0; r < ROUNDS; r++) {
    const scenario = { ...dsp, integrator: 'midpoint' };
    const none = wasmRun(lab, scenario, 100000, 3).ns;
    const every = wasmRun(lab, scenario, 100000, 3, { historyStride: 1 }).ns;
    wasm.push(every / none);
  }
  const w = stats(wasm);
  table.add('limit', 'DSP midpoint: history recorded every step ÷ not recorded, wasm', w, {
    goal: '≤ 1.05',
    met: w.median <= 1.05,
    unit: '×',
  });
  const perf = perfBreakdown();
  if (perf) table.detail("Where the library's DSP midpoint step spends its time (perf, native, self time by function)", perf);
  const ad = [];
  for (let r = 0; r < ROUNDS; r++) {
    ad.push(
      nativeNs(
        {
          system: 'double-spherical-pendulum',
          h: 0.005,
          integrator: 'generalized',
          initial: {
            angles: [
              [1.0, 0],
              [1.3, 0.7],
            ],
            rates: [
              [0, 1.8],
              [0.3, 1.5],
            ],
          },
        },
        5000,
      ) / nativeNs({ ...dsp, integrator: 'midpoint' }, 50000),
    );
  }
  table.add('limit', 'AD path (generalized, chart, jets) ÷ hand-written midpoint, per step', stats(ad), { unit: '×' });
  table.detail(
    'The fixed-size kernel',
    `Agreement with the library after 1000 steps: max |Δ| = ${fmt(k.maxDifferenceAfter1000)} (0: the same bits). ` +
      `Counted flops per step: ${k.flops} (${k.flopsFixed} outside the Newton loop, ${k.flopsPerIteration} per iteration, ${k.divisions} divisions).`,
  );
}

// ---- the family side by side --------------------------------------------------------
async function familySection() {
  heading('the family: cost per step relative to midpoint (native and wasm)');
  const md = ['| system | integrator | order | native ÷ midpoint | wasm ÷ midpoint | native ns/step |', '|---|---|---:|---:|---:|---:|'];
  for (const [label, base] of [
    ['DSP', dsp],
    ['chain N=64', chain(64)],
  ]) {
    const system = lab.system(base.system);
    const steps = label === 'DSP' ? 20000 : 2000;
    const mid = { ...base, integrator: 'midpoint' };
    for (const id of system.integrators) {
      const scenario = { ...base, integrator: id, ...(id === 'penalty' || id === 'euler' ? { h: 0.001 } : {}) };
      const n = ['euler', 'penalty', 'generalized', 'angles-midpoint', 'penalty-energy-momentum'].includes(id)
        ? Math.min(steps, 2000)
        : steps;
      const rn = [],
        rw = [],
        ns = [];
      for (let r = 0; r < Math.max(1, Math.min(ROUNDS, 3)); r++) {
        const a = nativeNs(scenario, n);
        ns.push(a);
        rn.push(a / nativeNs(mid, steps));
        rw.push(wasmNs(lab, scenario, n) / wasmNs(lab, mid, steps));
      }
      md.push(`| ${label} | ${id} | ${lab.integrator(id).order} | ${fmt(median(rn))} | ${fmt(median(rw))} | ${fmt(median(ns))} |`);
    }
  }
  table.detail(
    'The family: step cost relative to midpoint (medians over interleaved rounds; Euler and penalty at h = 0.001)',
    md.join('\n'),
  );
  console.log(md.join('\n'));
}

async function accuracySection() {
  heading('the family: keeping the DSP energy error below 1e-6 up to T = 1000 s');
  const md = ['| integrator | largest h | steps | CPU ms | error |', '|---|---:|---:|---:|---:|'];
  for (const id of lab.system('double-spherical-pendulum').integrators) {
    const r = native('vilab_bench', ['--accuracy', JSON.stringify({ ...dsp, integrator: id }), 1000, 1e-6], 120000);
    md.push(r?.h == null ? `| ${id} | not reached | | | |` : `| ${id} | ${r.h} | ${r.steps} | ${fmt(r.ms)} | ${fmt(r.error)} |`);
  }
  table.detail('Keeping the DSP energy error below 1e-6 to T = 1000 s', md.join('\n'));
  console.log(md.join('\n'));
}

async function baselineSection() {
  const { baselineBench } = await import('./baseline.mjs');
  const commit = process.env.VILAB_BENCH_BASELINE ?? '8f1ec57166247c87b64b68ddc6cfdeaffb15f4d5';
  heading(`before/after against ${commit.slice(0, 10)} (native)`);
  const before = baselineBench(commit);
  if (!before) return console.log('  the baseline commit is not in this clone: skipped');
  const { execFileSync: run } = await import('node:child_process');
  const time = (bin, sc, steps) => {
    try {
      return JSON.parse(run(bin, [JSON.stringify(sc), String(steps), '1'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }))
        .nsPerStep;
    } catch {
      return NaN;
    }
  };
  for (const [name, sc, steps] of [
    ['DSP midpoint', { ...dsp, integrator: 'midpoint' }, 100000],
    ['chain N=64 energy-momentum', { ...chain(64), integrator: 'energy-momentum' }, 5000],
  ]) {
    const ratios = [];
    for (let r = 0; r < ROUNDS; r++) ratios.push(nativeNs(sc, steps) / time(before, sc, steps));
    table.add('baseline', `${name}: after/before (the baseline times wall clock)`, stats(ratios));
  }
}

async function pageSection() {
  heading('page figures');
  const { pageFigures } = await import('./page.mjs');
  const lines = [];
  const log = console.log;
  console.log = (...a) => (lines.push(a.join(' ')), log(...a));
  try {
    await pageFigures();
  } catch (e) {
    lines.push(`page figures failed: ${e.message} (build dist/ first: npm run build)`);
  } finally {
    console.log = log;
  }
  table.detail('Page figures (bench/page.mjs)', '```\n' + lines.join('\n').trim() + '\n```');
}

async function fieldsSection() {
  heading('fields: the linear wave, N = 128…4096 (ns per step, CPU time)');
  const { fieldSection } = await import('./field.mjs');
  const md = await fieldSection(lab, table);
  table.detail('Fields: ns per step of the linear wave (h = Δx/2, fixed ends), medians over rounds, and the fitted slope in N', md);
  console.log(md);
}

const SECTION = {
  wasm: wasmSection,
  mujoco: null,
  odeint: null,
  scaling: scalingSection,
  limit: limitSection,
  family: familySection,
  page: pageSection,
  baseline: baselineSection,
  accuracy: accuracySection,
  flags: null,
  integrate: null,
  fields: fieldsSection,
};
for (const s of SECTIONS) {
  if (!(s in SECTION)) throw new Error(`VILAB_BENCH_SECTIONS: unknown section "${s}" (known: ${Object.keys(SECTION).join(', ')})`);
  if (s === 'mujoco') {
    heading("against MuJoCo's official wasm build, same process");
    const { mujocoSection } = await import('./mujoco.mjs');
    await mujocoSection(lab, table);
    const { mjcfSection } = await import('./mjcf.mjs');
    await mjcfSection(lab, table);
  } else if (s === 'flags') {
    heading('compiler flags: wasm variants against the shipped build');
    const { wasmFlagsSection } = await import('./wasm_flags.mjs');
    await wasmFlagsSection(table);
  } else if (s === 'integrate') {
    heading('the trajectory API: lab.integrate against stepping one by one');
    const { integrateSection } = await import('./integrate.mjs');
    await integrateSection(lab, table);
  } else if (s === 'odeint') {
    heading('work–precision against Boost.Odeint (native)');
    const { odeintSection } = await import('./odeint.mjs');
    await odeintSection(lab, table, resultsDir);
  } else await SECTION[s]();
}

// ---- the table and the results file -------------------------------------------------
const sh = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')[0]
      .trim();
  } catch {
    return 'absent';
  }
};
let os = release();
try {
  os = readFileSync('/etc/os-release', 'utf8').match(/PRETTY_NAME="([^"]*)"/)?.[1] ?? os;
} catch {}
const load1 = loadavg();
const minutes = (Date.now() - started) / 60000;
const machine = [
  `- CPU: ${cpu}, ${cpus().length} cores (clock ${fmt(clockGHz())} GHz as reported by /proc/cpuinfo)`,
  `- OS: ${os}, kernel ${release()}`,
  `- compilers: ${sh('g++', ['--version'])}; ${sh('emcc', ['--version'])}; Node ${process.version}`,
  `- load average at start ${load0.map((x) => x.toFixed(2)).join(' ')}, at end ${load1.map((x) => x.toFixed(2)).join(' ')} (other work shared the cores: figures are CPU time and ratios are per interleaved round)`,
  `- tree: ${tree}; sections: ${SECTIONS.join(', ')}; ${ROUNDS} rounds; ${minutes.toFixed(1)} min`,
];
const finished = new Date().toISOString();
const date = finished.slice(0, 10);
const stem = `${date}-${slug}`;
const complete = ALL.every((s) => SECTIONS.includes(s));
const document = (svg) =>
  [
    `# vilab benchmarks, ${date}`,
    '',
    ...machine,
    '',
    'Median over interleaved rounds and the range over rounds; ratios are formed per round; beside each, the median of the newest earlier run holding that row (its commit) and the change. Reproduce with `npm run bench` (see docs/benchmarks.md).',
    '',
    table.markdown(),
    '',
    ...(SECTIONS.includes('odeint') ? [`![work–precision](${svg})`, ''] : []),
    ...table.details.flatMap(([h, body]) => [`## ${h}`, '', body, '']),
  ].join('\n');
console.log('\n' + table.markdown());
// latest.md (not committed) after every run; a complete run also writes the dated file
// named by the machine, to commit.
writeFileSync(new URL('latest.md', resultsDir), document('work-precision.svg'));
// Every run's rows as JSON (runs/, not committed): the next run's "previous".
const results = `${JSON.stringify(
  resultsJson(table.rows, {
    commit: tree,
    date,
    finished,
    machine: { cpu, slug, cores: cpus().length },
    sections: SECTIONS,
    rounds: ROUNDS,
  }),
  null,
  1,
)}\n`;
mkdirSync(new URL('runs/', resultsDir), { recursive: true });
writeFileSync(new URL(`runs/${finished.replace(/[:.]/g, '-')}-${slug}.json`, resultsDir), results);
if (complete) {
  writeFileSync(new URL(`${stem}.md`, resultsDir), document(`${stem}-work-precision.svg`));
  writeFileSync(new URL(`${stem}.json`, resultsDir), results);
  copyFileSync(new URL('work-precision.svg', resultsDir), new URL(`${stem}-work-precision.svg`, resultsDir));
}
console.log(`\nwritten: bench/results/latest.md, bench/results/runs/${complete ? ` and bench/results/${stem}.md, .json` : ''}`);
