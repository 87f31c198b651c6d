// Where a broken run stops (web/sim/breakdown.js, web/sim/runner.js): a per-step
// criterion on the recorded history, so the stop step, its reason and the state the run
// rests on depend only on the scenario and the step, never on how the steps were batched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';
import { breakdownCriterion, findBreakdown, sampleBreakdown, BREAK_ENERGY } from '../../web/sim/breakdown.js';
import { Runner } from '../../web/sim/runner.js';
import { decodeState } from '../../web/state/url.js';
import { compareScenario } from '../../web/state/store.js';

// the planar pendulum from 1.2 rad beside explicit Euler: Euler's energy grows until it
// leaves the physics, and a while later its step overflows (refused)
const LINK = '#system=pendulum&initial.angles=1.2&compare=euler';
const { state } = decodeState(lab, LINK);
const scenarioA = state.scenario;
const scenarioB = compareScenario(lab, state.scenario, state.compare);

/** Euler alone, every step recorded, scanned in chunks of `chunk` steps up to `steps`: the first breakdown and the refusal, if any. */
function scanInChunks(chunk, steps) {
  const sim = lab.simulate(scenarioB, { historyStride: 1, historyCapacity: 4096 });
  try {
    const criterion = breakdownCriterion(sim.describe(), sim.history.read(0));
    let read = 1;
    let prevT = 0;
    let refused = null;
    while (sim.step < steps && !refused) {
      try {
        sim.advance(Math.min(chunk, steps - sim.step));
      } catch (e) {
        refused = e;
      }
      const r = sim.history.read(read);
      read = r.start + r.count;
      const found = findBreakdown(criterion, r, { prevT });
      if (found) return { found, refused: null };
      prevT = r.t[r.count - 1];
    }
    return { found: null, refused: refused && { step: refused.step, code: refused.code } };
  } finally {
    sim.dispose();
  }
}

test('the breakdown criterion finds the same step and reason in chunks of 1, 7 and 2000 steps', () => {
  const results = [1, 7, 2000].map((chunk) => scanInChunks(chunk, 3000));
  const [one] = results;
  assert.ok(one.found, 'explicit Euler breaks down within 3000 steps');
  assert.equal(one.found.kind, 'energy');
  assert.ok(one.found.amount > BREAK_ENERGY, `energy error ${one.found.amount}`);
  for (const r of results.slice(1)) assert.deepEqual(r, one);
  // the step before it is within the band, the step itself beyond it
  assert.ok(Math.abs(one.found.lastGood.t - (one.found.step - 1) * scenarioB.h) < 1e-9);
  // and the refused step (overflow) comes later: without the criterion a chunk that
  // reaches it would report it instead
  const sim = lab.simulate(scenarioB);
  let refusal = null;
  try {
    sim.advance(3000);
  } catch (e) {
    refusal = e;
  } finally {
    sim.dispose();
  }
  assert.ok(refusal && refusal.step > one.found.step, `refusal at ${refusal?.step}, breakdown at ${one.found.step}`);
});

test('the criterion: a negative control (midpoint keeps its energy), and each kind of problem', () => {
  const sim = lab.simulate(scenarioA, { historyStride: 1, historyCapacity: 8192 });
  try {
    const criterion = breakdownCriterion(sim.describe(), sim.history.read(0));
    sim.advance(5000);
    assert.equal(findBreakdown(criterion, sim.history.read(1)), null, 'midpoint never breaks down');
    // the same samples, doctored: the energy 101 % away, a NaN, a stretched link
    const read = sim.history.read(sim.history.total - 1);
    const E0 = criterion.energy.E0;
    const doctor = (patch) => ({ ...read, ...patch, columns: { ...read.columns, ...patch.columns } });
    const energy = Float64Array.of(E0 + 1.01 * Math.abs(E0));
    assert.equal(sampleBreakdown(criterion, doctor({ energy, columns: { energy } }), 0).kind, 'energy');
    const within = Float64Array.of(E0 + 0.99 * Math.abs(E0));
    assert.equal(sampleBreakdown(criterion, doctor({ energy: within, columns: { energy: within } }), 0), null);
    const nan = Float64Array.of(Number.NaN);
    assert.equal(sampleBreakdown(criterion, doctor({ energy: nan, columns: { energy: nan } }), 0).kind, 'non-finite');
    if (criterion.constraintScale != null) {
      const g = Float64Array.of(0.011 * criterion.constraintScale);
      assert.equal(sampleBreakdown(criterion, doctor({ constraint: g }), 0).kind, 'constraint');
    }
  } finally {
    sim.dispose();
  }
});

