// The free rigid body's exact solution in the page (lab.exactRigidBody): a grey
// translucent ghost beside the integrated body and the exact orbit on the momentum
// sphere. The ghost is drawn (pixels), starts in the body's orientation and then
// parts from it by the integrator's small O(h²) error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, openPage, decodePNG, sleep } from './helpers.mjs';

const browser = useBrowser();

const presets = JSON.parse(readFileSync(new URL('../../scenes/rigid_body_presets.json', import.meta.url), 'utf8'));
const dzhanibekov = presets.find((p) => p.id === 'dzhanibekov');

/** Rotation angle between unit quaternions (sign-insensitive; |a − b| = 2 sin(θ/4)). */
function angle(a, b) {
  const minus = Math.hypot(...a.map((x, i) => x - b[i]));
  const plus = Math.hypot(...a.map((x, i) => x + b[i]));
  return 4 * Math.asin(Math.min(1, Math.min(minus, plus) / 2));
}

/**
 * Pixels that differ between two same-size screenshots: { count, left, grey }; left:
 * those in the left half (where the ghost stands; the view's buttons are top right),
 * grey: those of the left half that are grey-ish in `a`.
 */
function changed(a, b) {
  const A = decodePNG(a);
  const B = decodePNG(b);
  assert.equal(A.width, B.width);
  let count = 0;
  let left = 0;
  let grey = 0;
  for (let y = 0; y < A.height; y++) {
    for (let x = 0; x < A.width; x++) {
      const i = (y * A.width + x) * A.channels;
      const j = (y * B.width + x) * B.channels;
      let d = 0;
      for (let c = 0; c < 3; c++) d += Math.abs(A.pixels[i + c] - B.pixels[j + c]);
      if (d <= 12) continue;
      count++;
      if (x >= A.width / 2) continue;
      left++;
      const [r, g, bl] = [A.pixels[i], A.pixels[i + 1], A.pixels[i + 2]];
      if (Math.max(r, g, bl) - Math.min(r, g, bl) <= 24) grey++;
    }
  }
  return { count, left, grey };
}

test('Dzhanibekov preset: the exact ghost is drawn beside the body, starts with it and parts from it by a small amount', async () => {
  const { page, errors } = await openPage(browser.context, '');
  const err = await page.evaluate((p) => {
    window.vilabPage.pause();
    const e = window.vilabPage.setState({ scenario: p.scenario, compare: null });
    return e && e.message;
  }, dzhanibekov);
  assert.equal(err, null);
  await sleep(200);

  // t = 0: the ghost shows the initial orientation, the orbit is on the inset
  const start = await page.evaluate(() => ({
    ghost: window.vilabPage.exactGhost(),
    body: Array.from(window.vilabPage.sim().visualState()),
    t: window.vilabPage.sim().time,
  }));
  assert.ok(start.ghost, 'an exact ghost for the free rigid body');
  assert.equal(start.ghost.time, 0);
  assert.equal(start.t, 0);
  assert.ok(
    angle(start.ghost.orientation, start.body) < 1e-12,
    `at t = 0 the ghost and the body agree: ${angle(start.ghost.orientation, start.body)}`,
  );
  assert.ok(start.ghost.orbitPoints > 100, 'the exact orbit is drawn on the momentum sphere');
  assert.match(await page.locator('#legend').innerText(), /exact solution/);

  // pixels: the grey ghost appears (toggling it off changes a grey region, left of the body)
  const canvas = page.locator('#view canvas');
  const toggle = page.locator('#exact-toggle');
  assert.equal(await toggle.isVisible(), true);
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  const withGhost = await canvas.screenshot();
  await toggle.click();
  await sleep(150);
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.equal((await page.evaluate(() => window.vilabPage.exactGhost())).visible, false);
  const without = await canvas.screenshot();
  await toggle.click();
  await sleep(150);
  const diff = changed(withGhost, without);
  assert.ok(diff.left > 3000, `the ghost covers a visible area beside (left of) the body: ${diff.left} px changed there`);
  assert.ok(diff.grey > 0.8 * diff.left, `the ghost is grey: ${diff.grey}/${diff.left}`);
  const again = await canvas.screenshot();
  assert.ok(changed(withGhost, again).left < 50, 'toggling back restores the ghost');

  // later: the ghost tracks the exact solution, the body the integrator; they differ a little
  await page.evaluate(() => window.vilabPage.runTo(600));
  await sleep(100);
  const later = await page.evaluate(() => {
    const sim = window.vilabPage.sim();
    const exact = window.vilabPage.lab.exactRigidBody(sim.scenario());
    const out = {
      ghost: window.vilabPage.exactGhost(),
      body: Array.from(sim.visualState()),
      t: sim.time,
      truth: exact.orientation(sim.time),
    };
    exact.dispose();
    return out;
  });
  assert.ok(Math.abs(later.ghost.time - 6) < 1e-9 && Math.abs(later.t - 6) < 1e-9, `t = ${later.t}`);
  assert.ok(angle(later.ghost.orientation, later.truth) < 1e-6, 'the ghost is the exact solution at the run time');
  const apart = angle(later.ghost.orientation, later.body);
  assert.ok(apart > 1e-6 && apart < 0.02, `ghost and body differ by a small amount at t = 6 s: ${apart} rad`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('no exact ghost for the heavy top (no closed form there)', async () => {
  const { page, errors } = await openPage(browser.context, '#system=heavy-top');
  assert.equal(await page.evaluate(() => window.vilabPage.exactGhost()), null);
  assert.equal(await page.locator('#exact-toggle').isVisible(), false);
  assert.doesNotMatch(await page.locator('#legend').innerText(), /exact solution/);
  assert.deepEqual(errors, []);
  await page.close();
});
