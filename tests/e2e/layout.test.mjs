// The page on every screen: a phone in portrait (every settings section opens and is
// edited by tapping, the preset's caption shows, no control covers another, touch
// targets ≥ 40 px), a phone in landscape (the 3D view keeps most of the height and the
// legend little of it), a projected laptop (1280×720 CSS px at 150 %: the energy plot
// above the fold) and projector mode (larger root type, remembered, not in links).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { CHROMIUM, ARGS, openPage, sleep, coveredControls } from './helpers.mjs';

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
});
after(async () => {
  await browser?.close();
});

const hook = (page, fn, arg) => page.evaluate(fn, arg);
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const LANDSCAPE = { viewport: { width: 844, height: 390 }, hasTouch: true, isMobile: true };

/** coveredControls at every scroll position of the page's scroller (and the open panel). */
async function coveredWhileScrolling(page, label) {
  const problems = [];
  let checked = 0;
  for (const scroller of ['#layout', '#panel']) {
    const max = await page.evaluate((s) => {
      const n = document.querySelector(s);
      return n && n.checkVisibility() ? n.scrollHeight - n.clientHeight : 0;
    }, scroller);
    for (let top = 0; top <= max; top += 150) {
      await page.evaluate(([s, y]) => (document.querySelector(s).scrollTop = y), [scroller, top]);
      await sleep(30);
      const r = await coveredControls(page);
      checked += r.checked;
      problems.push(...r.found.map((f) => `${label}, ${scroller} at ${top}: ${f}`));
    }
    await page.evaluate((s) => (document.querySelector(s).scrollTop = 0), scroller);
  }
  return { problems: [...new Set(problems)], checked };
}

/** Controls of a phone narrower or shorter than 40 CSS px (only those the user can see). */
function smallTargets(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, select, input, textarea, summary, a[href]')]
      .filter((c) => c.checkVisibility({ checkVisibilityCSS: true }) && !c.closest('.drawer') && !c.classList.contains('skip-link'))
      .map((c) => ({ c, r: c.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.height < 40 || r.width < 40))
      .map(({ c, r }) => `${c.id || c.tagName.toLowerCase()} ${Math.round(r.width)}×${Math.round(r.height)}`),
  );
}

