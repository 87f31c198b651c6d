// web/sim/ids.d.ts (the id union types) is generated from the registry and committed:
// it must list exactly the registry's ids, in its order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { idsSource, IDS_FILE } from '../../scripts/gen-ids.mjs';
import { lab } from './helpers.mjs';

test('web/sim/ids.d.ts is current with the registry (node scripts/gen-ids.mjs)', () => {
  assert.equal(readFileSync(IDS_FILE, 'utf8'), idsSource(lab));
  assert.match(readFileSync(IDS_FILE, 'utf8'), /SystemId =\n {2}\| 'oscillator'/, 'not an empty union');
});
