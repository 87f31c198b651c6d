// The licence bundle's data (web/pwa/licences.json) against what the build compiles: each
// C++ component is named at the installed headers' version (when present), and LICENSE's
// third-party part names every component at the data's version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LICENCE_DATA, licenceText, headerVersion } from '../../web/pwa/licences.js';

test('each C++ component is named at the version of the headers the build uses', (t) => {
  const withHeaders = LICENCE_DATA.components.filter((c) => c.header);
  assert.ok(withHeaders.length >= 3);
  const bundle = licenceText();
  for (const c of withHeaders) {
    const installed = headerVersion(c);
    if (!installed) {
      t.diagnostic(`${c.header.file} absent: ${c.name} named at its data version ${c.version}`);
      assert.ok(bundle.includes(`${c.name} ${c.version}\n`));
      continue;
    }
    assert.ok(bundle.includes(`${c.name} ${installed}\n`), `${c.name} ${installed}`);
    if (installed !== c.version) t.diagnostic(`${c.name}: headers ${installed}, licences.json ${c.version}`);
  }
  // no header, no version read
  assert.equal(headerVersion({ header: { file: 'x.h', pattern: 'X (\\d+)' } }, '/nonexistent/'), null);
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

test("Help's words about the licences name every component, in English and Spanish", async () => {
  for (const lang of ['en', 'es']) {
    const words = (await import(`../../web/i18n/${lang}/ship.js`)).default['ship.licences.about'];
    for (const c of LICENCE_DATA.components) {
      const first = c.name.split(' ')[0];
      assert.ok(words.includes(first), `${lang}: ${first}`);
    }
  }
});
