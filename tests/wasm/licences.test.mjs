// The licence bundle's data (web/pwa/licences.json) against what the build compiles: each
// C++ component's version equals the installed headers' (when present), each npm one
// resolves, and LICENSE's third-party part names every component at the same version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { LICENCE_DATA, licenceText } from '../../web/pwa/licences.js';

const INCLUDE = '/usr/include/';

test('each C++ component has the version of the headers the build uses', (t) => {
  const withHeaders = LICENCE_DATA.components.filter((c) => c.header);
  assert.ok(withHeaders.length >= 3);
  for (const c of withHeaders) {
    const file = INCLUDE + c.header.file;
    if (!existsSync(file)) {
      t.diagnostic(`${file} absent: ${c.name} not checked`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    const parts = [...text.matchAll(new RegExp(`#define ${c.header.pattern}`, 'g'))].map((m) => m[1]);
    assert.equal(parts.slice(0, 3).join('.'), c.version, c.name);
  }
});

test("LICENSE names every component of the bundle, and the bundle starts with vilab's licence", () => {
  const license = readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8');
  for (const c of LICENCE_DATA.components) {
    const first = c.name.split(' ')[0];
    assert.ok(license.includes(first), `LICENSE lacks ${first}`);
    if (c.version) assert.ok(license.includes(`${first} ${c.version}`), `LICENSE lacks ${first} ${c.version}`);
  }
  const bundle = licenceText();
  assert.ok(bundle.includes('MIT License\n\nCopyright (c) 2026 the vilab authors'));
  assert.equal((bundle.match(/^-{78}$/gm) ?? []).length, LICENCE_DATA.components.length, 'one section per component');
});
