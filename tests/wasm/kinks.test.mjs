// Kinks of field runs (web/sim/kinks.js): which scenes have them (from the density and
// the initial u, not from ids), the crossings by linear interpolation, the exact speed
// read from the initial data, and the tracker on the shipped scenes — the sine-Gordon
// kink's measured speed over 20 time units against its exact speed, the kink–antikink
// pass-through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { lab } from './helpers.mjs';
import { KinkTracker, crossings, exactSpeedOf, fitSpeed, kinkSetup, nodeVelocities } from '../../web/sim/kinks.js';
import { rowInterval } from '../../web/sim/spacetime.js';

const dir = new URL('../../scenes/fields/', import.meta.url);
const scenes = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const { about, ...scenario } = JSON.parse(readFileSync(new URL(f, dir), 'utf8'));
      return [f.replace(/\.json$/, ''), scenario];
    }),
);

function withSim(scenario, fn) {
  const sim = lab.simulate(scenario, { historyCapacity: 16 });
  try {
    return fn(sim);
  } finally {
    sim.dispose();
  }
}

/** The setup and the exact speed (or null) of a scenario, from its normalized form and initial state. */
function setupOf(scenario) {
  return withSim(scenario, (sim) => {
    const setup = kinkSetup(sim.scenario(), sim.q);
    return { setup, exact: setup ? exactSpeedOf(setup, sim.q, nodeVelocities(setup, sim.p)) : null };
  });
}

/** Runs a scenario for `duration`, feeding the tracker a sample every rowInterval (the page's rows). */
function track(scenario, duration) {
  return withSim(scenario, (sim) => {
    const setup = kinkSetup(sim.scenario(), sim.q);
    const tracker = new KinkTracker(setup);
    const every = Math.round(rowInterval(scenario) / scenario.h);
    const samples = [];
    tracker.push(sim.time, sim.q);
    samples.push({ t: sim.time, now: tracker.current() });
    while (sim.time < duration - 1e-9) {
      sim.advance(every);
      tracker.push(sim.time, sim.q);
      samples.push({ t: sim.time, now: tracker.current() });
    }
    return { tracker, samples, every };
  });
}

test('which scenes have kinks comes from the density and the initial u', () => {
  const has = Object.entries(scenes)
    .filter(([, sc]) => setupOf(sc).setup)
    .map(([id]) => id)
    .sort();
  assert.deepEqual(has, ['kink-antikink', 'phi4-kink', 'sine-gordon-kink']);
  // the breather (sine-Gordon, u = 0 at the start) has none; a sine-Gordon bump that does not reach π none either
  const bump = { ...scenes['sine-gordon-kink'], initial: { u: '2*exp(-(x - 20)^2)', ut: '0' } };
  assert.equal(setupOf(bump).setup, null);
  // the same kink under another family (Klein–Gordon has one vacuum) has none
  const kg = { ...scenes['sine-gordon-kink'], params: { ...scenes['sine-gordon-kink'].params, density: { family: 'klein-gordon' } } };
  assert.equal(setupOf(kg).setup, null);
  // the levels: π for the sine-Gordon kink, 0 for φ⁴
  assert.deepEqual(setupOf(scenes['sine-gordon-kink']).setup.levels, [Math.PI]);
  assert.deepEqual(setupOf(scenes['phi4-kink']).setup.levels, [0]);
});

