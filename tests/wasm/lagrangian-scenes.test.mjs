// The textbook systems shipped as data (scenes/lagrangian/<id>.json, system "lagrangian"):
// every file is a complete scenario with an `about` block that the JS API accepts, runs
// about.steps steps of its integrator without a refused step and keeps every invariant
// of about.invariants over the whole run (the history sampled every STRIDE steps), and
// gives the same hash in wasm as the native CLI (10000 steps) and through the wasm CLI
// (1000 steps). The tolerances are measured (a few times the largest deviation of the
// 1e5-step run), so a wrong Lagrangian or a broken integrator fails them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lab, root, nativeCli, runNative, runWasmCli } from './helpers.mjs';
import { furnitureLayout } from '../../web/scene/furniture.js';

const dir = join(root, 'scenes', 'lagrangian');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const STRIDE = 100;
const HASH_STEPS = 10000;
const CLI_STEPS = 1000;
const haveNative = existsSync(nativeCli);
const skipNative = haveNative ? false : 'build/native/vilab is missing (bash scripts/build.sh)';

const EXPECTED = [
  'cart-pendulum',
  'double-pendulum',
  'driven-damped-pendulum',
  'elastic-pendulum',
  'fput',
  'henon-heiles',
  'kapitza',
  'kepler',
  'rotating-hoop',
  'swinging-atwood',
];
const PARAM_FIELDS = ['coordinates', 'constants', 'lagrangian', 'constraints', 'conserved', 'symmetries', 'bodies'];
const OPTIONAL_PARAM_FIELDS = ['damping', 'forces']; // forced systems only
const DIAGNOSTIC = /^(energy|constraint|momentum\.[A-Za-z_][A-Za-z0-9_]*|conserved\.[A-Za-z_][A-Za-z0-9_]*)$/;

test('scenes/lagrangian ships the textbook systems', () => {
  for (const id of EXPECTED) assert.ok(files.includes(`${id}.json`), `scenes/lagrangian/${id}.json is missing`);
});

/** The largest |x(t) - x(0)| over a history column. */
function maxDeviation(column) {
  let dev = 0;
  for (const x of column) dev = Math.max(dev, Math.abs(x - column[0]));
  return dev;
}

