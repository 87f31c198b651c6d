// The `limit` section's wasm half: the library's DSP midpoint step in the wasm build
// against the same fixed-size kernel (bench/dsp_kernel.hpp) compiled to wasm by the same
// em++ with the library's floating-point flags (bench/wasm/dsp_kernel.cpp, built here on
// demand into build/bench/), in CPU time over interleaved rounds. Each round is a Node
// process of its own, pinned to each core in turn as the native rounds are (a round in the
// bench's own process once read 189 ns against 129–133 alone, with the same build).
// The kernel reads h, g, the masses and the lengths from its memory, as the library reads
// its scenario's: compiled in as literals they are folded (× 1/l and × 1/m vanish with
// unit lengths and masses), 5 ns of its 90 in wasm, a row of its own. Also checks that
// both give the same bits after the timed steps.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpuMs, dsp, fmt, perCoreRows, root, ROUNDS, stats } from './common.mjs';

const STEPS = 100000;

/** The kernel's module (literals: the variant given h, g, masses and lengths as literals), built when stale. */
function kernelModule(literals = false) {
  const out = new URL(`build/bench/dsp_kernel${literals ? '_literals' : ''}.wasm`, root);
  const sources = ['bench/wasm/dsp_kernel.cpp', 'bench/dsp_kernel.hpp'].map((f) => new URL(f, root));
  const stale = !existsSync(out) || sources.some((f) => statSync(f).mtimeMs > statSync(out).mtimeMs);
  if (stale) {
    mkdirSync(new URL('build/bench/', root), { recursive: true });
    execFileSync(
      'em++',
      ['-O3', '-ffp-contract=off', '-std=c++17', '-flto', sources[0].pathname, '-o', out.pathname].concat([
        ...(literals ? ['-DKERNEL_LITERALS'] : []),
        '--no-entry',
        '-sSTANDALONE_WASM',
        '-sEXPORTED_FUNCTIONS=_state,_run',
      ]),
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(out)), {});
  instance.exports._initialize?.();
  return instance.exports;
}

/**
 * One round: ns per step of the library and of the kernel (its parameters read at run time
 * as the library's are, and given as literals the compiler folds), and whether their bits agree.
 */
function round(lab, kernel, literals, scenario) {
  const sim = lab.simulate({ ...dsp, integrator: 'midpoint' }, { historyStride: 1000000 });
  const { q, p, h, g, masses, lengths } = scenario;
  const start = (k) => {
    const state = new Float64Array(k.memory.buffer, k.state(), 18);
    state.set([...q, ...p, h, g, ...masses, ...lengths]);
    return state;
  };
  try {
    // Warm-up past V8's baseline tier: 2000 steps each from the same state; the timed steps go on from there.
    start(literals);
    literals.run(2000);
    const state = start(kernel);
    kernel.run(2000);
    sim.advance(2000);
    const lib = (cpuMs(() => sim.advance(STEPS)) * 1e6) / STEPS;
    const ker = (cpuMs(() => kernel.run(STEPS)) * 1e6) / STEPS;
    const same = [...sim.q, ...sim.p].every((x, i) => Object.is(x, state[i]));
    const literal = (cpuMs(() => literals.run(STEPS)) * 1e6) / STEPS;
    return { lib, ker, literals: literal, same };
  } finally {
    sim.dispose();
  }
}

/** One round in a process of its own (on `core` when given): { lib, ker, literals, same }, or null when it fails. */
function roundInProcess(core) {
  const script = fileURLToPath(import.meta.url);
  const command =
    core == null ? [process.execPath, [script, '--round']] : ['taskset', ['-c', String(core), process.execPath, script, '--round']];
  try {
    return JSON.parse(execFileSync(...command, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300000 }));
  } catch {
    return null;
  }
}

/** Rows of the `limit` section: library ÷ kernel in wasm, over every core's rounds and per core, both ns, and the bits check. */
export function wasmKernelRows(table, cores = [null]) {
  try {
    kernelModule(); // built here once, before the rounds
    kernelModule(true);
  } catch {
    console.log('  em++ is not available: the wasm kernel rows are skipped');
    return;
  }
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++)
    for (const core of cores) {
      const x = roundInProcess(core);
      if (x) rounds.push({ ...x, core });
    }
  if (!rounds.length) return;
  perCoreRows(table, 'limit', 'DSP midpoint step, library ÷ fixed-size kernel (wasm)', rounds, cores, (x) => x.lib / x.ker);
  const ratio = stats(rounds.map((x) => x.lib / x.ker));
  table.add('limit', 'DSP midpoint step, library ÷ fixed-size kernel (wasm)', ratio, {
    goal: '≤ 1.25',
    met: ratio.median <= 1.25,
    unit: '×',
  });
  table.add('limit', 'DSP midpoint step, library (wasm, ns)', stats(rounds.map((x) => x.lib)));
  table.add('limit', 'DSP midpoint step, fixed-size kernel (wasm, ns)', stats(rounds.map((x) => x.ker)));
  table.add(
    'limit',
    'DSP midpoint step, the kernel with h, g, masses and lengths as literals (wasm, ns)',
    stats(rounds.map((x) => x.literals)),
  );
  const same = rounds.every((x) => x.same);
  console.log(`  wasm library and kernel after ${fmt(STEPS)} steps: ${same ? 'the same bits' : 'DIFFERENT bits'}`);
  if (!same) throw new Error('bench: the wasm library step and the kernel disagree');
}

// A round's process: the lab, the kernel, one round, its figures as JSON on stdout.
if (process.argv[2] === '--round') {
  const { createLab } = await import('../web/sim/vilab.js');
  const lab = await createLab();
  const start = lab.simulate({ ...dsp, integrator: 'midpoint' });
  const { params } = start.scenario();
  const scenario = {
    q: Array.from(start.q),
    p: Array.from(start.p),
    h: dsp.h,
    g: params.g,
    masses: params.masses,
    lengths: params.lengths,
  };
  start.dispose();
  process.stdout.write(JSON.stringify(round(lab, kernelModule(), kernelModule(true), scenario)));
}
