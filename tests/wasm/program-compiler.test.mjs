// Expression programs compiled to WebAssembly (web/sim/program-compiler.js,
// bindings/program_compiler.cpp) give the interpreter's bits, always:
//   * every shipped scene defined by data (scenes/lagrangian/, with its integrator and the
//     one it is compared with) and the DSP as data: the same hash and the same bits of t,
//     q, p and every diagnostic over a long run, compiled against forced interpreted, the
//     compiled run counted as compiled (no interpreter run);
//   * switching mid-run changes nothing;
//   * 10,000 random programs (the expression fuzzer's seeds and generated expressions
//     with every operation, each differentiated twice as a Lagrangian is) at points with
//     NaN, ±Inf, ±0 and denormal coordinates, bit for bit (a NaN equals any NaN); and again with
//     V8's optimizing tier only;
//   * a generator that calls the JS engine's Math functions instead of the core's is
//     caught by the same comparison (negative control), and a generator that fails
//     leaves the program interpreted, counted, with the same bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { compileProgram, OPS } from '../../web/sim/program-compiler.js';
import { dspAsData } from '../../bench/common.mjs';
import { lab, root } from './helpers.mjs';

const STEPS = 10000;
const RANDOM_PROGRAMS = 10000;
const sceneDir = join(root, 'scenes', 'lagrangian');
const scenes = readdirSync(sceneDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(sceneDir, f), 'utf8'))]);

const bytesOf = (arrays) => Buffer.concat(arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)));

/** The bytes of every column of a run's trajectory (t, q, p and the diagnostics it has). */
function trajectoryBytes(scenario) {
  const everything = ['energy', 'constraint', 'iterations', 'momentum', 'conserved'];
  for (const include of [everything, ['energy', 'constraint', 'iterations']]) {
    try {
      const { columns } = lab.integrate(scenario, { steps: STEPS, every: 7, include });
      return bytesOf(
        Object.keys(columns)
          .sort()
          .map((name) => columns[name]),
      );
    } catch (e) {
      if (include !== everything) throw e; // a system without momenta or conserved quantities
    }
  }
}

/** A long run's hash and the bytes of its trajectory. */
function run(scenario) {
  const sim = lab.simulate(scenario, { historyCapacity: 16 });
  let refused = null;
  try {
    sim.advance(STEPS);
  } catch (e) {
    refused = `${e.code} at step ${e.step}`; // the same refusal on both paths
  }
  const hash = `${sim.hash()} ${refused}`;
  sim.dispose();
  return { hash, bytes: trajectoryBytes(scenario) };
}

function compareRuns(label, scenario) {
  lab.setCompiledPrograms(false);
  const before = lab.programCounts();
  const interpreted = run(scenario);
  lab.setCompiledPrograms(true);
  const middle = lab.programCounts();
  const compiled = run(scenario);
  const after = lab.programCounts();
  assert.equal(middle.compiled, before.compiled, `${label}: nothing compiled while forced off`);
  assert.equal(middle.compiledRuns, before.compiledRuns, `${label}: no compiled run while forced off`);
  assert.ok(middle.interpretedRuns > before.interpretedRuns, `${label}: the reference ran on the interpreter`);
  assert.ok(after.compiled - middle.compiled >= 2, `${label}: programs compiled`);
  assert.equal(after.failed, middle.failed, `${label}: no compilation failed`);
  // The same bits, so the same Newton iterations: as many program runs on each path.
  assert.equal(after.compiledRuns - middle.compiledRuns, middle.interpretedRuns - before.interpretedRuns, `${label}: every run compiled`);
  assert.equal(after.interpretedRuns, middle.interpretedRuns, `${label}: no interpreter run once compiled`);
  assert.equal(compiled.hash, interpreted.hash, `${label}: the hash`);
  assert.ok(compiled.bytes.equals(interpreted.bytes), `${label}: the bits of t, q, p and the diagnostics`);
}

for (const [id, scene] of scenes) {
  const { about, ...scenario } = scene;
  const integrators = [scenario.integrator, about?.compare].filter(Boolean);
  for (const integrator of integrators) {
    test(`${id} with ${integrator ?? 'its default'}: compiled programs give the interpreter's bits over ${STEPS} steps`, () => {
      // The scene's options belong to its own integrator, not to the one it is compared with.
      const { options, ...rest } = scenario;
      const run = integrator === scenario.integrator ? scenario : rest;
      compareRuns(`${id}/${integrator}`, { ...run, integrator });
    });
  }
}

test(`the DSP as data: compiled programs give the interpreter's bits over ${STEPS} steps`, () => {
  compareRuns('dsp as data', dspAsData(lab));
});