for (const file of files) {
  const id = file.slice(0, -'.json'.length);
  const path = join(dir, file);
  const scene = JSON.parse(readFileSync(path, 'utf8'));
  const { about, ...scenario } = scene;
  const steps = about?.steps ?? 1e5;

  test(`${id}: a complete lagrangian scenario with an about block`, () => {
    assert.equal(scenario.system, 'lagrangian');
    assert.ok(lab.system('lagrangian').integrators.includes(scenario.integrator), `integrator ${scenario.integrator}`);
    assert.ok(Number.isFinite(scenario.h) && scenario.h > 0, 'h');
    const listed = Object.keys(scenario.params).filter((k) => !OPTIONAL_PARAM_FIELDS.includes(k));
    assert.deepEqual(listed.sort(), [...PARAM_FIELDS].sort(), 'params lists every field');
    const n = scenario.params.coordinates.length;
    assert.equal(scenario.initial.q.length, n);
    assert.equal(scenario.initial.qdot.length, n);

    assert.equal(typeof about?.title, 'string');
    assert.ok(about.title.length > 0, 'about.title');
    assert.ok(typeof about.lesson === 'string' && about.lesson.length > 0 && !about.lesson.includes('\n'), 'about.lesson is one line');
    assert.ok(lab.system('lagrangian').integrators.includes(about.compare), `about.compare ${about.compare}`);
    assert.notEqual(about.compare, scenario.integrator, 'about.compare is another integrator');
    assert.ok(Number.isSafeInteger(steps) && steps > 0 && steps % STRIDE === 0, `about.steps ${steps}`);
    const invariants = Object.entries(about.invariants ?? {});
    assert.ok(invariants.length > 0, 'about.invariants is not empty');
    for (const [name, tol] of invariants) {
      assert.match(name, DIAGNOSTIC);
      const kinds = Object.keys(tol);
      assert.ok(kinds.length === 1 && ['relative', 'absolute'].includes(kinds[0]), `${name}: ${JSON.stringify(tol)}`);
      assert.ok(Number.isFinite(tol[kinds[0]]) && tol[kinds[0]] > 0, `${name}: ${JSON.stringify(tol)}`);
    }

    // The one parser accepts it, and echoes it in full (about dropped).
    const normalized = lab.normalize(scenario);
    assert.equal(normalized.system, 'lagrangian');
    assert.equal(normalized.integrator, scenario.integrator);
    assert.equal(normalized.h, scenario.h);
    assert.equal(normalized.about, undefined);
    for (const field of ['coordinates', 'constants', 'lagrangian', 'constraints', 'conserved', 'symmetries']) {
      assert.deepEqual(normalized.params[field], scenario.params[field], `normalized params.${field}`);
    }
    for (const field of OPTIONAL_PARAM_FIELDS) {
      if (field in scenario.params) assert.deepEqual(normalized.params[field], scenario.params[field], `normalized params.${field}`);
    }
    assert.equal(normalized.params.bodies.length, scenario.params.bodies.length);
    normalized.params.bodies.forEach((b, i) => assert.deepEqual(b.position, scenario.params.bodies[i].position, `bodies[${i}]`));
    assert.deepEqual(normalized.initial, scenario.initial);
    // The engine ignores `about` (spec): the whole file normalizes the same.
    assert.deepEqual(lab.normalize(scene), normalized);

    const inspected = lab.inspectLagrangian(scenario.params);
    assert.deepEqual(inspected.coordinates, scenario.params.coordinates);
    assert.equal(typeof inspected.latex.lagrangian, 'string');
  });

  test(`${id}: ${steps} steps of ${scenario.integrator} keep ${Object.keys(about?.invariants ?? {}).join(', ')}`, () => {
    const sim = lab.simulate(scenario, { historyStride: STRIDE, historyCapacity: steps / STRIDE + 1 });
    try {
      sim.advance(steps);
      assert.equal(sim.step, steps);
      const h = sim.history.read();
      assert.equal(h.start, 0);
      assert.equal(h.count, steps / STRIDE + 1);

      // Columns and diagnostics name the symmetries and conserved quantities in declaration order.
      const symmetries = Object.keys(scenario.params.symmetries);
      const conserved = Object.keys(scenario.params.conserved);
      for (const s of symmetries) assert.ok(h.columns[`momentum.${s}`], `column momentum.${s}`);
      for (const c of conserved) assert.ok(h.columns[`conserved.${c}`], `column conserved.${c}`);
      const d = sim.diagnostics();
      assert.equal(d.momentum.length, symmetries.length);
      assert.deepEqual(Object.keys(d.conserved ?? {}), conserved);
      assert.equal(d.energy, h.energy.at(-1));
      symmetries.forEach((s, i) => assert.equal(d.momentum[i], h.columns[`momentum.${s}`].at(-1)));
      for (const c of conserved) assert.equal(d.conserved[c], h.columns[`conserved.${c}`].at(-1));
      // 3 per entry of bodies, then each piece of furniture's angle, radius and points
      const last = furnitureLayout(lab.normalize(scenario).params.bodies).at(-1);
      assert.equal(sim.visualState().length, last ? last.points + 3 * last.count : 3 * scenario.params.bodies.length);

      const report = [];
      for (const [name, tol] of Object.entries(about.invariants)) {
        const column = h.columns[name];
        assert.ok(column, `no history column ${name} (columns: ${Object.keys(h.columns).join(', ')})`);
        const x0 = column[0];
        const dev = maxDeviation(column);
        const bound = 'relative' in tol ? tol.relative * Math.abs(x0) : tol.absolute;
        assert.ok(Number.isFinite(dev), `${name}: not finite`);
        report.push(`${name} ${dev.toExponential(2)}${'relative' in tol ? ` (rel ${(dev / Math.abs(x0)).toExponential(2)})` : ''}`);
        assert.ok(
          dev <= bound,
          `${id}: ${name} deviates by ${dev.toExponential(3)} from ${x0} over ${steps} steps, more than ${JSON.stringify(tol)} allows`,
        );
      }
      return report;
    } finally {
      sim.dispose();
    }
  });

  test(`${id}: native hash = wasm hash after ${HASH_STEPS} steps`, { skip: skipNative }, () => {
    const native = runNative(['hash', path, '--steps', String(HASH_STEPS)]);
    assert.equal(native.status, 0, native.stderr);
    const sim = lab.simulate(scenario);
    try {
      sim.advance(HASH_STEPS);
      assert.equal(`${sim.hash()}\n`, native.stdout);
    } finally {
      sim.dispose();
    }
  });

  test(`${id}: wasm CLI hash = native CLI hash after ${CLI_STEPS} steps`, { skip: skipNative }, () => {
    const args = ['hash', path, '--steps', String(CLI_STEPS)];
    const native = runNative(args);
    const wasm = runWasmCli(args);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(wasm.stderr, native.stderr);
    assert.equal(wasm.status, native.status);
    assert.match(wasm.stdout, /^[0-9a-f]{16}\n$/);
    assert.equal(wasm.stdout, native.stdout);
  });
}

