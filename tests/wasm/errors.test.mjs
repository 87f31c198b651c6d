// Bad input gives a clear VilabError ('vilab: <field>: <problem>'), never a crash
// or a hang, and the module still works afterwards (assertInputError checks a
// fresh run's hash after every case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, REF, assertInputError, assertHealthy, registryPairs, canonicalSizes, pairLabel } from './helpers.mjs';

const DSP = { system: 'double-spherical-pendulum', integrator: 'midpoint' };
// The DSP's largest h, as the registry publishes it, in the form messages print it.
const H_MAX = lab.system(DSP.system).h.max;
const H_RANGE = `must be in \\(0, ${String(H_MAX).replace('.', '\\.')}\\]`;
const MB = 1 << 20;
const simulate = (scenario, options) => () => lab.simulate(scenario, options).dispose();
const normalize = (scenario) => () => lab.normalize(scenario);

// [case, scenario, field, problem pattern]
const scenarioCases = [
  // NaN or Infinity anywhere
  ['h NaN', { ...DSP, h: NaN }, 'h', /finite number, got NaN/],
  ['h Infinity', { ...DSP, h: Infinity }, 'h', /finite number, got Infinity/],
  ['g -Infinity', { ...DSP, params: { g: -Infinity } }, 'params.g', /finite number, got -Infinity/],
  ['mass NaN', { ...DSP, params: { masses: [1, NaN] } }, 'params.masses[1]', /finite/],
  ['length Infinity', { ...DSP, params: { lengths: [Infinity, 1] } }, 'params.lengths[0]', /finite/],
  [
    'angle NaN',
    {
      ...DSP,
      initial: {
        angles: [
          [1.6, NaN],
          [2.2, 0.8],
        ],
      },
    },
    'initial.angles[0][1]',
    /finite/,
  ],
  [
    'rate Infinity',
    {
      ...DSP,
      initial: {
        angles: [
          [1.6, 0],
          [2.2, 0.8],
        ],
        rates: [
          [0, 1],
          [Infinity, 0],
        ],
      },
    },
    'initial.rates[1][0]',
    /finite/,
  ],
  [
    'position NaN',
    {
      ...DSP,
      initial: {
        positions: [
          [1, 0, 0],
          [NaN, 0, 0],
        ],
      },
    },
    'initial.positions[1][0]',
    /finite/,
  ],
  [
    'velocity NaN',
    { system: 'pendulum', initial: { positions: [[0, 0, -1]], velocities: [[NaN, 0, 0]] } },
    'initial.velocities[0][0]',
    /finite/,
  ],
  ['oscillator position NaN', { system: 'oscillator', initial: { position: NaN } }, 'initial.position', /finite/],
  ['NaN in JSON text', '{"system":"oscillator","h":NaN}', 'scenario', /invalid JSON/],
  // h ≤ 0 or too large
  ['h 0', { ...DSP, h: 0 }, 'h', new RegExp(`${H_RANGE}, got 0$`)],
  ['h negative', { ...DSP, h: -0.01 }, 'h', new RegExp(H_RANGE)],
  ['h -0', { ...DSP, h: -0 }, 'h', new RegExp(H_RANGE)],
  [
    'h above the system maximum',
    { ...DSP, h: 2 * H_MAX },
    'h',
    new RegExp(
      `${H_RANGE}, got ${2 * H_MAX} \\(with a larger step no structure-preserving integrator solves the default double-spherical-pendulum motion\\)$`,
    ),
  ],
  // negative or zero masses and lengths
  ['mass negative', { ...DSP, params: { masses: [-1, 1] } }, 'params.masses[0]', /must be in \(0, .*got -1/],
  ['mass zero', { ...DSP, params: { masses: [1, 0] } }, 'params.masses[1]', /must be in \(0, .*got 0/],
  ['length zero', { ...DSP, params: { lengths: [1, 0] } }, 'params.lengths[1]', /got 0/],
  ['length negative', { system: 'chain', params: { masses: [1, 1, 1], lengths: [1, -2, 1] } }, 'params.lengths[1]', /got -2/],
  ['oscillator mass zero', { system: 'oscillator', params: { mass: 0 } }, 'params.mass', /got 0/],
  ['oscillator stiffness negative', { system: 'oscillator', params: { stiffness: -1 } }, 'params.stiffness', /got -1/],
  ['negative gravity', { ...DSP, params: { g: -9.81 } }, 'params.g', /must be in \[0/],
  // arrays of the wrong length
  ['too few masses', { ...DSP, params: { masses: [1] } }, 'params.masses', /expected 2 entries, got 1/],
  ['too many masses', { ...DSP, params: { masses: [1, 1, 1] } }, 'params.masses', /expected 2 entries, got 3/],
  ['lengths unlike masses', { system: 'chain', params: { masses: [1, 1, 1], lengths: [1, 1] } }, 'params.lengths', /expected 3/],
  [
    'chain of 65',
    { system: 'chain', params: { masses: Array(65).fill(1), lengths: Array(65).fill(1) } },
    'params.masses',
    /1 to 64 entries, got 65/,
  ],
  ['empty chain', { system: 'chain', params: { masses: [], lengths: [] } }, 'params.masses', /got 0/],
  ['too few angle rows', { ...DSP, initial: { angles: [[1.6, 0]] } }, 'initial.angles', /expected 2 entries/],
  ['short angle row', { ...DSP, initial: { angles: [[1.6], [2.2, 0.8]] } }, 'initial.angles[0]', /expected 2 entries, got 1/],
  [
    'long position row',
    {
      ...DSP,
      initial: {
        positions: [
          [1, 0, 0, 0],
          [2, 0, 0],
        ],
      },
    },
    'initial.positions[0]',
    /expected 3 entries, got 4/,
  ],
  // unknown ids and extra unknown fields
  ['unknown system', { system: 'nope' }, 'system', /unknown id "nope" \(known: .*double-spherical-pendulum/],
  ['unknown integrator', { ...DSP, integrator: 'nope' }, 'integrator', /unknown id "nope" \(known: .*midpoint/],
  [
    'integrator of another system',
    { system: 'oscillator', integrator: 'generalized' },
    'integrator',
    /does not apply to system "oscillator"/,
  ],
  ['extra top-level field', { ...DSP, foo: 1 }, 'foo', /unknown field/],
  ['extra parameter', { ...DSP, params: { foo: 1 } }, 'params.foo', /unknown parameter/],
  [
    'extra initial field',
    {
      ...DSP,
      initial: {
        angles: [
          [1, 0],
          [1, 0],
        ],
        foo: 1,
      },
    },
    'initial.foo',
    /unknown field/,
  ],
  ['extra option', { ...DSP, options: { foo: 1 } }, 'options.foo', /not an option/],
  [
    'angles and positions',
    {
      ...DSP,
      initial: {
        angles: [
          [1, 0],
          [1, 0],
        ],
        positions: [
          [1, 0, 0],
          [2, 0, 0],
        ],
      },
    },
    'initial',
    /not both/,
  ],
  // strings where numbers belong (and other wrong types)
  ['h string', { ...DSP, h: '0.01' }, 'h', /must be a number, got string "0.01"/],
  ['mass string', { ...DSP, params: { masses: ['1', 1] } }, 'params.masses[0]', /must be a number, got string/],
  ['g string', { ...DSP, params: { g: 'x' } }, 'params.g', /must be a number/],
  [
    'angle string',
    {
      ...DSP,
      initial: {
        angles: [
          ['a', 0],
          [2.2, 0.8],
        ],
      },
    },
    'initial.angles[0][0]',
    /must be a number/,
  ],
  ['h boolean', { ...DSP, h: true }, 'h', /must be a number, got true/],
  ['h null', { ...DSP, h: null }, 'h', /must be a number, got null/],
  ['masses a number', { ...DSP, params: { masses: 1 } }, 'params.masses', /must be an array/],
  ['params an array', { ...DSP, params: [] }, 'params', /must be an object/],
  ['initial a string', { ...DSP, initial: 'x' }, 'initial', /must be an object/],
  ['system a number', { system: 5 }, 'system', /must be a string id, got 5/],
  ['system missing', {}, 'system', /is required/],
  ['scenario null', null, 'scenario', /must be an object or JSON text, got null/],
  ['scenario an array', [DSP], 'scenario', /must be an object/],
  ['scenario a number', 42, 'scenario', /must be an object/],
  ['scenario undefined', undefined, 'scenario', /must be an object/],
  ['invalid JSON text', '{"system":', 'scenario', /invalid JSON/],
  // off the constraint manifold
  [
    'off-manifold positions',
    {
      ...DSP,
      initial: {
        positions: [
          [1, 0, 0],
          [2, 0, 0.5],
        ],
      },
    },
    'initial.positions[1]',
    /off the constraint manifold: .* = 0.118034 > 1e-9/,
  ],
  [
    'non-tangent velocity',
    { system: 'spherical-pendulum', initial: { positions: [[0, 0, -1]], velocities: [[0, 0, 1]] } },
    'initial.velocities[0]',
    /not tangent/,
  ],
  [
    'planar pendulum out of plane',
    { system: 'pendulum', initial: { positions: [[0.6, 0, -0.8]], velocities: [[0, 1, 0]] } },
    'initial.velocities[0][1]',
    /x–z plane/,
  ],
  // a 1 MB string, anywhere
  ['1 MB system id', { system: 'x'.repeat(MB) }, 'system', /\(1048576 bytes\)/],
  ['1 MB h', { ...DSP, h: 'y'.repeat(MB) }, 'h', /must be a number, got string "y{32}…" \(1048576 bytes\)/],
  ['1 MB parameter name', { ...DSP, params: { ['k'.repeat(MB)]: 1 } }, `params.${'k'.repeat(32)}…`, /unknown parameter/],
  ['1 MB field name', { ...DSP, ['f'.repeat(MB)]: 1 }, `${'f'.repeat(32)}…`, /unknown field/],
  ['1 MB scenario text', 'z'.repeat(MB), 'scenario', /invalid JSON/],
  ['5 MB scenario', { ...DSP, pad: 'p'.repeat(5 * MB) }, 'scenario', /too large \(\d+ bytes; the limit is 4 MiB\)/],
  // nesting
  ['nested 40 deep', { ...DSP, params: { masses: JSON.parse('['.repeat(40) + ']'.repeat(40)) } }, 'scenario', /nested too deeply/],
  [
    'nested 100000 deep (text)',
    `{"system":"chain","params":{"masses":${'['.repeat(1e5)}${']'.repeat(1e5)}}}`,
    'scenario',
    /nested too deeply/,
  ],
];

for (const [name, scenario, field, pattern] of scenarioCases) {
  test(`simulate() and normalize(): ${name}`, () => {
    assertInputError(simulate(scenario), field, pattern);
    assertInputError(normalize(scenario), field, pattern);
  });
}

test('a JS object nested too deeply for JSON.stringify', () => {
  let deep = [];
  for (let i = 0; i < 1e5; i++) deep = [deep];
  assertInputError(simulate({ ...DSP, params: { masses: deep } }), 'scenario', /nested too deeply/);
});

test('a scenario that cannot be encoded (a cycle)', () => {
  const cyclic = { ...DSP };
  cyclic.params = { self: cyclic };
  assertInputError(simulate(cyclic), 'scenario', /cannot be encoded as JSON/);
});

test('simulate() options: unknown, wrong type, out of range', () => {
  assertInputError(simulate(REF, { foo: 1 }), 'options.foo', /unknown option \(known: historyStride, historyCapacity\)$/);
  // The time budget moved from an option to advanceFor().
  assertInputError(simulate(REF, { timeBudgetMs: 50 }), 'options.timeBudgetMs', /unknown option/);
  assertInputError(simulate(REF, { historyStride: 0 }), 'options.historyStride', /integer in \[1, 1000000\], got 0/);
  assertInputError(simulate(REF, { historyStride: 1.5 }), 'options.historyStride', /got 1.5/);
  assertInputError(simulate(REF, { historyStride: '2' }), 'options.historyStride', /got string "2"/);
  assertInputError(simulate(REF, { historyStride: NaN }), 'options.historyStride', /got NaN/);
  assertInputError(simulate(REF, { historyCapacity: 2 << 20 }), 'options.historyCapacity', /integer in \[1, 1048576\]/);
  assertInputError(simulate(REF, 'fast'), 'options', /must be an object/);
  assertInputError(simulate(REF, null), 'options', /must be an object/);
});

test('advance(n): n must be a non-negative integer', () => {
  const sim = lab.simulate(REF);
  for (const [n, got] of [
    [-1, /got -1/],
    [1.5, /got 1.5/],
    [NaN, /got NaN/],
    [Infinity, /got Infinity/],
    ['5', /got string "5"/],
    [null, /got null/],
    [5n, /got bigint/],
    [2 ** 53, /got 9007199254740992/],
  ]) {
    assertInputError(() => sim.advance(n), 'n', got);
  }
  assert.equal(sim.step, 0, 'a refused call takes no step');
  sim.advance(3);
  assert.equal(sim.step, 3, 'the simulation still works');
  sim.dispose();
});

test('advanceFor({ maxSteps, budgetMs }): both required, maxSteps a non-negative integer, budgetMs in the limits', () => {
  const sim = lab.simulate(REF);
  const call = (arg) => () => sim.advanceFor(arg);
  for (const [maxSteps, got] of [
    [-1, /got -1/],
    [0.5, /got 0.5/],
    [NaN, /got NaN/],
    [Infinity, /got Infinity/],
    ['9', /got string "9"/],
    [undefined, /got undefined/],
  ]) {
    assertInputError(call({ maxSteps, budgetMs: 10 }), 'maxSteps', got);
  }
  for (const [budgetMs, got] of [
    [NaN, /got NaN/],
    [Infinity, /got Infinity/],
    ['5', /got string "5"/],
    [undefined, /got undefined/],
  ]) {
    assertInputError(call({ maxSteps: 10, budgetMs }), 'budgetMs', got);
  }
  const { min, max } = lab.limits.budgetMs;
  for (const budgetMs of [0, -1, min / 10, max + 1]) {
    assertInputError(call({ maxSteps: 10, budgetMs }), 'budgetMs', /must be a number in \[0\.1, 60000\]/);
  }
  assertInputError(() => sim.advanceFor(), 'maxSteps', /got undefined/);
  assert.equal(sim.step, 0, 'a refused call takes no step');
  assert.deepEqual(sim.advanceFor({ maxSteps: 3, budgetMs: 100 }), { steps: 3, done: true });
  sim.dispose();
});

test('setState(): wrong shapes, non-finite numbers, strings, unknown fields, off-manifold data', () => {
  const sim = lab.simulate(REF);
  sim.advance(10);
  const { q, p } = { q: sim.q, p: sim.p };
  const hash = sim.hash();
  const cases = [
    [{ q: q.subarray(0, 5), p }, 'q', /expected 6 numbers, got 5/],
    [{ q, p: [...p, 0] }, 'p', /expected 6 numbers, got 7/],
    [{ q: [...q.subarray(0, 5), NaN], p }, 'q[5]', /finite number, got NaN/],
    [{ q, p: [Infinity, ...p.subarray(1)] }, 'p[0]', /finite number, got Infinity/],
    [{ q: ['1', ...q.subarray(1)], p }, 'q[0]', /must be a number, got string "1"/],
    [{ q: 'x'.repeat(MB), p }, 'q', /must be an array or a Float64Array, got a string of 1048576 characters/],
    [{ q }, 'p', /must be an array/],
    [{ q, p, extra: 1 }, 'state.extra', /unknown field/],
    [null, 'state', /must be \{ q, p \}/],
    [{ q: q.map((x, i) => (i < 3 ? x * (1 + 1e-6) : x)), p }, 'q[0]', /off the constraint manifold: .* = 1e-06 > 1e-9/],
    [{ q, p: p.map((x, i) => (i === 2 ? x + 0.1 : x)) }, 'p[0]', /not tangent to the constraint manifold/],
  ];
  for (const [state, field, pattern] of cases) assertInputError(() => sim.setState(state), field, pattern);
  assert.equal(sim.hash(), hash, 'a refused setState leaves the state alone');
  assert.equal(sim.step, 10);
  sim.dispose();
});

test("setState() on every pair: the sizes it asks for are the model's, and a unit quaternion for rigid bodies", () => {
  for (const pair of registryPairs()) {
    const sim = lab.simulate(pair);
    const sizes = canonicalSizes(sim.scenario());
    const { q, p } = sim;
    assertInputError(() => sim.setState({ q: [...q, 0], p }), 'q', new RegExp(`expected ${sizes.q} numbers, got ${sizes.q + 1}`));
    assertInputError(() => sim.setState({ q, p: p.subarray(1) }), 'p', new RegExp(`expected ${sizes.p} numbers, got ${sizes.p - 1}`));
    if (lab.system(pair.system).model === 'rigid-body') {
      assertInputError(() => sim.setState({ q: q.map((x) => 1.001 * x), p }), 'q', /must be a unit quaternion/);
    }
    assert.equal(sim.step, 0, pairLabel(pair));
    sim.dispose();
  }
});

test('history.read(from): from must be a non-negative integer', () => {
  const sim = lab.simulate(REF);
  assertInputError(() => sim.history.read(-1), 'from', /non-negative integer/);
  assertInputError(() => sim.history.read('0'), 'from', /non-negative integer/);
  sim.dispose();
});

test('use after dispose() is an error, and the module goes on', () => {
  const sim = lab.simulate(REF);
  sim.dispose();
  assertInputError(() => sim.advance(1), 'simulation', /used after dispose\(\)/);
  assertHealthy();
});
