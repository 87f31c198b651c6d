// Every preset's caption is a claim the run proves (web/sim/claims.js): each preset is run
// through the API as the page runs it (tests/wasm/preset-run.mjs: A and B in lockstep, a
// history sample per step, the page's breakdown rule) to the last time its claims name,
// and each claim's measured value must lie in its `expect` range; every {slot} of the
// caption (English and Spanish) is one of its claims; the lesson block sets up what the
// caption names, and every claimed moment is on screen within 20 s of choosing the preset.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lab } from './helpers.mjs';
import { shippedPresets, runPreset } from './preset-run.mjs';
import { checkClaims, slotsOf } from '../../web/sim/claims.js';
import { describeForLesson, presetMatching } from '../../web/sim/preset-data.js';
import es from '../../web/i18n/es/presets.js';

const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100]; // web/state/store.js
const WINDOWS = [0, 5, 20, 60];
const CARDS = ['energy', 'momentum', 'conserved', 'unconserved', 'constraint', 'iterations', 'dt', 'phase']; // web/plots/plots.js
const WATCH_SECONDS = 20;
const presets = shippedPresets();

/**
 * The plot cards the page builds for a run (web/plots/plots.js lays them out from the
 * description: energy while it is conserved, momenta, declared conserved quantities, the
 * values of what is not conserved, the constraint residual, step sizes, iterations, graph).
 */
function cardsOf(description, variableStep) {
  const q = description.quantities;
  const conserved = q.filter((x) => x.conserved);
  return [
    ...(conserved.some((x) => x.key === 'energy') ? ['energy'] : []),
    ...(conserved.some((x) => x.key !== 'energy' && !x.key.startsWith('conserved.')) ? ['momentum'] : []),
    ...(conserved.some((x) => x.key.startsWith('conserved.')) ? ['conserved'] : []),
    ...(q.some((x) => !x.conserved) ? ['unconserved'] : []),
    ...(description.constrained ? ['constraint'] : []),
    ...(variableStep ? ['dt'] : []),
    'iterations',
    'phase',
  ];
}

/** The simulated time a claim needs to be measured. */
function timeOf(claim, byName) {
  if (claim.kind === 'ratio') return Math.max(...claim.of.map((n) => timeOf(byName.get(n), byName)));
  if (claim.at !== undefined) return claim.at;
  return claim.expect[1] + 0.05; // a crossing, stop or recurrence: by the end of its range
}

/**
 * The times and percentages a caption may state as words: the times its claims are
 * measured at, its claims' thresholds, the step, the lesson's jump, the page's breakdown threshold (100 %),
 * the 20 s of the lesson's promise, and what the scenario itself sets (GIVEN).
 */
const GIVEN = { dzhanibekov: ['1 %'] }; // ω = (0.02, 2, 0.02): a 1 % wobble
function allowedNumbers(p) {
  const out = new Set([`${p.scenario.h} s`, '100 %', `${WATCH_SECONDS} s`, ...(GIVEN[p.id] ?? [])]);
  if (p.lesson?.jumpTo) out.add(`${p.lesson.jumpTo} s`);
  for (const c of p.claims ?? []) {
    if (c.at !== undefined) out.add(`${c.at} s`);
    if (c.above !== undefined) out.add(`${c.above * 100} %`);
  }
  return out;
}

/** The run's results that miss their claims: [] when the caption holds. */
function missed(results) {
  const out = [];
  for (const [name, r] of results) {
    const [lo, hi] = r.claim.expect;
    if (r.state !== 'done' || !(r.value >= lo && r.value <= hi)) out.push(`${name}: ${r.state} ${r.value} not in [${lo}, ${hi}]`);
  }
  return out;
}

test('there are 36 presets, each with a lesson block and no `large`', () => {
  assert.equal(presets.length, 36);
  for (const p of presets) {
    const l = p.lesson;
    assert.ok(l, `${p.id}: lesson`);
    assert.equal(l.large, undefined, `${p.id}: large is now plot`);
    assert.ok(CARDS.includes(l.plot), `${p.id}: plot ${l.plot}`);
    assert.ok(SPEEDS.includes(l.speed), `${p.id}: speed ${l.speed}`);
    assert.ok(WINDOWS.includes(l.window), `${p.id}: window ${l.window}`);
    assert.ok(['signed', 'envelope'].includes(l.energy), `${p.id}: energy ${l.energy}`);
    if (l.cards) for (const c of l.cards) assert.ok(CARDS.includes(c), `${p.id}: card ${c}`);
    if (l.jumpTo !== undefined) assert.ok(l.jumpTo > 0, `${p.id}: jumpTo`);
  }
});

