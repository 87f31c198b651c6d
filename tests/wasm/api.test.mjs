// The public API of web/sim/vilab.js, function by function (issue 5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { lab, createLab, REF, root, advanceAll, fnv1a64, runNative, registryPairs } from './helpers.mjs';
import { DEFAULT_OPTIONS, MAX_SCENARIO_BYTES } from '../../web/sim/vilab.js';

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
  assert.deepEqual(lab.integrators, nativeRegistry.integrators);
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
    assert.ok(s.params.length > 0, `${s.id}: no parameters`);
    for (const p of s.params) {
      assert.ok(p.name && p.title && typeof p.unit === 'string', `${s.id}.${p.name}`);
      assert.ok(['number', 'per-body', 'vector3'].includes(p.kind));
      assert.ok(Number.isFinite(p.min) && Number.isFinite(p.max) && p.min < p.max && typeof p.minExclusive === 'boolean');
      const values = Array.isArray(p.default) ? p.default : [p.default];
      for (const v of values) assert.ok((p.minExclusive ? v > p.min : v >= p.min) && v <= p.max, `${s.id}.${p.name} default out of range`);
      if (p.kind === 'per-body') assert.ok(p.minCount <= values.length && values.length <= p.maxCount);
    }
    assert.ok(s.initialFields.length > 0, `${s.id}: no initial-data fields`);
    for (const f of s.initialFields) assert.ok(f.name && f.title && typeof f.unit === 'string' && f.description);
    assert.ok(s.h.default > 0 && s.h.default <= s.h.max && s.h.minExclusive && s.h.unit === 's');
    assert.ok(s.integrators.includes(s.defaultIntegrator));
    assert.deepEqual(lab.normalize(s.defaults), s.defaults, `${s.id}: defaults are not normalized`);
  }
});

test('integrators describe id, title, family, order, what they conserve, and their systems', () => {
  const ids = lab.integrators.map((i) => i.id);
  for (const id of ['midpoint', 'trapezoid', 'alpha', 'generalized', 'penalty', 'energy-momentum', 'rk4', 'euler']) {
    assert.ok(ids.includes(id), `integrator ${id} missing`);
  }
  const systemIds = lab.systems.map((s) => s.id);
  for (const i of lab.integrators) {
    assert.ok(i.title.length > 0);
    assert.ok(['variational', 'energy-momentum', 'baseline'].includes(i.family), `${i.id}: family ${i.family}`);
    assert.ok(Number.isInteger(i.order) && i.order >= 1);
    assert.ok(Array.isArray(i.conserves) && i.conserves.every((c) => typeof c === 'string'));
    if (i.family !== 'baseline') assert.ok(i.conserves.length > 0, `${i.id} conserves nothing?`);
    assert.ok(i.systems.length > 0 && i.systems.every((s) => systemIds.includes(s)));
    for (const s of i.systems) assert.ok(lab.system(s).integrators.includes(i.id));
  }
  for (const id of ['midpoint', 'trapezoid', 'alpha', 'generalized', 'penalty', 'energy-momentum']) {
    assert.ok(lab.integrator(id).systems.includes('double-spherical-pendulum'), `${id} must apply to the DSP`);
  }
  assert.equal(lab.integrator('energy-momentum').family, 'energy-momentum');
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
  advanceAll(a, 300);
  advanceAll(b, 300);
  assert.equal(a.hash(), b.hash());
  a.dispose();
  b.dispose();
});

test('simulate() options: defaults and limits', () => {
  assert.deepEqual({ ...DEFAULT_OPTIONS }, { historyStride: 1, historyCapacity: 32768, timeBudgetMs: 50 });
  assert.equal(MAX_SCENARIO_BYTES, 4 << 20);
  const sim = lab.simulate(REF, { historyStride: 7, historyCapacity: 3, timeBudgetMs: 1000 });
  assert.equal(sim.history.stride, 7);
  assert.equal(sim.history.capacity, 3);
  sim.dispose();
});

