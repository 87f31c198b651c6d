// The API under hostile callers: fixed tricks (a NUL in a key, text after a document,
// foreign objects in every entry point, positions that are not finite, an h too small to
// step) and a seeded fuzzer that mixes them into every entry point. Oracle: each call
// returns, or throws a VilabError whose whole message is what the core wrote (nothing
// cut at a NUL), starts with its field, is bounded, shows no raw control character, and
// has a published code; nothing returned is NaN or infinite; the module stays healthy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, REF, assertHealthy, assertVocabularyCode, VilabError, createLab, henonHeiles } from './helpers.mjs';
import { random, NUMBERS, foreign, mutateScenario } from './hostile-inputs.mjs';

const CONTROL = /\p{Cc}/u;

function errorOf(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('expected an error');
}

// The oracle for a thrown error (what a JS caller and the CLIs receive).
function assertClean(e, field) {
  assert.ok(e instanceof VilabError, `not a VilabError: ${e?.constructor?.name}: ${e?.stack ?? e}`);
  assert.ok(e.message.startsWith('vilab: '), e.message);
  assert.ok(e.message.length <= 300, `${e.message.length} characters`);
  assert.ok(e.message.isWellFormed(), e.message);
  assert.doesNotMatch(e.message, CONTROL, `a raw control character in ${JSON.stringify(e.message)}`);
  assertVocabularyCode(e);
  if (e.step === undefined) {
    assert.equal(typeof e.field, 'string');
    assert.doesNotMatch(e.field, CONTROL);
    if (!e.field.endsWith('…')) assert.ok(e.message.startsWith(`vilab: ${e.field}: `), e.message);
  }
  if (field !== undefined) assert.equal(e.field, field, e.message);
  return e;
}

test('a NUL in a key or value cuts nothing: the whole field, control characters shown as \\u00XX', () => {
  const e = assertClean(
    errorOf(() => lab.normalize({ system: 'pendulum', 'ab\u0000cd': 1 })),
    'ab\\u0000cd',
  );
  assert.match(e.message, /^vilab: ab\\u0000cd: unknown field \(known: system, /);
  const v = assertClean(
    errorOf(() => lab.normalize({ system: 'x\u001b[2J\u0000' })),
    'system',
  );
  assert.match(v.message, /unknown id "x\\u001b\[2J\\u0000"/);
  // the same through a definition's constant, in simulate and in the editor's view
  const params = { coordinates: ['x'], constants: { 'k\u0000': 1 }, lagrangian: "x'^2/2" };
  const s = assertClean(
    errorOf(() => lab.simulate({ system: 'lagrangian', params })),
    'params.constants.k\\u0000',
  );
  assert.match(s.message, /^vilab: params\.constants\.k\\u0000: must be a name/);
  assertClean(
    errorOf(() => lab.inspectLagrangian(params)),
    'params.constants.k\\u0000',
  );
  // keys the JS layer names itself
  assertClean(
    errorOf(() => lab.simulate(REF, { 'a\u0000b': 1 })),
    'options.a\\u0000b',
  );
  assertHealthy();
});

test('only whitespace may follow a scenario: text after its end is refused with its byte', () => {
  const e = assertClean(
    errorOf(() => lab.normalize('{"system":"pendulum"}\u0000 garbage {{{')),
    'scenario',
  );
  assert.equal(e.message, 'vilab: scenario: unexpected text after the scenario at byte 22');
  assert.equal(e.code, 'syntax');
  for (const fn of [
    () => lab.simulate('{"system":"pendulum"}x'),
    () => lab.exact('{"system":"pendulum"}{}'),
    () => lab.exactPendulum('{"system":"pendulum"}\u0000'),
  ])
    assert.match(assertClean(errorOf(fn), 'scenario').message, /unexpected text after the scenario at byte 22$/);
  assert.equal(lab.normalize('{"system":"pendulum"} \n\t').system, 'pendulum');
  assertHealthy();
});

test('visualState() never returns NaN: a body position that is not finite refuses the definition or the step', () => {
  const body = (position, q, qdot = 0) => ({
    system: 'lagrangian',
    integrator: 'midpoint',
    h: 0.01,
    params: { coordinates: ['x'], lagrangian: "x'^2/2 - x^2/2", bodies: [{ position: [position, '0', '0'] }] },
    initial: { q: [q], qdot: [qdot] },
  });
  const e = assertClean(
    errorOf(() => lab.simulate(body('log(x)', -0.5))),
    'params.bodies[0].position[0]',
  );
  assert.equal(e.message, 'vilab: params.bodies[0].position[0]: log(x) is NaN at the initial state');
  assert.match(assertClean(errorOf(() => lab.simulate(body('1/x', 0)))).message, /1\/x is Infinity at the initial state$/);
  assert.match(
    assertClean(
      errorOf(() => lab.simulate(body('1.7e308*x', 0.5))),
      'params.bodies[0].position[0]',
    ).message,
    /number 1\.7e308 is out of range \(beyond ±1e300\) at column 1/,
  );
  // stepping out of the domain: refused, the state kept, everything drawn finite
  const sim = lab.simulate(body('log(x)', 0.05, -1));
  const r = errorOf(() => sim.advance(100));
  assertClean(r);
  assert.equal(r.code, 'non-finite');
  assert.match(r.reason, /bodies\[0\]\.position\[0\] = log\(x\) is NaN/);
  assert.equal(sim.step, r.step - 1);
  assert.ok(sim.visualState().every(Number.isFinite));
  assert.ok(sim.variables().every(Number.isFinite));
  assertClean(
    errorOf(() => sim.setState({ q: [-0.5], p: [0] })),
    'q',
  );
  sim.dispose();
  // negative control: in its domain it runs
  const fine = lab.simulate(body('log(2 + x)', 0.5));
  fine.advance(500);
  assert.ok(fine.visualState().every(Number.isFinite));
  fine.dispose();
});

test('variables() never returns NaN: a penalty bob on the pivot is refused by setState', () => {
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'penalty', h: 0.005 });
  const { q, p } = sim;
  const onPivot = Float64Array.from(q, (x, i) => (i < 3 ? 0 : x));
  const e = assertClean(
    errorOf(() => sim.setState({ q: onPivot, p })),
    'q',
  );
  assert.match(e.message, /link 1 has collapsed \(bob 1 is on the pivot\): its angles are not defined/);
  assert.deepEqual([...sim.q], [...q]); // the last good state is kept
  assert.ok(sim.variables().every(Number.isFinite));
  // off the manifold, not collapsed: penalty takes it, and its variables are finite
  sim.setState({ q: q.map((x) => x * 0.5), p });
  assert.ok(sim.variables().every(Number.isFinite));
  sim.dispose();
});