for (const p of presets) {
  const claims = p.claims ?? [];
  const byName = new Map(claims.map((c) => [c.name, c]));

  test(`${p.id}: the caption's slots are its claims, in English and Spanish`, () => {
    checkClaims(claims, `${p.id}.claims`);
    const slots = slotsOf(p.explanation);
    for (const s of slots) assert.ok(byName.has(s), `${p.id}: slot {${s}} names no claim`);
    const spanish = es[`preset.${p.id}.explanation`];
    assert.ok(spanish, `${p.id}: Spanish caption`);
    assert.deepEqual(slotsOf(spanish).sort(), slots.slice().sort(), `${p.id}: the Spanish caption has the same slots`);
    for (const c of claims)
      if (c.kind !== 'ratio' && !slots.includes(c.name))
        assert.ok(
          claims.some((r) => r.kind === 'ratio' || r.name === c.name),
          c.name,
        );
  });

  test(`${p.id}: every time or percentage the caption states outside a slot is a claim's or the set-up's`, () => {
    const allowed = allowedNumbers(p);
    for (const lang of ['en', 'es']) {
      const text = (lang === 'en' ? p.explanation : es[`preset.${p.id}.explanation`]).replace(/\{\w+\}/g, '');
      for (const m of text.matchAll(/(\d+(?:[.,]\d+)?)\s*(s|%)(?![\w²])/g)) {
        assert.ok(
          allowed.has(`${Number(m[1].replace(',', '.'))} ${m[2]}`),
          `${p.id} (${lang}): "${m[0]}" is neither a slot nor a claim's time or threshold`,
        );
      }
    }
  });

  test(`${p.id}: the plot its caption names, and the cards it shows, are the run's`, () => {
    const sim = lab.simulate(p.scenario);
    try {
      const variableStep = lab.integrator(p.scenario.integrator).variableStep;
      const cards = cardsOf(describeForLesson(sim.describe(), p.lesson), variableStep);
      assert.ok(cards.includes(p.lesson.plot), `${p.id}: plot ${p.lesson.plot} not among ${cards}`);
      for (const c of p.lesson.cards ?? []) assert.ok(cards.includes(c), `${p.id}: card ${c} not among ${cards}`);
      assert.equal(p.lesson.cards?.[0] ?? p.lesson.plot, p.lesson.plot, `${p.id}: the named plot comes first`);
    } finally {
      sim.dispose();
    }
  });

  if (!claims.length) continue;
  test(`${p.id}: each claimed moment is on screen within ${WATCH_SECONDS} s of choosing it`, () => {
    const { speed, jumpTo = 0 } = p.lesson;
    for (const c of claims) {
      const t = timeOf(c, byName);
      assert.ok((t - jumpTo) / speed <= WATCH_SECONDS, `${p.id}.${c.name}: t = ${t} s takes ${(t - jumpTo) / speed} s at ${speed}×`);
    }
  });

  test(`${p.id}: the run proves every claim of its caption`, () => {
    const until = Math.max(...claims.map((c) => timeOf(c, byName)));
    const { results } = runPreset(lab, p, until);
    assert.deepEqual(missed(results), []);
  });
}

test('a caption the run does not prove is caught (the numbers the captions used to state)', () => {
  const find = (id) => presets.find((p) => p.id === id);
  const wrong = (id, name, expect) => {
    const p = find(id);
    return { ...p, claims: p.claims.map((c) => (c.name === name ? { ...c, expect } : c)) };
  };
  // explicit Euler "refused at step 1473 (t ≈ 14.7 s)"; the long run "6 % after ten minutes"
  const euler = runPreset(lab, wrong('pendulum-euler', 'stop', [14.6, 14.8]), 16);
  assert.ok(missed(euler.results).some((m) => m.startsWith('stop:')));
  const long = runPreset(lab, wrong('long-run-energy', 'rk600', [0.055, 0.065]), 600);
  assert.ok(missed(long.results).some((m) => m.startsWith('rk600:')));
  // the oscillator's explicit Euler is stopped before 10 s: "×2.7 after 10 s" cannot be read
  const osc = find('oscillator-phase');
  const at10 = runPreset(
    lab,
    { ...osc, claims: [{ name: 'f10', kind: 'value', track: 'B', quantity: 'energy', measure: 'factor', at: 10, expect: [2.6, 2.8] }] },
    10,
  );
  assert.equal(at10.results.get('f10').state, 'stopped');
});