// The physics the lessons name, checked on the shipped data.
test('kepler: a = 1 and e = 0.6 (period 2π), the orbit closes once per period to O(h²)', () => {
  const { about, ...scenario } = JSON.parse(readFileSync(join(dir, 'kepler.json'), 'utf8'));
  const sim = lab.simulate(scenario, { historyCapacity: 1 });
  try {
    const d0 = sim.diagnostics();
    assert.ok(Math.abs(-1 / (2 * d0.energy) - 1) < 1e-12, `a = ${-1 / (2 * d0.energy)}`); // E = -k/(2a)
    assert.ok(Math.abs(d0.conserved.eccentricity - 0.6) < 1e-12, `e = ${d0.conserved.eccentricity}`);
    // Time of the first return to perihelion (the minimum of r after half an orbit).
    const r = () => Math.hypot(sim.q[0], sim.q[1]);
    sim.advance(Math.round(Math.PI / scenario.h));
    let prev = r();
    for (;;) {
      sim.advance(1);
      const now = r();
      if (now > prev) break;
      prev = now;
    }
    const period = sim.time - scenario.h;
    assert.ok(Math.abs(period - 2 * Math.PI) < 0.02, `period ${period}`);
  } finally {
    sim.dispose();
  }
});

test('fput: the energy stays in modes 1–4 and returns to mode 1 (recurrence)', () => {
  const { about, ...scenario } = JSON.parse(readFileSync(join(dir, 'fput.json'), 'utf8'));
  const stride = 10;
  const steps = 30000; // t = 3000
  const sim = lab.simulate(scenario, { historyStride: stride, historyCapacity: steps / stride + 1 });
  try {
    sim.advance(steps);
    const { t, energy, conserved } = sim.history.read();
    const E = energy[0];
    let minShare = Infinity;
    let minE1 = Infinity;
    let back = 0;
    for (let i = 0; i < t.length; i++) {
      minShare = Math.min(minShare, (conserved.E1[i] + conserved.E2[i] + conserved.E3[i] + conserved.E4[i]) / E);
      minE1 = Math.min(minE1, conserved.E1[i] / E);
      if (t[i] > 1000) back = Math.max(back, conserved.E1[i] / E);
    }
    assert.ok(minE1 < 0.3, `mode 1 gives its energy away (min share ${minE1})`);
    assert.ok(minShare > 0.9, `modes 1–4 hold at least 90% (min ${minShare})`);
    assert.ok(back > 0.95, `mode 1 gets it back (max share after t = 1000: ${back})`);
  } finally {
    sim.dispose();
  }
});
