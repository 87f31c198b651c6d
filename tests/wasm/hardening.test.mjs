// Hostile input and hostile numbers: every failure reaches JS as a VilabError whose
// message is bounded, valid text and names the field (never a raw
// WebAssembly.Exception or TypeError, never a leak), and no Infinity or NaN ever
// leaves the core, whatever the system, integrator and settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, REF, assertHealthy, assertVocabularyCode, registryPairs, pairLabel, createLab, VilabError } from './helpers.mjs';
import { decodeState } from '../../web/state/url.js';

const MAX_MESSAGE = 300;

function errorOf(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('expected an error');
}

// A VilabError with a bounded message of well-formed text, naming `field` when given.
function assertClean(e, field) {
  assert.ok(e instanceof VilabError, `not a VilabError: ${e?.constructor?.name}: ${e?.stack ?? e}`);
  assert.ok(e.message.startsWith('vilab: '), e.message);
  assert.ok(e.message.length <= MAX_MESSAGE, `${e.message.length} characters: ${e.message.slice(0, 120)}…`);
  assert.ok(e.message.isWellFormed?.() ?? !/[\uD800-\uDFFF]/.test(e.message.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')));
  assertVocabularyCode(e);
  if (field !== undefined) {
    assert.equal(e.field, field, e.message);
    assert.ok(e.message.startsWith(`vilab: ${field}: `), e.message);
  }
  return e;
}

const accented = 'a' + 'é'.repeat(20);

test('text cut inside a UTF-8 character: a VilabError with valid text, and no leak over 1000 calls', () => {
  const cases = [
    [() => lab.normalize({ system: accented }), 'system', `unknown id "a${'é'.repeat(15)}…" (41 bytes)`],
    [() => lab.normalize({ system: 'oscillator', integrator: accented }), 'integrator', `"a${'é'.repeat(15)}…"`],
    [() => lab.normalize({ system: '😀'.repeat(20) }), 'system', `"${'😀'.repeat(8)}…"`],
    [() => lab.normalize('[42\u00ff'), 'scenario', 'invalid JSON'],
    [() => lab.normalize('42\u00ff'), 'scenario', 'unexpected text after the scenario at byte 3'],
    [() => lab.normalize(`{"system":"${'é'.repeat(3000)}`), 'scenario', 'invalid JSON'],
    [() => lab.simulate({ system: 'oscillator', params: { [accented]: 1 } }), `params.a${'é'.repeat(15)}…`, 'unknown parameter'],
    [() => lab.inspectLagrangian({ coordinates: ['x'], lagrangian: `x'^2 + ${accented}` }), 'params.lagrangian', 'at column 9'],
  ];
  for (const [fn, field, text] of cases) {
    const e = assertClean(errorOf(fn), field);
    assert.ok(e.message.includes(text), e.message);
    // (the JSON parser's token may end inside a character: that one becomes U+FFFD)
    if (field !== 'scenario') assert.ok(!e.message.includes('\ufffd'), `a replacement character in ${e.message}`);
  }
  for (const [fn] of cases) for (let i = 0; i < 5; i++) errorOf(fn); // warm up
  const heap = lab.heapUsed();
  const bytes = lab.heapBytes();
  for (let i = 0; i < 1000; i++) for (const [fn] of cases) errorOf(fn);
  // a leaked exception costs 0.2–7 KB per call: 1000 calls would be megabytes
  assert.ok(lab.heapUsed() - heap < 4096, `heap grew by ${lab.heapUsed() - heap} bytes over ${1000 * cases.length} bad calls`);
  assert.equal(lab.heapBytes(), bytes);
  assertHealthy();
});

test('a link whose integrator is cut inside a character names the field', () => {
  const e = errorOf(() => decodeState(lab, `#integrator=a${'%C3%A9'.repeat(20)}`));
  assertClean(e, 'integrator');
  assert.match(e.message, /unknown id "aé+…" \(41 bytes\)/);
});

test('messages say what and where, and stay under 300 characters', () => {
  assert.match(
    assertClean(
      errorOf(() => lab.normalize('{"system":"oscillator","h":1e999}')),
      'h',
    ).message,
    /^vilab: h: must be a finite number, got 1e999 \(beyond the range of a double\)$/,
  );
  assertClean(
    errorOf(() => lab.normalize('{"system":"chain","params":{"masses":[1,-1e400]}}')),
    'params.masses[1]',
  );
  // Megabytes in the token the JSON parser quotes, in a value, in a key
  const big = 'x'.repeat(4e6);
  assertClean(
    errorOf(() => lab.normalize(`"${big}`)),
    'scenario',
  );
  assertClean(
    errorOf(() => lab.normalize(`{"system":"oscillator","h":"${big}"}`)),
    'h',
  );
  assertClean(
    errorOf(() => lab.normalize(`{"${big}":1}`)),
    `${'x'.repeat(32)}…`,
  );
  assertClean(
    errorOf(() => lab.normalize(`{"system":${'7'.repeat(4e6)}}`)),
    'system',
  );
  assertClean(
    errorOf(() => lab.normalize({ system: 'oscillator', integrator: 'z'.repeat(5000) })),
    'integrator',
  );
  assertHealthy();
});

test('options are own properties only: inherited names are unknown keys, never Object.prototype', () => {
  const sim = () => lab.simulate({ system: 'oscillator' }, options);
  let options;
  for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
    options = JSON.parse(`{"${key}": 1}`); // an own key, even "__proto__"
    assertClean(errorOf(sim), `options.${key}`);
    assert.match(errorOf(sim).message, /unknown option \(known: historyStride, historyCapacity\)$/);
  }
  // inherited keys are errors naming them, never silently ignored
  options = Object.create({ historyStride: 5 });
  assert.match(assertClean(errorOf(sim), 'options.historyStride').message, /is inherited, not an own property/);
  const s = lab.simulate({ system: 'oscillator' }, {});
  assertClean(
    errorOf(() => s.setState(Object.create({ q: s.q, p: s.p }))),
    'state.q',
  );
  assertClean(
    errorOf(() => s.setState({ q: s.q, p: s.p, constructor: 1 })),
    'state.constructor',
  );
  assertClean(
    errorOf(() => s.advanceFor({ maxSteps: 1, budgetMs: 10, toString: 1 })),
    'limits.toString',
  );
  assertClean(
    errorOf(() => s.advanceFor(Object.create({ maxSteps: 1, budgetMs: 10 }))),
    'limits.maxSteps',
  );
  s.dispose();
});

test('createLab options are own properties only', async () => {
  await assert.rejects(createLab({ constructor: 1 }), (e) => assertClean(e, 'options.constructor') && true);
  await assert.rejects(createLab(JSON.parse('{"__proto__": 1}')), (e) => assertClean(e, 'options.__proto__') && true);
  await assert.rejects(createLab(Object.create({ locateFile: () => 'elsewhere' })), (e) => assertClean(e, 'options.locateFile') && true);
  assert.equal(await createLab(Object.create(null)), lab);
});

test('history.read(from): a whole number below 2^53, never a wrapped cast', () => {
  const sim = lab.simulate(REF);
  sim.advance(10);
  for (const from of [2 ** 64, 2 ** 53, 1e300, -0.5])
    assertClean(
      errorOf(() => sim.history.read(from)),
      'from',
    );
  const last = sim.history.read(Number.MAX_SAFE_INTEGER);
  assert.equal(last.count, 0);
  assert.equal(sim.history.read(0).count, 11);
  sim.dispose();
});

test('exactRigidBody: Pi(t) and orientation(t) refuse t out of range instead of throwing raw or returning NaN', () => {
  for (const inertia of [
    [1, 2, 3],
    [1, 1, 1],
    [1, 1, 1.5],
  ]) {
    const exact = lab.exactRigidBody({
      system: 'rigid-body',
      params: { inertia },
      initial: { orientation: [1, 0, 0, 0], omega: [0.3, 1, 0.2] },
    });
    for (const t of [1e300, -1e300, 1e10, Infinity, NaN]) {
      assertClean(
        errorOf(() => exact.Pi(t)),
        't',
      );
      assertClean(
        errorOf(() => exact.orientation(t)),
        't',
      );
    }
    for (const t of [1e9, -1e9, 0, 12.5]) {
      assert.ok(exact.Pi(t).every(Number.isFinite), `Pi(${t})`);
      const q = exact.orientation(t);
      assert.ok(q.every(Number.isFinite), `orientation(${t})`);
      assert.ok(Math.abs(Math.hypot(...q) - 1) < 1e-6);
    }
    exact.dispose();
  }
});

// Every number a simulation reports: state, diagnostics (with the JS-side kinetic and
// potential), the natural variables, every history column and the CSV row.
function assertReportedFinite(sim, label) {
  const bad = (x) => !Number.isFinite(x);
  assert.ok(!sim.q.some(bad) && !sim.p.some(bad), `${label}: state ${sim.q} ${sim.p}`);
  const walk = (v, path) => {
    if (typeof v === 'number') assert.ok(Number.isFinite(v), `${label}: diagnostics ${path} = ${v}`);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  walk(sim.diagnostics(), 'diagnostics');
  assert.ok(!sim.variables().some(bad), `${label}: variables`);
  const { columns } = sim.history.read();
  for (const [name, values] of Object.entries(columns)) assert.ok(!values.some(bad), `${label}: history ${name}`);
  assert.doesNotMatch(sim.csvRow(), /inf|nan/i, `${label}: csv`);
}

// Steps until refused (or n steps); returns the refusal.
function runUntilRefused(sim, n) {
  try {
    sim.advance(n);
    return null;
  } catch (e) {
    assertClean(e);
    assert.equal(typeof e.code, 'string');
    return e;
  }
}

test('a step that overflows is refused at once; setState is bounded like initial data', () => {
  for (const [scenario, first, last] of [
    [{ system: 'oscillator', integrator: 'rk4', h: 0.1, params: { stiffness: 1000 } }, 430, 470],
    [{ system: 'oscillator', integrator: 'euler', h: 1 }, 950, 1025],
  ]) {
    const sim = lab.simulate(scenario);
    const e = runUntilRefused(sim, 3000);
    assert.ok(e, `${scenario.integrator} ran 3000 steps`);
    assert.equal(e.code, 'non-finite');
    assert.ok(e.step >= first && e.step <= last, `refused at step ${e.step}`);
    assert.equal(sim.step, e.step - 1);
    assertReportedFinite(sim, scenario.integrator);
    sim.dispose();
  }
  const osc = lab.simulate({ system: 'oscillator' });
  assertClean(
    errorOf(() => osc.setState({ q: osc.q, p: osc.p.map((x) => (x + 1) * 1e300) })),
    'p[0]',
  );
  const body = lab.simulate({ system: 'rigid-body' });
  assertClean(
    errorOf(() => body.setState({ q: body.q, p: [1e6, 0, 0] })),
    'p[0]',
  ); // 1e6 rad/s
  assert.match(errorOf(() => body.setState({ q: body.q, p: [1e6, 0, 0] })).message, /at most 1e4 rad\/s/);
  assertReportedFinite(body, 'rigid body');
  osc.dispose();
  body.dispose();
});

// Hostile settings per model: the largest h, enormous velocities, folded links,
// extreme parameters. Each either runs or is refused clearly, keeping its state.
function hostileScenarios(system) {
  const id = system.id;
  const defaults = lab.normalize({ system: id });
  const hMax = { h: system.h.max };
  switch (system.model) {
    case 'chain': {
      const { lengths } = defaults.params;
      const planar = !Array.isArray(defaults.initial.angles[0]);
      const rates = lengths.map(() => (planar ? 1e4 : [1e4, 1e4]));
      // every link folded back onto the one before it, moving sideways
      let z = 0;
      const positions = lengths.map((l, i) => [0, 0, (z += i % 2 ? l : -l)]);
      const velocities = lengths.map((_, i) => [i % 2 ? -1 : 1, 0, 0]);
      return [
        hMax,
        { ...hMax, initial: { angles: defaults.initial.angles, rates } },
        { initial: { positions, velocities } },
        { ...hMax, initial: { positions, velocities } },
      ];
    }
    case 'oscillator':
      return [hMax, { ...hMax, params: { mass: 1e-6, stiffness: 1e6 }, initial: { position: 1e6, velocity: 1e6 } }];
    case 'rigid-body':
      return [
        hMax,
        { ...hMax, initial: { orientation: [1, 0, 0, 0], omega: [1e4, -1e4, 1e4] } },
        { ...hMax, params: { inertia: [1, 1, 2] }, initial: { orientation: [1, 0, 0, 0], omega: [1e4, 1e-3, 0] } },
      ];
    case 'field':
      // a pluck of 1e5 and a velocity of 1e5 everywhere (the explicit methods blow up: refused, never NaN)
      return [hMax, { ...hMax, initial: { u: '1e5*sin(pi*x)', ut: '1e5' } }];
    case 'mechanism': {
      // every body's velocity and spin ×1e3 (the joints' velocity constraints are linear, so they still hold)
      const fast = (v) => (v ?? [0, 0, 0]).map((x) => 1e3 * x);
      const bodies = defaults.params.bodies.map((b) => ({ ...b, velocity: fast(b.velocity), omega: fast(b.omega) }));
      return [hMax, { ...hMax, params: { ...defaults.params, bodies } }];
    }
    default:
      return [
        hMax,
        {
          ...hMax,
          initial: { q: [1e6, 1e6].slice(0, defaults.params.coordinates.length), qdot: defaults.params.coordinates.map(() => 1e6) },
        },
      ];
  }
}

test('every shipped system and integrator under hostile settings: refused clearly or runs, never NaN/Infinity, never a hang', () => {
  let cases = 0;
  let refused = 0;
  for (const pair of registryPairs()) {
    const system = lab.system(pair.system);
    for (const extra of hostileScenarios(system)) {
      const scenario = { ...pair, ...extra };
      const label = `${pairLabel(pair)} ${JSON.stringify(extra).slice(0, 120)}`;
      let sim;
      try {
        sim = lab.simulate(scenario);
      } catch (e) {
        assertClean(e); // refused as input (e.g. the integrator's options)
        continue;
      }
      cases++;
      const t0 = performance.now();
      let steps = 0;
      try {
        for (let k = 0; k < 4 && steps < 400; k++) steps += sim.advanceFor({ maxSteps: 100, budgetMs: 20 }).steps;
      } catch (e) {
        assertClean(e);
        assert.ok(e.step >= 1 && e.code, `${label}: ${e.message}`);
        assert.equal(sim.step, e.step - 1, label);
        refused++;
      }
      const ms = performance.now() - t0;
      assert.ok(ms < 5000, `${label}: ${ms.toFixed(0)} ms`);
      assertReportedFinite(sim, label);
      // a rigid body at 1e6 rad/s: refused as input, the state kept
      if (system.model === 'rigid-body') {
        const { q, p } = sim;
        assertClean(
          errorOf(() => sim.setState({ q, p: sim.p.map((x, i) => (i === 0 ? 1e6 * sim.scenario().params.inertia[0] : x)) })),
          'p[0]',
        );
        assert.deepEqual([...sim.q, ...sim.p], [...q, ...p]);
      }
      sim.dispose();
    }
  }
  assert.ok(cases > 100, `${cases} cases ran`);
  assert.ok(refused > 0, 'no hostile case was refused');
  assertHealthy();
});