test('the Dzhanibekov flip is half the exact period of Π (Jacobi elliptic functions)', () => {
  const p = presets.find((x) => x.id === 'dzhanibekov');
  const { results } = runPreset(lab, p, 40);
  const exact = lab.exactRigidBody(p.scenario);
  try {
    assert.ok(Math.abs(results.get('flip').value / (exact.period / 2) - 1) < 0.01, `${results.get('flip').value} vs ${exact.period / 2}`);
  } finally {
    exact.dispose();
  }
});

test('the document a preset is: presetMatching; a lesson’s not-conserved quantities: describeForLesson', () => {
  const dsp = { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 };
  // the default page compared with RK4 is the dsp-energy preset (the invitation applies its set-up)
  assert.equal(presetMatching(lab, presets, { scenario: lab.normalize(dsp), compare: 'rk4' })?.id, 'dsp-energy');
  assert.equal(presetMatching(lab, presets, { scenario: lab.normalize(dsp), compare: null }), null, 'without B it is no preset');
  assert.equal(presetMatching(lab, presets, { scenario: lab.normalize({ ...dsp, h: 0.005 }), compare: 'rk4' }), null, 'another h');
  const fput = presets.find((p) => p.id === 'fput');
  const sim = lab.simulate(fput.scenario);
  try {
    const d = sim.describe();
    assert.equal(describeForLesson(d, {}), d, 'no notConserved: the description as it is');
    const shown = describeForLesson(d, fput.lesson).quantities;
    for (const name of ['E1', 'E2', 'E3', 'E4']) assert.equal(shown.find((q) => q.key === `conserved.${name}`).conserved, false, name);
    assert.equal(shown.find((q) => q.key === 'energy').conserved, true, 'the energy stays conserved');
    assert.equal(d.quantities.find((q) => q.key === 'conserved.E1').conserved, true, 'the run’s own description is untouched');
  } finally {
    sim.dispose();
  }
});

// The other numbers titles and captions state are the set-up's: each is computed here from
// the scenario (or its first sample) and must be what the words say.
const SETUP_NUMBERS = {
  'dsp-chaos': (p) => [['α = ¼', lab.integrator(p.compare).options.find((o) => o.name === 'alpha').default, 0.25]],
  dzhanibekov: ({ scenario: s }) => [
    ['I2 = 2', s.params.inertia[1], 2],
    ['1% wobble', s.initial.omega[0] / s.initial.omega[1], 0.01],
  ],
  'tennis-racket': ({ scenario: s }) => [
    ['0.0013 along the handle', s.params.inertia[0], 0.0013],
    ['2 rev/s', s.initial.omega[1] / (2 * Math.PI), 2, 0.01],
  ],
  'symmetric-precession': ({ scenario: s }) => [
    ['14°', (Math.atan2(Math.hypot(s.initial.omega[0], s.initial.omega[1]), s.initial.omega[2]) * 180) / Math.PI, 14, 0.5],
  ],
  'heavy-top-nutation': ({ scenario: s }) => [
    ['0.5 rad', 2 * Math.acos(s.initial.orientation[0]), 0.5, 1e-6],
    ['15 rad/s', s.initial.omega[2], 15],
    ['0.5 m up its axis', s.params.com[2], 0.5],
  ],
  kapitza: ({ scenario: s }) => {
    const { a, w, g, l } = s.params.constants;
    return [
      ['a²ω² = 36', a * a * w * w, 36, 1e-9],
      ['2gl = 19.6', 2 * g * l, 19.6, 0.05],
    ];
  },
  'swinging-atwood': ({ scenario: s }) => [['3.3 times heavier', s.params.constants.M / s.params.constants.m, 3.3]],
  'henon-heiles': (p) => [['E = 1/8', firstEnergy(p), 1 / 8, 1e-9]],
  kepler: (p) => [['e = 0.6', firstSample(p).columns['conserved.eccentricity'][0], 0.6, 1e-12]],
  'newmark-vs-rk4': ({ scenario: s }) => [['ω = 2 rad/s', s.params.constants.w, 2]],
  fput: ({ scenario: s }) => [['N = 16', s.params.coordinates.length, 16]],
  'driven-damped-pendulum': ({ scenario: s }) => [
    ['q = 2', 1 / s.params.damping, 2],
    ['A = 1.5', s.params.constants.A, 1.5],
    ['ω_D = 2/3', s.params.constants.wd, 2 / 3, 1e-12],
  ],
};

