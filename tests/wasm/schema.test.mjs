// The scenarios' JSON Schema (web/sim/schema.js, shipped as web/sim/scenario.schema.json,
// printed by `npx vilab schema`), checked with a real validator (Ajv, strict): current
// with the registry, a valid draft-07 schema, accepting every shipped scene and every
// scenario the API accepts, and rejecting the API's bad-input corpus wherever the API's
// refusal is one of structure (a name, a type, a range, a length, a missing field).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { lab, root, runWasmCli } from './helpers.mjs';
import { random, mutateScenario } from './hostile-inputs.mjs';
import { scenarioSchema } from '../../web/sim/schema.js';
import { SCHEMA_FILE } from '../../scripts/gen-schema.mjs';

const schema = scenarioSchema(lab);
const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(schema);

/**
 * Refusals a schema can see: the scenario's structure (a name, a type, a range, a length, a
 * missing field, …): every input error code but those only the core can judge (an
 * expression's grammar, names that clash, degenerate data, data off the manifold).
 */
const CORE_ONLY = new Set(['syntax', 'conflict', 'invalid', 'off-manifold']);
const STRUCTURAL = new Set(lab.vocabulary.inputErrorCodes.filter((code) => !CORE_ONLY.has(code)));

/**
 * Structural refusals a schema generated from the registry cannot make, each with why:
 * the registry publishes no ranges for initial data (the core bounds their magnitudes),
 * and counts that must agree with one another are no single field's.
 */
const KNOWN_GAPS = [
  { field: /^initial\./, code: 'range', why: 'the magnitudes of initial data are not in the registry' },
  { field: /^params\.(masses|lengths)$/, code: 'length', why: 'one length per mass: counts that must agree' },
];
const gapOf = (api) => KNOWN_GAPS.find((g) => g.code === api.code && g.field.test(api.field ?? ''));

function apiVerdict(scenario) {
  try {
    lab.normalize(scenario);
    return { ok: true };
  } catch (e) {
    // a problem at a column of an expression is the expression language's, not the structure's
    return { ok: false, code: e.column === undefined ? e.code : 'expression', field: e.field, message: e.message };
  }
}

const schemaText = (errors) => JSON.stringify(errors?.slice(0, 3));

function shippedScenes() {
  const scenes = [];
  for (const file of ['presets.json', 'rigid_body_presets.json']) {
    for (const p of JSON.parse(readFileSync(join(root, 'scenes', file), 'utf8'))) scenes.push([`${file}: ${p.id}`, p.scenario]);
  }
  for (const file of readdirSync(join(root, 'scenes', 'lagrangian'))) {
    const { about: _about, ...scenario } = JSON.parse(readFileSync(join(root, 'scenes', 'lagrangian', file), 'utf8'));
    scenes.push([`lagrangian/${file}`, scenario]);
  }
  for (const s of lab.systems) scenes.push([`defaults of ${s.id}`, s.defaults]);
  return scenes;
}

test('web/sim/scenario.schema.json is current with the registry (node scripts/gen-schema.mjs) and is what `vilab schema` prints', () => {
  const text = readFileSync(SCHEMA_FILE, 'utf8');
  assert.deepEqual(JSON.parse(text), schema);
  const cli = runWasmCli(['schema']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, text);
});

test('a valid draft-07 schema, every system and integrator in it', () => {
  assert.equal(ajv.validateSchema(schema), true, schemaText(ajv.errors));
  assert.deepEqual(
    schema.properties.system.enum,
    lab.systems.map((s) => s.id),
  );
  assert.deepEqual(
    schema.properties.integrator.enum,
    lab.integrators.map((i) => i.id),
  );
  for (const i of lab.integrators) assert.ok(schema.definitions[`options.${i.id}`], i.id);
});

test('every shipped scene, and its normalized form, is accepted', () => {
  const scenes = shippedScenes();
  assert.ok(scenes.length >= 30, `${scenes.length} scenes`);
  for (const [name, scenario] of scenes) {
    assert.equal(validate(scenario), true, `${name}: ${schemaText(validate.errors)}`);
    assert.equal(validate(lab.normalize(scenario)), true, `${name} normalized: ${schemaText(validate.errors)}`);
  }
});

