// The answers the teacher layer reveals for the field and mechanism presets (scenes/fields,
// scenes/mechanisms; web/sim/activities.js, words in web/i18n/<lang>/activities.js) are what
// their runs show: each is run through the API (the kinks tracked with the page's own
// web/sim/kinks.js) and the registry's answer must hold by a threshold the other choices
// miss; where a wrong answer is what a changed set-up shows (no mass term, no spin, another
// axis), that set-up is run too, as the negative control.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { follow, lab, root } from './helpers.mjs';
import { activityFor } from '../../web/sim/activities.js';
import { KinkTracker, kinkSetup } from '../../web/sim/kinks.js';

const load = (folder, id) => {
  const { about, ...scenario } = JSON.parse(readFileSync(`${root}/scenes/${folder}/${id}.json`, 'utf8'));
  return { scenario, about };
};
const field = (id) => load('fields', id);
const mechanism = (id) => load('mechanisms', id).scenario;

/** The relative energy error of a run at every `every` steps to T: { t, e }[] (stops at a refused step). */
function energyErrors(scenario, T, every) {
  const out = [];
  let e0 = null;
  try {
    follow(
      scenario,
      T,
      (sim) => {
        const e = sim.diagnostics().energy;
        e0 ??= e;
        out.push({ t: sim.time, e: (e - e0) / Math.abs(e0) });
      },
      every,
    );
  } catch {
    out.push({ t: NaN, e: Infinity }); // refused: the run did not keep going
  }
  return out;
}

/** How many times an error series comes back: a step where |e| falls by more than a tenth of its largest |e|. */
function returns(series) {
  const band = Math.max(...series.map((s) => Math.abs(s.e)));
  return series.filter((s, k) => k > 0 && Math.abs(s.e) < Math.abs(series[k - 1].e) - 0.1 * band).length;
}

/** The kinks of a field run tracked as the page tracks them: { at(t): the tracker's kinks at the sample nearest t }. */
function kinks(scenario, T, every = 5) {
  const probe = lab.simulate(scenario);
  const setup = kinkSetup(probe.scenario(), probe.visualState());
  probe.dispose();
  const tracker = new KinkTracker(setup);
  const seen = [];
  follow(
    scenario,
    T,
    (sim) => {
      tracker.push(sim.time, sim.visualState());
      seen.push({ t: sim.time, kinks: tracker.current(), u: Array.from(sim.visualState()) });
    },
    every,
  );
  const at = (t) => seen.reduce((best, s) => (Math.abs(s.t - t) < Math.abs(best.t - t) ? s : best));
  return { at, seen };
}