test('foreign objects in every entry point become VilabErrors naming the field', () => {
  const circular = { coordinates: ['x'], lagrangian: "x'^2/2" };
  circular.self = circular;
  const getter = {
    coordinates: ['x'],
    get lagrangian() {
      throw new Error('no');
    },
  };
  const throwingLength = new Proxy([1, 2, 3], {
    get(target, key) {
      if (key === 'length') throw new Error('length trap');
      return Reflect.get(target, key);
    },
  });
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const sim = lab.simulate(REF);
  const cases = [
    [() => lab.inspectLagrangian(circular), 'params', /cannot be encoded as JSON \(.*circular/],
    [() => lab.inspectLagrangian(getter), 'params', /cannot be encoded as JSON \(no\)/],
    [() => lab.inspectLagrangian(revoked), 'params', /cannot be read/],
    [
      () => lab.inspectLagrangian({ coordinates: ['x'], constants: { k: Number.NaN }, lagrangian: "x'^2/2" }),
      'params.constants.k',
      /got NaN$/,
    ],
    [
      () => lab.inspectLagrangian({ coordinates: ['x'], constants: { k: Infinity }, lagrangian: "x'^2/2" }),
      'params.constants.k',
      /got Infinity$/,
    ],
    [() => lab.simulate(revoked), 'scenario', /cannot be read/],
    [() => lab.normalize(revoked), 'scenario', /cannot be read/],
    [() => lab.simulate(REF, revoked), 'options', /cannot be read/],
    [() => sim.setState({ q: throwingLength, p: sim.p }), 'q', /cannot be read \(length trap\)/],
    [() => sim.setState(revoked), 'state', /cannot be read/],
    [
      () =>
        sim.setState(
          new Proxy(
            {},
            {
              ownKeys: () => {
                throw new Error('keys');
              },
            },
          ),
        ),
      'state',
      /cannot be read/,
    ],
    [() => sim.advanceFor(revoked), 'limits', /cannot be read/],
    [() => sim.advance(revoked), 'n', /got an object that cannot be read/],
    [() => sim.history.read(revoked), 'from', /got an object that cannot be read/],
    [
      () =>
        sim.advanceFor({
          maxSteps: 1,
          get budgetMs() {
            throw new Error('budget');
          },
        }),
      'limits',
      /cannot be read \(budget\)/,
    ],
    // inherited option keys are errors, as documented (own properties only)
    [() => lab.simulate(REF, Object.create({ historyStride: 7 })), 'options.historyStride', /inherited/],
    [() => sim.setState(Object.create({ q: sim.q, p: sim.p })), 'state.q', /inherited/],
    [() => sim.advanceFor(Object.create({ maxSteps: 1, budgetMs: 10 })), 'limits.maxSteps', /inherited/],
  ];
  for (const [fn, field, pattern] of cases) assert.match(assertClean(errorOf(fn), field).message, pattern);
  // a BigInt is its number, as in simulate
  const big = lab.inspectLagrangian({ coordinates: ['x'], constants: { k: 40n }, lagrangian: "x'^2/2 - k*x^2/2" });
  assert.equal(big.params.constants.k, 40);
  assert.equal(lab.normalize({ system: 'oscillator', params: { mass: 2n } }).params.mass, 2);
  sim.dispose();
  assertHealthy();
});

test('createLab: inherited and foreign options are errors too', async () => {
  await assert.rejects(createLab(Object.create({ build: 'lean' })), (e) => assertClean(e, 'options.build') && true);
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  await assert.rejects(createLab(proxy), (e) => assertClean(e, 'options') && true);
});

test('an h so small that every step would be refused is refused at load; the smallest accepted h steps', () => {
  const e = assertClean(
    errorOf(() => lab.normalize({ system: 'pendulum', h: 4.9e-324 })),
    'h',
  );
  assert.match(e.message, /^vilab: h: must be at least 1e-12 s, got 4\.94066e-324/);
  for (const system of lab.systems) {
    // 1e-12 s, or 1e-5 s where the rigid body's quaternion DEL applies (its Newton matrix is
    // singular below ~2e-6 s); on mechanisms the quaternion midpoint steps at 1e-12 s
    const rigidQuaternion = system.integrators.includes('quaternion') && system.id !== 'mechanism';
    assert.equal(system.h.min, rigidQuaternion ? 1e-5 : 1e-12, system.id);
    assert.equal(system.h.minExclusive, false);
    const scenario = system.definition ? { ...henonHeiles } : { system: system.id };
    const sim = lab.simulate({ ...scenario, h: system.h.min });
    sim.advance(10);
    assert.equal(sim.step, 10);
    sim.dispose();
    assertClean(
      errorOf(() => lab.normalize({ ...scenario, h: system.h.min * (1 - 1e-15) })),
      'h',
    );
  }
});

// --- the seeded fuzzer -----------------------------------------------------------------

function checkFinite(sim) {
  for (const values of [sim.q, sim.p, sim.visualState(), sim.variables()])
    assert.ok(values.every(Number.isFinite), 'a non-finite number left the API');
  const walk = (v) =>
    typeof v === 'number' ? assert.ok(Number.isFinite(v)) : v && typeof v === 'object' && Object.values(v).forEach(walk);
  walk(sim.diagnostics());
}

function fuzzCase(rnd) {
  let sim;
  try {
    sim = lab.simulate(mutateScenario(rnd), rnd() < 0.2 ? foreign(rnd, { historyStride: 1 }) : undefined);
  } catch (e) {
    assertClean(e);
    return 'refused';
  }
  try {
    checkFinite(sim);
    const calls = [
      () => sim.advance(Math.floor(rnd() * 50)),
      () => sim.advanceFor(foreign(rnd, { maxSteps: 20, budgetMs: 5 })),
      () => sim.setState(foreign(rnd, { q: foreign(rnd, [...sim.q]), p: sim.p })),
      () => sim.setState({ q: sim.q.map((x) => x * NUMBERS[Math.floor(rnd() * 10)]), p: sim.p }),
      () =>
        lab.inspectLagrangian(
          foreign(rnd, { coordinates: ['x'], constants: { k: NUMBERS[Math.floor(rnd() * NUMBERS.length)] }, lagrangian: "x'^2/2" }),
        ),
    ];
    for (let k = 0; k < 3; k++) {
      try {
        calls[Math.floor(rnd() * calls.length)]();
      } catch (e) {
        assertClean(e);
      }
      checkFinite(sim);
    }
    return 'ran';
  } finally {
    sim.dispose();
  }
}

for (const seed of [1, 2]) {
  test(`the API fuzzer (seed ${seed}): 1500 hostile calls, each returns or throws a clean VilabError`, () => {
    const rnd = random(seed);
    const counts = { refused: 0, ran: 0 };
    for (let i = 0; i < 1500; i++) {
      try {
        counts[fuzzCase(rnd)]++;
      } catch (e) {
        if (e instanceof assert.AssertionError) e.message = `seed ${seed}, case ${i}: ${e.message}`;
        throw e;
      }
    }
    assert.ok(counts.refused > 100 && counts.ran > 100, JSON.stringify(counts));
    assertHealthy();
  });
}
