// lab.equations: the mechanics of a definition from the core's derivative graph (the
// symbolic comparisons with hand-written equations are native: test_equations.cpp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLab } from '../../web/sim/vilab.js';
import { assertHealthy, lab, root } from './helpers.mjs';

const params = (name) => JSON.parse(readFileSync(join(root, 'scenes/lagrangian', `${name}.json`), 'utf8')).params;

test('the elastic pendulum: momenta, mass matrix, EL and DEL equations, simplified', () => {
  const eq = lab.equations(params('elastic-pendulum'));
  assert.deepEqual(eq.rules, ['midpoint', 'trapezoid', 'alpha']);
  assert.equal(eq.rule, 'midpoint');
  assert.equal(eq.alpha, null);
  assert.deepEqual(eq.coordinates, ['r', 'th']);
  assert.equal(eq.momenta[0].latex, 'p_{r} = m \\dot{r}');
  assert.equal(eq.momenta[1].latex, 'p_{\\theta} = m r^{2} \\dot{\\theta}');
  assert.equal(eq.mass.map((e) => e.infix).join(' '), 'm 0 0 m*r^2');
  assert.equal(eq.eulerLagrange.length, 2);
  assert.equal(eq.discrete.length, 2);
  for (const e of [...eq.momenta, ...eq.mass, ...eq.eulerLagrange, ...eq.discrete]) {
    // simplified: no 0·x, 1·x, x + 0, no ++ or +- runs
    assert.doesNotMatch(e.infix, /(^|[^\w.])0\*|(^|[^\w.])1\*|\+ 0(?![.\d])|\+ -|- -/, e.infix);
  }
  assert.ok(eq.latex.startsWith('%') && eq.latex.includes('\\begin{aligned}'));
  const alpha = lab.equations(params('elastic-pendulum'), { rule: 'alpha', alpha: 0.25 });
  assert.equal(alpha.alpha, 0.25);
  assert.notDeepEqual(alpha.discrete, eq.discrete);
  assert.deepEqual(alpha.eulerLagrange, eq.eulerLagrange);
});

test('a constrained definition shows its multipliers', () => {
  const eq = lab.equations({
    coordinates: ['x', 'z'],
    constants: { m: 1, g: 9.81, l: 1 },
    lagrangian: "m/2*(x'^2 + z'^2) - m*g*z",
    constraints: ['x^2 + z^2 - l^2'],
  });
  assert.equal(eq.eulerLagrange.length, 3);
  assert.match(eq.eulerLagrange[0].latex, /\\lambda/);
  assert.match(eq.discrete[0].latex, /\\lambda_\{k\}/);
  assert.match(eq.discrete[2].latex, /x_\{k\+1\}/);
});

test('bad input is refused by field, and the lean build says where the equations are', async () => {
  const field = (p, options) => {
    try {
      lab.equations(p, options);
      return '(accepted)';
    } catch (e) {
      assert.ok(e.message.startsWith(`vilab: ${e.field}: `), e.message);
      return e.field;
    }
  };
  const ok = { coordinates: ['x'], lagrangian: "x'^2/2 - x^2/2" };
  assert.equal(field(ok), '(accepted)');
  assert.equal(field(ok, { rule: 'rk4' }), 'rule');
  assert.equal(field(ok, { rule: 'alpha', alpha: 2 }), 'alpha');
  assert.equal(field(ok, { steps: 1 }), 'options.steps');
  assert.equal(field({ coordinates: ['x'], lagrangian: "x'^2/2 - y" }), 'params.lagrangian');
  assert.equal(field(null), 'params');
  const lean = await createLab({ build: 'lean' });
  assert.deepEqual(lean.equationRules, []);
  assert.throws(
    () => lean.equations(ok),
    (e) => e.code === 'full-module',
  );
  assertHealthy();
});