// a quaternion (w, x, y, z) turning a body vector into space; the mechanisms' visual state is
// 7 numbers a body: its position, then its orientation (w, x, y, z)
const rotate = ([w, x, y, z], [a, b, c]) => {
  const tx = 2 * (y * c - z * b);
  const ty = 2 * (z * a - x * c);
  const tz = 2 * (x * b - y * a);
  return [a + w * tx + (y * tz - z * ty), b + w * ty + (z * tx - x * tz), c + w * tz + (x * ty - y * tx)];
};
const orientation = (v, i) => [v[7 * i + 3], v[7 * i + 4], v[7 * i + 5], v[7 * i + 6]];
const degrees = (a, b) => {
  const c = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / Math.hypot(...a) / Math.hypot(...b);
  return (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
};

test('plucked string: RK4’s (B) energy error only grows, the leapfrog’s (A) comes back', () => {
  assert.equal(activityFor('preset', 'plucked-string').answer, 'B');
  const { scenario, about } = field('plucked-string');
  const A = energyErrors(scenario, 20, 25);
  const B = energyErrors({ ...scenario, integrator: about.compare, options: {} }, 20, 25);
  // B: down from its start, and never back up (RK4 damps the pluck's short waves)
  for (const { e } of B.slice(1)) assert.ok(e <= 1e-15, `RK4's energy never rises above its start (${e})`);
  assert.equal(returns(B), 0, 'RK4’s error never comes back');
  assert.ok(B.at(-1).e < 1.5 * B[Math.floor(B.length / 2)].e, `RK4's fall at 20 s (${B.at(-1).e}) is larger than at 10 s`);
  // A: its error comes back again and again, its band the same in both halves
  const half = (from, to) => Math.max(...A.filter((s) => s.t >= from && s.t < to).map((s) => Math.abs(s.e)));
  assert.ok(returns(A) >= 10, `the leapfrog's error comes back ${returns(A)} times`);
  assert.ok(half(10, 20) < 1.5 * half(0.01, 10), `the leapfrog's band: ${half(0.01, 10)} then ${half(10, 20)}`);
});

test('stiff string: the AVI (A) keeps going; the leapfrog (B), at twice the stiff cells’ limit, blows up at once', () => {
  assert.equal(activityFor('preset', 'stiff-string').answer, 'A');
  const { scenario, about } = field('stiff-string');
  // the question's "twice the limit": the leapfrog's limit in a stiff cell is Δx/c, c = √(κ/ρ) = 4
  const dx = scenario.params.grid.length / (scenario.params.grid.points - 1);
  const c = Math.sqrt(scenario.params.constants.ks / scenario.params.density.rho);
  assert.ok(Math.abs(scenario.h / (dx / c) - 2) < 1e-9, `h is ${scenario.h / (dx / c)} times the limit`);
  const A = energyErrors(scenario, 20, 25);
  assert.ok(Number.isFinite(A.at(-1).t) && A.at(-1).t >= 20 - 1e-9, 'A runs 20 s');
  assert.ok(Math.max(...A.map((s) => Math.abs(s.e))) < 0.01, 'A’s energy within 1 %');
  // B: its energy error beyond 100 % (the page's breakdown) within its first 3 steps
  const B = energyErrors({ ...scenario, integrator: about.compare, options: {} }, 3 * scenario.h, 1);
  assert.ok(
    B.some((s) => !(Math.abs(s.e) <= 1)),
    `B's energy error in its first steps: ${B.map((s) => s.e).join(', ')}`,
  );
});

test('Klein–Gordon: the bump becomes ripples (u changes sign); without the mass term, two unchanged copies', () => {
  assert.equal(activityFor('preset', 'klein-gordon').answer, 'ripples');
  const { scenario } = field('klein-gordon');
  const at = (sc, T) => {
    let u0 = null;
    let u = null;
    follow(sc, T, (sim) => {
      u = Array.from(sim.visualState());
      u0 ??= u;
    });
    const top = Math.max(...u0.map(Math.abs));
    const changes = u.filter((x, i) => i > 0 && Math.sign(x) !== Math.sign(u[i - 1]) && Math.abs(x - u[i - 1]) > 1e-3 * top).length;
    return { changes, peak: Math.max(...u.map(Math.abs)) / top, least: Math.min(...u) / top };
  };
  const kg = at(scenario, 0.4);
  assert.ok(kg.changes >= 4, `${kg.changes} sign changes: ripples`);
  // negative control: m = 0, two copies of half the height, u ≥ 0 everywhere
  const wave = at({ ...scenario, params: { ...scenario.params, density: { ...scenario.params.density, mass: 0 } } }, 0.4);
  assert.equal(wave.changes, 0);
  assert.ok(Math.abs(wave.peak - 0.5) < 0.01 && wave.least > -1e-3, JSON.stringify(wave));
});

test('sine-Gordon kink: the same speed early and late, equal to the exact one, and the same shape', () => {
  assert.equal(activityFor('preset', 'sine-gordon-kink').answer, 'keeps');
  const { scenario } = field('sine-gordon-kink');
  const run = kinks(scenario, 16);
  const early = run.at(4).kinks[0];
  const late = run.at(16).kinks[0];
  // the answer: the exact kink's speed (v = 0.5) to better than a part in a thousand
  for (const k of [early, late]) assert.ok(Math.abs(k.speed / 0.5 - 1) < 1e-3, `speed ${k.speed}`);
  // the shape: u at 16 s is u at 0 moved by 16·v (to a tenth of a cell's rounding of the shift)
  const dx = scenario.params.grid.length / (run.at(0).u.length - 1);
  const shift = Math.round((late.x - run.at(0).kinks[0].x) / dx);
  const u0 = run.at(0).u;
  const u1 = run.at(16).u;
  let worst = 0;
  for (let i = 0; i + shift < u1.length; i++) worst = Math.max(worst, Math.abs(u1[i + shift] - u0[i]));
  assert.ok(worst < 0.1, `the profile moved unchanged (largest difference ${worst} of 2π)`);
});

test('kink and antikink pass through each other and come out with their speeds', () => {
  assert.equal(activityFor('preset', 'kink-antikink').answer, 'pass');
  const { scenario } = field('kink-antikink');
  const run = kinks(scenario, 40);
  const before = run.at(5).kinks;
  const after = run.at(40).kinks;
  const kink = (list) => list.find((k) => k.sign > 0);
  const anti = (list) => list.find((k) => k.sign < 0);
  assert.ok(kink(before).x < anti(before).x, 'the kink starts on the left');
  assert.equal(after.length, 2, 'both come out (not annihilated)');
  assert.ok(kink(after).x > anti(after).x, 'the kink ends on the right: they passed (a bounce keeps it left)');
  assert.equal(kink(after).id, kink(before).id);
  assert.ok(Math.abs(kink(after).speed - 0.5) < 2e-3 && Math.abs(anti(after).speed + 0.5) < 2e-3, 'their speeds after');
});

test('breather: oscillates in place, neither flying apart nor dying out', () => {
  assert.equal(activityFor('preset', 'breather').answer, 'oscillates');
  const { scenario } = field('breather');
  let centreSigns = 0;
  let last = 0;
  let edge = 0;
  const peaks = [];
  follow(
    scenario,
    50,
    (sim) => {
      const u = sim.visualState();
      const mid = u[u.length >> 1];
      if (Math.abs(mid) > 0.1 && Math.sign(mid) !== last) (centreSigns += last ? 1 : 0), (last = Math.sign(mid));
      edge = Math.max(edge, Math.abs(u[0]), Math.abs(u[u.length - 1]));
      peaks.push({ t: sim.time, top: Math.max(...Array.from(u, Math.abs)) });
    },
    5,
  );
  const topIn = (a, b) => Math.max(...peaks.filter((p) => p.t >= a && p.t <= b).map((p) => p.top));
  assert.ok(centreSigns >= 10, `the centre swings ${centreSigns} times`);
  assert.ok(edge < 0.01, `the ends stay at rest (${edge}): nothing flew apart`);
  assert.ok(topIn(42, 50) > 0.9 * topIn(0, 8), `the amplitude: ${topIn(0, 8)} early, ${topIn(42, 50)} late`);
});

test('φ⁴ kink: the same speed early and late', () => {
  assert.equal(activityFor('preset', 'phi4-kink').answer, 'constant');
  const run = kinks(field('phi4-kink').scenario, 40);
  const early = run.at(5).kinks[0];
  const late = run.at(40).kinks[0];
  assert.ok(Math.abs(early.speed - 0.3) < 1e-3 && Math.abs(late.speed - early.speed) < 1e-3, `${early.speed} then ${late.speed}`);
});

test('nonlinear string: the box scheme’s energy error stays in its band', () => {
  assert.equal(activityFor('preset', 'nonlinear-string').answer, 'band');
  const E = energyErrors(field('nonlinear-string').scenario, 4, 10);
  const band = (a, b) => Math.max(...E.filter((s) => s.t > a && s.t <= b).map((s) => Math.abs(s.e)));
  assert.ok(band(2, 4) < 1.5 * band(0, 2), `largest error ${band(0, 2)} in the first half, ${band(2, 4)} in the second`);
  assert.ok(returns(E) >= 4, `the error comes back ${returns(E)} times`);
});

test('whirling string: the rotation’s charge stays the same to rounding; without the symmetry Σ(u p_v − v p_u) drifts', () => {
  assert.equal(activityFor('preset', 'whirling-string').answer, 'exact');
  const { scenario } = field('whirling-string');
  const n = scenario.params.grid.points;
  const charge = (sim) => {
    let J = 0;
    for (let i = 0; i < n; i++) J += sim.q[i] * sim.p[n + i] - sim.q[n + i] * sim.p[i];
    return J;
  };
  const largestChange = (sc) => {
    let J0 = null;
    let worst = 0;
    follow(
      sc,
      4,
      (sim) => {
        const J = charge(sim);
        J0 ??= J;
        worst = Math.max(worst, Math.abs(J - J0) / Math.abs(J0));
      },
      20,
    );
    return worst;
  };
  const kept = largestChange(scenario);
  assert.ok(kept < 1e-12, `relative change of J ${kept}`);
  // the negative control: a stiffer v (ℒ no longer rotation-invariant, the symmetry not declared)
  const { symmetries, ...density } = scenario.params.density;
  const anisotropic = {
    ...scenario,
    params: { ...scenario.params, density: { ...density, lagrangian: '0.5*(u_t^2 + v_t^2) - (sqrt(1 + u_x^2 + 1.5*v_x^2) - 1)' } },
  };
  const drift = largestChange(anisotropic);
  assert.ok(drift > 1e-3, `relative change of Σ(u p_v − v p_u) without the symmetry ${drift}`);
});

test('compound double pendulum: J_z stays the same to rounding', () => {
  assert.equal(activityFor('preset', 'compound-double-pendulum').answer, 'exact');
  let J0 = null;
  let worst = 0;
  follow(
    mechanism('compound-double-pendulum'),
    20,
    (sim) => {
      const Jz = sim.diagnostics().momentum[2];
      J0 ??= Jz;
      worst = Math.max(worst, Math.abs(Jz - J0));
    },
    10,
  );
  assert.ok(Math.abs(J0) > 0.1 && worst < 1e-11, `J_z = ${J0}, its largest change ${worst}`);
});

test('gyroscope: the spinning rotor’s axis holds its direction; without the spin it turns with the rings', () => {
  assert.equal(activityFor('preset', 'gyroscope').answer, 'holds');
  const sc = mechanism('gyroscope');
  const rotor = sc.params.bodies.findIndex((b) => b.name === 'rotor');
  const spinAxis = sc.params.bodies[rotor].omega.map((w, k, o) => (Math.abs(w) === Math.max(...o.map(Math.abs)) ? 1 : 0));
  const turned = (scenario) => {
    let first = null;
    let most = 0;
    follow(
      scenario,
      10,
      (sim) => {
        const a = rotate(orientation(sim.visualState(), rotor), spinAxis);
        first ??= a;
        most = Math.max(most, degrees(a, first));
      },
      10,
    );
    return most;
  };
  const spinning = turned(sc);
  assert.ok(spinning < 10, `the rotor's axis turns at most ${spinning}° in 10 s`);
  const still = structuredClone(sc);
  still.params.bodies[rotor].omega = still.params.bodies[rotor].omega.map((w, k) => (spinAxis[k] ? 0 : w));
  const notSpinning = turned(still);
  assert.ok(notSpinning > 60, `without the spin it turns ${notSpinning}°`);
});

test('Lagrange top: the tilt nods between two values while the axis goes round, and the top does not fall', () => {
  assert.equal(activityFor('preset', 'lagrange-top').answer, 'nods');
  const tilts = [];
  const azimuths = [];
  follow(
    mechanism('lagrange-top'),
    10,
    (sim) => {
      const axis = rotate(orientation(sim.visualState(), 0), [0, 0, 1]);
      tilts.push(degrees(axis, [0, 0, 1]));
      azimuths.push(Math.atan2(axis[1], axis[0]));
    },
    2,
  );
  let nods = 0;
  for (let k = 2; k < tilts.length; k++) if ((tilts[k] - tilts[k - 1]) * (tilts[k - 1] - tilts[k - 2]) < 0) nods++;
  const lo = Math.min(...tilts);
  const hi = Math.max(...tilts);
  assert.ok(hi - lo > 4 && nods >= 6, `tilt from ${lo}° to ${hi}°, ${nods} turning points in 10 s`);
  assert.ok(hi < 60, 'it does not fall');
  assert.ok(Math.abs(azimuths.at(-1) - azimuths[0]) > 0.3, 'the axis goes round (precession)');
});

test('T-handle about its middle axis flips again and again; about its largest axis it does not', () => {
  assert.equal(activityFor('preset', 'middle-axis').answer, 'flips');
  const sc = mechanism('middle-axis');
  const flips = (scenario, axis) => {
    let last = null;
    let n = 0;
    follow(
      scenario,
      30,
      (sim) => {
        const a = rotate(orientation(sim.visualState(), 0), axis);
        const s = Math.sign(a[axis.indexOf(1)]);
        if (last !== null && s !== last) n++;
        last = s;
      },
      20,
    );
    return n;
  };
  assert.ok(flips(sc, [0, 1, 0]) >= 3, 'flips in 30 s');
  const major = structuredClone(sc);
  major.params.bodies[0].omega = [6, 0.01, 0.01];
  assert.equal(flips(major, [1, 0, 0]), 0, 'about the largest axis it keeps its spin');
});

test('physical pendulum: the plate’s spin speeds up, slows and reverses as it swings', () => {
  assert.equal(activityFor('preset', 'physical-pendulum').answer, 'exchange');
  const sc = mechanism('physical-pendulum');
  const long = sc.params.bodies[0].omega.map((w) => (w ? 1 : 0)); // it starts spinning about its long axis
  const spins = [];
  let prev = null;
  follow(sc, 20, (sim) => {
    const q = orientation(sim.visualState(), 0);
    if (prev) {
      // the body-frame turn of one step, prev⁻¹q ≈ (1, ½ω h): its component along the long axis
      const [w1, x1, y1, z1] = prev;
      const [w2, x2, y2, z2] = q;
      const w = w1 * w2 + x1 * x2 + y1 * y2 + z1 * z2;
      const v = [w1 * x2 - x1 * w2 - y1 * z2 + z1 * y2, w1 * y2 - y1 * w2 - z1 * x2 + x1 * z2, w1 * z2 - z1 * w2 - x1 * y2 + y1 * x2];
      spins.push((2 * (v[0] * long[0] + v[1] * long[1] + v[2] * long[2])) / w / sc.h);
    }
    prev = q;
  });
  const start = sc.params.bodies[0].omega.reduce((a, w) => a + Math.abs(w), 0);
  assert.ok(
    Math.max(...spins) > 2 * start && Math.min(...spins) < 0,
    `spin from ${Math.min(...spins)} to ${Math.max(...spins)} rad/s (started at ${start})`,
  );
});
