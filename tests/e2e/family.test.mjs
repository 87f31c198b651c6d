// The survey's family in the page: the variable-step integrator's step-size plot, the
// Newmark options generated from the registry, a forced system, and the Marsden–West
// Fig. 1 preset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './helpers.mjs';

const browser = useBrowser();

test('sem: the page plots the step sizes h_k, and the clock is their sum', async () => {
  const { page, errors } = await openPage(browser.context, '#system=lagrangian&integrator=sem');
  await page.evaluate(() => {
    window.vilabPage.pause();
    return window.vilabPage.runTo(400); // a promise when the steps go on between frames
  });
  assert.ok(await page.locator('#plot-dt').isVisible(), 'the Step size card');
  const { time, step, h, dts } = await page.evaluate(() => {
    const sim = window.vilabPage.sim();
    const r = sim.history.read(0);
    return { time: sim.time, step: sim.step, h: sim.scenario().h, dts: Array.from(r.columns.dt) };
  });
  assert.ok(step >= 400, `step ${step}`);
  assert.ok(time !== step * h, 'variable steps: the clock is not step × h');
  const positive = dts.slice(1);
  assert.ok(positive.length > 0 && positive.every((x) => x > 0 && x <= 4 * h), `h_k in (0, 4h]: ${positive.slice(0, 5)}`);
  await page.waitForFunction(() => document.querySelector('#plot-dt .plot-values')?.textContent.length > 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('newmark: γ and β come from the registry as fields; the fixed-step runs have no step-size plot', async () => {
  const { page, errors } = await openPage(browser.context, '#system=oscillator&integrator=newmark');
  const labels = await page.locator('#options label').allInnerTexts();
  assert.ok(labels.some((l) => l.startsWith('γ')) && labels.some((l) => l.startsWith('β')), labels.join(' | '));
  assert.equal(await page.locator('#plot-dt').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a forced system refuses an integrator without forcing, naming the field, and keeps the run', async () => {
  const { page, errors } = await openPage(browser.context, '#system=oscillator');
  const before = await page.evaluate(() => window.vilabPage.state().scenario);
  const message = await page.evaluate(() => {
    try {
      window.vilabPage.lab.normalize({ system: 'oscillator', integrator: 'energy-momentum', params: { damping: 0.3 } });
      return null;
    } catch (e) {
      return `${e.field}: ${e.message}`;
    }
  });
  assert.match(message ?? '', /^integrator: .*does not model forcing/);
  assert.deepEqual(await page.evaluate(() => window.vilabPage.state().scenario), before);
  assert.deepEqual(errors, []);
  await page.close();
});
