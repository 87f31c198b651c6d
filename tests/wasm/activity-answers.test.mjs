// The answers the teacher layer reveals (web/sim/activities.js, words in
// web/i18n/<lang>/activities.js) are what the runs show: each preset below is run through the
// API to the time its activity names, and the registry's answer must hold by a threshold
// the other choices miss (the wrong answers are the negative controls: the stable spins do
// not flip, the slower shaking lets the pendulum fall, the bead never crosses the bottom).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { follow, lab, root } from './helpers.mjs';
import { activityFor } from '../../web/sim/activities.js';

const json = (path) => JSON.parse(readFileSync(`${root}/${path}`, 'utf8'));
const PRESETS = Object.fromEntries([...json('scenes/presets.json'), ...json('scenes/rigid_body_presets.json')].map((p) => [p.id, p]));
const scene = (id) => {
  const { about, ...scenario } = json(`scenes/lagrangian/${id}.json`);
  return scenario;
};
/** A scenes/lagrangian preset as the page makes it: its scenario and the B it compares with. */
const scenePreset = (id) => ({ scenario: scene(id), compare: json(`scenes/lagrangian/${id}.json`).about.compare });

/** Sign changes of component k of the body momentum Π over T, and the smallest |Π_k|/|Π|. */
function spin(id, k, T) {
  let last = null;
  let changes = 0;
  let least = 1;
  follow(
    PRESETS[id].scenario,
    T,
    (sim) => {
      const m = sim.diagnostics().bodyMomentum;
      const s = Math.sign(m[k]);
      if (last !== null && s !== last) changes++;
      last = s;
      least = Math.min(least, Math.abs(m[k]) / Math.hypot(...m));
    },
    10,
  );
  return { changes, least };
}

test('rigid bodies: about the intermediate axis the body flips again and again; about the others it keeps its spin', () => {
  assert.equal(activityFor('preset', 'dzhanibekov').answer, 'flips');
  assert.equal(activityFor('preset', 'major-axis-spin').answer, 'steady');
  assert.equal(activityFor('preset', 'minor-axis-spin').answer, 'steady');
  assert.equal(activityFor('preset', 'tennis-racket').answer, 'twist');
  const flip = spin('dzhanibekov', 1, 30);
  assert.ok(flip.changes >= 2, `Π₂ changes sign ${flip.changes} times in 30 s (it flips, and back)`);
  assert.ok(flip.least < 0.1, `Π leaves the intermediate axis (|Π₂|/|Π| down to ${flip.least})`);
  const racket = spin('tennis-racket', 1, 5);
  assert.ok(racket.changes >= 2, `the racket's in-plane spin reverses ${racket.changes} times in 5 s`);
  for (const [id, k] of [
    ['major-axis-spin', 2],
    ['minor-axis-spin', 0],
  ]) {
    const s = spin(id, k, 30);
    assert.equal(s.changes, 0, `${id}: no flip in 30 s`);
    assert.ok(s.least > 0.99, `${id}: Π stays within a small cone of its axis (${s.least})`);
  }
});

test("explicit Euler's energy grows at every step (the pendulum swings higher, the oscillator spirals out); the midpoint rule's does not", () => {
  assert.equal(activityFor('preset', 'pendulum-euler').answer, 'grows');
  assert.equal(activityFor('preset', 'oscillator-phase').answer, 'B');
  for (const id of ['pendulum-euler', 'oscillator-phase']) {
    const p = PRESETS[id];
    const ratios = [];
    let E0 = null;
    let prev = null;
    follow({ ...p.scenario, integrator: p.compare }, 5, (sim) => {
      const e = sim.diagnostics().energy;
      E0 ??= e;
      if (prev !== null) ratios.push(e / prev);
      prev = e;
    });
    assert.ok(
      ratios.every((r) => r > 1),
      `${id}: B's energy grows at every step (smallest ratio ${Math.min(...ratios)})`,
    );
    assert.ok((prev - E0) / Math.abs(E0) > 0.5, `${id}: +${(prev - E0) / Math.abs(E0)} after 5 s`);
    let worst = 0;
    follow(p.scenario, 5, (sim) => {
      const e = sim.diagnostics().energy;
      E0 = sim.step === 0 ? e : E0;
      worst = Math.max(worst, Math.abs(e - E0) / Math.abs(E0));
    });
    assert.ok(worst < 1e-3, `${id}: A's energy error stays below 1e-3 (${worst})`);
  }
  // the oscillator: a fixed factor per step, 1 + h²ω²
  const sc = lab.normalize(PRESETS['oscillator-phase'].scenario);
  const factor = 1 + (sc.h * sc.h * sc.params.stiffness) / sc.params.mass;
  let prev = null;
  let off = 0;
  follow({ ...sc, integrator: PRESETS['oscillator-phase'].compare }, 10, (sim) => {
    const e = sim.diagnostics().energy;
    if (prev !== null) off = Math.max(off, Math.abs(e / prev - factor));
    prev = e;
  });
  assert.ok(off < 1e-12, `Euler's energy ratio per step is 1 + h²ω² to ${off}`);
});