// One bad scenario per rule the schema holds, each refused by the API too (the corpus' fixed part).
const FIXED = [
  { system: 'no-such-system' },
  { system: 'x\u001b[2J\u0000' },
  { system: 'pendulum', 'ab\u0000cd': 1 },
  { system: 'pendulum', integrator: 'no-such' },
  { system: 'oscillator', integrator: 'quaternion' },
  { system: 'pendulum', h: 4.9e-324 },
  { system: 'pendulum', h: -0.01 },
  { system: 'double-spherical-pendulum', h: 0.5 },
  { system: 'rigid-body', h: 1e-6 },
  { system: 'pendulum', h: '0.01' },
  { system: 'pendulum', params: { g: -1 } },
  { system: 'pendulum', params: { g: Number.NaN } },
  { system: 'oscillator', params: { mass: 0 } },
  { system: 'oscillator', params: { spring: 1 } },
  { system: 'double-spherical-pendulum', params: { masses: [1, 1, 1] } },
  { system: 'double-spherical-pendulum', params: { masses: [1, -2] } },
  { system: 'heavy-top', params: { com: [0, 0] } },
  { system: 'oscillator', initial: { position: [1] } },
  { system: 'oscillator', initial: { speed: 1 } },
  { system: 'rigid-body', initial: { orientation: [1, 0, 0] } },
  { system: 'pendulum', integrator: 'alpha', options: { alpha: 2 } },
  { system: 'pendulum', integrator: 'alpha', options: { beta: 0.1 } },
  { system: 'pendulum', integrator: 'symplectic-euler', options: { variant: 0.5 } },
  { system: 'pendulum', options: { alpha: 0.5 } },
  { system: 'pendulum', integrator: 'dopri5', options: { tol: 1 } },
  { system: 'lagrangian', initial: { q: [0], qdot: [0] } },
  { system: 'lagrangian', params: { coordinates: ['x'] }, initial: { q: [0], qdot: [0] } },
  { system: 'lagrangian', params: { coordinates: ['1x'], lagrangian: 'x' }, initial: { q: [0], qdot: [0] } },
  { system: 'lagrangian', params: { coordinates: ['x'], lagrangian: "x'^2/2", mass: 1 }, initial: { q: [0], qdot: [0] } },
  { system: 'lagrangian', params: { coordinates: ['x'], lagrangian: "x'^2/2", constants: { k: 1e13 } }, initial: { q: [0], qdot: [0] } },
  { system: 'lagrangian', params: { coordinates: ['x'], lagrangian: "x'^2/2", damping: -1 }, initial: { q: [0], qdot: [0] } },
  {
    system: 'lagrangian',
    params: { coordinates: ['x'], lagrangian: "x'^2/2", bodies: [{ position: ['x', '0'] }] },
    initial: { q: [0], qdot: [0] },
  },
  {
    system: 'lagrangian',
    params: { coordinates: ['x'], lagrangian: "x'^2/2", bodies: [{ position: ['x', '0', '0'], link: 'chain', anchor: [0, 0, 0] }] },
    initial: { q: [0], qdot: [0] },
  },
  {
    system: 'lagrangian',
    params: { coordinates: ['x'], lagrangian: "x'^2/2", bodies: [{ kind: 'table' }] },
    initial: { q: [0], qdot: [0] },
  },
  {
    system: 'lagrangian',
    params: { coordinates: ['x'], lagrangian: "x'^2/2", bodies: [{ kind: 'hoop', position: [0, 0, 0] }] },
    initial: { q: [0], qdot: [0] },
  },
  {
    system: 'lagrangian',
    params: { coordinates: ['x'], lagrangian: "x'^2/2", bodies: [{ kind: 'wire', points: [[0, 0, 0]] }] },
    initial: { q: [0], qdot: [0] },
  },
  {
    system: 'lagrangian',
    params: { coordinates: Array.from({ length: 17 }, (_, i) => `q${i}`), lagrangian: "q0'^2/2" },
    initial: { q: [0], qdot: [0] },
  },
  { system: 'lagrangian', params: { coordinates: ['x'], lagrangian: "x'^2/2" }, initial: { q: [0], qdot: [0], p: [0] } },
];