test('switching between compiled and interpreted programs mid-run changes nothing', () => {
  const scenario = (({ about, ...s }) => s)(scenes.find(([id]) => id === 'double-pendulum')[1]);
  lab.setCompiledPrograms(false);
  const reference = lab.simulate(scenario, { historyCapacity: 16 });
  reference.advance(3 * 3000);
  lab.setCompiledPrograms(true);
  const switched = lab.simulate(scenario, { historyCapacity: 16 });
  const counts = [lab.programCounts()];
  switched.advance(3000);
  lab.setCompiledPrograms(false);
  counts.push(lab.programCounts());
  switched.advance(3000);
  lab.setCompiledPrograms(true);
  counts.push(lab.programCounts());
  switched.advance(3000);
  counts.push(lab.programCounts());
  assert.ok(counts[1].compiledRuns - counts[0].compiledRuns >= 3000, 'the first third compiled');
  assert.equal(counts[2].compiledRuns, counts[1].compiledRuns, 'the second third interpreted');
  assert.ok(counts[2].interpretedRuns - counts[1].interpretedRuns >= 3000, 'the second third interpreted');
  assert.equal(counts[3].interpretedRuns, counts[2].interpretedRuns, 'the last third compiled');
  assert.equal(switched.hash(), reference.hash());
  assert.equal(switched.step, reference.step);
  reference.dispose();
  switched.dispose();
});

test('setCompiledPrograms takes a boolean; programCounts reads the counts', () => {
  assert.throws(
    () => lab.setCompiledPrograms('no'),
    (e) => e.field === 'enabled' && /true or false/.test(e.message),
  );
  const c = lab.programCounts();
  for (const key of ['compiled', 'failed', 'compiledRuns', 'interpretedRuns']) assert.equal(typeof c[key], 'number');
  assert.equal(c.enabled, true);
});

// ---- random programs -----------------------------------------------------------------

