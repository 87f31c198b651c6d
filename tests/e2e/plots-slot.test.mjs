// The plots' slot (web/plots/plots-slot.js): the plots' code comes after the first frame, and
// what the run recorded before it came is in the plots once it has: the calls kept while its
// chunk was on the way are replayed in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, sleep, BASE } from './helpers.mjs';

const browser = useBrowser();
const HELD_MS = 1500;

test(`the samples recorded while the plots' code is on the way (held ${HELD_MS} ms) are in the plots: they start at t = 0`, async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  let held = 0;
  await page.route(/\/assets\/plots-[\w-]+\.js$/, async (route) => {
    held++;
    await sleep(HELD_MS);
    await route.continue();
  });
  await page.goto(new URL('?nosw=1', BASE).toString());
  await page.waitForFunction(() => window.vilabPage?.firstFrameAt?.() != null && window.vilabPage.sim, null, { timeout: 60000 });
  // the run plays while the plots' code is held back: a second of it, recorded and fed to the slot
  await page.waitForFunction(() => window.vilabPage.sim().time >= 1, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.vilabPage.plotSpan()), null, 'the plots are not in yet');
  await page.evaluate(() => window.vilabPage.ready);
  const { span, time } = await page.evaluate(() => ({ span: window.vilabPage.plotSpan(), time: window.vilabPage.sim().time }));
  assert.equal(held, 1, 'the plots chunk is fetched once');
  assert.ok(span, 'the plots hold samples');
  assert.equal(span.first, 0, `the whole-run table starts at the run's first sample (${JSON.stringify(span)})`);
  assert.ok(span.last >= 1 && span.last <= time, `and reaches past the time the plots came (${JSON.stringify(span)}, t = ${time})`);
  // and they draw: the cards of the default run are built
  assert.ok((await page.locator('#plots .uplot').count()) >= 3);
  assert.deepEqual(errors, []);
  await page.close();
});
