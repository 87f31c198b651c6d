// The Dispersion study (web/sim/dispersion.js) through the JS API: each integrator's ω(k)
// measured from one step of each Fourier mode equals its own discrete relation (the box
// scheme's tan, the leapfrog's sin) to 1e-10 and misses the others' by far more; the
// symplectic ones keep |λ| = 1 while RK4 damps; the stability limits found by bisection
// on the measured top mode equal the formulas; bad input is refused by field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab } from './helpers.mjs';
import {
  RELATIONS,
  checkModes,
  courant,
  dispersionOf,
  formulaLimits,
  followedRelation,
  notModal,
  stabilityLimit,
  unresolved,
  waveSetup,
} from '../../web/sim/dispersion.js';

const scene = (id) => {
  const { about, ...scenario } = JSON.parse(readFileSync(new URL(`../../scenes/fields/${id}.json`, import.meta.url), 'utf8'));
  return scenario;
};
// Klein–Gordon, m = 10, N = 256 periodic, h = 0.002 (ν = 0.51): every mode measured
const KG = scene('klein-gordon');

/** The largest relative difference of measured ωΔt from a relation over every k measured (null: a wave that left its mode). */
function worst(measured, setup, relation) {
  let w = 0;
  measured.kdx.forEach((kdx, j) => {
    if (measured.omegaDt[j] === null) return;
    const want = relation(setup, kdx, setup.h);
    w = Math.max(w, Math.abs(measured.omegaDt[j] - want) / want);
  });
  return w;
}

function measure(scenario, integrator, options = {}) {
  const setup = { ...waveSetup(lab, scenario), h: lab.normalize(scenario).h };
  return { setup, measured: dispersionOf(lab, scenario, { integrator, options, modes: 512 }) };
}

test('the box scheme: measured ω(k) is tan(ωΔt/2) = (Δt/2)√(4κ/(ρΔx²)tan²(kΔx/2) + m²/ρ) to 1e-10, |λ| = 1 to 1e-12', () => {
  const { setup, measured } = measure(KG, 'midpoint');
  assert.equal(measured.kdx.length, 128, 'every resolvable k of N = 256');
  assert.equal(unresolved(measured), 0);
  assert.equal(setup.curvature, 100);
  const box = worst(measured, setup, RELATIONS.box);
  assert.ok(box <= 1e-10, `box relation ${box}`);
  for (const g of measured.growth) assert.ok(Math.abs(g - 1) <= 1e-12, `|λ| = ${g}`);
  // negative controls: the continuous relation and the leapfrog's miss it by far more
  const continuous = worst(measured, setup, RELATIONS.continuous);
  const leapfrog = worst(measured, setup, RELATIONS.leapfrog);
  assert.ok(continuous >= 1e-3, `continuous ${continuous}`);
  assert.ok(leapfrog >= 1e-3, `leapfrog's relation ${leapfrog}`);
  assert.equal(notModal(measured), null);
  console.log(
    `box: relation ${box.toExponential(1)}, continuous misses by ${continuous.toExponential(1)}, leapfrog's by ${leapfrog.toExponential(1)}`,
  );
});

test('the leapfrog: measured ω(k) is sin(ωΔt/2) = (Δt/2)√(4κ/(ρΔx²)sin²(kΔx/2) + m²/ρ) to 1e-10, |λ| = 1 to 1e-12', () => {
  const { setup, measured } = measure(KG, 'trapezoid');
  const leapfrog = worst(measured, setup, RELATIONS.leapfrog);
  assert.equal(unresolved(measured), 0);
  assert.ok(leapfrog <= 1e-10, `leapfrog relation ${leapfrog}`);
  for (const g of measured.growth) assert.ok(Math.abs(g - 1) <= 1e-12, `|λ| = ${g}`);
  const box = worst(measured, setup, RELATIONS.box);
  const continuous = worst(measured, setup, RELATIONS.continuous);
  assert.ok(box >= 1e-3 && continuous >= 1e-3, `box's ${box}, continuous ${continuous}`);
  console.log(
    `leapfrog: relation ${leapfrog.toExponential(1)}, continuous misses by ${continuous.toExponential(1)}, box's by ${box.toExponential(1)}`,
  );
  // the AVI with one step is the leapfrog
  const avi = dispersionOf(lab, KG, { integrator: 'avi', modes: 512 });
  assert.ok(worst(avi, setup, RELATIONS.leapfrog) <= 1e-10);
});

test('which relation a method follows is read from its measurement', () => {
  const setup = waveSetup(lab, KG);
  const want = { trapezoid: 'leapfrog', avi: 'leapfrog', midpoint: 'box', rk4: 'rk4' };
  for (const [integrator, relation] of Object.entries(want)) {
    const follows = followedRelation(dispersionOf(lab, KG, { integrator, modes: 512 }), setup, KG.h);
    assert.equal(follows?.relation, relation, integrator);
    assert.ok(follows.difference <= 1e-10, `${integrator}: ${follows.difference}`);
  }
  // a relation off by one part in 1e6 (Δt 1e-6 larger) is matched by none
  assert.equal(followedRelation(dispersionOf(lab, KG, { integrator: 'midpoint', modes: 64 }), setup, KG.h * (1 + 1e-6)), null);
});

test('RK4 damps every wave at ν = 0.51 (|λ| < 1), as |R(iΩΔt)| to 1e-9', () => {
  const { setup, measured } = measure(KG, 'rk4');
  assert.ok(courant(setup, setup.h) < 0.6);
  measured.growth.forEach((g, j) => {
    assert.ok(g < 1, `|λ| = ${g} at kΔx = ${measured.kdx[j]}`);
    const want = RELATIONS.rk4Growth(setup, measured.kdx[j], setup.h);
    assert.ok(Math.abs(g - want) <= 1e-9, `|λ| ${g}, |R| ${want}`);
  });
  // the top wave loses a measurable part per step; the longest hardly any
  assert.ok(1 - measured.growth.at(-1) >= 1e-3 && 1 - measured.growth[0] <= 1e-9, `${measured.growth[0]} … ${measured.growth.at(-1)}`);
});