test('Kapitza: shaken fast the pendulum stays up; shaken at w = 30 it falls', () => {
  assert.equal(activityFor('preset', 'kapitza').answer, 'stays');
  const away = (scenario) => {
    let worst = 0;
    follow(scenario, 20, (sim) => (worst = Math.max(worst, Math.abs(sim.q[0] - Math.PI))), 10);
    return worst;
  };
  const shaken = scene('kapitza');
  const up = away(shaken);
  assert.ok(up < 0.5, `stays within ${up} rad of upside down for 20 s`);
  const slow = structuredClone(shaken);
  slow.params.constants.w = 30;
  const down = away(slow);
  assert.ok(down > 2, `at w = 30 it falls (${down} rad from upside down)`);
});

test('the bead on the hoop spinning above √(g/R) oscillates about the tilted point, never about the bottom', () => {
  assert.equal(activityFor('preset', 'rotating-hoop').answer, 'tilted');
  const sc = scene('rotating-hoop');
  const { g, R, w } = sc.params.constants;
  const tilt = Math.acos(g / (R * w * w));
  let lo = Infinity;
  let hi = -Infinity;
  follow(sc, 20, (sim) => {
    lo = Math.min(lo, sim.q[0]);
    hi = Math.max(hi, sim.q[0]);
  });
  assert.ok(lo > 0, `it never crosses the bottom (θ ≥ ${lo})`);
  assert.ok(lo < tilt && tilt < hi, `its swing [${lo}, ${hi}] surrounds θ* = ${tilt}`);
  assert.ok(hi < Math.PI / 1.5, `and stays below the top (${hi})`);
});

/** The largest change of f(sim) from its start over T: relative to |f₀|, or absolute when f₀ = 0. */
function drift(scenario, T, f) {
  let f0 = null;
  let worst = 0;
  follow(
    scenario,
    T,
    (sim) => {
      f0 ??= f(sim);
      worst = Math.max(worst, Math.abs(f(sim) - f0) / (f0 === 0 ? 1 : Math.abs(f0)));
    },
    10,
  );
  return worst;
}

test('what A keeps exactly, B lets drift: J_z, the cart’s momentum, Kepler’s Lz, the energy–momentum scheme’s energy', () => {
  const momentum = (sim) => sim.diagnostics().momentum[0];
  const energy = (sim) => sim.diagnostics().energy;
  const cases = [
    ['spherical-precession', PRESETS['spherical-precession'], momentum, 1e-12, 1e-9],
    ['cart-pendulum', scenePreset('cart-pendulum'), momentum, 1e-12, 1e-9],
    ['kepler', scenePreset('kepler'), momentum, 1e-12, 1e-9],
    ['dsp-energy-momentum', PRESETS['dsp-energy-momentum'], energy, 1e-12, 1e-5],
  ];
  for (const [id, p, f, kept, drifts] of cases) {
    const a = drift(p.scenario, 60, f);
    const b = drift({ ...p.scenario, integrator: p.compare }, 60, f);
    assert.ok(a <= kept, `${id}: A keeps it to ${a} over 60 s`);
    assert.ok(b >= drifts, `${id}: B's drifts by ${b}`);
  }
  assert.equal(activityFor('preset', 'spherical-precession').answer, 'A');
  assert.equal(activityFor('preset', 'cart-pendulum').answer, 'A');
  assert.equal(activityFor('preset', 'dsp-energy-momentum').answer, 'A');
  assert.equal(activityFor('preset', 'kepler').answer, 'turns');
});

