// The embedding protocol's pure parts (web/state/messages.js), in Node: which ids are
// echoed, what a change of the page's document is called and which paths it names, and
// the list of change kinds the same in the code, the client's types and the docs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, lab } from './helpers.mjs';
import { readId, parseMessage, changeOf, changedPaths, CHANGES, MessageError } from '../../web/state/messages.js';

test('readId: a safe integer or a string of at most 64 characters, else null', () => {
  for (const id of [0, -7, 2 ** 53 - 1, '', 'S0', 'x'.repeat(64)]) assert.equal(readId({ type: 'vilab:get', id }), id);
  for (const id of [1.5, 2 ** 53, Number.NaN, 'x'.repeat(65), null, {}, [], true]) assert.equal(readId({ type: 'vilab:get', id }), null);
  assert.equal(readId({ type: 'vilab:get' }), null);
  assert.equal(readId('vilab:get'), null);
  // the refused step of the protocol's first version answered id null: its id is readable
  assert.throws(() => parseMessage({ type: 'vilab:step', steps: 0, id: 'S0' }), MessageError);
  assert.equal(readId({ type: 'vilab:step', steps: 0, id: 'S0' }), 'S0');
});

const doc = (scenario, rest = {}) => ({ scenario, compare: null, speed: 1, stepsPerFrame: 0, window: 0, ...rest });

test('changeOf names a change after the most telling part that differs, with every path', () => {
  const base = lab.normalize({ system: 'pendulum' });
  const a = doc(base);
  const cases = [
    [doc(lab.normalize({ system: 'oscillator' })), 'system'],
    [doc({ ...base, integrator: 'rk4' }), 'integrator', ['integrator']],
    [
      doc(lab.normalize({ system: 'pendulum', integrator: 'alpha', options: { alpha: 0.5 } })),
      'integrator',
      ['integrator', 'options.alpha'],
    ],
    [doc({ ...base, h: 0.02 }), 'h', ['h']],
    [doc({ ...base, params: { ...base.params, g: 3.7 } }), 'parameter', ['params.g']],
    [doc({ ...base, initial: { ...base.initial, angles: [0.5] } }), 'initial', ['initial.angles']],
    [doc(base, { compare: 'rk4' }), 'compare', ['compare']],
    [doc(base, { speed: 2 }), 'pace', ['speed']],
    [doc({ ...base, h: 0.02, params: { ...base.params, g: 1 } }, { compare: 'rk4' }), 'h', ['h', 'params.g', 'compare']],
  ];
  for (const [next, kind, fields] of cases) {
    const c = changeOf(next, a);
    assert.equal(c.change, kind, JSON.stringify(next));
    if (fields) assert.deepEqual(c.fields, fields);
  }
  assert.equal(changeOf(doc({ ...base }), a), null, 'an equal document is no change');
  assert.deepEqual(changeOf(doc(base), a, { cause: 'preset', preset: 'p1' }), { change: 'preset', preset: 'p1', fields: [] });
  assert.equal(changeOf(doc({ ...base, h: 0.02 }), a, { cause: 'link' }).change, 'link');
  assert.deepEqual(changedPaths(doc({ ...base, params: { ...base.params, extra: 1 } }), a), ['params.extra']);
});

test("the change kinds: the code's list, the client's types and docs/embedding.md agree", () => {
  const types = readFileSync(join(root, 'web/sim/embed-client.d.ts'), 'utf8');
  const union = /change:\s*((?:\s*\|?\s*'[a-z]+')+);/.exec(types)[1];
  assert.deepEqual([...union.matchAll(/'([a-z]+)'/g)].map((m) => m[1]).sort(), [...CHANGES].sort());
  const docs = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
  for (const kind of CHANGES) assert.match(docs, new RegExp('^\\| [^|]*`' + kind + '`', 'm'), `docs/embedding.md lists ${kind}`);
});

test('vilab:load takes compare: a registry id, an external one (MuJoCo) or null; the same refusals as a link', async () => {
  const { compareRefusal } = await import('../../web/sim/external-b.js');
  const scenario = { system: 'mechanism' };
  for (const compare of ['rk4', 'mujoco-rk4', 'mujoco-implicit', null])
    assert.equal(parseMessage({ type: 'vilab:load', scenario, compare }).compare, compare);
  assert.equal('compare' in parseMessage({ type: 'vilab:load', scenario }), false, 'absent: B kept');
  for (const compare of [5, {}, ['rk4'], true]) {
    assert.throws(
      () => parseMessage({ type: 'vilab:load', scenario, compare }),
      (e) => e instanceof MessageError && e.field === 'compare',
    );
  }
  assert.throws(
    () => parseMessage({ type: 'vilab:play', compare: 'rk4' }),
    (e) => e.field === 'compare',
    'only vilab:load takes it',
  );
  assert.equal(compareRefusal(lab, 'mujoco-rk4', 'mechanism'), null);
  assert.equal(compareRefusal(lab, 'mujoco-implicit', 'mechanism'), null);
  assert.equal(compareRefusal(lab, 'rk4', 'mechanism'), null);
  assert.deepEqual(compareRefusal(lab, 'mujoco-rk4', 'oscillator'), {
    code: 'not-applicable',
    message: 'integrator "mujoco-rk4" does not support oscillator',
  });
  assert.equal(compareRefusal(lab, 'nope', 'mechanism').code, 'unknown-id');
});