test('the largest stable Δt found by bisection on the measured top mode equals the formulas to 1e-6', () => {
  for (const scenario of [KG, scene('plucked-string')]) {
    const setup = waveSetup(lab, scenario);
    const want = formulaLimits(setup);
    const leapfrog = stabilityLimit(lab, scenario, { integrator: 'trapezoid' });
    const rk4 = stabilityLimit(lab, scenario, { integrator: 'rk4' });
    assert.ok(Math.abs(leapfrog.limit / want.leapfrog - 1) <= 1e-6, `leapfrog ${leapfrog.limit} against ${want.leapfrog}`);
    assert.ok(Math.abs(rk4.limit / want.rk4 - 1) <= 1e-6, `RK4 ${rk4.limit} against ${want.rk4}`);
    // a wrong formula (the continuous top frequency, c·π/Δx) is off by far more
    const continuousTop = Math.sqrt((setup.kappa / setup.rho) * (Math.PI / setup.dx) ** 2 + setup.curvature / setup.rho);
    assert.ok(Math.abs(leapfrog.limit * continuousTop - 2) / 2 >= 1e-2);
    // the box scheme: no limit up to the largest h the lab accepts
    assert.equal(stabilityLimit(lab, scenario, { integrator: 'midpoint' }).limit, null);
    console.log(`limits: leapfrog ${leapfrog.limit} (formula ${want.leapfrog}), RK4 ${rk4.limit} (formula ${want.rk4})`);
  }
});

test('a fixed-ends string is measured on the periodic grid of its Δx; the box past the leapfrog limit keeps |λ| = 1', () => {
  const pluck = scene('plucked-string');
  const setup = waveSetup(lab, pluck);
  assert.equal(setup.dx, 1 / 127);
  const h = 5 * formulaLimits(setup).leapfrog;
  const box = dispersionOf(lab, { ...pluck, h }, { integrator: 'midpoint', modes: 64 });
  assert.ok(worst(box, { ...setup, h }, RELATIONS.box) <= 1e-10);
  for (const g of box.growth) assert.ok(Math.abs(g - 1) <= 1e-12, `|λ| = ${g}`);
  const leapfrog = dispersionOf(lab, { ...pluck, h }, { integrator: 'trapezoid', modes: 64 });
  assert.ok(Math.max(...leapfrog.growth) > 2, 'the leapfrog past its limit grows');
});

test('nonlinear densities: sine-Gordon about 0 (V″ = 1) and φ⁴ about its vacuum 1 (V″ = 2λ) at amplitude 1e-5', () => {
  const cases = [
    [scene('sine-gordon-kink'), 1],
    [{ ...scene('phi4-kink'), integrator: 'trapezoid' }, 2 * (scene('phi4-kink').params.density.lambda ?? 1)],
  ];
  for (const [scenario, curvature] of cases) {
    for (const [integrator, relation] of [
      ['trapezoid', RELATIONS.leapfrog],
      ['midpoint', RELATIONS.box],
    ]) {
      const { setup, measured } = measure({ ...scenario, integrator }, integrator);
      assert.equal(setup.curvature, curvature);
      assert.equal(measured.amplitude, 1e-5);
      const off = worst(measured, setup, relation);
      assert.ok(off <= 1e-8, `${setup.family}/${integrator}: ${off}`);
      // V'' = 0 (the wrong base for these) misses
      assert.ok(worst(measured, { ...setup, curvature: 0 }, relation) >= 1e-4);
      assert.equal(notModal(measured), null);
      // at most the top wave is lost (the box's A_x vanishes there; about u₀ = 1 only Newton's tolerance is left)
      assert.ok(unresolved(measured) <= 1 && measured.omegaDt.slice(0, -1).every((w) => w !== null), `${setup.family}/${integrator}`);
    }
  }
});

test('methods that are not one linear map per mode are told apart: an AVI with two steps leaks, DOPRI5 depends on the amplitude', () => {
  const avi = dispersionOf(lab, KG, { integrator: 'avi', options: { fine: 3, from: 0.5 }, modes: 16 });
  assert.equal(notModal(avi)?.reason, 'leakage', JSON.stringify(notModal(avi)));
  // DOPRI5's step control reads the state's size: its map over one h depends on the amplitude
  const dopri = dispersionOf(lab, KG, { integrator: 'dopri5', modes: 16 });
  assert.equal(notModal(dopri)?.reason, 'amplitude', JSON.stringify(notModal(dopri)));
  console.log(
    `dopri5: amplitude change ${dopri.amplitudeChange}; AVI (fine 3): leakage ${Math.min(...avi.leakage)} to ${Math.max(...avi.leakage)}`,
  );
});

test('bad input is refused by field', () => {
  for (const bad of [1, 513, 2.5, Number.NaN, '64'])
    assert.throws(
      () => checkModes(bad),
      (e) => e.field === 'dispersion.modes',
      String(bad),
    );
  assert.throws(
    () => waveSetup(lab, scene('nonlinear-string')),
    (e) => e.field === 'params.density.lagrangian',
  );
  // κ(x) varying along the string: no Fourier mode is a wave of it
  assert.throws(
    () => waveSetup(lab, scene('stiff-string')),
    (e) => e.field === 'params.density.kappa' && e.code === 'not-applicable',
  );
  assert.throws(
    () => waveSetup(lab, { system: 'pendulum' }),
    (e) => e.field === 'system',
  );
});
