// The committed style: Biome (format and lint, biome.json) over JS, TS, JSON and CSS, and
// clang-format-14 (.clang-format) over the C++. `npm run format` fixes what these report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { biome, clangFormat } from '../../scripts/style.mjs';

const tail = (text) => text.trim().split('\n').slice(-80).join('\n');

test('JS, TS, JSON and CSS are formatted and lint-clean (biome ci)', () => {
  const r = biome();
  assert.ok(r.ok, `biome ci failed (npm run format fixes formatting):\n${tail(r.output)}`);
});

test('C++ is formatted (clang-format-14 --dry-run -Werror)', () => {
  const r = clangFormat();
  assert.ok(r.ok, `clang-format reports (npm run format fixes it):\n${tail(r.output)}`);
});
