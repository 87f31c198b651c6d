// The public API of web/sim/vilab.js, function by function.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { lab, createLab, REF, root, fnv1a64, runNative, registryPairs, canonicalSizes, pairLabel, pairScenario } from './helpers.mjs';
import { MAX_SCENARIO_BYTES } from '../../web/sim/vilab.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const nativeRegistry = JSON.parse(runNative(['registry']).stdout);

test('createLab() loads the module once and returns the same frozen lab', async () => {
  const again = await createLab();
  assert.equal(again, lab);
  assert.ok(Object.isFrozen(lab));
  assert.equal(typeof lab.simulate, 'function');
});

test('lab.version is the package and core version', () => {
  assert.equal(lab.version, pkg.version);
  assert.equal(lab.version, nativeRegistry.version);
});

test('lab.systems and lab.integrators are the C++ registry, not a copy', () => {
  assert.deepEqual(lab.systems, nativeRegistry.systems);
  // the JS layer adds nothing: the claims' kinds come from the core too
  assert.deepEqual(lab.integrators, nativeRegistry.integrators);
  assert.deepEqual(lab.vocabulary, nativeRegistry.vocabulary);
  for (const i of lab.integrators)
    assert.deepEqual(
      i.claims.map((c) => c.text),
      i.conserves,
    );
  assert.equal(lab.registryText() + '\n', runNative(['registry']).stdout);
  assert.ok(Object.isFrozen(lab.systems) && Object.isFrozen(lab.systems[0].params[0]));
  assert.equal(lab.system('chain').id, 'chain');
  assert.equal(lab.integrator('midpoint').id, 'midpoint');
  assert.equal(lab.system('nope'), undefined);
  assert.equal(lab.integrator('nope'), undefined);
});

