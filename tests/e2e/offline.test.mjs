// Offline after the first visit: the service worker precaches the build, and a
// reload with the network off still loads and runs the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, BASE, sleep } from './helpers.mjs';

const browser = useBrowser();

test('offline reload works (service worker precache)', async () => {
  const { page, errors } = await openPage(browser.context, '#system=chain');
  // wait for the worker to install, activate and control this page
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
  });
  const cached = await page.evaluate(async () => {
    const keys = await caches.keys();
    const cache = await caches.open(keys.find((k) => k.startsWith('vilab-')));
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
  assert.ok(
    cached.some((p) => p.endsWith('.wasm')),
    'the wasm is precached',
  );
  assert.ok(
    cached.some((p) => /katex.*\.js$/.test(p)),
    'the lazily loaded KaTeX chunk is precached too',
  );
  await browser.context.setOffline(true);
  try {
    await page.reload();
    await page.waitForFunction(() => window.vilabPage && window.vilabPage.sim && window.vilabPage.sim(), null, { timeout: 15000 });
    await page.evaluate(() => window.vilabPage.ready);
    assert.equal(await page.evaluate(() => window.vilabPage.state().scenario.system), 'chain');
    const s0 = await page.evaluate(() => window.vilabPage.sim().step);
    await sleep(500);
    const s1 = await page.evaluate(() => window.vilabPage.sim().step);
    assert.ok(s1 > s0, 'runs offline');
    // the Explain drawer (KaTeX, fonts) works offline too
    await page.click('#explain-button');
    await page.locator('#explain .katex').first().waitFor({ timeout: 5000 });
    // a fresh navigation to the app URL works offline as well
    await page.goto(new URL('?x=1', BASE).toString());
    await page.waitForFunction(() => window.vilabPage && window.vilabPage.sim && window.vilabPage.sim(), null, { timeout: 15000 });
  } finally {
    await browser.context.setOffline(false);
  }
  assert.deepEqual(
    errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e)),
    [],
  );
  await page.close();
});
