// Systems defined by data through the JS API: errors that name the field and the
// column, the editor's inspection, diagnostics of conserved quantities and symmetries,
// and native = wasm bits for a definition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lab, assertInputError, nativeCli } from './helpers.mjs';

const polar = {
  coordinates: ['r', 'th'],
  constants: { m: 1, k: 40, l0: 1, g: 9.81 },
  lagrangian: "m/2*(r'^2 + r^2*th'^2) - k/2*(r - l0)^2 + m*g*r*cos(th)",
};
const withL = (lagrangian) => ({ system: 'lagrangian', params: { ...polar, lagrangian }, initial: { q: [1.2, 0.8], qdot: [0, 0] } });
const simulate = (scenario) => () => lab.simulate(scenario).dispose();

test('a typo in L names the field and the column, and the module stays usable', () => {
  const e = assertInputError(
    simulate(withL("m/2*(r'^2 + r^2*thta'^2)")),
    'params.lagrangian',
    /unknown name "thta" at column 17 \(coordinates: r, th/,
  );
  assert.equal(e.column, 17);
  assert.equal(e.field, 'params.lagrangian');
});

test('bad definitions each give a VilabError naming the field', () => {
  const cases = [
    ['syntax', withL("m/2*(r'^2"), 'params.lagrangian', /expected '\)'/],
    ['1 MB string', withL('r'.repeat(1 << 20)), 'params.lagrangian', /too long/],
    ['10 000 nested parentheses', withL('('.repeat(10000) + 'r' + ')'.repeat(10000)), 'params.lagrangian', /too long/],
    ['1000 nested parentheses', withL('('.repeat(1000) + 'r' + ')'.repeat(1000)), 'params.lagrangian', /nested more than 64 levels/],
    [
      'NaN constant',
      { ...withL(polar.lagrangian), params: { ...polar, constants: { ...polar.constants, k: NaN } } },
      'params.constants.k',
      /finite/,
    ],
    [
      'Infinity constant',
      { ...withL(polar.lagrangian), params: { ...polar, constants: { ...polar.constants, k: Infinity } } },
      'params.constants.k',
      /finite/,
    ],
    ['singular mass matrix', withL("m/2*r'^2 + m*g*r*cos(th)"), 'params.lagrangian', /mass matrix .* singular/],
    ['eval', withL('eval(1)'), 'params.lagrangian', /unknown function "eval"/],
    ['quotes', withL("eval('1')"), 'params.lagrangian', /expected a number, a name or '\(', found "'" at column 6/],
    ['host name', withL('process + r'), 'params.lagrangian', /unknown name "process"/],
    [
      'constraint off the manifold',
      {
        system: 'lagrangian',
        params: { coordinates: ['x', 'z'], lagrangian: "(x'^2+z'^2)/2 - 9.81*z", constraints: ['x^2+z^2-1'] },
        initial: { q: [0.6, -0.81], qdot: [0, 0] },
      },
      'initial.q',
      /off the constraint manifold/,
    ],
  ];
  for (const [name, scenario, field, pattern] of cases) {
    const e = assertInputError(simulate(scenario), field, pattern);
    assert.ok(e.message.startsWith('vilab: '), name);
  }
});

test('inspectLagrangian: LaTeX from the core parser, and errors with columns', () => {
  const info = lab.inspectLagrangian(polar);
  assert.deepEqual(info.coordinates, ['r', 'th']);
  assert.match(info.latex.lagrangian, /\\dot\{r\}/);
  assert.match(info.latex.lagrangian, /\\theta/);
  assert.equal(info.velocityQuadratic, true);
  assert.equal(info.constantMassMatrix, false);
  let error;
  try {
    lab.inspectLagrangian({ ...polar, lagrangian: 'r +* th' });
  } catch (e) {
    error = e;
  }
  assert.equal(error?.field, 'params.lagrangian');
  assert.equal(error?.column, 4);
  // Text only: markup in an expression is a syntax error, never rendered.
  assert.throws(() => lab.inspectLagrangian({ ...polar, lagrangian: '<img src=x onerror=alert(1)>' }), /params\.lagrangian/);
});

test('diagnostics and history report the symmetries and the conserved quantities by name', () => {
  const kepler = {
    system: 'lagrangian',
    integrator: 'midpoint',
    h: 0.01,
    params: {
      coordinates: ['x', 'y'],
      lagrangian: "(x'^2+y'^2)/2 + 1/sqrt(x^2+y^2)",
      conserved: { L: "x*y' - y*x'" },
      symmetries: { Lz: ['-y', 'x'] },
    },
    initial: { q: [0.4, 0], qdot: [0, 2] },
  };
  const sim = lab.simulate(kepler, { historyStride: 10 });
  try {
    sim.advance(1000);
    const d = sim.diagnostics();
    assert.equal(d.momentum.length, 1);
    assert.ok(Math.abs(d.momentum[0] - 0.8) <= 1e-13, `Lz = ${d.momentum[0]}`);
    assert.ok(Math.abs(d.conserved.L - 0.8) <= 1e-3);
    assert.ok(Math.abs(d.energy + 0.5) <= 1e-2);
    const h = sim.history.read();
    assert.deepEqual(sim.history.columns.slice(4), ['momentum.Lz', 'conserved.L']);
    assert.equal(h.conserved.L.length, h.count);
    assert.equal(h.momentum[0].length, h.count);
    assert.ok(sim.csvHeader().endsWith('energy,momentum.Lz,conserved.L,constraint,iterations'));
  } finally {
    sim.dispose();
  }
});

test('a definition gives the same bits natively and in wasm', { skip: !existsSync(nativeCli) && 'no native build' }, () => {
  const scenario = {
    system: 'lagrangian',
    integrator: 'trapezoid',
    h: 0.01,
    params: {
      coordinates: ['x', 'th'],
      constants: { M: 2, m: 1, l: 1, g: 9.81 },
      lagrangian:
        "(M+m)/2*x'^2 + m*l*x'*th'*cos(th) + m/2*l^2*th'^2 + m*g*l*cos(th) + 0.1*atan2(sin(th), 2+cos(th))*exp(-x^2)*log(2+x^2)*tan(0.1*th)",
    },
    initial: { q: [0, 2], qdot: [0.3, 0] },
  };
  const dir = mkdtempSync(join(tmpdir(), 'vilab-'));
  const file = join(dir, 'cart.json');
  writeFileSync(file, JSON.stringify(scenario));
  for (const integrator of ['midpoint', 'trapezoid', 'alpha', 'penalty', 'rk4', 'dopri5']) {
    const s = { ...scenario, integrator };
    writeFileSync(file, JSON.stringify(s));
    const native = spawnSync(nativeCli, ['hash', file, '--steps', '3000'], { encoding: 'utf8' });
    assert.equal(native.status, 0, native.stderr);
    const sim = lab.simulate(s);
    try {
      sim.advance(3000);
      assert.equal(sim.hash(), native.stdout.trim(), integrator);
    } finally {
      sim.dispose();
    }
  }
});
