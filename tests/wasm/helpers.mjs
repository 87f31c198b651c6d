// Shared helpers of the wasm layer (node:test on the built module). Not a test file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLab, VilabError } from '../../web/sim/vilab.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const nativeCli = fileURLToPath(new URL('../../build/native/vilab', import.meta.url));
export const wasmCli = fileURLToPath(new URL('../../scripts/vilab-cli.mjs', import.meta.url));

export const lab = await createLab();

/**
 * The milliseconds of CPU that f() takes on the calling thread: Linux gives a thread's time
 * on the CPU, in ns, as the first field of its schedstat. Not the process's CPU time, which
 * also counts V8's tier-up compiles and collections on its own threads (a 25 ms slice once
 * read 295 ms of process CPU in CI), nor wall time, which counts preemption on a busy machine.
 * Without schedstat (not Linux) it falls back to the process's CPU time.
 */
const SCHEDSTAT = '/proc/thread-self/schedstat';
const threadClockMs = existsSync(SCHEDSTAT)
  ? () => Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6
  : () => {
      const d = process.cpuUsage();
      return (d.user + d.system) / 1000;
    };
export function threadCpuMs(f) {
  const t0 = threadClockMs();
  f();
  return threadClockMs() - t0;
}

/** The reference scenario of the health check, and its hash after 500 steps in a fresh module. */
export const REF = Object.freeze({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
export const REF_STEPS = 500;
const refHash = refRun();

function refRun() {
  const sim = lab.simulate(REF);
  try {
    sim.advance(REF_STEPS);
    return sim.hash();
  } finally {
    sim.dispose();
  }
}

/** After any error the module still works: a new simulation gives the fresh-run hash. */
export function assertHealthy() {
  assert.equal(refRun(), refHash, 'the module no longer reproduces a fresh run');
}

/**
 * e.code is one of the published vocabulary: a refused step's (lab.vocabulary.refusalCodes,
 * with an action from suggestionActions), any other error's (inputErrorCodes).
 */
export function assertVocabularyCode(e) {
  const { refusalCodes, suggestionActions, inputErrorCodes } = lab.vocabulary;
  if (e.step !== undefined) {
    assert.ok(refusalCodes.includes(e.code), `refusal code ${e.code} (${e.message})`);
    assert.ok(suggestionActions.includes(e.action), `action ${e.action} (${e.message})`);
  } else {
    assert.ok(inputErrorCodes.includes(e.code), `code ${e.code} (${e.message})`);
    assert.equal(e.action, undefined, `bad input has no .action (${e.message})`);
  }
}

/**
 * The error fn() throws, which must be a refused step: a VilabError with .step,
 * .code, .action, .reason, .suggestion and .stepsTaken, and the message the native CLI prints.
 * Returns the error, or null when fn() did not throw.
 */
export function refusalOf(fn) {
  try {
    fn();
    return null;
  } catch (e) {
    assertRefusal(e);
    return e;
  }
}

export function assertRefusal(e) {
  assert.ok(e instanceof VilabError && e instanceof Error, `not a VilabError: ${e?.stack ?? e}`);
  assert.ok(Number.isSafeInteger(e.step) && e.step >= 1, `step: ${e.step}`);
  assertVocabularyCode(e);
  assert.ok(typeof e.reason === 'string' && e.reason.length > 0, 'reason');
  assert.ok(typeof e.suggestion === 'string' && e.suggestion.length > 0, 'suggestion');
  assert.ok(Number.isSafeInteger(e.stepsTaken) && e.stepsTaken >= 0 && e.stepsTaken < e.step, `stepsTaken: ${e.stepsTaken}`);
  assert.equal(e.field, undefined, 'a refused step is not bad input');
  assert.equal(e.message, `vilab: step ${e.step} refused: ${e.reason}; ${e.suggestion} (the state stays at step ${e.step - 1})`);
}

/**
 * fn() must throw a VilabError whose message is 'vilab: <field>: <problem>' with
 * the given field, the problem matching `pattern`; then the module must still work.
 */
export function assertInputError(fn, field, pattern = /./) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected an error about ${field}`);
  assertInputErrorShape(error, field, pattern);
  assertHealthy();
  return error;
}

/** As assertInputError, for a promise that must reject. */
export async function assertInputRejection(promise, field, pattern = /./) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected a rejection about ${field}`);
  assertInputErrorShape(error, field, pattern);
  assertHealthy();
  return error;
}