test('systems describe id, title, parameters (defaults, units, ranges) and initial-data fields', () => {
  const ids = lab.systems.map((s) => s.id);
  for (const id of ['oscillator', 'pendulum', 'spherical-pendulum', 'double-spherical-pendulum', 'chain']) {
    assert.ok(ids.includes(id), `system ${id} missing`);
  }
  for (const s of lab.systems) {
    assert.match(s.id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.ok(s.title.length > 0 && typeof s.description === 'string');
    // A system defined by data has no parameter specs: its definition is documented instead.
    if (s.definition) {
      assert.ok(s.params.length === 0 && s.definition.fields.length > 0 && s.definition.limits.maxCoordinates === 16, s.id);
      assert.deepEqual(s.defaults.params.coordinates, ['r', 'th']);
    } else if (s.dataParams && s.model === 'field') {
      // A field's params are data too: its density and grid, described by a JSON Schema.
      assert.ok(s.params.length === 0 && s.paramsSchema?.properties?.grid, s.id);
      assert.ok(s.defaults.params.grid.points >= 2, `${s.id}: no grid in the defaults`);
    } else if (s.dataParams) {
      // A mechanism's params are data too: described by a JSON Schema, not parameter specs.
      assert.ok(s.params.length === 0 && s.paramsSchema?.properties?.bodies, s.id);
      assert.ok(s.defaults.params.bodies.length > 0, `${s.id}: no bodies in the defaults`);
    } else {
      assert.ok(s.params.length > 0, `${s.id}: no parameters`);
    }
    for (const p of s.params) {
      assert.ok(p.name && p.title && typeof p.unit === 'string', `${s.id}.${p.name}`);
      assert.ok(['number', 'per-body', 'vector3'].includes(p.kind));
      assert.ok(Number.isFinite(p.min) && Number.isFinite(p.max) && p.min < p.max && typeof p.minExclusive === 'boolean');
      const values = Array.isArray(p.default) ? p.default : [p.default];
      for (const v of values) assert.ok((p.minExclusive ? v > p.min : v >= p.min) && v <= p.max, `${s.id}.${p.name} default out of range`);
      if (p.kind === 'per-body') assert.ok(p.minCount <= values.length && values.length <= p.maxCount);
    }
    // A mechanism's bodies carry its initial state (pose, velocity, spin): it has no initial-data fields.
    assert.ok(s.initialFields.length > 0 || s.model === 'mechanism', `${s.id}: no initial-data fields`);
    for (const f of s.initialFields) assert.ok(f.name && f.title && typeof f.unit === 'string' && f.description);
    assert.ok(s.h.min > 0 && s.h.default >= s.h.min && s.h.default <= s.h.max && s.h.minExclusive === false && s.h.unit === 's');
    assert.ok(['oscillator', 'chain', 'rigid-body', 'lagrangian', 'mechanism', 'field'].includes(s.model), `${s.id}: model ${s.model}`);
    assert.ok(s.integrators.includes(s.defaultIntegrator));
    assert.deepEqual(lab.normalize(s.defaults), s.defaults, `${s.id}: defaults are not normalized`);
  }
});

test('integrators describe id, title, family, order, what they conserve, and their systems', () => {
  const ids = lab.integrators.map((i) => i.id);
  for (const id of [
    'midpoint',
    'trapezoid',
    'alpha',
    'generalized',
    'angles-midpoint',
    'penalty',
    'energy-momentum',
    'rk4',
    'euler',
    'dopri5',
  ]) {
    assert.ok(ids.includes(id), `integrator ${id} missing`);
  }
  const systemIds = lab.systems.map((s) => s.id);
  for (const i of lab.integrators) {
    assert.ok(i.title.length > 0);
    assert.ok(['variational', 'energy-momentum', 'baseline'].includes(i.family), `${i.id}: family ${i.family}`);
    assert.ok(Number.isInteger(i.order) && i.order >= 1);
    assert.equal(typeof i.symplectic, 'boolean', `${i.id}: symplectic`);
    assert.equal(typeof i.symmetric, 'boolean', `${i.id}: symmetric`);
    // Variational integrators are symplectic (their one-step map is); baselines are not.
    if (i.family === 'variational') assert.ok(i.symplectic, `${i.id}`);
    if (i.family === 'baseline') assert.ok(!i.symplectic, `${i.id}`);
    assert.ok(Array.isArray(i.conserves) && i.conserves.every((c) => typeof c === 'string'));
    if (i.family !== 'baseline') assert.ok(i.conserves.length > 0, `${i.id} conserves nothing?`);
    assert.ok(i.systems.length > 0 && i.systems.every((s) => systemIds.includes(s)));
    for (const s of i.systems) assert.ok(lab.system(s).integrators.includes(i.id));
  }
  for (const id of ['midpoint', 'trapezoid', 'alpha', 'generalized', 'penalty', 'energy-momentum']) {
    assert.ok(lab.integrator(id).systems.includes('double-spherical-pendulum'), `${id} must apply to the DSP`);
  }
  assert.equal(lab.integrator('energy-momentum').family, 'energy-momentum');
  // dopri5 is adaptive: its one option is the tolerance.
  const tol = lab.integrator('dopri5').options.find((o) => o.name === 'tol');
  assert.ok(tol && tol.default === 1e-6 && tol.min < tol.default && tol.default <= tol.max, 'dopri5 option tol');
});

test('simulate() normalizes the scenario; scenario() returns it with defaults filled in', () => {
  const sim = lab.simulate({ system: 'double-spherical-pendulum' });
  const s = sim.scenario();
  assert.deepEqual(s, lab.system('double-spherical-pendulum').defaults);
  assert.deepEqual(Object.keys(s).sort(), ['h', 'initial', 'integrator', 'options', 'params', 'system']);
  s.h = 99;
  assert.equal(sim.scenario().h, 0.01, 'scenario() must return a fresh object');
  assert.deepEqual(lab.normalize({ system: 'double-spherical-pendulum' }), sim.scenario());
  sim.dispose();
});

test('simulate() accepts JSON text: the same run as the object', () => {
  const a = lab.simulate(REF);
  const b = lab.simulate(JSON.stringify(REF));
  a.advance(300);
  b.advance(300);
  assert.equal(a.hash(), b.hash());
  a.dispose();
  b.dispose();
});

test('simulate() options: defaults from lab.limits', () => {
  assert.equal(MAX_SCENARIO_BYTES, 4 << 20);
  assert.equal(lab.limits.maxScenarioBytes, MAX_SCENARIO_BYTES);
  const plain = lab.simulate(REF);
  assert.equal(plain.history.stride, 1);
  assert.equal(plain.history.capacity, lab.limits.historyCapacity.default);
  plain.dispose();
  const sim = lab.simulate(REF, { historyStride: 7, historyCapacity: 3 });
  assert.equal(sim.history.stride, 7);
  assert.equal(sim.history.capacity, 3);
  sim.dispose();
});

test('lab.limits: the core limits, frozen, and what option validation enforces', () => {
  const L = lab.limits;
  assert.ok(Object.isFrozen(L) && Object.isFrozen(L.historyStride));
  for (const key of ['historyStride', 'historyCapacity']) {
    const { min, max } = L[key];
    assert.ok(Number.isInteger(min) && Number.isInteger(max) && min >= 1 && min < max, key);
    // The bounds are accepted, one past them is refused, with the range in the message.
    lab.simulate(REF, { [key]: min }).dispose();
    lab.simulate(REF, { [key]: max }).dispose();
    const range = new RegExp(`integer in \\[${min}, ${max}\\]`);
    assert.throws(() => lab.simulate(REF, { [key]: min - 1 }), { field: `options.${key}`, message: range });
    assert.throws(() => lab.simulate(REF, { [key]: max + 1 }), { field: `options.${key}`, message: range });
  }
  const { historyCapacity, budgetMs } = L;
  assert.ok(historyCapacity.min <= historyCapacity.default && historyCapacity.default <= historyCapacity.max);
  // advanceFor's budget: the bounds are accepted, just outside them is refused.
  const sim = lab.simulate(REF);
  assert.ok(budgetMs.min > 0 && budgetMs.min < budgetMs.max);
  sim.advanceFor({ maxSteps: 1, budgetMs: budgetMs.min });
  sim.advanceFor({ maxSteps: 1, budgetMs: budgetMs.max });
  assert.equal(sim.step, 2);
  const budgetRange = new RegExp(`must be a number in \\[${budgetMs.min}, ${budgetMs.max}\\]`);
  for (const bad of [budgetMs.min / 2, budgetMs.max * 2]) {
    assert.throws(() => sim.advanceFor({ maxSteps: 1, budgetMs: bad }), { field: 'budgetMs', message: budgetRange });
  }
  assert.equal(sim.step, 2, 'a refused call takes no step');
  // setState: arrays longer than maxStateSize are refused before they enter the heap.
  assert.ok(Number.isInteger(L.maxStateSize) && L.maxStateSize >= 3 * L.maxLinks);
  assert.throws(() => sim.setState({ q: new Float64Array(L.maxStateSize + 1), p: sim.p }), { field: 'q', message: /too long/ });
  sim.dispose();
  // Links: the chain's per-body parameters allow exactly maxLinks.
  const masses = lab.system('chain').params.find((p) => p.name === 'masses');
  assert.equal(masses.maxCount, L.maxLinks);
  // The manifold tolerance: initial data that far off is projected, farther is refused.
  assert.ok(L.manifoldTolerance > 0 && L.manifoldTolerance < 1e-6);
  const positions = (off) => ({ system: 'pendulum', initial: { positions: [[0.6, 0, -0.8 * (1 + off)]], velocities: [[0, 0, 0]] } });
  assert.doesNotThrow(() => lab.normalize(positions(L.manifoldTolerance / 10)));
  assert.throws(() => lab.normalize(positions(L.manifoldTolerance * 10)), {
    field: 'initial.positions[0]',
    message: /off the constraint manifold/,
  });
  assert.ok(Number.isInteger(L.maxScenarioDepth) && L.maxScenarioDepth > 3);
});

test('advance(n) takes exactly n steps and returns nothing; step and time', () => {
  const sim = lab.simulate(REF);
  assert.equal(sim.step, 0);
  assert.equal(sim.time, 0);
  assert.equal(sim.advance(10), undefined);
  sim.advance();
  sim.advance(0);
  assert.equal(sim.step, 11);
  assert.equal(sim.time, 11 * 0.01);
  // One call of 250000 steps (more than a call used to be allowed): no cap, no time budget.
  sim.advance(250000);
  assert.equal(sim.step, 250011);
  assert.equal('maxAdvance' in sim, false, 'maxAdvance is gone');
  sim.dispose();
});

test('advanceFor({ maxSteps, budgetMs }) → { steps, done }: done when all maxSteps fit', () => {
  const sim = lab.simulate(REF);
  assert.deepEqual(sim.advanceFor({ maxSteps: 25, budgetMs: 1000 }), { steps: 25, done: true });
  assert.deepEqual(sim.advanceFor({ maxSteps: 0, budgetMs: 1000 }), { steps: 0, done: true });
  assert.equal(sim.step, 25);
  sim.dispose();
});

test('q and p are Float64Array copies that own their buffers', () => {
  const sim = lab.simulate(REF);
  sim.advance(5);
  const q = sim.q;
  const p = sim.p;
  assert.ok(q instanceof Float64Array && p instanceof Float64Array);
  assert.equal(q.length, 6);
  assert.equal(p.length, 6);
  assert.equal(q.buffer.byteLength, q.byteLength, 'q must not be a view into the wasm heap');
  assert.equal(p.buffer.byteLength, p.byteLength, 'p must not be a view into the wasm heap');
  assert.notEqual(sim.q, q);
  const saved = Float64Array.from(q);
  q.fill(0);
  assert.deepEqual(sim.q, saved, 'writing to the copy must not change the simulation');
  sim.advance(1);
  assert.notDeepEqual(sim.q, saved);
  sim.dispose();
});

test('diagnostics() → { energy, kinetic, potential, momentum, constraint, iterations } (+ bodyMomentum for rigid bodies)', () => {
  const sim = lab.simulate(REF);
  const e0 = sim.diagnostics();
  sim.advance(100);
  const d = sim.diagnostics();
  assert.deepEqual(Object.keys(d).sort(), ['constraint', 'energy', 'iterations', 'kinetic', 'momentum', 'potential']);
  assert.equal(d.momentum.length, 1, 'the DSP conserves J_z');
  assert.ok(Math.abs(d.energy - e0.energy) < 1e-2 * Math.abs(e0.energy));
  assert.ok(Math.abs(d.momentum[0] - e0.momentum[0]) < 1e-12 * Math.max(1, Math.abs(e0.momentum[0])));
  assert.ok(d.constraint >= 0 && d.constraint < 1e-12);
  assert.ok(Number.isInteger(d.iterations) && d.iterations > 0, 'midpoint solves with Newton');
  sim.dispose();
  const planar = lab.simulate({ system: 'pendulum', integrator: 'rk4' });
  planar.advance(3);
  assert.deepEqual(planar.diagnostics().momentum, [], 'the planar pendulum has no symmetry');
  assert.ok(planar.diagnostics().constraint < 1e-14, 'RK4 projects onto the links after every step');
  planar.dispose();
  const spring = lab.simulate({ system: 'oscillator', integrator: 'rk4' });
  spring.advance(3);
  assert.equal(spring.diagnostics().iterations, 0, 'RK4 is explicit, and the oscillator has nothing to project onto');
  spring.dispose();
  // Rigid bodies (whichever the registry has) report Π exactly when their history does.
  for (const s of lab.systems) {
    const sys = lab.simulate({ system: s.id });
    const body = sys.diagnostics().bodyMomentum;
    const columns = sys.history.columns.filter((c) => c.startsWith('bodyMomentum.'));
    assert.equal(body === undefined ? 0 : body.length, columns.length, s.id);
    if (body) assert.equal(sys.diagnostics().momentum.length, 3, `${s.id}: spatial angular momentum`);
    sys.dispose();
  }
});

test('visualState() is a copy of what to draw', () => {
  const sim = lab.simulate(REF);
  sim.advance(3);
  const v = sim.visualState();
  assert.ok(v instanceof Float64Array && v.buffer.byteLength === v.byteLength);
  assert.deepEqual(v, sim.q, 'the DSP draws its bob positions');
  sim.dispose();
});

test('q and p are the canonical state of the model, whatever the integrator', () => {
  const close = (x, y, tol, what) => assert.ok(Math.abs(x - y) <= tol * Math.max(1, Math.abs(y)), `${what}: ${x} vs ${y}`);
  for (const system of lab.systems) {
    let initial = null;
    for (const integrator of system.integrators) {
      const label = `${system.id}/${integrator}`;
      const scenario = pairScenario(system.id, integrator);
      if (scenario.params) continue; // not the system's default definition: another start
      const sim = lab.simulate(scenario);
      const sizes = canonicalSizes(sim.scenario());
      // Every integrator of a system starts from the same canonical state.
      initial ??= { q: sim.q, p: sim.p, hash: sim.hash() };
      assert.deepEqual(sim.q, initial.q, `${label}: initial q`);
      assert.deepEqual(sim.p, initial.p, `${label}: initial p`);
      assert.equal(sim.hash(), initial.hash, label);
      sim.advance(20);
      const { q, p } = sim;
      const d = sim.diagnostics();
      assert.equal(q.length, sizes.q, `${label}: q length`);
      assert.equal(p.length, sizes.p, `${label}: p length`);
      if (system.model === 'rigid-body') {
        close(Math.hypot(...q), 1, 1e-12, `${label}: |q|`);
        assert.deepEqual(Array.from(p), d.bodyMomentum, `${label}: p is Π`);
      } else if (system.model === 'chain') {
        assert.deepEqual(sim.visualState(), q, `${label}: q are the bob positions`);
        if (d.momentum.length === 1) {
          // p are Cartesian momenta: J_z = Σ x p_y − y p_x.
          let Jz = 0;
          for (let k = 0; k < q.length; k += 3) Jz += q[k] * p[k + 1] - q[k + 1] * p[k];
          close(Jz, d.momentum[0], 1e-12, `${label}: J_z from q, p`);
        }
      } else if (system.model === 'lagrangian') {
        // The default: the elastic pendulum in (r, θ), p = (m ṙ, m r² θ̇); H = T + V.
        const { m, k, l0, g } = sim.scenario().params.constants;
        const [r, th] = q;
        const E = (p[0] * p[0]) / (2 * m) + (p[1] * p[1]) / (2 * m * r * r) + (k / 2) * (r - l0) ** 2 - m * g * r * Math.cos(th);
        close(E, d.energy, 1e-13, `${label}: energy from q, p`);
        // What the page draws: the body at (r sin θ, 0, −r cos θ).
        const body = sim.visualState();
        [r * Math.sin(th), 0, -r * Math.cos(th)].forEach((x, i) => close(body[i], x, 1e-15, `${label}: body[${i}]`));
      } else if (system.model === 'mechanism') {
        // Per body q = (x, unit quaternion), p = (m ẋ, Π in the body frame); H = Σ |p|²/2m + ΣΠ_k²/2I_k − m g·x.
        const { bodies, gravity } = sim.scenario().params;
        let E = 0;
        bodies.forEach((b, i) => {
          const [x, quat, mom, Pi] = [
            q.slice(7 * i, 7 * i + 3),
            q.slice(7 * i + 3, 7 * i + 7),
            p.slice(6 * i, 6 * i + 3),
            p.slice(6 * i + 3, 6 * i + 6),
          ];
          close(Math.hypot(...quat), 1, 1e-12, `${label}: |quaternion ${i}|`);
          E += mom.reduce((a, v) => a + v * v, 0) / (2 * b.mass) + Pi.reduce((a, v, k) => a + (v * v) / (2 * b.inertia[k]), 0);
          E -= b.mass * gravity.reduce((a, g, k) => a + g * x[k], 0);
        });
        close(E, d.energy, 1e-13, `${label}: energy from q, p`);
      } else if (system.model === 'field') {
        // The default string (ρ = κ = 1, fixed ends): p = Δx u̇ per node, H = Σ p²/2Δx + Σ (Δu)²/2Δx.
        const { length, points } = sim.scenario().params.grid;
        const dx = length / (points - 1);
        let E = 0;
        for (let i = 0; i < points; i++) E += (p[i] * p[i]) / (2 * dx);
        for (let i = 0; i + 1 < points; i++) E += (q[i + 1] - q[i]) ** 2 / (2 * dx);
        close(E, d.energy, 1e-12, `${label}: energy from q, p`);
        assert.deepEqual(Array.from(sim.visualState()), Array.from(q), `${label}: the view draws u`);
      } else {
        const { mass, stiffness } = sim.scenario().params;
        close((p[0] * p[0]) / (2 * mass) + (stiffness * q[0] * q[0]) / 2, d.energy, 1e-14, `${label}: energy from [x], [m ẋ]`);
      }
      sim.dispose();
    }
  }
});

test('setState takes the canonical state for every pair: any integrator of the system accepts it', () => {
  const close = (x, y, what) => {
    const scale = Math.max(1, ...Array.from(y, Math.abs));
    x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) <= 1e-12 * scale, `${what}[${i}]: ${v} vs ${y[i]}`));
  };
  for (const system of lab.systems) {
    // A state on the manifold, from the system's default integrator.
    const source = lab.simulate({ system: system.id });
    source.advance(20);
    const state = { q: source.q, p: source.p };
    source.dispose();
    for (const integrator of system.integrators) {
      if (pairScenario(system.id, integrator).params) continue; // refuses the default definition
      const sim = lab.simulate({ system: system.id, integrator });
      sim.advance(3);
      sim.setState(state);
      assert.equal(sim.step, 0);
      close(sim.q, state.q, `${system.id}/${integrator}: q`);
      close(sim.p, state.p, `${system.id}/${integrator}: p`);
      sim.advance(5);
      assert.equal(sim.step, 5);
      sim.dispose();
    }
  }
});