test('advance(n), step and time', () => {
  const sim = lab.simulate(REF);
  assert.equal(sim.step, 0);
  assert.equal(sim.time, 0);
  assert.equal(sim.advance(10), 10);
  assert.equal(sim.advance(), 1);
  assert.equal(sim.advance(0), 0);
  assert.equal(sim.step, 11);
  assert.equal(sim.time, 11 * 0.01);
  assert.ok(sim.maxAdvance >= 1000 && Number.isInteger(sim.maxAdvance));
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

test('diagnostics() → { energy, momentum, constraint, iterations } (+ bodyMomentum for rigid bodies)', () => {
  const sim = lab.simulate(REF);
  const e0 = sim.diagnostics();
  sim.advance(100);
  const d = sim.diagnostics();
  assert.deepEqual(Object.keys(d).sort(), ['constraint', 'energy', 'iterations', 'momentum']);
  assert.equal(d.momentum.length, 1, 'the DSP conserves J_z');
  assert.ok(Math.abs(d.energy - e0.energy) < 1e-2 * Math.abs(e0.energy));
  assert.ok(Math.abs(d.momentum[0] - e0.momentum[0]) < 1e-12 * Math.max(1, Math.abs(e0.momentum[0])));
  assert.ok(d.constraint >= 0 && d.constraint < 1e-12);
  assert.ok(Number.isInteger(d.iterations) && d.iterations > 0, 'midpoint solves with Newton');
  sim.dispose();
  const planar = lab.simulate({ system: 'pendulum', integrator: 'rk4' });
  planar.advance(3);
  assert.deepEqual(planar.diagnostics().momentum, [], 'the planar pendulum has no symmetry');
  assert.equal(planar.diagnostics().iterations, 0, 'RK4 is explicit');
  planar.dispose();
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

test('setState({q, p}) replaces the state: step 0, fresh history, deterministic continuation', () => {
  const close = (x, y, what) => {
    const scale = Math.max(1, ...Array.from(y, Math.abs));
    x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) <= 1e-12 * scale, `${what}[${i}]: ${v} vs ${y[i]}`));
  };
  for (const { system, integrator } of registryPairs()) {
    const a = lab.simulate({ system, integrator }, { historyStride: 5 });
    const b = lab.simulate({ system, integrator });
    const c = lab.simulate({ system, integrator });
    // Baselines drift off the constraint manifold at once, and off-manifold data is
    // refused: restore their initial state instead.
    if (lab.integrator(integrator).family !== 'baseline') a.advance(20);
    b.advance(3);
    const state = { q: a.q, p: Array.from(a.p) };
    b.setState(state);
    c.setState({ q: Float64Array.from(state.q), p: Float64Array.from(state.p) });
    assert.equal(b.step, 0);
    assert.equal(b.time, 0);
    assert.equal(b.history.total, 1);
    // Data within 1e-9 of the manifold is projected onto it: equal up to rounding.
    close(b.q, a.q, `${system}/${integrator}: q`);
    close(b.p, a.p, `${system}/${integrator}: p`);
    assert.equal(b.hash(), fnv1a64(b.q, b.p, 0));
    advanceAll(b, 50);
    advanceAll(c, 50);
    assert.equal(b.hash(), c.hash(), `${system}/${integrator}: the same state must give the same run`);
    for (const s of [a, b, c]) s.dispose();
  }
});

test('hash() is FNV-1a 64 of q, p and step, and equals the native `vilab hash`', () => {
  for (const { system, integrator } of registryPairs()) {
    const sim = lab.simulate({ system, integrator });
    sim.advance(37);
    assert.match(sim.hash(), /^[0-9a-f]{16}$/);
    assert.equal(sim.hash(), fnv1a64(sim.q, sim.p, sim.step), `${system}/${integrator}`);
    sim.dispose();
  }
  const sim = lab.simulate(REF);
  advanceAll(sim, 1234);
  assert.equal(sim.hash() + '\n', runNative(['hash', '-', '--steps', '1234'], JSON.stringify(REF)).stdout);
  sim.dispose();
});

test('history: recorded in C++ every stride steps, read as typed-array copies, ring of capacity samples', () => {
  const sim = lab.simulate(REF, { historyStride: 10 });
  const h = sim.history;
  assert.deepEqual(h.columns, ['t', 'energy', 'constraint', 'iterations', 'momentum']);
  assert.equal(h.total, 1, 'the initial state is sample 0');
  advanceAll(sim, 95);
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
  assert.deepEqual(Array.from(all.t), Array.from({ length: 10 }, (_, k) => 10 * k * 0.01));
  advanceAll(sim, 5);
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
  advanceAll(ring, 100);
  assert.equal(ring.history.total, 11);
  assert.equal(ring.history.oldest, 7);
  const held = ring.history.read(0);
  assert.equal(held.start, 7);
  assert.equal(held.count, 4);
  assert.deepEqual(Array.from(held.t), [0.7, 0.8, 0.9, 1].map((t, k) => (70 + 10 * k) * 0.01));
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
    maxAdvance: () => sim.maxAdvance,
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
  assert.equal(example.trimEnd().split('\n').length, 10, 'the example is 10 lines');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', example], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines[0].split(' ')[5], '1001', 'history samples 0, 10, …, 10000');
  const native = runNative(['hash', '-', '--steps', '10000'], JSON.stringify(REF));
  assert.equal(`${lines[1]}\n`, native.stdout);
});
