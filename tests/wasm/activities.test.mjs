// The teacher layer's registry (web/sim/activities.js): every shipped preset and every
// lesson has a prediction activity, in English and in Spanish; its answer is one of its
// choices; the choices that name A and B only where the preset or lesson sets up a B; and
// no activity or catalogue key is left for a preset or lesson that does not exist. Needs
// no wasm: it reads the data files the page reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ACTIVITIES, ACTIVITY_FIELDS, RUN_CHOICES, activityFor, activityKeys, choiceKey } from '../../web/sim/activities.js';
import { LESSONS } from '../../web/sim/lessons.js';
import en from '../../web/i18n/en/activities.js';
import es from '../../web/i18n/es/activities.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const json = (path) => JSON.parse(readFileSync(root + path, 'utf8'));

/** The shipped presets as web/sim/presets.js builds them: { id, compare }. */
function presets() {
  const out = [];
  for (const file of ['scenes/presets.json', 'scenes/rigid_body_presets.json']) {
    for (const p of json(file)) out.push({ id: p.id, compare: p.compare ?? null });
  }
  return [...out, ...scenePresets('lagrangian'), ...scenePresets('fields'), ...scenePresets('mechanisms')];
}

/** The presets of scenes/<folder>/*.json: { id, compare }. */
function scenePresets(folder) {
  const out = [];
  for (const f of readdirSync(`${root}scenes/${folder}`).filter((f) => f.endsWith('.json'))) {
    const { about } = json(`scenes/${folder}/${f}`);
    if (about?.title) out.push({ id: f.replace(/\.json$/, ''), compare: about.compare ?? null });
  }
  return out;
}

/** Lessons with the B their set-up compares with (their own, or their preset's: a field's lesson names a field preset). */
function lessons(presetList) {
  const all = [...presetList, ...scenePresets('fields')];
  return LESSONS.map((l) => ({
    id: l.id,
    compare: l.preset ? (all.find((p) => p.id === l.preset)?.compare ?? null) : (l.compare ?? null),
  }));
}

const letters = (s) => s.replace(/\{\w+\}|[^A-Za-zÀ-ÿ]/g, '');
const LANGS = { en, es };

/** The keys an entry's words need (as activityKeys, for any registry: the negative control tampers with a copy). */
function keysOf(kind, id, entry) {
  const own = entry.choices.filter((c) => !RUN_CHOICES.includes(c)).map((c) => `activity.${kind}.${id}.choice.${c}`);
  return [...ACTIVITY_FIELDS.map((f) => `activity.${kind}.${id}.${f}`), ...own];
}

/** What is wrong with a registry and its catalogues for these presets and lessons: one line per problem. */
function problems(registry, catalogues, list) {
  const out = [];
  for (const [kind, items] of Object.entries(list)) {
    for (const { id, compare } of items) {
      const a = registry[kind]?.[id];
      if (!a) {
        out.push(`${kind} ${id}: no activity`);
        continue;
      }
      if (a.choices.length < 2 || new Set(a.choices).size !== a.choices.length) out.push(`${kind} ${id}: two or more distinct choices`);
      if (!a.choices.includes(a.answer)) out.push(`${kind} ${id}: the answer ${a.answer} is not a choice`);
      if (!compare && a.choices.some((c) => c === 'B' || c === 'both')) out.push(`${kind} ${id}: a choice names B, but no B is set up`);
      for (const key of keysOf(kind, id, a)) {
        for (const [lang, cat] of Object.entries(catalogues))
          if (typeof cat[key] !== 'string' || letters(cat[key]).length < 3) out.push(`${lang}: ${key} missing`);
        if (catalogues.es[key] === catalogues.en[key]) out.push(`es: ${key} not translated`);
      }
    }
  }
  return out;
}

test('every preset and every lesson has an activity, with its words in English and Spanish', () => {
  const list = { preset: presets(), lesson: lessons(presets()) };
  assert.ok(list.preset.length >= 40, `${list.preset.length} presets read (fields and mechanisms among them)`);
  assert.ok(list.lesson.length >= 6, `${list.lesson.length} lessons read`);
  assert.deepEqual(problems(ACTIVITIES, LANGS, list), []);
  // the page's helpers agree with the check
  for (const [kind, items] of Object.entries(list))
    for (const { id } of items) {
      const a = activityFor(kind, id);
      assert.deepEqual(activityKeys(kind, id), keysOf(kind, id, a));
      for (const c of a.choices) assert.ok(en[choiceKey(kind, id, c)] && es[choiceKey(kind, id, c)], `${kind} ${id}: words of ${c}`);
    }
});

test('negative control: a missing activity, a missing Spanish text, an answer outside its choices, a B that is not there', () => {
  const list = { preset: presets(), lesson: lessons(presets()) };
  const registry = structuredClone(ACTIVITIES);
  delete registry.preset.kepler;
  registry.preset.dzhanibekov.answer = 'wobbles';
  registry.preset['tennis-racket'].choices = ['A', 'B'];
  registry.preset['tennis-racket'].answer = 'A';
  const spanish = { ...es };
  delete spanish['activity.lesson.lu-clock.answer'];
  spanish['activity.preset.fput.question'] = en['activity.preset.fput.question'];
  const found = problems(registry, { en, es: spanish }, list);
  for (const expected of [
    'preset kepler: no activity',
    'preset dzhanibekov: the answer wobbles is not a choice',
    'preset tennis-racket: a choice names B, but no B is set up',
    'es: activity.lesson.lu-clock.answer missing',
    'es: activity.preset.fput.question not translated',
  ])
    assert.ok(found.includes(expected), `caught: ${expected} (found ${found.join('; ')})`);
  assert.equal(activityFor('preset', 'no-such-preset'), null);
});

test('no activity, and no word of one, for a preset or lesson that does not exist', () => {
  const ids = { preset: new Set(presets().map((p) => p.id)), lesson: new Set(LESSONS.map((l) => l.id)) };
  for (const [kind, entries] of Object.entries(ACTIVITIES))
    for (const id of Object.keys(entries)) assert.ok(ids[kind].has(id), `${kind} ${id} has an activity but does not exist`);
  for (const [lang, cat] of [
    ['en', en],
    ['es', es],
  ]) {
    for (const key of Object.keys(cat)) {
      const m = key.match(/^activity\.(preset|lesson)\.(.+)\.(question|measure|answer|choice\.\w+)$/);
      if (!m) continue;
      assert.ok(activityKeys(m[1], m[2]).includes(key), `${lang}: ${key} belongs to no activity`);
    }
    // the common words: the same keys in both languages
    const common = (c) => Object.keys(c).filter((k) => !/^activity\.(preset|lesson)\./.test(k));
    assert.deepEqual(common(cat).sort(), common(en).sort(), `${lang}: the card's and the sheet's words`);
  }
  assert.match(en['activity.choice.A'], /\{a\}/);
  assert.match(en['activity.choice.B'], /\{b\}/);
  assert.match(es['activity.choice.A'], /\{a\}/);
  assert.match(es['activity.choice.B'], /\{b\}/);
});
