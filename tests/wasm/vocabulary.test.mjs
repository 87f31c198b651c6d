// The closed vocabularies (core/include/vilab/vocabulary.hpp) as the JS API publishes
// them (lab.vocabulary): frozen, the registry's own lists; every VilabError the API throws
// along many error paths carries a code from them (refused steps also an action); every
// code the JS layer writes itself is published; and no file of the repository copies a
// list by hand again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lab, root, createLab, VilabError, assertVocabularyCode } from './helpers.mjs';

test("lab.vocabulary is the registry's, deep-frozen, and its ids are distinct", () => {
  assert.deepEqual(lab.vocabulary, JSON.parse(lab.registryText()).vocabulary);
  assert.ok(Object.isFrozen(lab.vocabulary));
  for (const [key, ids] of Object.entries(lab.vocabulary)) {
    assert.ok(Object.isFrozen(ids), key);
    assert.ok(ids.length > 0, key);
    assert.equal(new Set(ids).size, ids.length, `${key} has duplicates`);
  }
  // a refused step's code and any other error's never share an id
  assert.deepEqual(
    lab.vocabulary.refusalCodes.filter((c) => lab.vocabulary.inputErrorCodes.includes(c)),
    [],
  );
});

test('registry entries use only the published ids', () => {
  const v = lab.vocabulary;
  for (const s of lab.systems) {
    assert.ok(v.models.includes(s.model), s.id);
    assert.ok(v.views.includes(s.view), s.id);
    assert.ok(v.states.includes(s.state), s.id);
    if (s.exact) assert.ok(v.exactSolutions.includes(s.exact.solution), s.id);
  }
  for (const i of lab.integrators) {
    assert.ok(v.families.includes(i.family), i.id);
    for (const c of i.claims) assert.ok(v.claimKinds.includes(c.kind), `${i.id}: ${c.text}`);
  }
  for (const p of [...lab.systems.flatMap((s) => s.params), ...lab.integrators.flatMap((i) => i.options)]) {
    if (p.quantity !== undefined) assert.ok(v.quantities.includes(p.quantity), p.name);
  }
});

test('each system names the parameters its scene reads by quantity, once each', () => {
  // web/scene: the gravity arrow and the controls' places (gravity), the rigid body's box and
  // momentum sphere (principal moments), the heavy top's lever and disc (centre of mass, mass)
  const needs = { linkage: ['gravity'], rigid: ['principal-moments'], top: ['principal-moments', 'center-of-mass', 'mass', 'gravity'] };
  for (const s of lab.systems) {
    const quantities = s.params.map((p) => p.quantity).filter(Boolean);
    assert.equal(new Set(quantities).size, quantities.length, `${s.id}: one parameter per quantity`);
    for (const q of needs[s.view] ?? []) assert.ok(quantities.includes(q), `${s.id} (${s.view}) names its ${q}`);
  }
});

/** The error fn() throws (or its promise rejects with). */
async function errorOf(fn) {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  assert.fail(`no error from ${fn}`);
}

test('every error along many paths carries a code of lab.vocabulary', async () => {
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.1 });
  const gone = lab.simulate({ system: 'oscillator' });
  gone.dispose();
  const exact = lab.exact({ system: 'pendulum' });
  exact.dispose();
  const paths = [
    () => lab.simulate('{"system": '),
    () => lab.simulate({ system: 3 }),
    () => lab.simulate({ system: 'pendulum2' }),
    () => lab.simulate({ integrator: 'midpoint' }),
    () => lab.simulate({ system: 'pendulum', h: -1 }),
    () => lab.simulate({ system: 'pendulum', h: NaN }),
    () => lab.simulate({ system: 'pendulum', bogus: 1 }),
    () => lab.simulate({ system: 'pendulum', params: { masses: [1, 2] } }),
    () => lab.simulate({ system: 'pendulum', integrator: 'quaternion' }),
    () => lab.simulate({ system: 'rigid-body', initial: { orientation: [1, 1, 0, 0] } }),
    () => lab.simulate({ system: 'rigid-body', params: { inertia: [1, 2, 4] } }),
    () => lab.simulate({ system: 'lagrangian', params: { coordinates: ['x'], lagrangian: "x'^2 +" } }),
    () => lab.simulate({ system: 'lagrangian', params: { coordinates: ['x', 'x'], lagrangian: "x'^2" } }),
    () => lab.simulate({ system: 'oscillator', integrator: 'rk4' }, { historyStride: 0 }),
    () => lab.simulate({ system: 'oscillator' }, { bogus: 1 }),
    () => lab.simulate(42),
    () => lab.simulate('x'.repeat(5 << 20)),
    () => lab.normalize({ system: 'chain', initial: { angles: [[1, 0]], positions: [[0, 0, -1]] }, params: { masses: [1], lengths: [1] } }),
    () => lab.inspectLagrangian({ coordinates: ['x'], lagrangian: 'sin(' }),
    () => lab.inspectLagrangian(null),
    () => lab.exact({ system: 'heavy-top' }),
    () => lab.exact({ system: 'oscillator', params: { damping: 1 } }),
    () => lab.exactPendulum({ system: 'oscillator' }),
    () => lab.exactRigidBody({ system: 'pendulum' }),
    () => lab.exactPendulum({ system: 'pendulum' }).at(Infinity),
    () => exact.at(0),
    () => sim.advance(-1),
    () => sim.advance('1'),
    () => sim.advance(5000),
    () => sim.advanceFor({ maxSteps: 1 }),
    () => sim.advanceFor({ maxSteps: 1, budgetMs: 0 }),
    () => sim.setState(null),
    () => sim.setState({ q: [1, 2], p: [0, 0] }),
    () => sim.setState({ q: [1, 0, 0, 3, 0, 0], p: [0, 0, 0, 0, 0, 0] }),
    () => sim.setState({ r: 1 }),
    () => sim.history.read(-1),
    () => gone.advance(1),
    () => gone.q,
    () => createLab(null),
    () => createLab({ build: 'tiny' }),
    () => createLab({ wasmBinary: new Uint8Array(8) }),
    // bytes that are no module, for the lean build (not loaded yet in this process), then the lean build itself
    () => createLab({ build: 'lean', wasmBinary: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 255]) }),
    async () => (await createLab({ build: 'lean' })).simulate({ system: 'lagrangian' }),
  ];
  const seen = new Set();
  for (const path of paths) {
    const e = await errorOf(path);
    assert.ok(e instanceof VilabError, `${path}: not a VilabError: ${e?.stack ?? e}`);
    assertVocabularyCode(e);
    seen.add(e.code);
  }
  sim.dispose();
  // The walk reaches every input error code but those of a defect or an exhausted heap.
  const unreached = new Set(['internal', 'out-of-memory']);
  assert.deepEqual(
    lab.vocabulary.inputErrorCodes.filter((c) => !seen.has(c) && !unreached.has(c)),
    [],
    `seen: ${[...seen].join(', ')}`,
  );
  assert.ok(
    lab.vocabulary.refusalCodes.some((c) => seen.has(c)),
    'no refused step',
  );
});

