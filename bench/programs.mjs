// Expression programs compiled to WebAssembly against the interpreter (part of the scaling
// section): per evaluation of one program (ns and ns per instruction, each path), and per
// step of the systems typed as data (the programs forced interpreted ÷ compiled, the same
// lab, interleaved rounds, process CPU time).
import { readFileSync } from 'node:fs';
import { compileProgram } from '../web/sim/program-compiler.js';
import { cpuMs, dspAsData, fmt, median, root, ROUNDS, stats, wasmNs } from './common.mjs';

// The DSP's Lagrangian and its second constraint over the benchmark binding's names
// (x, th, phi, q1, r, z as x1, y1, z1, x2, y2, z2), each with its gradient and Hessian.
const PROGRAMS = [
  ['the DSP Lagrangian', "(x'^2+th'^2+phi'^2)/2 + (q1'^2+r'^2+z'^2)/2 - g*phi - g*z"],
  ['the DSP link constraint', '(q1-x)^2+(r-th)^2+(z-phi)^2-1'],
  ['a trigonometric Lagrangian', "x'^2/2 + th'^2/2 + x'*th'*cos(x-th) + 2*g*cos(x) + g*cos(th)"],
];
const POINTS = 64;
// CPU time of the sweeps whose cost is measured: process.cpuUsage counts in ticks of the
// scheduler, and a compiled program's 2000 sweeps took under 1 ms, within a tick of the
// single sweep subtracted from them (a round's ratio then came out negative; so did a first
// round whose single sweep compiled the program).
const MIN_MS = 40;

/** ns per evaluation of a program on `module`'s enabled path (CPU time of n sweeps less one sweep, n doubled until they take MIN_MS). */
function evaluationNs(module, text, compiled) {
  module.setCompiledPrograms(compiled);
  const at = new Float64Array(POINTS * 13).map((_, i) => Math.sin(i) * 0.8);
  module.runExpressionProgram(text, 6, true, false, at, 1); // the first call compiles the program: not timed
  const once = cpuMs(() => module.runExpressionProgram(text, 6, true, false, at, 1));
  let repeats = 2000;
  let many = cpuMs(() => module.runExpressionProgram(text, 6, true, false, at, repeats + 1));
  while (many < MIN_MS) {
    repeats *= 2;
    many = cpuMs(() => module.runExpressionProgram(text, 6, true, false, at, repeats + 1));
  }
  const r = module.runExpressionProgram(text, 6, true, false, at, 1);
  return { ns: ((many - once) * 1e6) / (repeats * POINTS), instructions: r.instructions, compiled: r.compiled };
}

/** Adds the rows to `table` and returns the detail's lines. */
export async function programRows(lab, table) {
  const factory = (await import('../build/wasm/vilab.mjs')).default;
  const wasmBinary = readFileSync(new URL('build/wasm/vilab.wasm', root));
  const module = await factory({ wasmBinary, compileProgram });
  const lines = [
    '| program | instructions | interpreted ns | compiled ns | interpreted ns/instr. | compiled ns/instr. |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const [name, text] of PROGRAMS) {
    const ratios = [];
    const each = { interpreted: [], compiled: [] };
    let instructions = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const i = evaluationNs(module, text, false);
      const c = evaluationNs(module, text, true);
      instructions = c.instructions;
      each.interpreted.push(i.ns);
      each.compiled.push(c.ns);
      ratios.push(i.ns / c.ns);
    }
    const [ni, nc] = [median(each.interpreted), median(each.compiled)];
    table.add(
      'scaling',
      `expression program, ${name} (${instructions} instructions): interpreted ÷ compiled per evaluation, wasm`,
      stats(ratios),
      { unit: '×' },
    );
    lines.push(`| ${name} | ${instructions} | ${fmt(ni)} | ${fmt(nc)} | ${fmt(ni / instructions)} | ${fmt(nc / instructions)} |`);
  }
  module.setCompiledPrograms(true);
  for (const [name, scenario] of [['DSP as data', { ...dspAsData(lab), integrator: 'midpoint' }]]) {
    const ratios = [];
    for (let r = 0; r < ROUNDS; r++) {
      lab.setCompiledPrograms(false);
      const interpreted = wasmNs(lab, scenario, 20000, 2);
      lab.setCompiledPrograms(true);
      ratios.push(interpreted / wasmNs(lab, scenario, 20000, 2));
    }
    table.add('scaling', `${name}, midpoint: step with interpreted ÷ compiled expression programs, wasm`, stats(ratios), { unit: '×' });
  }
  return lines;
}