test('setState({ q: sim.q, p: sim.p }) round-trips for every pair: step 0, fresh history, deterministic continuation', () => {
  const close = (x, y, what) => {
    const scale = Math.max(1, ...Array.from(y, Math.abs));
    // Data within the manifold tolerance is projected onto it: equal up to rounding.
    x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) <= 1e-14 * scale, `${what}[${i}]: ${v} vs ${y[i]}`));
  };
  for (const pair of registryPairs()) {
    const label = pairLabel(pair);
    const a = lab.simulate(pair, { historyStride: 5 });
    a.advance(20);
    const before = { q: a.q, p: a.p };
    a.setState({ q: a.q, p: Array.from(a.p) });
    assert.equal(a.step, 0);
    assert.equal(a.time, 0);
    assert.equal(a.history.total, 1);
    close(a.q, before.q, `${label}: q`);
    close(a.p, before.p, `${label}: p`);
    assert.equal(a.hash(), fnv1a64(a.q, a.p, 0));
    // The same state, as typed arrays, in another simulation: the same run.
    const b = lab.simulate(pair);
    b.advance(3);
    b.setState({ q: Float64Array.from(before.q), p: Float64Array.from(before.p) });
    assert.equal(b.hash(), a.hash(), `${label}: the same state after setState`);
    a.advance(50);
    b.advance(50);
    assert.equal(b.hash(), a.hash(), `${label}: the same state must give the same run`);
    a.dispose();
    b.dispose();
  }
});

