// A refused step mid-run: advance() throws with the step number and the reason,
// and the state stays at the last good step (bit for bit a fresh run to step - 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, assertHealthy, advanceAll, runNative, runWasmCli, VilabError } from './helpers.mjs';

// Midpoint on the DSP with a step so large that Newton fails after some good steps
// (h = 0.1 fails at step 24 today). Pick the first h that fails mid-run, so the test
// survives a better predictor.
function failingScenario() {
  for (const h of [0.1, 0.2, 0.05, 0.3, 0.15, 0.4]) {
    const scenario = { system: 'double-spherical-pendulum', integrator: 'midpoint', h };
    const sim = lab.simulate(scenario);
    try {
      advanceAll(sim, 5000);
    } catch (e) {
      if (e.step > 2) return { scenario, step: e.step };
    } finally {
      sim.dispose();
    }
  }
  throw new Error('no h makes Newton fail mid-run');
}

const failing = failingScenario();

test(`Newton failure mid-run (h = ${failing.scenario.h}, step ${failing.step}): error names the step and the reason`, () => {
  const sim = lab.simulate(failing.scenario);
  const good = failing.step - 1;
  assert.equal(sim.advance(good - 1), good - 1);
  const qBefore = sim.q;
  let error;
  try {
    sim.advance(100);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof VilabError);
  assert.equal(error.step, failing.step);
  assert.match(error.reason, /Newton did not converge|singular|not finite/);
  assert.equal(error.stepsTaken, 1, 'the one good step of this call is kept');
  assert.equal(
    error.message,
    `vilab: step ${failing.step} refused: ${error.reason} (the state stays at step ${good})`,
  );
  assert.equal(sim.step, good);
  assert.notDeepEqual(sim.q, qBefore);

  // The state is exactly that of a fresh run to the last good step.
  const fresh = lab.simulate(failing.scenario);
  assert.equal(advanceAll(fresh, good), good);
  assert.equal(sim.hash(), fresh.hash());
  assert.deepEqual(sim.q, fresh.q);
  assert.deepEqual(sim.diagnostics(), fresh.diagnostics());
  assert.equal(sim.history.total, fresh.history.total);
  // and of the native CLI
  assert.equal(runNative(['hash', '-', '--steps', String(good)], JSON.stringify(failing.scenario)).stdout, `${sim.hash()}\n`);

  // Refused again, deterministically; the simulation stays usable.
  assert.throws(() => sim.advance(1), (e) => e.step === failing.step && e.stepsTaken === 0);
  assert.equal(sim.step, good);
  sim.setState({ q: fresh.q, p: fresh.p });
  assert.equal(sim.step, 0);
  sim.dispose();
  fresh.dispose();
  assertHealthy();
});

test('Newton failure on the first step: nothing taken, the initial state kept', () => {
  const scenario = { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 1 };
  const sim = lab.simulate(scenario);
  const hash = sim.hash();
  assert.throws(() => sim.advance(10), (e) => e instanceof VilabError && e.step === 1 && e.stepsTaken === 0 && /state stays at step 0/.test(e.message));
  assert.equal(sim.step, 0);
  assert.equal(sim.hash(), hash);
  sim.dispose();
  assertHealthy();
});

test('a blow-up of an explicit baseline is refused the same way (non-finite state)', () => {
  const scenario = { system: 'oscillator', integrator: 'euler', h: 1 };
  const sim = lab.simulate(scenario);
  let error;
  try {
    advanceAll(sim, 1e5);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof VilabError && error.step > 1);
  assert.equal(sim.step, error.step - 1);
  assert.ok(sim.q.every(Number.isFinite) && sim.p.every(Number.isFinite));
  sim.dispose();
  assertHealthy();
});

test('the wasm CLI reports a refused step like the native CLI: rows so far, message, exit 1', () => {
  const text = JSON.stringify(failing.scenario);
  const args = ['run', '-', '--steps', '100', '--every', '5'];
  const native = runNative(args, text);
  const wasm = runWasmCli(args, text);
  assert.equal(native.status, 1);
  assert.equal(wasm.status, 1);
  assert.equal(wasm.stderr, native.stderr);
  assert.equal(wasm.stdout, native.stdout);
  assert.match(wasm.stderr, new RegExp(`^vilab: step ${failing.step} refused: `));
});
