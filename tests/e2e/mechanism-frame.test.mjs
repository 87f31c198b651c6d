// The satellite's lesson frame (lesson.frame: the orbit frame, turning at n = 1 rad/s about z)
// in the page: the view draws the body in it, so its long axis rocks about the Earth direction
// (within the libration's amplitude) where seen from space it turns once per orbit; the toggle
// switches between the two and is worded in both languages; the Conserved card plots the
// Jacobi integral H − n L_z, finite, from the run's energy and momentum.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPresetPaused } from './helpers.mjs';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);

// The pitch libration: δ = ω_z(0) − n = 0.05 rad/s at ω = 0.707 n (Hughes), amplitude δ/ω
// = 0.0707 rad (0.1 allowed). Seen from space the axis has turned with the orbit, by n t = 3
// rad at t = 3 s, i.e. more than 1 rad away from x̂ either way.
const AMPLITUDE = 0.1;
// The drawn long axis's angle from x̂ about z, and its tilt out of the orbit plane.
const yaw = (x) => Math.atan2(x[1], x[0]);
const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));

test('the satellite is drawn in its orbit frame: the long axis stays by the Earth direction, and the Jacobi card is finite', async () => {
  const { page, errors } = await openPresetPaused(browser.context, 'gravity-gradient-satellite');
  const toggle = page.locator('#frame-toggle');
  assert.equal(await toggle.isHidden(), false, 'the frame toggle shows for a lesson with a frame');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  const start = await hook(page, () => window.vilabPage.sim().step);
  let largest = 0;
  for (let k = 1; k <= 12; k++) {
    await hook(page, (s) => window.vilabPage.runTo(s), start + 5 * k); // 0.25 s apart, to t = 3 s
    const f = await hook(page, () => window.vilabPage.frameView());
    assert.ok(f.available && f.on, 'drawn in the frame');
    largest = Math.max(largest, Math.abs(yaw(f.x)), Math.abs(Math.asin(f.x[2])));
  }
  const t = await hook(page, () => window.vilabPage.sim().time);
  console.log(`orbit frame: largest drawn angle from e_r over t ≤ ${t}: ${largest.toFixed(4)} rad`);
  assert.ok(t >= 3 - 1e-9, `ran to t = ${t}`);
  assert.ok(largest <= AMPLITUDE, `in the orbit frame the long axis stays within ${AMPLITUDE} rad of e_r: ${largest.toFixed(4)}`);
  // the Jacobi integral: on the Conserved card, from the recorded energy and momentum.z
  const series = await hook(page, () => window.vilabPage.plotSeries());
  assert.ok('conserved.jacobi_A' in series, `a Jacobi series (${Object.keys(series).join(', ')})`);
  assert.ok(Number.isFinite(series['conserved.jacobi_A']), `finite: ${series['conserved.jacobi_A']}`);
  assert.ok(Math.abs(series['conserved.jacobi_A']) < 1e-2, `its relative drift is small: ${series['conserved.jacobi_A']}`);
  assert.match(await page.locator('#plot-conserved-title').textContent(), /H − n L_z/, 'the Conserved card names H − n L_z');
  // seen from space the same body has turned with the orbit (the toggle, then the same check fails)
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  const space = await hook(page, () => window.vilabPage.frameView());
  assert.equal(space.on, false);
  assert.ok(Math.abs(space.angle - t) < 1e-12, `the frame has turned by n t: ${space.angle}`);
  const behind = Math.abs(wrap(yaw(space.x) - space.angle));
  assert.ok(behind <= AMPLITUDE, `seen from space the axis follows the orbit (${behind.toFixed(4)} rad from n t)`);
  assert.ok(Math.abs(wrap(yaw(space.x))) > 1, `and is far from x̂: ${yaw(space.x).toFixed(3)} rad`);
  // Spanish wording
  await page.selectOption('#language', 'es');
  await page.waitForFunction(() => document.documentElement.lang === 'es');
  assert.equal((await toggle.textContent()).trim(), 'Sistema orbital');
  assert.match(await toggle.getAttribute('title'), /sistema que gira con la órbita/);
  await toggle.click();
  assert.equal((await hook(page, () => window.vilabPage.frameView())).on, true, 'back in the orbit frame');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a preset without a frame hides the toggle and draws in space', async () => {
  const { page, errors } = await openPresetPaused(browser.context, 'lagrange-top');
  assert.equal(await page.locator('#frame-toggle').isHidden(), true);
  assert.equal((await hook(page, () => window.vilabPage.frameView())).available, false);
  assert.deepEqual(errors, []);
  await page.close();
});