function firstSample(p) {
  const sim = lab.simulate(p.scenario);
  try {
    return sim.history.read(0);
  } finally {
    sim.dispose();
  }
}
const firstEnergy = (p) => firstSample(p).energy[0];

for (const [id, numbers] of Object.entries(SETUP_NUMBERS)) {
  test(`${id}: the set-up numbers its caption states are the scenario's`, () => {
    const p = presets.find((x) => x.id === id);
    for (const [words, actual, stated, tol = 0] of numbers(p)) {
      assert.ok(`${p.title} ${p.explanation}`.includes(words), `${id}: the title or caption says "${words}"`);
      assert.ok(Math.abs(actual - stated) <= tol, `${id}: "${words}" but the scenario gives ${actual}`);
    }
  });
}

/** The first time A's and B's drawn bodies are more than `apart` apart (m), or null by `until`. */
function partingTime(p, until, apart) {
  const { options: _drop, ...rest } = lab.normalize(p.scenario);
  const A = lab.simulate(p.scenario);
  const B = lab.simulate(lab.normalize({ ...rest, integrator: p.compare }));
  try {
    const n = Math.round(until / A.scenario().h);
    for (let k = 1; k <= n; k++) {
      A.advance(1);
      B.advance(1);
      const a = A.visualState();
      const b = B.visualState();
      if (a.some((x, i) => Math.abs(x - b[i]) > apart)) return A.time;
    }
    return null;
  } finally {
    A.dispose();
    B.dispose();
  }
}

test('the runs part when the captions say: "soon", "within a few hundred seconds", "after about ten drive periods"', () => {
  const find = (id) => presets.find((p) => p.id === id);
  const chaos = partingTime(find('dsp-chaos'), 20, 0.5);
  assert.ok(chaos !== null && chaos < 10, `dsp-chaos: the ghost swings its own way at ${chaos} s`);
  const double = partingTime(find('double-pendulum'), 20, 0.5);
  assert.ok(double !== null && double < 10, `double pendulum: the motions part at ${double} s`);
  const hh = partingTime(find('henon-heiles'), 300, 0.1);
  assert.ok(hh !== null && hh > 30 && hh < 300, `Hénon–Heiles: parts at ${hh} s`);
  const driven = find('driven-damped-pendulum');
  const period = (2 * Math.PI) / driven.scenario.params.constants.wd;
  const apart = partingTime(driven, 15 * period, 0.5);
  assert.ok(apart !== null && apart / period > 7 && apart / period < 13, `driven pendulum: parts after ${apart / period} drive periods`);
});

test('Kapitza: below the threshold (w = 30) the bob falls; the rotating hoop’s bead swings about cos θ* = g/(Rω²)', () => {
  const kapitza = presets.find((p) => p.id === 'kapitza');
  const slow = structuredClone(kapitza.scenario);
  slow.params.constants.w = 30;
  const fell = runPreset(
    lab,
    {
      scenario: slow,
      claims: [{ name: 'low', kind: 'value', quantity: 'conserved.height', measure: 'value', at: 20, stat: 'min', expect: [-1, 1] }],
    },
    20,
  );
  assert.ok(fell.results.get('low').value < -0.9, `w = 30: the height goes down to ${fell.results.get('low').value}`);
  const hoop = presets.find((p) => p.id === 'rotating-hoop');
  const { g, R, w } = hoop.scenario.params.constants;
  const tilted = Math.acos(g / (R * w * w));
  const sim = lab.simulate(hoop.scenario);
  try {
    let [lo, hi] = [Infinity, -Infinity];
    const steps = Math.round(20 / sim.scenario().h);
    for (let k = 0; k < steps; k++) {
      sim.advance(1);
      const th = sim.variables()[0];
      [lo, hi] = [Math.min(lo, th), Math.max(hi, th)];
    }
    assert.ok(lo < tilted && hi > tilted && hi > 1.2 * tilted, `θ in [${lo}, ${hi}] swings about θ* = ${tilted}`);
  } finally {
    sim.dispose();
  }
});