test('hash() is FNV-1a 64 of q, p and step, and equals the native `vilab hash`', () => {
  for (const pair of registryPairs()) {
    const sim = lab.simulate(pair);
    sim.advance(37);
    assert.match(sim.hash(), /^[0-9a-f]{16}$/);
    assert.equal(sim.hash(), fnv1a64(sim.q, sim.p, sim.step), pairLabel(pair));
    sim.dispose();
  }
  const sim = lab.simulate(REF);
  sim.advance(1234);
  assert.equal(sim.hash() + '\n', runNative(['hash', '-', '--steps', '1234'], JSON.stringify(REF)).stdout);
  sim.dispose();
});

test('history: recorded in C++ every stride steps, read as typed-array copies, ring of capacity samples', () => {
  const sim = lab.simulate(REF, { historyStride: 10 });
  const h = sim.history;
  assert.deepEqual(h.columns, ['t', 'energy', 'constraint', 'iterations', 'momentum']);
  assert.equal(h.total, 1, 'the initial state is sample 0');
  sim.advance(95);
  assert.equal(h.total, 10);
  const all = h.read();
  assert.equal(all.start, 0);
  assert.equal(all.count, 10);
  for (const key of ['t', 'energy', 'constraint', 'iterations']) {
    assert.ok(all[key] instanceof Float64Array && all[key].length === 10, key);
  }
  assert.equal(all.momentum.length, 1);
  assert.equal(all.momentum[0], all.columns.momentum);
  assert.equal(all.bodyMomentum, undefined);
  assert.deepEqual(
    Array.from(all.t),
    Array.from({ length: 10 }, (_, k) => 10 * k * 0.01),
  );
  sim.advance(5);
  const d = sim.diagnostics();
  const next = h.read(all.start + all.count);
  assert.equal(next.start, 10);
  assert.equal(next.count, 1);
  assert.equal(next.energy[0], d.energy);
  assert.equal(next.momentum[0][0], d.momentum[0]);
  assert.equal(next.iterations[0], d.iterations);
  assert.equal(next.constraint[0], d.constraint);
  assert.equal(h.read(1000).count, 0);
  sim.dispose();

  const ring = lab.simulate(REF, { historyStride: 10, historyCapacity: 4 });
  ring.advance(100);
  assert.equal(ring.history.total, 11);
  assert.equal(ring.history.oldest, 7);
  const held = ring.history.read(0);
  assert.equal(held.start, 7);
  assert.equal(held.count, 4);
  assert.deepEqual(
    Array.from(held.t),
    [0.7, 0.8, 0.9, 1].map((t, k) => (70 + 10 * k) * 0.01),
  );
  ring.dispose();
});