test('every code the JS layer writes itself is published', () => {
  const source = readFileSync(join(root, 'web/sim/vilab.js'), 'utf8');
  const written = [
    ...[...source.matchAll(/inputError\('([a-z-]+)'/g)].map((m) => m[1]),
    ...[...source.matchAll(/code: '([a-z-]+)'/g)].map((m) => m[1]),
    ...[...source.matchAll(/inputError\(deep \? '([a-z-]+)' : '([a-z-]+)'/g)].flatMap((m) => [m[1], m[2]]),
  ];
  assert.ok(written.length >= 20, `only ${written.length} codes found`);
  for (const code of written) assert.ok(lab.vocabulary.inputErrorCodes.includes(code), `vilab.js writes code ${code}`);
  const action = [...readFileSync(join(root, 'web/sim/runner.js'), 'utf8').matchAll(/action: '([a-z-]+)'/g)].map((m) => m[1]);
  for (const a of action) assert.ok(lab.vocabulary.suggestionActions.includes(a), `runner.js writes action ${a}`);
});

test("each refusal code has the page's words for it, in every language", async () => {
  for (const language of ['en', 'es']) {
    const { default: texts } = await import(`../../web/i18n/${language}/failure.js`);
    for (const code of lab.vocabulary.refusalCodes) assert.ok(texts[`failure.code.${code}`], `${language}: failure.code.${code}`);
  }
});

/** Source files of the repository where a vocabulary could be copied by hand. */
function sources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(m?js|ts)$/.test(name)) out.push(path);
  }
  return out;
}

test('no file copies a vocabulary list by hand (two codes or actions side by side in an array, a regex or a comment)', () => {
  // The generated unions and their generator are the one place the lists are written out.
  const allowed = new Set(['web/sim/ids.d.ts', 'scripts/gen-ids.mjs']);
  // Input error codes made of common words (type, range, …) would match anything: only the distinctive ones.
  const lists = {
    refusalCodes: lab.vocabulary.refusalCodes,
    suggestionActions: lab.vocabulary.suggestionActions,
    inputErrorCodes: lab.vocabulary.inputErrorCodes.filter((c) => c.includes('-')),
  };
  const found = [];
  for (const path of ['web', 'tests', 'scripts', 'bench'].flatMap((d) => sources(join(root, d)))) {
    const file = relative(root, path);
    if (allowed.has(file)) continue;
    const text = readFileSync(path, 'utf8');
    for (const [list, ids] of Object.entries(lists)) {
      // an id quoted, or an alternative of a regular expression: 'some-code', (some-code|other-code)
      const hits = [];
      for (const id of ids) {
        for (const m of text.matchAll(new RegExp(`(?<=['"\`(|])${id}(?=['"\`)|])`, 'g'))) hits.push({ id, at: m.index });
      }
      hits.sort((a, b) => a.at - b.at);
      // two different ids with only quotes, commas, bars, brackets or spaces between them make a list
      for (let k = 1; k < hits.length; k++) {
        const between = text.slice(hits[k - 1].at + hits[k - 1].id.length, hits[k].at);
        if (hits[k].id !== hits[k - 1].id && /^[\s'"`,|()[\]]*$/.test(between)) {
          found.push(`${file}: ${list} ${hits[k - 1].id}, ${hits[k].id}`);
          break;
        }
      }
    }
  }
  assert.deepEqual(found, [], 'read lab.vocabulary instead');
});
