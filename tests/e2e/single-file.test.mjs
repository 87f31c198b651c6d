// The classroom file: dist-single/vilab.html, opened from file:// (a USB stick, a
// download): it moves, plots, loads a preset, and its share links round-trip, with
// no request to any server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { useBrowser, sleep } from './helpers.mjs';

const browser = useBrowser();
const file = fileURLToPath(new URL('../../dist-single/vilab.html', import.meta.url));
const FILE_URL = pathToFileURL(file).toString();

async function open(hash = '') {
  const page = await browser.context.newPage();
  const errors = [];
  const requests = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith('data:') && !u.startsWith('blob:') && !u.startsWith(FILE_URL)) requests.push(u);
  });
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(FILE_URL + hash);
  await page.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 20000 });
  await page.evaluate(() => window.vilabPage.ready);
  return { page, errors, requests };
}

test('one self-contained file: no other file, no network', () => {
  assert.ok(existsSync(file), 'npm run build:single writes dist-single/vilab.html');
  const html = readFileSync(file, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=/i, 'no external script');
  assert.doesNotMatch(html, /<link[^>]+rel="?stylesheet/i, 'no external stylesheet');
  const mb = statSync(file).size / 2 ** 20;
  assert.ok(mb < 8, `${mb.toFixed(2)} MiB`);
});

test('from file://: it moves, plots and loads a preset, with no request beyond the file', async () => {
  const { page, errors, requests } = await open();
  const s0 = await page.evaluate(() => window.vilabPage.sim().step);
  await sleep(600);
  const s1 = await page.evaluate(() => window.vilabPage.sim().step);
  assert.ok(s1 > s0, `it plays (${s0} → ${s1})`);
  await page.evaluate(() => window.vilabPage.drawPlots());
  assert.ok((await page.locator('#plots canvas').count()) >= 2, 'plots are drawn');
  const energy = await page.evaluate(() => window.vilabPage.plotSeries());
  assert.ok(energy && Object.keys(energy).length > 0);
  const presets = await page.evaluate(() => window.vilabPage.presets());
  const preset = presets.find((p) => p !== '');
  await page.selectOption('#preset', preset);
  await page.waitForFunction(() => window.vilabPage.sim()?.step >= 0);
  // the Explain drawer's equations (KaTeX, lazy on the site) are inside the file too
  await page.click('#explain-button');
  await page.waitForSelector('#explain .katex', { timeout: 10000 });
  assert.ok(await page.locator('#open-link').isVisible(), 'the file can open a link');
  // the studies' workers live inside the file too
  await page.keyboard.press('Escape');
  await page.click('#studies-button');
  await page.click('#studies button[data-study="convergence"]');
  await page.waitForFunction(() => /Done|stopped/.test(document.querySelector('#study-convergence .study-status').textContent), null, {
    timeout: 120000,
  });
  assert.equal(await page.locator('#study-convergence .study-status').textContent(), 'Done.');
  // its own policy: each inline script and style by hash, nothing from anywhere
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(policy, /default-src 'none'/);
  assert.match(policy, /script-src 'sha256-[^']+' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(policy, /unsafe-inline|'unsafe-eval'|https?:/);
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no violation');
  assert.deepEqual(requests, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link copied in the file opens in the file on the same step with the same fingerprint; site links open too', async () => {
  const { page, errors } = await open('#system=double-spherical-pendulum&integrator=rk4&h=0.01');
  await page.evaluate(() => window.vilabPage.pause());
  await page.evaluate(() => window.vilabPage.step(300));
  const fp = await page.evaluate(() => window.vilabPage.fingerprint());
  const link = await page.evaluate(() => window.vilabPage.shareURL());
  assert.ok(link.startsWith(FILE_URL), link);
  const hash = link.slice(link.indexOf('#'));
  await page.close();

  const opened = await open(hash);
  await opened.page.waitForFunction(() => !document.querySelector('#fp-check')?.hidden, null, { timeout: 20000 });
  assert.match(await opened.page.locator('#fp-check').textContent(), /✓/);
  assert.equal(await opened.page.evaluate(() => window.vilabPage.fingerprint()), fp);
  assert.equal(await opened.page.evaluate(() => window.vilabPage.playing()), false, 'lands paused');

  // "Open link" takes a link of the hosted page: the same # part
  opened.page.once('dialog', (d) => d.accept(`https://vilab.example.org/course/${hash.replace('integrator=rk4', 'integrator=midpoint')}`));
  await Promise.all([opened.page.waitForEvent('load'), opened.page.click('#open-link')]);
  await opened.page.waitForFunction(() => window.vilabPage?.sim?.(), null, { timeout: 20000 });
  assert.equal(await opened.page.evaluate(() => window.vilabPage.state().scenario.integrator), 'midpoint');
  assert.deepEqual(errors, []);
  await opened.page.close();
});

test('Copy link in the file (built without VITE_SITE_URL) warns that a file:// link opens only on this computer', async () => {
  const { page, errors } = await open('#system=oscillator');
  await page.evaluate(() => window.vilabPage.pause());
  for (const lang of ['en', 'es']) {
    await page.selectOption('#language', lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    await page.click('#copy-link');
    const banner = page.locator('.banner[data-key="share"]');
    await banner.waitFor();
    const words = await page.evaluate((l) => window.vilabPage.i18n.catalogue(l)['words.share.fileOnly'].trim(), lang);
    assert.equal(await banner.getAttribute('data-local'), 'true');
    assert.match(await banner.getAttribute('class'), /\bwarn\b/);
    assert.ok((await banner.textContent()).includes(words), `${lang}: ${await banner.textContent()}`);
    assert.ok((await banner.locator('code').textContent()).startsWith('file://'));
  }
  assert.deepEqual(errors, []);
  await page.close();
});