test('history of every system: stride 1 records every step, with the diagnostics of that step', () => {
  for (const s of lab.systems) {
    const sim = lab.simulate({ system: s.id });
    sim.advance(4);
    const r = sim.history.read();
    assert.equal(r.count, 5, s.id);
    assert.equal(r.energy[4], sim.diagnostics().energy, s.id);
    assert.equal(r.momentum.length, sim.diagnostics().momentum.length, s.id);
    sim.dispose();
  }
});

test('csvHeader() and csvRow() are the native CLI rows', () => {
  for (const { system, integrator } of registryPairs().slice(0, 12)) {
    const sim = lab.simulate({ system, integrator });
    const native = runNative(['run', '-', '--steps', '0'], JSON.stringify({ system, integrator }));
    assert.equal(native.status, 0, native.stderr);
    assert.equal(`${sim.csvHeader()}\n${sim.csvRow()}\n`, native.stdout);
    sim.dispose();
  }
});

test('dispose(): idempotent, then every use throws a clear error', () => {
  const sim = lab.simulate(REF);
  assert.equal(sim.disposed, false);
  const history = sim.history;
  sim.dispose();
  sim.dispose();
  assert.equal(sim.disposed, true);
  const uses = {
    scenario: () => sim.scenario(),
    advance: () => sim.advance(1),
    time: () => sim.time,
    step: () => sim.step,
    q: () => sim.q,
    p: () => sim.p,
    advanceFor: () => sim.advanceFor({ maxSteps: 1, budgetMs: 10 }),
    diagnostics: () => sim.diagnostics(),
    visualState: () => sim.visualState(),
    setState: () => sim.setState({ q: [], p: [] }),
    hash: () => sim.hash(),
    history: () => sim.history,
    'history.read': () => history.read(0),
    'history.total': () => history.total,
    'history.columns': () => history.columns,
    csvHeader: () => sim.csvHeader(),
    csvRow: () => sim.csvRow(),
  };
  for (const [name, use] of Object.entries(uses)) {
    assert.throws(use, { name: 'VilabError', message: 'vilab: simulation: used after dispose()' }, name);
  }
});