function assertInputErrorShape(error, field, pattern) {
  assert.ok(error instanceof VilabError && error instanceof Error, `not a VilabError: ${error?.stack ?? error}`);
  const prefix = `vilab: ${field}: `;
  assert.ok(
    error.message.startsWith(prefix),
    `message ${JSON.stringify(error.message.slice(0, 200))} does not start with ${JSON.stringify(prefix)}`,
  );
  assert.equal(error.field, field);
  assert.match(error.message.slice(prefix.length), pattern);
  assert.ok(error.message.length < 400, `message too long (${error.message.length} characters)`);
  for (const key of ['step', 'action', 'reason', 'suggestion', 'stepsTaken'])
    assert.equal(error[key], undefined, `bad input has no .${key}`);
  assertVocabularyCode(error);
}

/** FNV-1a 64 of q and p (float64 LE) and step (uint64 LE), as sim.hash() documents it. */
export function fnv1a64(q, p, step) {
  const bytes = new Uint8Array(8 * (q.length + p.length + 1));
  const view = new DataView(bytes.buffer);
  [...q, ...p].forEach((x, i) => view.setFloat64(8 * i, x, true));
  view.setBigUint64(8 * (q.length + p.length), BigInt(step), true);
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

export function runNative(args, input) {
  assert.ok(existsSync(nativeCli), `${nativeCli} is missing: run bash scripts/build.sh`);
  return spawnSync(nativeCli, args, { input, encoding: 'utf8', maxBuffer: 1 << 30 });
}

export function runWasmCli(args, input) {
  return spawnSync(process.execPath, [wasmCli, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 30, cwd: root });
}

/** The Hénon–Heiles scene without its about block: a data system with a constant mass matrix and no constraints. */
export const henonHeiles = (() => {
  const { about, ...scenario } = JSON.parse(readFileSync(new URL('../../scenes/lagrangian/henon-heiles.json', import.meta.url), 'utf8'));
  return scenario;
})();

/**
 * The scenario a sweep runs for a pair: the system's default, or, for an integrator that
 * refuses the default definition of a system defined by data (it needs a constant mass
 * matrix or no constraints, which the elastic pendulum in polar coordinates does not
 * have), the Hénon–Heiles scene with that integrator.
 */
export function pairScenario(system, integrator) {
  const scenario = { system, integrator };
  if (!lab.system(system).definition) return scenario;
  try {
    lab.simulate(scenario).dispose();
    return scenario;
  } catch (e) {
    if (!(e instanceof VilabError) || e.field !== 'integrator') throw e;
    return { ...henonHeiles, integrator };
  }
}

/** Every (system, integrator) pair of the registry, with the default scenario of each (pairScenario). */
export function registryPairs() {
  const pairs = [];
  for (const system of lab.systems) {
    for (const integrator of system.integrators) pairs.push(pairScenario(system.id, integrator));
  }
  return pairs;
}

/**
 * The canonical state's sizes for a normalized scenario, from the system's model alone
 * (state.hpp): chains q = p = 3 per bob; oscillator [x], [m ẋ]; rigid bodies the unit
 * quaternion and Π; a mechanism x and a quaternion, p and Π per body; a field u and p per node.
 */
export function canonicalSizes(scenario) {
  const { model } = lab.system(scenario.system);
  if (model === 'oscillator') return { q: 1, p: 1 };
  if (model === 'rigid-body') return { q: 4, p: 3 };
  if (model === 'lagrangian') return { q: scenario.params.coordinates.length, p: scenario.params.coordinates.length };
  // A mechanism: position and unit quaternion (7), momentum and body angular momentum (6) per body.
  if (model === 'mechanism') return { q: 7 * scenario.params.bodies.length, p: 6 * scenario.params.bodies.length };
  // A field: u and its momentum per grid point.
  if (model === 'field') return { q: scenario.params.grid.points, p: scenario.params.grid.points };
  assert.equal(model, 'chain');
  const perBody = lab.system(scenario.system).params.find((p) => p.kind === 'per-body');
  const bobs = scenario.params[perBody.name].length;
  return { q: 3 * bobs, p: 3 * bobs };
}

/** A label for test names: system (×links when not the default), integrator. */
export function pairLabel(scenario) {
  const masses = scenario.params?.masses;
  return `${scenario.system}${masses ? `×${masses.length}` : ''}/${scenario.integrator}`;
}

export { createLab, VilabError };

/** Runs a scenario to time T, calling look(sim) every `every` steps; the simulation is disposed. */
export function follow(scenario, T, look, every = 1) {
  const sim = lab.simulate(scenario);
  try {
    look(sim);
    while (sim.time < T - 1e-9) {
      sim.advance(every);
      look(sim);
    }
  } finally {
    sim.dispose();
  }
}