/** The time at which A and B (same start) first differ by more than 1 in a coordinate, or null by T. */
function parting(scenario, compare, T) {
  const a = lab.simulate(scenario);
  const b = lab.simulate({ ...scenario, integrator: compare });
  try {
    while (a.time < T) {
      a.advance(10);
      b.advance(10);
      if (Array.from(a.q).some((x, i) => Math.abs(x - b.q[i]) > 1)) return a.time;
    }
    return null;
  } finally {
    a.dispose();
    b.dispose();
  }
}

test('the chaotic presets part; a regular one (the spherical pendulum) stays together', () => {
  for (const [id, p, T] of [
    ['dsp-chaos', PRESETS['dsp-chaos'], 120],
    ['double-pendulum', scenePreset('double-pendulum'), 120],
    ['henon-heiles', scenePreset('henon-heiles'), 600],
  ]) {
    assert.equal(activityFor('preset', id).answer, 'apart');
    const t = parting(lab.normalize(p.scenario), p.compare, T);
    assert.ok(t !== null, `${id}: A and B part within ${T} s (at ${t} s)`);
  }
  const regular = PRESETS['spherical-precession'];
  assert.equal(parting(lab.normalize(regular.scenario), regular.compare, 120), null, 'the regular orbit: together for 120 s');
});

test('elastic pendulum: RK4’s energy error drifts steadily while the midpoint rule’s stays in its band', () => {
  assert.equal(activityFor('preset', 'elastic-pendulum').answer, 'B');
  const { scenario, compare } = scenePreset('elastic-pendulum');
  /** |ΔE/E₀| at 20 s and at 400 s, and the largest over each span. */
  const errors = (sc) => {
    const out = { at20: 0, at400: 0, max20: 0, max400: 0 };
    let E0 = null;
    follow(
      sc,
      400,
      (sim) => {
        const e = sim.diagnostics().energy;
        E0 ??= e;
        const r = Math.abs(e - E0) / Math.abs(E0);
        if (sim.time <= 20 + 1e-9) [out.at20, out.max20] = [r, Math.max(out.max20, r)];
        [out.at400, out.max400] = [r, Math.max(out.max400, r)];
      },
      20,
    );
    return out;
  };
  const a = errors(scenario);
  const b = errors({ ...scenario, integrator: compare });
  assert.ok(a.max400 <= 2 * a.max20, `A's band: ${a.max20} in 20 s, ${a.max400} in 400 s`);
  assert.ok(b.at400 >= 10 * b.at20, `B drifts: ${b.at20} at 20 s, ${b.at400} at 400 s`);
});

test('swinging Atwood: the swing holds the heavier counterweight up; without a swing it falls', () => {
  assert.equal(activityFor('preset', 'swinging-atwood').answer, 'held');
  const sc = scene('swinging-atwood');
  let lo = Infinity;
  let hi = -Infinity;
  follow(
    sc,
    60,
    (sim) => {
      lo = Math.min(lo, sim.q[0]);
      hi = Math.max(hi, sim.q[0]);
    },
    10,
  );
  assert.ok(lo > 0.05 && hi < 2 * sc.initial.q[0], `the light mass's rope stays in [${lo}, ${hi}] for 60 s: the counterweight is held`);
  // negative control: released without a swing, the counterweight falls and the light mass reaches the pulley
  const still = structuredClone(sc);
  still.initial.q[1] = 0;
  let reached = null;
  try {
    follow(
      still,
      10,
      (sim) => {
        if (reached === null && sim.q[0] < 0.05) reached = sim.time;
      },
      10,
    );
  } catch {
    reached ??= 'refused at the pulley';
  }
  assert.ok(reached !== null, 'without a swing the counterweight falls');
});
