// House rules that keep the page driven by the registry: no code outside the registry
// and the tests compares a system id (or a model id, which share names) — what a system
// offers (its view, its exact solution, its lean pairs) comes from its registry entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tracked = (...patterns) =>
  spawnSync('git', ['ls-files', '-z', '--', ...patterns], { cwd: root, encoding: 'utf8' })
    .stdout.split('\0')
    .filter(Boolean);

/** The system ids, from the union generated from the registry (web/sim/ids.d.ts). */
function systemIds() {
  const text = readFileSync(`${root}/web/sim/ids.d.ts`, 'utf8');
  const union = text.match(/export type SystemId =([^;]*);/);
  assert.ok(union, 'ids.d.ts declares SystemId');
  return [...union[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Comparisons with a quoted id: == / != / === / !== on either side, or a switch case. */
function comparisonPattern(ids) {
  const quoted = (n) => `(['"\`])(?:${ids.map(escapeRegExp).join('|')})\\${n}`;
  return new RegExp([`[!=]==?\\s*${quoted(1)}`, `${quoted(2)}\\s*[!=]==?`, `\\bcase\\s+${quoted(3)}\\s*:`].join('|'));
}

/** Lines that compare an id, as file:line: text. Comments are skipped. */
function findComparisons(files, pattern) {
  const hits = [];
  for (const file of files) {
    readFileSync(`${root}/${file}`, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
        if (pattern.test(code)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return hits;
}

test('no code outside the registry and the tests compares a system id', () => {
  const ids = systemIds();
  assert.ok(ids.length >= 8 && ids.includes('pendulum'), ids.join(', '));
  const pattern = comparisonPattern(ids);
  // the check itself: it sees the forms it must refuse
  for (const bad of [`if (s.system === 'pendulum')`, `x !== "rigid-body"`, `'chain' == kind`, `case 'oscillator':`]) {
    assert.ok(pattern.test(bad), `the pattern catches ${bad}`);
  }
  assert.ok(!pattern.test(`lab.system('pendulum')`) && !pattern.test(`{ system: 'chain' }`));
  const js = tracked('web/*.js', 'web/*.mjs', 'scripts/*.mjs', 'scripts/*.js', 'bench/*.mjs', 'bench/*.js').filter(
    (f) => !f.startsWith('web/i18n/'),
  );
  // C++: the systems' own entries (core/src/systems) and the registry define the ids
  const cpp = tracked('core/*.cpp', 'core/*.hpp', 'bindings/*.cpp').filter((f) => !f.startsWith('core/src/systems/'));
  const hits = findComparisons([...js, ...cpp], pattern);
  assert.deepEqual(hits, [], `compare a capability of the registry entry instead:\n${hits.join('\n')}`);
});
