// The seeds' figures as one-click lessons (web/sim/lessons.js): each button in the
// Studies drawer sets the page up and draws its curve, with its caption and source; the
// Explain drawer prints the lesson's docs from the same registry; a loop started
// mid-run is centred on the current state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, injectAxe } from './helpers.mjs';

const browser = useBrowser();

async function axe(page) {
  await injectAxe(page);
  return page.evaluate(async () => {
    const r = await window.axe.run(document.querySelector('#studies'), {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id}: ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(' | ')}`,
      );
  });
}

test('every lesson loads from one click and draws its curve, with caption and source; Explain shows its docs', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { reducedMotion: 'reduce' });
  await page.click('#studies-button');
  // the drawer's code and uPlot load on the first open: wait for its list, not only the click
  await page.locator('#study-lessons button[data-lesson]').first().waitFor({ timeout: 20000 });
  const ids = await page.locator('#study-lessons button[data-lesson]').evaluateAll((bs) => bs.map((b) => b.dataset.lesson));
  assert.deepEqual(ids, [
    'mw-newmark-rk4',
    'mw-string-energy',
    'multisymplectic-law',
    'dsp-fluctuation',
    'dsp-jz',
    'dsp-penalty',
    'lu-clock',
    'floquet',
    'wm-amplitude',
  ]);
  const measured = {};
  for (const id of ids) {
    const t0 = Date.now();
    await page.click(`#study-lessons button[data-lesson="${id}"]`);
    await page.waitForFunction(
      (id) => {
        const f = document.querySelector('#lesson-figure');
        return f?.dataset.lesson === id && f.dataset.status !== 'running';
      },
      id,
      { timeout: 60000 },
    );
    assert.equal(await page.locator('#lesson-figure').getAttribute('data-status'), 'done', id);
    const points = Number(await page.locator('#lesson-plot').getAttribute('data-points'));
    assert.ok(points >= 3, `${id}: ${points} points plotted`);
    assert.ok((await page.locator('#lesson-plot canvas').count()) >= 1, `${id}: the curve is drawn`);
    assert.ok(await page.locator('#lesson-figure .lesson-caption').isVisible(), `${id}: caption visible`);
    assert.ok((await page.locator('#lesson-figure cite').textContent()).length > 10, `${id}: source cited`);
    measured[id] = JSON.parse(await page.locator('#lesson-figure .lesson-measured').getAttribute('data-measured'));
    // the page is set up as the lesson says
    const st = await page.evaluate(() => window.vilabPage.state());
    assert.ok(st.scenario.system, `${id}: scenario set`);
    console.log(`lesson ${id}: ${Date.now() - t0} ms, ${JSON.stringify(measured[id])}`);
  }
  // the figures' numbers, as computed in the page's workers
  assert.ok(measured['mw-newmark-rk4'].finalB < -0.3 && Math.abs(measured['mw-newmark-rk4'].finalA) < 0.1);
  // the plucked string over 1e5 steps: the leapfrog in its early window, RK4 drifting down out of it
  const string = measured['mw-string-energy'];
  assert.ok(string.steps === 100000 && string.ratioA <= 1.5 && string.ratioB >= 3, JSON.stringify(string));
  assert.ok(string.finalB < 0 && -string.finalB >= 0.99 * string.farthestB && -string.finalB < string.bandA, JSON.stringify(string));
  // the multisymplectic law on the breather: box scheme and leapfrog at rounding, RK4 not
  const law = measured['multisymplectic-law'];
  assert.ok(law.steps === 3000 && law.every === 30 && law.box <= 1e-15 && law.leapfrog <= 1e-15, JSON.stringify(law));
  assert.ok(law.rk4Median >= 1e-8 && law.rk4Median <= 1e-6 && law.rk4Max >= 10 * law.rk4Min, JSON.stringify(law));
  for (const r of measured['dsp-fluctuation'].ratios) assert.ok(r >= 3.5 && r <= 4.5, `ratio ${r}`);
  assert.ok(measured['dsp-jz'].driftA < 1e-11 && measured['dsp-jz'].driftB > 1e-6);
  assert.ok(Math.abs(measured['dsp-penalty'].slope + 1) <= 0.1);
  assert.ok(measured['lu-clock'].maxNdt <= 1e-12 && measured['lu-clock'].maxNh > 1e-3);
  assert.ok(measured.floquet.off60 <= 1e-9 && measured.floquet.mu30 > 1.01 && measured.floquet.angleError <= 1e-13);
  assert.ok(Math.abs(measured['wm-amplitude'].slopeTop - 2) <= 0.2 && Math.abs(measured['wm-amplitude'].slopeDsp - 2) <= 0.2);
  // the state the last lesson set up: the heavy top by the quaternion DEL
  const st = await page.evaluate(() => window.vilabPage.state());
  assert.equal(st.scenario.system, 'heavy-top');
  assert.equal(st.scenario.integrator, 'quaternion');
  assert.deepEqual(await axe(page), [], 'axe on the Studies drawer with a lesson shown');
  // Explain: the lesson's docs (KaTeX) from the registry, then the studies
  await page.click('#lesson-figure .lesson-explain');
  await page.locator('#explain-lesson-wm-amplitude .katex').first().waitFor({ timeout: 5000 });
  assert.ok(await page.locator('#explain-lesson-wm-amplitude').evaluate((d) => d.open));
  for (const s of ['loop', 'convergence', 'poincare']) assert.equal(await page.locator(`#explain-study-${s}`).count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson in Spanish: caption and source translated', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=es', { reducedMotion: 'reduce' });
  await page.click('#studies-button');
  await page.click('#study-lessons button[data-lesson="lu-clock"]');
  await page.waitForFunction(() => document.querySelector('#lesson-figure')?.dataset.status === 'done', null, { timeout: 30000 });
  assert.match(await page.locator('#lesson-figure .lesson-caption').textContent(), /reloj|oscilador lineal/);
  assert.match(await page.locator('#lesson-figure .lesson-measured').textContent(), /^Medido/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a loop started mid-run is centred on the current state', async () => {
  const { page, errors } = await openPage(browser.context, '#system=pendulum&h=0.05', { reducedMotion: 'reduce' });
  await page.evaluate(() => window.vilabPage.pause());
  await page.evaluate(() => window.vilabPage.step(40));
  await page.click('#studies-button');
  await page.fill('#loop-steps', '200');
  await page.selectOption('#loop-points', '256');
  await page.click('#studies button[data-study="loop"]');
  await page.waitForFunction(() => /Done/.test(document.querySelector('#study-loop .study-status')?.textContent ?? ''), null, {
    timeout: 30000,
  });
  assert.equal(await page.locator('#study-loop .loop-centre').getAttribute('data-centre'), 'state');
  assert.match(await page.locator('#study-loop .loop-centre').textContent(), /t = 2\.00 s/);
  const a = Number(await page.locator('#study-loop tr[data-track="A"] .loop-change').getAttribute('data-value'));
  assert.ok(a <= 1e-10, `midpoint ${a}`);
  assert.deepEqual(errors, []);
  await page.close();
});
