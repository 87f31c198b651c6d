// Every output carries the licences: dist/LICENSES.txt (linked from Help) and the single
// file's script#licences hold vilab's licence and each third-party notice, with where
// Eigen's source is (MPL-2.0 §3.2); the page's Help opens them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useBrowser, openPage } from './helpers.mjs';

const browser = useBrowser();
const at = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const version = (pkg) => JSON.parse(readFileSync(at(`node_modules/${pkg}/package.json`), 'utf8')).version;

// each notice by words of its own (not from the bundle's data file)
const NOTICES = [
  ['vilab', 'Copyright (c) 2026 the vilab authors'],
  ['MIT terms', 'Permission is hereby granted, free of charge'],
  ['Eigen', 'Eigen 3.4.0'],
  ['MPL-2.0 text', 'Mozilla Public License Version 2.0'],
  ['MPL-2.0 §3.2 upstream source', 'https://gitlab.com/libeigen/eigen/-/archive/3.4.0/eigen-3.4.0.tar.gz'],
  ['MPL-2.0 §3.2 Debian source', 'https://sources.debian.org/src/eigen3/3.4.0-4/'],
  ['nlohmann/json', 'Copyright (c) 2013-2022 Niels Lohmann'],
  ['PEGTL', 'Copyright (c) 2007-2022 Dr. Colin Hirsch and Daniel Frey'],
  ['musl', 'Copyright (c) 2005-2020 Rich Felker, et al.'],
  ['fdlibm', 'Copyright (C) 1993 by Sun Microsystems, Inc.'],
  ['Arm optimized-routines', 'Copyright (c) 2018, Arm Limited'],
  ['Emscripten', 'Copyright (c) 2010-2022 The Emscripten Authors'],
  ['NCSA', 'University of Illinois/NCSA Open Source License'],
  ['LLVM exception', 'Apache License v2.0 with'],
  ['three.js', `three.js (with its OrbitControls add-on) ${version('three')}`],
  ['three.js notice', 'three.js authors'],
  ['uPlot', `uPlot ${version('uplot')}`],
  ['uPlot notice', 'Copyright (c) 2022 Leon Sorokin'],
  ['KaTeX', `KaTeX (code and CSS) ${version('katex')}`],
  ['KaTeX notice', 'Khan Academy and other contributors'],
  ['KaTeX fonts', 'SIL OPEN FONT LICENSE'],
  ['KaTeX fonts holders', 'Copyright (c) 2009-2010, Design Science, Inc.'],
];

function carried() {
  const html = readFileSync(at('dist-single/vilab.html'), 'utf8');
  const m = html.match(/<script type="text\/plain" id="licences">([\s\S]*?)<\/script>/);
  assert.ok(m, 'the single file carries script#licences');
  return m[1];
}

test('dist/LICENSES.txt and the single file carry every notice', () => {
  assert.ok(existsSync(at('dist/LICENSES.txt')), 'npm run build writes dist/LICENSES.txt');
  const outputs = { 'dist/LICENSES.txt': readFileSync(at('dist/LICENSES.txt'), 'utf8'), 'dist-single/vilab.html': carried() };
  for (const [name, text] of Object.entries(outputs)) {
    for (const [what, words] of NOTICES) assert.ok(text.includes(words), `${name} lacks ${what}: "${words}"`);
  }
  assert.equal(outputs['dist/LICENSES.txt'].trim(), outputs['dist-single/vilab.html'].trim(), 'one bundle, both outputs');
  // negative control: a bundle without Eigen's source would fail the check above
  const stripped = outputs['dist/LICENSES.txt'].replaceAll('sources.debian.org', 'x');
  assert.ok(!NOTICES.every(([, words]) => stripped.includes(words)));
});

test("the site's Help links LICENSES.txt; the single file's Help shows the carried text", async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1');
  await page.click('#help-button');
  const href = await page.locator('#licences-link').getAttribute('href');
  const response = await page.request.get(new URL(href, page.url()).toString());
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-type'], /^text\/plain/);
  assert.match(await response.text(), /Mozilla Public License/);
  // a plain build (no vilab.html beside it) offers no download that would fail
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#download-offline').isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();

  const single = await browser.context.newPage();
  await single.goto(new URL('../../dist-single/vilab.html', import.meta.url).toString());
  await single.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 30000 });
  await single.evaluate(() => window.vilabPage.ready);
  await single.click('#help-button');
  await single.click('#licences-link');
  assert.equal(await single.locator('#licences-link').getAttribute('aria-expanded'), 'true');
  assert.match(await single.locator('#licences-text').textContent(), /Niels Lohmann[\s\S]*SIL OPEN FONT LICENSE/);
  await single.close();
});