test('the fixed bad scenarios: each refused by the API and by the schema', () => {
  for (const scenario of FIXED) {
    const api = apiVerdict(scenario);
    assert.equal(api.ok, false, `the API takes ${JSON.stringify(scenario)}`);
    assert.equal(validate(scenario), false, `the schema takes ${JSON.stringify(scenario)} (the API: ${api.message})`);
  }
  // negative control: the schema without its per-system rules lets most of them through
  const { allOf: _rules, ...top } = scenarioSchema(lab);
  const shallow = ajv.compile({ ...top, $id: 'urn:vilab:scenario-shallow' });
  const through = FIXED.filter((s) => shallow(s)).length;
  assert.ok(through >= FIXED.length / 2, `${through} of ${FIXED.length} pass a schema without the registry's rules`);
});

/** The fuzzer's scenario as a JSON document, or null when it is none (a foreign object, a BigInt, a text with text after it). */
function asDocument(value) {
  try {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const doc = JSON.parse(text);
    // NaN and ±Infinity (not JSON) travel as themselves: a JS caller's object is what the schema sees
    return typeof value === 'string' ? doc : structuredClone(value);
  } catch {
    return null;
  }
}

test("the API fuzzer's scenarios (seeds 1 and 2): what the API takes the schema takes; each structural refusal the schema refuses", () => {
  const counts = { cases: 0, documents: 0, taken: 0, refused: 0, structural: 0, semantic: 0, semanticCaught: 0 };
  for (const seed of [1, 2]) {
    const rnd = random(seed);
    for (let i = 0; i < 1500; i++) {
      const value = mutateScenario(rnd);
      counts.cases++;
      const doc = asDocument(value);
      if (doc === null) continue;
      counts.documents++;
      const api = apiVerdict(doc);
      const valid = validate(doc);
      const name = `seed ${seed}, case ${i}: ${JSON.stringify(doc).slice(0, 200)}`;
      if (api.ok) {
        counts.taken++;
        assert.equal(valid, true, `${name}: the API takes it, the schema refuses: ${schemaText(validate.errors)}`);
        continue;
      }
      counts.refused++;
      if (STRUCTURAL.has(api.code)) {
        counts.structural++;
        assert.equal(valid, false, `${name}: the API refuses it (${api.message}), the schema takes it`);
      } else {
        counts.semantic++;
        if (!valid) counts.semanticCaught++;
      }
    }
  }
  // the corpus really holds both kinds (so that the test proves something)
  assert.ok(counts.taken > 300 && counts.structural > 300, JSON.stringify(counts));
  console.log(`# schema against the fuzzer's corpus: ${JSON.stringify(counts)}`);
});

test("the scenario fuzz target's corpus (tests/fuzz/corpus/scenario): the schema agrees with the API on every JSON document", () => {
  const dir = join(root, 'tests', 'fuzz', 'corpus', 'scenario');
  const counts = { files: 0, documents: 0, taken: 0, structural: 0, knownGaps: 0, semantic: 0 };
  for (const file of readdirSync(dir)) {
    counts.files++;
    let doc;
    try {
      doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch {
      continue; // not JSON: refused by any reader before a schema
    }
    counts.documents++;
    const api = apiVerdict(doc);
    const valid = validate(doc);
    if (api.ok) {
      counts.taken++;
      assert.equal(valid, true, `${file}: the API takes it, the schema refuses: ${schemaText(validate.errors)}`);
    } else if (STRUCTURAL.has(api.code) && gapOf(api)) {
      counts.knownGaps++;
    } else if (STRUCTURAL.has(api.code)) {
      counts.structural++;
      assert.equal(valid, false, `${file}: the API refuses it (${api.message}), the schema takes it`);
    } else counts.semantic++;
  }
  assert.ok(counts.knownGaps <= 2, `the known gaps stay few: ${JSON.stringify(counts)}`);
  assert.ok(counts.taken > 50 && counts.structural > 5, JSON.stringify(counts));
  console.log(`# schema against the fuzz corpus: ${JSON.stringify(counts)}`);
});