test('phone portrait: every settings section opens and is edited by tapping; caption visible; nothing covered', async () => {
  const context = await browser.newContext(PHONE);
  const { page, errors } = await openPage(context, '?nosw=1', { reducedMotion: 'reduce' });
  // the preset's explanation is shown, below the view, inside the visible page
  await page.locator('#preset').selectOption('long-run-energy');
  await sleep(200);
  const caption = page.locator('#caption');
  assert.match(await caption.textContent(), /at t = 600 s/);
  assert.equal(await caption.isVisible(), true, 'caption visible');
  const cap = await caption.boundingBox();
  const view = await page.locator('#view').boundingBox();
  const bar = await page.locator('#transport').boundingBox();
  assert.ok(
    cap.y >= view.y + view.height - 1 && cap.y + cap.height <= bar.y,
    `caption between the view and the controls bar (${JSON.stringify(cap)})`,
  );
  assert.ok(view.width >= 385 && view.height >= 0.4 * 844, `the view spans the width, ≥ 40 % of the height (${view.width}×${view.height})`);
  await hook(page, () => window.vilabPage.pause());
  const closed = await coveredWhileScrolling(page, 'sheet closed');
  assert.ok(closed.checked > 15, `controls were checked (${closed.checked})`);
  assert.deepEqual(closed.problems, [], 'no control covered with the sheet closed');
  assert.deepEqual(await smallTargets(page), [], 'touch targets ≥ 40 px');
  // a banner (here: the copied link) floats above the controls bar; the view stays put
  const view0 = await page.locator('#view').boundingBox();
  await page.locator('#copy-link').tap();
  const banner = page.locator('.banner').first();
  await banner.waitFor({ state: 'visible' });
  assert.deepEqual(await page.locator('#view').boundingBox(), view0, 'the banner does not push the view');
  const bb = await banner.boundingBox();
  assert.ok(bb.y + bb.height <= (await page.locator('#transport').boundingBox()).y, 'banner above the controls bar');
  const dismiss = banner.getByRole('button', { name: 'Dismiss this message' });
  await dismiss.tap();
  assert.equal(await page.locator('.banner').count(), 0, 'dismissed by its labelled button');

  // Settings opens the panel above the controls bar, never under it
  assert.equal(await page.locator('#panel').isVisible(), false);
  await page.locator('#sheet-toggle').tap();
  await sleep(150);
  assert.equal(await page.locator('#sheet-toggle').getAttribute('aria-expanded'), 'true');
  const panel = await page.locator('#panel').boundingBox();
  const bar2 = await page.locator('#transport').boundingBox();
  assert.ok(panel.y + panel.height <= bar2.y + 0.5, `panel ends above the controls bar (${panel.y + panel.height} ≤ ${bar2.y})`);
  const layout = await page.locator('#layout').boundingBox();
  assert.ok(layout.y + layout.height <= panel.y + 0.5, 'the page scrolls above the panel, not under it');
  assert.ok(layout.height >= 120, `some of the page stays in view (${layout.height} px)`);

  // integrators: tap, then choose
  await page.locator('#integrator-b').tap();
  await page.locator('#integrator-b').selectOption('rk4');
  await sleep(150);
  assert.equal(await hook(page, () => window.vilabPage.state().compare), 'rk4', 'integrator B chosen in the sheet');
  // Parameters: tap to open, tap a field, type
  await page.locator('#params-section summary').tap();
  assert.equal(await page.locator('#params-section').getAttribute('open'), '', 'Parameters opens by tapping');
  const gravity = page.getByLabel('gravity (m/s²)', { exact: true });
  await gravity.tap();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3.7');
  await page.keyboard.press('Enter');
  await sleep(150);
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.params.g), 3.7, 'gravity edited by tapping and typing');
  // Initial data
  await page.locator('#initial-section summary').tap();
  assert.equal(await page.locator('#initial-section').getAttribute('open'), '', 'Initial data opens by tapping');
  const theta = page.locator('#initial input[type="number"]').first();
  await theta.tap();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('45');
  await page.keyboard.press('Enter');
  await sleep(150);
  assert.equal(
    await hook(page, () => window.vilabPage.state().scenario.initial.angles[0][0]),
    Math.PI / 4,
    'initial angle edited (in degrees) by tapping and typing',
  );
  const open = await coveredWhileScrolling(page, 'sheet open');
  assert.deepEqual(open.problems, [], 'no control covered with the sheet and its sections open');
  assert.deepEqual(await smallTargets(page), [], 'touch targets ≥ 40 px in the sheet');

  // Definition (a system defined by its Lagrangian): the editor and its Apply button by tapping
  const defined = await hook(page, () => window.vilabPage.lab.systems.find((s) => s.definition)?.id ?? null);
  if (defined) {
    await page.locator('#system').tap();
    await page.locator('#system').selectOption(defined);
    await page.locator('#definition-section').waitFor({ state: 'visible' });
    await page.locator('#definition-section > summary').tap();
    assert.equal(await page.locator('#definition-section').getAttribute('open'), null, 'Definition closes by tapping');
    await page.locator('#definition-section > summary').tap();
    assert.equal(await page.locator('#definition-section').getAttribute('open'), '', 'and opens again');
    const L = page.locator('#definition [data-key="lagrangian"]');
    await L.tap();
    await page.keyboard.press('End');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' + 0*1');
    await page.locator('#definition .def-apply').tap();
    await sleep(200);
    assert.match(
      await hook(page, () => window.vilabPage.state().scenario.params.lagrangian),
      /\+ 0\*1$/,
      'the definition applied by tapping',
    );
    const def = await coveredWhileScrolling(page, 'definition');
    assert.deepEqual(def.problems, [], 'no control covered in the Definition editor');
  }
  // Escape closes the sheet and returns focus to its toggle
  await page.locator('#panel select').first().focus();
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#panel').isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'sheet-toggle');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone landscape: the 3D view keeps ≥ 60 % of the height, the legend < 25 % of the view', async () => {
  const context = await browser.newContext(LANDSCAPE);
  const { page, errors } = await openPage(context, '?nosw=1#compare=rk4', { reducedMotion: 'reduce' });
  await sleep(200);
  const canvas = await page.locator('#view canvas').boundingBox();
  assert.ok(canvas.y >= 0 && canvas.y + canvas.height <= 390 + 0.5, 'the view is on screen');
  assert.ok(canvas.height >= 0.6 * 390, `canvas height ${canvas.height} ≥ 60 % of 390`);
  // everything laid over the view's top left (legend, invitation, caption toggle)
  const covered = await page.evaluate(() => {
    const c = document.querySelector('#view canvas').getBoundingClientRect();
    let area = 0;
    for (const n of document.querySelectorAll('#view-notes > *')) {
      if (!n.checkVisibility()) continue;
      const r = n.getBoundingClientRect();
      const w = Math.max(0, Math.min(r.right, c.right) - Math.max(r.left, c.left));
      const h = Math.max(0, Math.min(r.bottom, c.bottom) - Math.max(r.top, c.top));
      area += w * h;
    }
    return area / (c.width * c.height);
  });
  assert.ok(covered > 0.005 && covered < 0.25, `legend and notes cover ${(covered * 100).toFixed(1)} % of the view`);
  // the caption folds out on demand
  assert.equal(await page.locator('#caption').isVisible(), false);
  await page.locator('#caption-toggle').tap();
  assert.equal(await page.locator('#caption').isVisible(), true, 'caption shown on demand');
  await page.locator('#caption-toggle').tap();
  const r = await coveredControls(page);
  assert.deepEqual(r.found, [], 'no control covered in landscape');
  assert.deepEqual(await smallTargets(page), [], 'touch targets ≥ 40 px in landscape');
  // the settings column scrolls to the integrators and the parameters
  await page.locator('#params-section summary').tap();
  assert.equal(await page.locator('#params-section').getAttribute('open'), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('projected: 1280×720 CSS px at 150 %: the energy plot is above the fold; projector mode enlarges type and is remembered', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1.5 });
  const { page, errors } = await openPage(context, '?nosw=1');
  const fold = async (label) => {
    const box = await page.locator('#plot-energy').boundingBox();
    assert.ok(box && box.height >= 150, `${label}: energy plot drawn (${box?.height} px)`);
    assert.ok(box.y >= 0 && box.y + box.height <= 720, `${label}: energy plot within the first screen (${box.y}…${box.y + box.height})`);
  };
  await fold('default');
  const rootPx = () => page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
  const before = await rootPx();
  const toggle = page.locator('#projector');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  assert.ok(await page.evaluate(() => document.documentElement.classList.contains('projector')));
  const after = await rootPx();
  assert.ok(after >= before * 1.2, `root font ${before} → ${after} px`);
  const outline = await page.evaluate(() => {
    const b = document.querySelector('#step');
    return parseFloat(getComputedStyle(b).borderTopWidth);
  });
  assert.ok(outline >= 2, `thicker outlines (${outline} px)`);
  await sleep(300);
  await fold('projector');
  // remembered on the device, not in the link
  await sleep(300);
  assert.doesNotMatch(page.url(), /projector/);
  assert.doesNotMatch(await hook(page, () => window.vilabPage.shareURL()), /projector/);
  await page.reload();
  await page.waitForFunction(() => window.vilabPage?.ready).then(() => page.evaluate(() => window.vilabPage.ready));
  assert.equal(await page.locator('#projector').getAttribute('aria-pressed'), 'true', 'remembered after a reload');
  assert.ok((await rootPx()) >= before * 1.2);
  await page.locator('#projector').click();
  assert.equal(await rootPx(), before, 'off again');
  assert.deepEqual(errors, []);
  await context.close();
});
