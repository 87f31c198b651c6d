// The Content-Security-Policy: no inline script, no eval, no third-party origin; the
// page, the wasm, KaTeX, the plots, the exports and the drawers run under it with no
// violation. (The single file's own policy: tests/e2e/single-file.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './helpers.mjs';

const browser = useBrowser();

test('the page declares a strict policy and runs under it with no violation', async () => {
  await browser.context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const { page, errors, foreign } = await openPage(browser.context, '#system=double-spherical-pendulum&compare=rk4');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.doesNotMatch(policy, /unsafe-inline|'unsafe-eval'|https?:/);
  assert.match(policy, /object-src 'none'/);
  assert.match(policy, /base-uri 'none'/);
  // exercise what loads or builds things: KaTeX, plots, enlarge, exports, language
  await page.click('#explain-button');
  await page.waitForSelector('#explain .katex', { timeout: 10000 });
  await page.keyboard.press('Escape');
  await page.evaluate(() => window.vilabPage.step(200));
  await page.evaluate(() => window.vilabPage.drawPlots());
  await page.evaluate(() => window.vilabPage.png());
  await page.evaluate(() => window.vilabPage.csv());
  await page.selectOption('#language', 'es');
  await page.selectOption('#language', 'en');
  await page.click('#embed-code');
  await page.keyboard.press('Escape');
  // inline script is refused (the policy works, not just exists)
  const inlineRan = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 50));
    return window.__inline === 1;
  });
  assert.equal(inlineRan, false, 'an injected inline script does not run');
  const violations = await page.evaluate(() => window.__csp.filter((v) => !v.startsWith('script-src-elem inline')));
  assert.deepEqual(violations, []);
  assert.deepEqual(foreign, []);
  assert.deepEqual(
    errors.filter((e) => !/Content Security Policy/.test(e)),
    [],
  );
  await page.close();
});
