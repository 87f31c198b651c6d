// The docs' generated parts (scripts/gen-docs.mjs) are current with the registry: the
// applicability table of docs/scenarios.md lists every system's integrators, those of the
// page's first load apart, and its time steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SCENARIOS_FILE, scenariosSource, applicabilityTable } from '../../scripts/gen-docs.mjs';
import { lab } from './helpers.mjs';

test("docs/scenarios.md's applicability table is current with the registry (node scripts/gen-docs.mjs)", () => {
  const text = readFileSync(SCENARIOS_FILE, 'utf8');
  assert.equal(text, scenariosSource(lab, text));
  const table = applicabilityTable(lab);
  for (const s of lab.systems) {
    const row = table.split('\n').find((line) => line.startsWith(`| \`${s.id}\``));
    assert.ok(row, s.id);
    for (const id of s.integrators) assert.match(row, new RegExp(`[|,] ${id}[,| ]`), `${s.id}: ${id}`);
  }
});
