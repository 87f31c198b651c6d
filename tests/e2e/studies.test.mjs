// The Studies drawer: loops, convergence, Poincaré sections and a field's dispersion run
// in workers and produce their curves; the page keeps its frame budget while a sweep runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './helpers.mjs';
import { createLab } from '../../web/sim/vilab.js';
import { courant, formulaLimits, stabilityLimit, waveSetup } from '../../web/sim/dispersion.js';

const browser = useBrowser();

async function runStudy(page, key, timeout = 120000) {
  await page.click(`#studies button[data-study="${key}"]`);
  await page.waitForFunction(
    (key) => {
      const s = document.querySelector(`#study-${key} .study-status`)?.textContent ?? '';
      return /Done|stopped|Cancelled/.test(s);
    },
    key,
    { timeout },
  );
  return page.locator(`#study-${key} .study-status`).textContent();
}

test('loop: midpoint keeps ∮p·dq on the pendulum, RK4 does not (1000 steps, h = 0.05, 512 points)', async () => {
  const { page, errors } = await openPage(browser.context, '#system=pendulum&h=0.05&compare=rk4', { reducedMotion: 'reduce' });
  await page.click('#studies-button');
  await page.fill('#loop-steps', '1000');
  assert.equal(await runStudy(page, 'loop'), 'Done.');
  const a = Number(await page.locator('#study-loop tr[data-track="A"] .loop-change').getAttribute('data-value'));
  const b = Number(await page.locator('#study-loop tr[data-track="B"] .loop-change').getAttribute('data-value'));
  assert.ok(a <= 1e-10, `A (midpoint) ${a}`);
  assert.ok(b >= 1e-4, `B (RK4) ${b}`);
  assert.ok((await page.locator('#loop-plot canvas').count()) >= 1, 'the curve is drawn');
  // the loop itself: drawn in the phase-portrait plane at the end, then in another plane and at the start
  assert.ok((await page.locator('#loop-shape canvas').count()) >= 1, 'the loop is drawn');
  assert.ok(Number(await page.locator('#loop-shape').getAttribute('data-points')) >= 512);
  assert.ok(Math.abs(Number(await page.locator('#study-loop tr[data-track="A"] .loop-action').getAttribute('data-value'))) > 0);
  await page.selectOption('#loop-y', '0');
  await page.locator('#loop-time').fill('0');
  assert.match(await page.locator('label[for="loop-time"]').textContent(), /t = 0\.00 s/);
  assert.ok((await page.locator('#loop-shape canvas').count()) >= 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('convergence: fitted orders near 2 (midpoint) and 4 (composition4) on the oscillator; the page keeps its frame budget meanwhile', async () => {
  const { page, errors } = await openPage(browser.context, '#system=oscillator&h=0.1&compare=composition4');
  await page.click('#studies-button');
  await page.evaluate(() => window.vilabPage.frameStats({ reset: true }));
  const status = await runStudy(page, 'convergence');
  const stats = await page.evaluate(() => window.vilabPage.frameStats());
  assert.equal(status, 'Done.');
  const a = Number(await page.locator('#study-convergence tr[data-track="A"] .fitted-order').getAttribute('data-value'));
  const b = Number(await page.locator('#study-convergence tr[data-track="B"] .fitted-order').getAttribute('data-value'));
  assert.ok(Math.abs(a - 2) <= 0.1, `midpoint ${a}`);
  assert.ok(Math.abs(b - 4) <= 0.2, `composition4 ${b}`);
  console.log(
    `main thread per frame during the sweep: median ${stats.median.toFixed(2)} ms, p95 ${stats.p95.toFixed(2)} ms over ${stats.n} frames`,
  );
  assert.ok(stats.n > 0);
  assert.ok(stats.median <= 4, `median ${stats.median} ms per frame while the sweep runs`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Poincaré: Hénon–Heiles orbits fill the section; a click adds one; cancel stops a run', async () => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  await page.selectOption('#preset', 'henon-heiles');
  await page.evaluate(() => window.vilabPage.loadFull()); // the preset applies once the full build is in
  await page.click('#studies-button');
  assert.equal(await runStudy(page, 'poincare', 180000), 'Done.');
  const n = Number(await page.locator('#poincare-canvas').getAttribute('data-points'));
  assert.ok(n >= 8 * 200, `${n} points`);
  await page.locator('#poincare-canvas').click(); // its centre: inside the orbits' range
  await page.waitForFunction((n) => Number(document.querySelector('#poincare-canvas').dataset.points) > n, n, { timeout: 60000 });
  // cancel: a long loop study (100000 steps of 1024 points) stopped at once
  await page.fill('#loop-steps', '100000');
  await page.selectOption('#loop-points', '1024');
  await page.click('#studies button[data-study="loop"]');
  await page.click('#study-loop .study-controls button:not([data-study])');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#study-loop .study-status').textContent), null, {
    timeout: 10000,
  });
  assert.ok(await page.locator('#studies button[data-study="loop"]').isEnabled(), 'ready for another run');
  assert.deepEqual(errors, []);
  await page.close();
});

test('dispersion: offered for field runs only; on Klein–Gordon every method is measured and the stated limits and ν are the JS API’s', async () => {
  const { page, errors } = await openPage(browser.context, '#system=pendulum', { reducedMotion: 'reduce' });
  await page.click('#studies-button');
  assert.equal(await page.locator('#study-dispersion').count(), 0, 'not offered on a pendulum');
  await page.click('#studies .drawer-close');
  await page.selectOption('#preset', 'klein-gordon');
  await page.evaluate(() => window.vilabPage.loadFull());
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'field');
  await page.click('#studies-button');
  // bad input is refused by field, the drawer usable
  await page.fill('#dispersion-modes', '1000');
  assert.match(await runStudy(page, 'dispersion'), /dispersion\.modes: .*512.*1000/);
  await page.fill('#dispersion-modes', '64');
  assert.equal(await runStudy(page, 'dispersion', 180000), 'Done.');
  assert.ok((await page.locator('#dispersion-plot canvas').count()) >= 1, 'ω(k) is drawn');
  assert.ok((await page.locator('#dispersion-growth canvas').count()) >= 1, '|λ| − 1 is drawn');
  const scenario = await page.evaluate(() => window.vilabPage.state().scenario);
  const integrators = await page.evaluate(() => window.vilabPage.lab.system('field').integrators);
  assert.equal(await page.locator('#study-dispersion tr[data-integrator]').count(), integrators.length, 'a row per method');
  // the numbers it states, against the same measurement through the JS API in Node
  const lab = await createLab();
  const setup = waveSetup(lab, scenario);
  const caption = page.locator('#study-dispersion .dispersion-caption');
  assert.equal(Number(await caption.getAttribute('data-h')), scenario.h);
  assert.equal(Number(await caption.getAttribute('data-courant')), courant(setup, scenario.h));
  // (the AVI's: where its own stability check starts refusing the step, its element bound)
  for (const integrator of ['trapezoid', 'rk4', 'avi']) {
    const want = stabilityLimit(lab, scenario, { integrator }).limit;
    const got = Number(
      await page.locator(`#study-dispersion tr[data-integrator="${integrator}"] .dispersion-limit`).getAttribute('data-value'),
    );
    assert.equal(got, want, `${integrator}: the page's ${got}, the API's ${want}`);
  }
  assert.equal(await page.locator('#study-dispersion tr[data-integrator="midpoint"] .dispersion-limit').getAttribute('data-value'), 'none');
  // which relation each follows, and the formula's limit beside the measured one
  const relation = (id) => page.locator(`#study-dispersion tr[data-integrator="${id}"] .dispersion-follows`).getAttribute('data-relation');
  assert.deepEqual([await relation('trapezoid'), await relation('midpoint'), await relation('rk4')], ['leapfrog', 'box', 'rk4']);
  const formula = (id) => page.locator(`#study-dispersion tr[data-integrator="${id}"] .dispersion-formula`).getAttribute('data-value');
  assert.equal(Number(await formula('trapezoid')), formulaLimits(setup).leapfrog);
  assert.equal(Number(await formula('rk4')), formulaLimits(setup).rk4);
  assert.match(await page.locator('#study-dispersion tr[data-integrator="dopri5"]').textContent(), /left out/);
  const text = await caption.textContent();
  assert.match(text, /N = 256/);
  assert.match(text, /V″\(u₀\) = 100/);
  assert.match(text, /ν = cΔt\/Δx = 0\.512/);
  assert.deepEqual(errors, []);
  await page.close();
});