/** The page's runner on the link's run, advanced in chunks of `chunk` steps to `steps`: where B stopped and rests. */
function runnerInChunks(chunk, steps, { historyCapacity = 32768 } = {}) {
  const failures = [];
  const runner = new Runner(lab, { onFailure: (track, info) => failures.push({ label: track.label, ...info }) });
  runner.historyCapacity = historyCapacity;
  runner.configure(scenarioA, scenarioB);
  try {
    while (runner.step < steps) runner.advance(Math.min(chunk, steps - runner.step));
    while (!runner.settled) runner.settle(100);
    return {
      failures: failures.map(({ label, step, code, kind, t }) => ({ label, step, code, kind, t })),
      stepA: runner.a.sim.step,
      stepB: runner.b.sim.step,
      hashA: runner.a.sim.hash(),
      hashB: runner.b.sim.hash(),
    };
  } finally {
    runner.disposeTracks();
  }
}

test('the runner stops B at the same step, for the same reason, resting on the same bits, in chunks of 1, 7 and 2000 (and landing at 700, 1500, 3000)', () => {
  const expected = scanInChunks(1, 3000).found;
  const reference = runnerInChunks(1, 3000);
  assert.equal(reference.failures.length, 1, JSON.stringify(reference.failures));
  assert.deepEqual(reference.failures[0], { label: 'B', step: expected.step, code: 'breakdown', kind: 'energy', t: expected.lastGood.t });
  assert.equal(reference.stepB, expected.step - 1, 'B rests on its last good step');
  assert.equal(reference.stepA, 3000, 'A goes on');
  // B's bits are those of a fresh run to its last good step
  const fresh = lab.simulate(scenarioB);
  fresh.advance(expected.step - 1);
  assert.equal(reference.hashB, fresh.hash());
  fresh.dispose();
  for (const chunk of [7, 2000, 700, 1500, 3000]) assert.deepEqual(runnerInChunks(chunk, 3000), reference, `chunks of ${chunk}`);
  // a landing that ends before the refused step but after the breakdown: the same stop
  for (const at of [700, 1500]) {
    const landed = runnerInChunks(at, at);
    assert.deepEqual(landed.failures, reference.failures, `at = ${at}`);
    assert.equal(landed.stepB, reference.stepB);
    assert.equal(landed.hashB, reference.hashB);
  }
});

test('a small history ring changes nothing: chunks never outrun it', () => {
  const reference = runnerInChunks(1, 2500);
  assert.deepEqual(runnerInChunks(2500, 2500, { historyCapacity: 64 }), { ...reference });
});

test('when A breaks down, B takes no step past A’s stop: both rest on A’s last good step, in chunks of 1, 7 and 2000', () => {
  const run = (chunk) => {
    const failures = [];
    const runner = new Runner(lab, { onFailure: (track, info) => failures.push({ label: track.label, step: info.step, kind: info.kind }) });
    runner.configure(scenarioB, scenarioA); // A: explicit Euler, B: midpoint
    runner.playing = true;
    try {
      while (!runner.a.failure && runner.step < 3000) runner.advance(chunk);
      while (!runner.settled) runner.settle(100);
      return { failures, stepA: runner.a.sim.step, stepB: runner.b.sim.step, hashB: runner.b.sim.hash(), playing: runner.playing };
    } finally {
      runner.disposeTracks();
    }
  };
  const one = run(1);
  assert.deepEqual(one.failures, [{ label: 'A', step: 530, kind: 'energy' }]);
  assert.equal(one.stepA, 529);
  assert.equal(one.stepB, 529, 'B stops with A');
  assert.equal(one.playing, false, 'the run pauses');
  for (const chunk of [7, 2000]) assert.deepEqual(run(chunk), one, `chunks of ${chunk}`);
});