test('sim[Symbol.dispose]() frees the simulation like dispose()', () => {
  assert.equal(typeof Symbol.dispose, 'symbol');
  const before = lab.heapUsed();
  const sim = lab.simulate(REF);
  sim.advance(10);
  assert.ok(lab.heapUsed() > before);
  sim[Symbol.dispose]();
  assert.equal(sim.disposed, true);
  assert.equal(lab.heapUsed(), before, 'the wasm memory is freed');
  assert.throws(() => sim.step, { name: 'VilabError', message: 'vilab: simulation: used after dispose()' });
  sim[Symbol.dispose](); // idempotent, as dispose()
  sim.dispose();
});

test('heapBytes() and heapUsed() report the wasm memory', () => {
  assert.ok(lab.heapBytes() >= 16 << 20);
  assert.ok(lab.heapUsed() > 0 && lab.heapUsed() < lab.heapBytes());
  const before = lab.heapUsed();
  const sim = lab.simulate(REF);
  assert.ok(lab.heapUsed() > before);
  sim.dispose();
  assert.equal(lab.heapUsed(), before);
});

test("the README's API example runs as written, through the package's exports ('vilab')", () => {
  const doc = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const example = doc.match(/```js\n([\s\S]*?)```/)[1];
  assert.equal(example.trimEnd().split('\n').length, 9, 'the example is 9 lines');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', example], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines[0].split(' ')[5], '1001', 'history samples 0, 10, …, 10000');
  const native = runNative(['hash', '-', '--steps', '10000'], JSON.stringify(REF));
  assert.equal(`${lines[1]}\n`, native.stdout);
});
