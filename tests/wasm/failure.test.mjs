// A refused step mid-run: advance() (and advanceFor()) throw a VilabError with the
// refused step, a code, the reason, a suggestion and the steps the call took; the
// state stays at the last good step (bit for bit a fresh run to step − 1) and the
// simulation stays usable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, assertHealthy, assertRefusal, refusalOf, runNative, runWasmCli, VilabError, pairScenario } from './helpers.mjs';

// Midpoint on the DSP with a step so large that Newton fails after some good steps
// (h = 0.1 fails at step 24, h = 0.2 at step 4 today). Pick the first h that fails
// mid-run, so the test survives a better predictor; every h is within the system's h.max.
function failingScenario() {
  const hMax = lab.system('double-spherical-pendulum').h.max;
  for (const h of [0.1, hMax, 0.15, 0.05].filter((x) => x <= hMax)) {
    const scenario = { system: 'double-spherical-pendulum', integrator: 'midpoint', h };
    const sim = lab.simulate(scenario);
    try {
      const e = refusalOf(() => sim.advance(5000));
      if (e && e.step > 2) return { scenario, step: e.step };
    } finally {
      sim.dispose();
    }
  }
  throw new Error('no h makes Newton fail mid-run');
}

const failing = failingScenario();

test(`a refused step (DSP midpoint, h = ${failing.scenario.h}, step ${failing.step}): step, code, reason, suggestion, stepsTaken`, () => {
  const sim = lab.simulate(failing.scenario);
  const good = failing.step - 1;
  sim.advance(good - 1);
  const qBefore = sim.q;
  const error = refusalOf(() => sim.advance(100));
  assert.ok(error, 'the step was not refused');
  assert.equal(error.step, failing.step);
  assert.notEqual(error.code, 'non-finite', 'Newton fails on this one');
  assert.match(error.reason, /Newton/);
  assert.equal(error.suggestion, 'reduce h');
  assert.equal(error.action, 'reduce-h');
  assert.equal(error.stepsTaken, 1, 'the one good step of this call is kept');
  assert.equal(error.message, `vilab: step ${failing.step} refused: ${error.reason}; reduce h (the state stays at step ${good})`);
  assert.equal(sim.step, good);
  assert.notDeepEqual(sim.q, qBefore);

  // The state is exactly that of a fresh run to the last good step.
  const fresh = lab.simulate(failing.scenario);
  fresh.advance(good);
  assert.equal(sim.hash(), fresh.hash());
  assert.deepEqual(sim.q, fresh.q);
  assert.deepEqual(sim.p, fresh.p);
  assert.deepEqual(sim.diagnostics(), fresh.diagnostics());
  assert.equal(sim.history.total, fresh.history.total);
  assert.deepEqual(sim.history.read(0).energy, fresh.history.read(0).energy, 'the refused step left no history sample');
  // and of the native CLI
  assert.equal(runNative(['hash', '-', '--steps', String(good)], JSON.stringify(failing.scenario)).stdout, `${sim.hash()}\n`);

  // Refused again, deterministically, by advance() and advanceFor() alike.
  const again = refusalOf(() => sim.advance(1));
  assert.ok(again && again.step === failing.step && again.stepsTaken === 0 && again.code === error.code);
  const bounded = refusalOf(() => sim.advanceFor({ maxSteps: 10, budgetMs: 1000 }));
  assert.ok(bounded && bounded.step === failing.step && bounded.stepsTaken === 0);
  assert.equal(sim.hash(), fresh.hash(), 'a refused call changes nothing');

  // The simulation stays usable: read, restore a state, step on.
  assert.ok(Number.isFinite(sim.diagnostics().energy));
  assert.match(sim.csvRow(), /^[-0-9.e+,]+$/);
  // (setState projects onto the manifold, which may move the last bits: compare with
  // another simulation given the same state.)
  const initial = lab.simulate(failing.scenario);
  const state = { q: initial.q, p: initial.p };
  sim.setState(state);
  initial.setState(state);
  assert.equal(sim.step, 0);
  sim.advance(2);
  initial.advance(2);
  assert.equal(sim.hash(), initial.hash());
  for (const s of [sim, fresh, initial]) s.dispose();
  assertHealthy();
});

test('a refused first step: nothing taken, the initial state kept', () => {
  // A planar pendulum thrown over the top at the largest h: Newton has no root near the motion.
  const scenario = { system: 'pendulum', integrator: 'midpoint', h: lab.system('pendulum').h.max, initial: { angles: [3.1], rates: [30] } };
  const sim = lab.simulate(scenario);
  const hash = sim.hash();
  const e = refusalOf(() => sim.advance(10));
  assert.ok(e && e.step === 1 && e.stepsTaken === 0 && /state stays at step 0\)$/.test(e.message), e?.message);
  assert.equal(sim.step, 0);
  assert.equal(sim.hash(), hash);
  sim.dispose();
  assertHealthy();
});

test('a blow-up of an explicit baseline is refused the same way (non-finite state)', () => {
  const scenario = { system: 'oscillator', integrator: 'euler', h: 1 };
  const sim = lab.simulate(scenario);
  const error = refusalOf(() => sim.advance(1e5));
  assert.ok(error && error.step > 1);
  assert.equal(error.code, 'non-finite');
  assert.equal(sim.step, error.step - 1);
  assert.ok(sim.q.every(Number.isFinite) && sim.p.every(Number.isFinite));
  sim.dispose();
  assertHealthy();
});

test('every refusal of every pair is a VilabError with its fields, never a raw exception', () => {
  // Each pair at its system's largest h with its default data, for up to 3000 steps:
  // whatever refuses (or not), an error is a refused step with all its fields.
  let refused = 0;
  for (const system of lab.systems) {
    for (const integrator of system.integrators) {
      let sim;
      try {
        sim = lab.simulate({ ...pairScenario(system.id, integrator), h: system.h.max });
      } catch (e) {
        // sem tries a motion's first steps at load and refuses one whose energy level it
        // cannot hold: an input error naming the integrator, before any step is taken; the
        // AVI refuses an h beyond its cells' stability limit at load, naming h.
        assert.ok(
          e instanceof VilabError && (e.field === 'integrator' || (integrator === 'avi' && e.field === 'h')),
          `${system.id}/${integrator}: ${e.message}`,
        );
        continue;
      }
      let error = null;
      try {
        sim.advance(3000);
      } catch (e) {
        error = e;
      }
      if (error) {
        assertRefusal(error);
        assert.equal(sim.step, error.step - 1, `${system.id}/${integrator}`);
        refused++;
      } else {
        assert.equal(sim.step, 3000);
      }
      sim.dispose();
    }
  }
  assert.ok(refused > 0, 'no pair refused a step at its largest h: the test proves nothing');
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

test('VilabError is exported and is an Error', () => {
  const e = new VilabError('x: y', { field: 'x' });
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'VilabError');
  assert.equal(e.message, 'vilab: x: y');
  assert.equal(e.field, 'x');
});