test('crossings: linear interpolation between nodes, the sign of the slope, every odd multiple of π', () => {
  const setup = { family: 'sine-gordon', xs: Float64Array.from([0, 1, 2, 3]), dx: 1, grid: { length: 3, ends: 'fixed' } };
  // 0 → 2.5π over the first cell: π at x = 1/2.5, rising; 2.5π → −π over the last: π at x = 2 + 1.5/3.5, falling
  const found = crossings([0, 2.5 * Math.PI, 2.5 * Math.PI, -Math.PI], setup);
  assert.deepEqual(
    found.map((c) => [c.sign, c.level]),
    [
      [1, Math.PI],
      [-1, Math.PI],
    ],
  );
  assert.ok(Math.abs(found[0].x - 0.4) < 1e-15, `${found[0].x}`);
  assert.ok(Math.abs(found[1].x - (2 + 1.5 / 3.5)) < 1e-15, `${found[1].x}`);
  // 0 → 4π crosses π and 3π; a node exactly on a level counts once
  assert.deepEqual(
    crossings([0, 4 * Math.PI, 4 * Math.PI, 4 * Math.PI], setup).map((c) => c.level),
    [Math.PI, 3 * Math.PI],
  );
  assert.equal(crossings([0, Math.PI, 2 * Math.PI, 2 * Math.PI], setup).length, 1);
  // φ⁴: the level 0
  const phi = { ...setup, family: 'phi4' };
  assert.deepEqual(
    crossings([-1, -0.5, 0.5, 1], phi).map((c) => [c.x, c.sign]),
    [[1.5, 1]],
  );
});

test('fitSpeed: the least-squares slope, exact on a line', () => {
  const ts = [0, 0.5, 1.25, 2];
  const xs = ts.map((t) => 3 - 0.7 * t);
  assert.ok(Math.abs(fitSpeed(ts, xs) + 0.7) < 1e-15);
  assert.ok(Number.isNaN(fitSpeed([1], [2])));
});

test('the exact speed comes from the initial data: the travelling kink of the family, or nothing', () => {
  const sg = scenes['sine-gordon-kink'];
  const phi = scenes['phi4-kink'];
  // the shipped kinks' data are their families' travelling kinks at the speeds their constants name
  assert.ok(Math.abs(setupOf(sg).exact.v - sg.params.constants.v) < 1e-6, `${setupOf(sg).exact.v}`);
  assert.ok(Math.abs(setupOf(phi).exact.v - phi.params.constants.v) < 1e-6, `${setupOf(phi).exact.v}`);
  // two kinks: no single speed
  assert.equal(setupOf(scenes['kink-antikink']).exact, null);
  // a kink 10 % too wide for its speed is not a travelling solution: no exact speed
  const wide = { ...sg, params: { ...sg.params, constants: { ...sg.params.constants, g: sg.params.constants.g / 1.1 } } };
  assert.equal(setupOf(wide).exact, null);
  // the right shape but the wrong velocity (twice the u_t): no exact speed either
  const fast = { ...sg, initial: { ...sg.initial, ut: `2*(${sg.initial.ut})` } };
  assert.equal(setupOf(fast).exact, null);
  // a kink at rest is exact with v = 0
  const rest = { ...sg, initial: { u: '4*atan2(exp(x - 20), 1)', ut: '0' } };
  assert.ok(setupOf(rest).exact.v === 0);
});

/** The shipped sine-Gordon kink on N points: its exact speed and the tracker's samples over 20 time units. */
function kinkRun(points) {
  const base = scenes['sine-gordon-kink'];
  const sc = { ...base, params: { ...base.params, grid: { ...base.params.grid, points } } };
  return { exact: setupOf(sc).exact, ...track(sc, 20) };
}

