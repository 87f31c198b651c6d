// The registry's prose files (core/prose/README.md): each is named for a registry entry
// and every entry has its English and Spanish files; every Spanish file has the keys of
// its English twin (the same names, as many claims; no equations: LaTeX speaks no
// language); a claim's English words have one translation (the page looks claims up by
// their words); and the registry says what the English files say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lab, root } from './helpers.mjs';

const LANGUAGES = ['en', 'es'];
const ENGLISH_ONLY = ['equations'];
const dir = join(root, 'core/prose');
const entries = { integrators: lab.integrators, systems: lab.systems };
const read = (kind, id, lang) => JSON.parse(readFileSync(join(dir, kind, `${id}.${lang}.json`), 'utf8'));

test('every prose file is named for a registry entry, and every entry has one per language', () => {
  assert.deepEqual(
    readdirSync(dir)
      .filter((f) => f !== 'README.md')
      .sort(),
    Object.keys(entries).sort(),
  );
  for (const [kind, list] of Object.entries(entries)) {
    const ids = list.map((e) => e.id);
    const files = readdirSync(join(dir, kind));
    const stray = files.filter((f) => {
      const m = f.match(/^(.+)\.([a-z]{2})\.json$/);
      return !m || !ids.includes(m[1]) || !LANGUAGES.includes(m[2]);
    });
    assert.deepEqual(stray, [], `${kind}: files that name no entry`);
    const missing = ids.flatMap((id) => LANGUAGES.map((lang) => `${id}.${lang}.json`)).filter((f) => !files.includes(f));
    assert.deepEqual(missing, [], `${kind}: entries without their prose`);
  }
});

/** Where the shape of `b` differs from that of `a` (objects: the same keys; lists: as long; strings: not empty). */
function shapeProblems(a, b, path) {
  if (typeof a === 'string') return typeof b === 'string' && b.trim() ? [] : [`${path}: ${JSON.stringify(b)} is not a text`];
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return [`${path}: not a list`];
    if (a.length !== b.length) return [`${path}: ${b.length} items, English has ${a.length}`];
    return a.flatMap((x, i) => shapeProblems(x, b[i], `${path}[${i}]`));
  }
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return [`${path}: not an object`];
  const out = [];
  for (const key of Object.keys(b)) if (!(key in a)) out.push(`${path}.${key}: not in the English file`);
  for (const key of Object.keys(a)) {
    if (path === '' && ENGLISH_ONLY.includes(key)) {
      if (key in b) out.push(`${key}: English only`);
    } else if (!(key in b)) out.push(`${path}.${key}: missing`);
    else out.push(...shapeProblems(a[key], b[key], `${path}.${key}`));
  }
  return out;
}

test('every Spanish file has the keys of its English twin', () => {
  const problems = [];
  for (const [kind, list] of Object.entries(entries)) {
    for (const { id } of list) {
      const en = read(kind, id, 'en');
      for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
        problems.push(...shapeProblems(en, read(kind, id, lang), '').map((p) => `${kind}/${id}.${lang}.json ${p}`));
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("a claim's English words have one translation in each language", () => {
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    const seen = new Map();
    for (const { id } of lab.integrators) {
      const en = read('integrators', id, 'en').claims;
      const other = read('integrators', id, lang).claims;
      en.forEach((words, i) => {
        if (seen.has(words)) assert.equal(other[i], seen.get(words).text, `"${words}" in ${id} and ${seen.get(words).id}`);
        else seen.set(words, { text: other[i], id });
      });
    }
  }
});

test('the registry says what the English files say', () => {
  for (const integ of lab.integrators) {
    const en = read('integrators', integ.id, 'en');
    for (const f of ['title', 'summary', 'docs', 'citation']) assert.equal(integ[f], en[f], `${integ.id}.${f}`);
    assert.equal(integ.equations, en.equations.join('\\\\'), `${integ.id}.equations`);
    assert.deepEqual(
      integ.claims.map((c) => c.text),
      en.claims,
      `${integ.id}.claims`,
    );
    assert.deepEqual(integ.conserves, en.claims, `${integ.id}.conserves`);
    for (const o of integ.options)
      assert.deepEqual({ title: o.title, description: o.description }, en.options[o.name], `${integ.id}.${o.name}`);
  }
  for (const system of lab.systems) {
    const en = read('systems', system.id, 'en');
    for (const f of ['title', 'description']) assert.equal(system[f], en[f], `${system.id}.${f}`);
    for (const p of system.params)
      assert.deepEqual({ title: p.title, description: p.description }, en.params[p.name], `${system.id}.${p.name}`);
    for (const p of system.initialFields)
      assert.deepEqual({ title: p.title, description: p.description }, en.initialFields[p.name], `${system.id}.${p.name}`);
    if (!system.definition) continue;
    assert.equal(system.definition.notes, en.definition.notes);
    for (const f of system.definition.fields)
      assert.deepEqual({ title: f.title, description: f.description }, en.definition.fields[f.name], f.name);
  }
});
