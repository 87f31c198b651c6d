// A field's κ(x) cell by cell (web/sim/stiffness.js), as the module evaluates it: the stiff
// string's segment x ∈ (0.6, 0.8) is κ = 16 and the rest 1 (the cells whose centres lie in
// it), its stretch found from the cells alone; a number κ has none; the space–time rows
// follow the fastest waves (c = 4 there: a row every step, where κ as text once gave NaN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, root } from './helpers.mjs';
import { gridCells, stiffSegments, stiffnessAlong } from '../../web/sim/stiffness.js';
import { rowInterval } from '../../web/sim/spacetime.js';

const scene = (id) => {
  const { about, ...scenario } = JSON.parse(readFileSync(`${root}/scenes/fields/${id}.json`, 'utf8'));
  return scenario;
};

test('the stiff string: κ = 16 in the cells whose centres lie in (0.6, 0.8), 1 elsewhere; one stretch from 0.6 to 0.8 m', () => {
  const sc = scene('stiff-string');
  const kappas = stiffnessAlong(lab, sc);
  const { cells, dx } = gridCells(sc.params.grid);
  assert.equal(cells, 125);
  assert.equal(kappas.length, cells);
  kappas.forEach((k, i) => {
    const x = (i + 0.5) * dx;
    assert.equal(k, x > 0.6 && x < 0.8 ? 16 : 1, `cell ${i} at x = ${x}`);
  });
  const segments = stiffSegments(kappas, sc.params.grid);
  assert.equal(segments.length, 1);
  assert.ok(Math.abs(segments[0].from - 0.6) < 1e-12 && Math.abs(segments[0].to - 0.8) < 1e-12, JSON.stringify(segments));
  assert.equal(segments[0].kappa, 16);
  // another stretch where the constants put it: the expression, not the preset, decides
  const moved = { ...sc, params: { ...sc.params, constants: { ...sc.params.constants, xa: 0.2, xb: 0.4, ks: 4 } } };
  const [s] = stiffSegments(stiffnessAlong(lab, moved), moved.params.grid);
  assert.ok(Math.abs(s.from - 0.2) < 1e-12 && Math.abs(s.to - 0.4) < 1e-12 && s.kappa === 4, JSON.stringify(s));
});

test('a number κ (or a typed density) has no stiff stretch', () => {
  for (const id of ['plucked-string', 'sine-gordon-kink']) {
    assert.equal(stiffnessAlong(lab, scene(id)), null, id);
    assert.deepEqual(stiffSegments(null, scene(id).params.grid), []);
  }
  assert.deepEqual(stiffSegments(new Float64Array([2, 2, 2]), { points: 4 }), []);
});

test('space–time rows follow the fastest cells: the stiff string a row every step (κ as text once gave NaN)', () => {
  const sc = scene('stiff-string');
  assert.ok(Number.isNaN(rowInterval(sc)) || rowInterval(sc) === sc.h, 'without the cells: c from κ = 1');
  assert.equal(rowInterval(sc, stiffnessAlong(lab, sc)), sc.h);
  // a slower string: c = 1 would give 2 s over 480 rows, one step of 0.004 s; at κ = 1/16 (c = 1/4), four steps
  const slow = { ...sc, params: { ...sc.params, density: { ...sc.params.density, kappa: '1/16' } } };
  assert.equal(rowInterval(slow, stiffnessAlong(lab, slow)), 4 * sc.h);
});