test("the sine-Gordon kink's measured speed over 20 time units is its exact speed (box scheme, N = 512 and 1024)", () => {
  const { exact, tracker, samples } = kinkRun(512);
  assert.equal(tracker.tracks.length, 1, 'one kink, one track');
  const k = tracker.tracks[0];
  assert.equal(k.sign, 1);
  assert.ok(Math.abs(k.t[k.t.length - 1] - 20) < 1e-9);
  assert.ok(k.t.length >= 100, `${k.t.length} samples`);
  // it starts at x = 10, the data's centre
  assert.ok(Math.abs(k.x[0] - 10) < 1e-4, `${k.x[0]}`);
  const whole = fitSpeed(k.t, k.x);
  const ends = (k.x[k.x.length - 1] - k.x[0]) / (k.t[k.t.length - 1] - k.t[0]);
  // measured: 3.3e-4 above the exact speed at N = 512 (the box scheme's dispersion at Δx = 0.078)
  for (const v of [whole, ends]) assert.ok(Math.abs(v - exact.v) < 5e-4, `measured ${v}, exact ${exact.v}`);
  // the readout's speed (the last 64 samples) too
  const last = samples[samples.length - 1].now[0];
  assert.ok(Math.abs(last.speed - exact.v) < 5e-4, `${last.speed}`);
  // at N = 1024 within 1e-4 (the core's own test, tests/native/test_field.cpp), the error falling as Δx²
  const fine = kinkRun(1024);
  const kf = fine.tracker.tracks[0];
  const errFine = Math.abs(fitSpeed(kf.t, kf.x) - fine.exact.v);
  assert.ok(errFine < 1e-4, `N = 1024: ${errFine}`);
  const order = Math.log2(Math.abs(whole - exact.v) / errFine);
  assert.ok(order > 1.7 && order < 2.5, `order ${order}`);
});

test('the kink and the antikink approach, meet at t ≈ 20 and separate, each keeping its sign and direction', () => {
  const sc = scenes['kink-antikink'];
  const { tracker, samples } = track(sc, 40);
  const at = (t) => samples.reduce((best, s) => (Math.abs(s.t - t) < Math.abs(best.t - t) ? s : best));
  // before: a kink at 10 moving right, an antikink at 30 moving left, 2v = 1 closer per unit time
  const early = at(4).now;
  assert.equal(early.length, 2);
  const [kink, anti] = early;
  assert.deepEqual([kink.sign, anti.sign], [1, -1]);
  assert.ok(Math.abs(kink.x - 12) < 0.05 && Math.abs(anti.x - 28) < 0.05, `${kink.x}, ${anti.x}`);
  assert.ok(kink.speed > 0.45 && anti.speed < -0.45, `${kink.speed}, ${anti.speed}`);
  const gap = (s) => (s.now.length === 2 ? Math.abs(s.now[1].x - s.now[0].x) : NaN);
  assert.ok(gap(at(10)) < gap(at(4)) && gap(at(16)) < gap(at(10)), 'they approach');
  // they meet: somewhere near t = 20 the two crossings are within two widths of each other, or gone
  const meet = samples.filter((s) => s.t > 15 && s.t < 25).some((s) => s.now.length < 2 || gap(s) < 2);
  assert.ok(meet, 'they meet');
  // after: the kink (rising) is on the right moving right, the antikink on the left moving left
  const late = at(36).now;
  assert.equal(late.length, 2);
  const right = late.find((k) => k.sign === 1);
  const left = late.find((k) => k.sign === -1);
  assert.ok(right.x > 20 && left.x < 20, `${right.x}, ${left.x}`);
  assert.ok(right.speed > 0.45 && left.speed < -0.45, `${right.speed}, ${left.speed}`);
  assert.ok(gap(at(36)) > gap(at(28)), 'they separate');
  // the tracker keeps each one's identity through the collision: two tracks in all
  assert.deepEqual(
    tracker.tracks.map((k) => [k.id, k.sign]),
    [
      [1, 1],
      [2, -1],
    ],
  );
  // and the same id on each side: the kink that came from the left leaves on the right
  assert.equal(right.id, kink.id);
  assert.equal(left.id, anti.id);
});

test('the tracker refuses a sample with a NaN and keeps its tracks', () => {
  const setup = kinkSetup(
    { system: 'field', params: { density: { family: 'phi4' }, grid: { length: 3, points: 4, ends: 'fixed' } } },
    [-1, -1, 1, 1],
  );
  const tracker = new KinkTracker(setup);
  assert.equal(tracker.push(0, [-1, -1, 1, 1]), true);
  assert.equal(tracker.push(1, [-1, Number.NaN, 1, 1]), false);
  assert.equal(tracker.samples, 1);
  assert.equal(tracker.current()[0].x, 1.5);
});
