// A field's stiffness cell by cell from the core (sim.fieldStiffness(), field_cells.hpp; read
// by web/sim/stiffness.js): the stiff string's segment x ∈ (0.6, 0.8) has c² = κ = 16 and the
// rest 1 (the cells whose centres lie in it), its stretch found from the cells alone; a typed
// density's c² = −ℒ_{u_x u_x}/ℒ_{u_t u_t} and V'' = −ℒ_{uu} at rest, at each cell's centre; a
// uniform string has no stretch; the space–time rows follow the fastest waves (c = 4 there:
// a row every step, where κ as text once gave NaN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, root, VilabError } from './helpers.mjs';
import { gridCells, stiffSegments, stiffnessAlong } from '../../web/sim/stiffness.js';
import { rowInterval } from '../../web/sim/spacetime.js';

const scene = (id) => {
  const { about, ...scenario } = JSON.parse(readFileSync(`${root}/scenes/fields/${id}.json`, 'utf8'));
  return scenario;
};
/** The core's stiffness of a scenario: { speed2, curvature, inertia }. */
const stiffnessOf = (scenario) => {
  const sim = lab.simulate(scenario, { historyCapacity: lab.limits.historyCapacity.min });
  try {
    return sim.fieldStiffness();
  } finally {
    sim.dispose();
  }
};
const speedsOf = (scenario) => stiffnessOf(scenario).speed2;

test('the stiff string: c² = κ = 16 in the cells whose centres lie in (0.6, 0.8), 1 elsewhere; one stretch from 0.6 to 0.8 m', () => {
  const sc = scene('stiff-string');
  const sim = lab.simulate(sc, { historyCapacity: lab.limits.historyCapacity.min });
  const speeds = stiffnessAlong(sim);
  sim.dispose();
  const { cells, dx } = gridCells(sc.params.grid);
  assert.equal(cells, 125);
  assert.equal(speeds.length, cells);
  speeds.forEach((c2, i) => {
    const x = (i + 0.5) * dx;
    assert.equal(c2, x > 0.6 && x < 0.8 ? 16 : 1, `cell ${i} at x = ${x}`);
  });
  const segments = stiffSegments(speeds, sc.params.grid);
  assert.equal(segments.length, 1);
  assert.ok(Math.abs(segments[0].from - 0.6) < 1e-12 && Math.abs(segments[0].to - 0.8) < 1e-12, JSON.stringify(segments));
  assert.equal(segments[0].speed2, 16);
  // another stretch where the constants put it: the expression, not the preset, decides
  const moved = { ...sc, params: { ...sc.params, constants: { ...sc.params.constants, xa: 0.2, xb: 0.4, ks: 4 } } };
  const [s] = stiffSegments(speedsOf(moved), moved.params.grid);
  assert.ok(Math.abs(s.from - 0.2) < 1e-12 && Math.abs(s.to - 0.4) < 1e-12 && s.speed2 === 4, JSON.stringify(s));
  // ρ = 4 halves the wave speed: c² = κ/ρ
  const heavy = { ...sc, params: { ...sc.params, density: { ...sc.params.density, rho: 4 } } };
  assert.equal(Math.max(...speedsOf(heavy)), 4);
});

test('a uniform string has no stiff stretch; V″ at rest: sine-Gordon 1, Klein–Gordon m²', () => {
  for (const id of ['plucked-string', 'sine-gordon-kink', 'nonlinear-string', 'whirling-string']) {
    const speeds = speedsOf(scene(id));
    assert.ok(
      speeds.every((c2) => c2 === 1),
      `${id}: c² ${Math.min(...speeds)} to ${Math.max(...speeds)}`,
    );
    assert.deepEqual(stiffSegments(speeds, scene(id).params.grid), [], id);
  }
  assert.deepEqual(stiffSegments(new Float64Array([2, 2, 2]), { points: 4 }), []);
  assert.ok(stiffnessOf(scene('sine-gordon-kink')).curvature.every((v) => v === 1));
  const kg = scene('klein-gordon');
  const m = kg.params.density.mass ?? 1;
  assert.ok(
    stiffnessOf(kg).curvature.every((v) => v === m * m),
    `m = ${m}`,
  );
  assert.ok(stiffnessOf(scene('plucked-string')).curvature.every((v) => v === 0));
});

test('a typed density: c² = −ℒ_{u_x u_x}/ℒ_{u_t u_t} and V″ = −ℒ_{uu} at each cell’s centre', () => {
  const sc = scene('nonlinear-string');
  const typed = {
    ...sc,
    params: { ...sc.params, density: { lagrangian: 'u_t^2 - (1 + 3*x)*u_x^2 - 2*u^2' } },
  };
  const { speed2, curvature, inertia } = stiffnessOf(typed);
  const { cells, dx } = gridCells(sc.params.grid);
  assert.equal(speed2.length, cells);
  speed2.forEach((c2, i) => {
    const x = (i + 0.5) * dx;
    assert.ok(Math.abs(c2 - (1 + 3 * x)) <= 1e-12, `cell ${i}: c² ${c2} against ${1 + 3 * x}`);
    assert.equal(curvature[i], 4);
    assert.equal(inertia[i], 2);
  });
  const pendulum = lab.simulate({ system: 'pendulum' });
  assert.throws(
    () => pendulum.fieldStiffness(),
    (e) => e instanceof VilabError && e.field === 'system',
  );
  pendulum.dispose();
});

test('space–time rows follow the fastest cells: the stiff string a row every step (κ as text once gave NaN)', () => {
  const sc = scene('stiff-string');
  assert.ok(Number.isNaN(rowInterval(sc)) || rowInterval(sc) === sc.h, 'without the cells: c from κ = 1');
  assert.equal(rowInterval(sc, speedsOf(sc)), sc.h);
  // a slower string: c = 1 would give 2 s over 480 rows, one step of 0.004 s; at κ = 1/16 (c = 1/4), four steps
  const slow = { ...sc, params: { ...sc.params, density: { ...sc.params.density, kappa: '1/16' } } };
  assert.equal(rowInterval(slow, speedsOf(slow)), 4 * sc.h);
});
