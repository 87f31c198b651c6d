// Shared helpers of the wasm layer (node:test on the built module). Not a test file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLab, VilabError } from '../../web/sim/vilab.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const nativeCli = fileURLToPath(new URL('../../build/native/vilab', import.meta.url));
export const wasmCli = fileURLToPath(new URL('../../scripts/vilab-cli.mjs', import.meta.url));

export const lab = await createLab();

/** The reference scenario of the health check, and its hash after 500 steps in a fresh module. */
export const REF = Object.freeze({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
export const REF_STEPS = 500;
const refHash = refRun();

function refRun() {
  const sim = lab.simulate(REF);
  try {
    advanceAll(sim, REF_STEPS);
    return sim.hash();
  } finally {
    sim.dispose();
  }
}

/** After any error the module still works: a new simulation gives the fresh-run hash. */
export function assertHealthy() {
  assert.equal(refRun(), refHash, 'the module no longer reproduces a fresh run');
}

/** Advances exactly n steps (advance() may stop early at its time budget). */
export function advanceAll(sim, n) {
  let done = 0;
  while (done < n) {
    const taken = sim.advance(n - done);
    assert.ok(taken >= 0 && taken <= sim.maxAdvance);
    done += taken;
  }
  return done;
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
  assert.ok(error instanceof VilabError && error instanceof Error, `not a VilabError: ${error}`);
  const prefix = `vilab: ${field}: `;
  assert.ok(error.message.startsWith(prefix), `message ${JSON.stringify(error.message.slice(0, 200))} does not start with ${JSON.stringify(prefix)}`);
  assert.equal(error.field, field);
  assert.match(error.message.slice(prefix.length), pattern);
  assert.ok(error.message.length < 400, `message too long (${error.message.length} characters)`);
  assertHealthy();
  return error;
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

/** Every (system, integrator) pair of the registry, with the default scenario of each. */
export function registryPairs() {
  const pairs = [];
  for (const system of lab.systems) {
    for (const integrator of system.integrators) pairs.push({ system: system.id, integrator });
  }
  return pairs;
}

export { createLab, VilabError };
