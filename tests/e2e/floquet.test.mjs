// The Floquet lesson in the Studies drawer: one click sets up Kapitza's pendulum, the
// workers multiply the step Jacobians (sim.linearize()) over a period for each shaking
// frequency, and the page prints the two verdicts (stable at ω = 60, unstable at ω = 30)
// with the numbers they rest on, in English and in Spanish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './helpers.mjs';

const browser = useBrowser();

async function runFloquet(page) {
  await page.click('#studies-button');
  await page.locator('#study-lessons button[data-lesson="floquet"]').waitFor({ timeout: 20000 });
  await page.click('#study-lessons button[data-lesson="floquet"]');
  await page.waitForFunction(
    () => {
      const f = document.querySelector('#lesson-figure');
      return f?.dataset.lesson === 'floquet' && f.dataset.status !== 'running';
    },
    null,
    { timeout: 90000 },
  );
  assert.equal(await page.locator('#lesson-figure').getAttribute('data-status'), 'done');
  const measured = JSON.parse(await page.locator('#lesson-figure .lesson-measured').getAttribute('data-measured'));
  const text = await page.locator('#lesson-figure .lesson-measured').textContent();
  return { measured, text };
}

test('Floquet lesson: Kapitza stable at ω = 60 (|μ| = 1), unstable at ω = 30 (|μ| > 1.01); the midpoint angle is Lu’s', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { reducedMotion: 'reduce' });
  const { measured, text } = await runFloquet(page);
  assert.ok(measured.off60 <= 1e-9, `ω = 60: ||μ| − 1| = ${measured.off60}`);
  assert.ok(measured.mu30 > 1.01, `ω = 30: |μ| = ${measured.mu30}`);
  assert.ok(measured.angleError <= 1e-13, `angle error ${measured.angleError}`);
  // the two verdicts, in words, with the live numbers
  assert.match(text, /at ω = 60 both multipliers lie on the unit circle .*stable/);
  const quoted = text.match(/At ω = 30 one has \|μ\| = ([\d.]+) > 1: unstable/);
  assert.ok(quoted && Math.abs(Number(quoted[1]) - measured.mu30) <= 0.01 * measured.mu30, `${text} quotes |μ| = ${measured.mu30}`);
  assert.ok(Number(await page.locator('#lesson-plot').getAttribute('data-points')) >= 26, 'both curves plotted');
  assert.ok((await page.locator('#lesson-plot canvas').count()) >= 1);
  // the page is set up as Kapitza's preset
  const st = await page.evaluate(() => window.vilabPage.state());
  assert.equal(st.scenario.system, 'lagrangian');
  console.log(`Floquet lesson in the page: ${JSON.stringify(measured)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Floquet lesson in Spanish: the verdicts are translated', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=es', { reducedMotion: 'reduce' });
  const { measured, text } = await runFloquet(page);
  assert.ok(measured.off60 <= 1e-9 && measured.mu30 > 1.01);
  assert.match(text, /estable, el péndulo se sostiene/);
  assert.match(text, /inestable, se cae/);
  assert.deepEqual(errors, []);
  await page.close();
});