/** A deterministic generator (xorshift32) of numbers in [0, 1). */
function random(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

const NAMES = ['x', 'th', 'phi', 'q1', 'r', 'z', 'psi', 'y'];
const NUMBERS = ['0', '0.5', '2', '3', '7.25', '1e-300', '1.5e308', '1e-320', 'pi', 'm', 'g', 'l', 'k'];
const UNARY = ['sin', 'cos', 'tan', 'exp', 'log', 'sqrt', 'abs'];

/** A random expression over `scope` (coordinates, velocities, time) of at most `depth` levels. */
function expression(rnd, scope, depth) {
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  if (depth <= 0 || rnd() < 0.2) {
    const leaves = [...NAMES.slice(0, scope.n)];
    if (scope.velocities) leaves.push(...NAMES.slice(0, scope.n).map((v) => `${v}'`));
    if (scope.time) leaves.push('t');
    return rnd() < 0.75 ? pick(leaves) : pick(NUMBERS);
  }
  const sub = () => expression(rnd, scope, depth - 1);
  const r = rnd();
  if (r < 0.3) return `(${sub()} ${pick(['+', '-', '*', '/'])} ${sub()})`;
  if (r < 0.45) return `(${sub()})^${pick(['2', '3', '4', '5', '7', '(-1)', '(-2)', '(-3)', '0.5', '1.5', '(-0.25)'])}`;
  if (r < 0.55) return `(${sub()})^(${sub()})`;
  if (r < 0.85) return `${pick(UNARY)}(${sub()})`;
  if (r < 0.95) return `atan2(${sub()}, ${sub()})`;
  return `-(${sub()})`;
}

const SPECIAL = [NaN, Infinity, -Infinity, 0, -0, 5e-324, -5e-324, 2.2250738585072014e-308, -1e-310, 1e308, -1e308, 1, -1, 0.5, Math.PI];

/** `count` points of `variables` numbers, about a third of them special values. */
function points(rnd, variables, count) {
  const x = new Float64Array(variables * count);
  for (let i = 0; i < x.length; i++) x[i] = rnd() < 0.35 ? SPECIAL[Math.floor(rnd() * SPECIAL.length)] : (rnd() - 0.5) * 8;
  return x;
}

/** The programs: the fuzzer's committed seeds, then generated expressions, RANDOM_PROGRAMS in all. */
function programs() {
  const dir = join(root, 'tests', 'fuzz', 'corpus', 'expression');
  const list = readdirSync(dir)
    .sort()
    .map((f) => readFileSync(join(dir, f)))
    .filter((b) => b.length > 1)
    .map((b) => ({ text: b.subarray(1).toString('latin1'), n: 1 + (b[0] & 7), velocities: (b[0] & 8) === 0, time: (b[0] & 16) !== 0 }));
  const rnd = random(20260611);
  while (list.length < RANDOM_PROGRAMS) {
    const scope = { n: 1 + Math.floor(rnd() * 3), velocities: rnd() < 0.7, time: rnd() < 0.3 };
    list.push({ ...scope, text: expression(rnd, scope, 1 + Math.floor(rnd() * 5)) });
  }
  return list;
}

const factory = (await import('../../build/wasm/vilab.mjs')).default;
const wasmBinary = readFileSync(join(root, 'build', 'wasm', 'vilab.wasm'));
const moduleWith = (compile) => factory({ wasmBinary, compileProgram: compile });

/** Runs every program at its points on `module`, compiled or interpreted; [{ values, compiled, operations }] (null: not accepted). */
function runAll(module, list, compiled) {
  module.setCompiledPrograms(compiled);
  const rnd = random(7);
  return list.map((p) => {
    const at = points(rnd, 2 * Math.min(p.n, 8) + 1, 6);
    const r = module.runExpressionProgram(p.text, p.n, p.velocities, p.time, at, 1);
    return r.ok ? { values: new Float64Array(r.values), compiled: r.compiled, operations: Array.from(r.operations) } : null;
  });
}

// Bit for bit, except that a NaN equals any NaN: IEEE 754 and WebAssembly leave a NaN
// result's sign and payload unspecified (V8's optimizing tier propagates them differently
// from its baseline tier, in the interpreter as in compiled code), and a NaN never enters
// a state (the step is refused), so runs' hashes are unaffected.
const sameBits = (a, b) => a.length === b.length && a.every((x, i) => (Number.isNaN(x) ? Number.isNaN(b[i]) : Object.is(x, b[i])));

test(`${RANDOM_PROGRAMS} random programs: compiled = interpreted bit for bit (NaN as NaN), at NaN, ±Inf, ±0 and denormal inputs`, async () => {
  const module = await moduleWith(compileProgram);
  const list = programs();
  const interpreted = runAll(module, list, false);
  const compiled = runAll(module, list, true);
  let accepted = 0;
  let differ = 0;
  const outputs = { nan: 0, infinite: 0, denormal: 0, all: 0 };
  const operations = new Array(OPS.length).fill(0);
  for (let k = 0; k < list.length; k++) {
    assert.equal(compiled[k] === null, interpreted[k] === null);
    if (!compiled[k]) continue;
    accepted++;
    assert.equal(compiled[k].compiled, true, `program ${k} compiled`);
    assert.equal(interpreted[k].compiled, false);
    if (!sameBits(compiled[k].values, interpreted[k].values)) differ++;
    compiled[k].operations.forEach((c, op) => (operations[op] += c > 0 ? 1 : 0));
    for (const v of compiled[k].values) {
      outputs.all++;
      if (Number.isNaN(v)) outputs.nan++;
      else if (!Number.isFinite(v)) outputs.infinite++;
      else if (v !== 0 && Math.abs(v) < 2.2250738585072014e-308) outputs.denormal++;
    }
  }
  assert.equal(differ, 0, `${differ} of ${accepted} programs differ`);
  assert.ok(accepted >= 0.9 * RANDOM_PROGRAMS, `${accepted} programs accepted`);
  // Each operation occurs in many programs, and the outputs include the special values.
  OPS.forEach((op, code) => assert.ok(op === 'var' || operations[code] >= 100, `${op} in ${operations[code]} programs`));
  assert.ok(outputs.nan > 1000 && outputs.infinite > 100 && outputs.denormal > 0, JSON.stringify(outputs));
  const counts = module.programCounts();
  assert.equal(counts.failed, 0, 'no program failed to compile');
  assert.ok(counts.compiled >= accepted);
});

test('random programs under the optimizing tier only (V8 TurboFan): the same bits', async () => {
  setFlagsFromString('--no-liftoff');
  try {
    const module = await moduleWith(compileProgram);
    const list = programs().slice(0, 2000);
    const interpreted = runAll(module, list, false);
    const compiled = runAll(module, list, true);
    let differ = 0;
    for (let k = 0; k < list.length; k++) if (compiled[k] && !sameBits(compiled[k].values, interpreted[k].values)) differ++;
    assert.equal(differ, 0);
  } finally {
    setFlagsFromString('--liftoff');
  }
});

test("negative control: a generator calling the JS engine's Math functions is caught", async () => {
  const module = await moduleWith((program, env) =>
    compileProgram(program, {
      ...env,
      sin: Math.sin,
      cos: Math.cos,
      tan: Math.tan,
      exp: Math.exp,
      log: Math.log,
      atan2: Math.atan2,
      pow: Math.pow,
    }),
  );
  const list = programs().slice(0, 2000);
  const interpreted = runAll(module, list, false);
  const compiled = runAll(module, list, true);
  let differ = 0;
  for (let k = 0; k < list.length; k++) if (compiled[k] && !sameBits(compiled[k].values, interpreted[k].values)) differ++;
  assert.ok(differ >= 20, `only ${differ} of 2000 programs differ`);
});

test('a generator that fails leaves the program interpreted, counted, with the same bits', async () => {
  const module = await moduleWith(() => {
    throw new Error('no code today');
  });
  const list = programs().slice(0, 200);
  const interpreted = runAll(module, list, false);
  const before = module.programCounts();
  const tried = runAll(module, list, true);
  const after = module.programCounts();
  const accepted = tried.filter(Boolean).length;
  assert.equal(after.compiled, before.compiled);
  assert.equal(after.failed - before.failed, accepted);
  assert.equal(after.compiledRuns, before.compiledRuns);
  for (let k = 0; k < list.length; k++) {
    if (!tried[k]) continue;
    assert.equal(tried[k].compiled, false);
    assert.ok(sameBits(tried[k].values, interpreted[k].values));
  }
  assert.match(module.programFailures[0], /no code today/);
});
