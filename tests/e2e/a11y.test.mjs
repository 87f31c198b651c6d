// Accessibility: keyboard-only paths through the main controls (and the new ones:
// projector, language, settings sections, each with a visible focus ring), and axe-core
// with no serious or critical violations at phone and desktop sizes, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, sleep, injectAxe } from './helpers.mjs';

const browser = useBrowser();

const hook = (page, fn, arg) => page.evaluate(fn, arg);
const focusedId = (page) =>
  page.evaluate(() => document.activeElement?.id || document.activeElement?.className || document.activeElement?.tagName);

async function tabTo(page, id, max = 60) {
  for (let i = 0; i < max; i++) {
    if ((await focusedId(page)) === id) return true;
    await page.keyboard.press('Tab');
  }
  return (await focusedId(page)) === id;
}

test('keyboard only: play/pause, step, compare, integrator, h, explain drawer, shortcuts', async () => {
  const { page, errors } = await openPage(browser.context, '');
  // Tab from the top reaches the transport
  assert.ok(await tabTo(page, 'play'), 'Tab reaches Play/Pause');
  await page.keyboard.press('Enter');
  assert.equal(await hook(page, () => window.vilabPage.playing()), false, 'Enter on the button pauses');
  await page.keyboard.press('Tab');
  assert.equal(await focusedId(page), 'step');
  const s0 = await hook(page, () => window.vilabPage.sim().step);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  assert.equal(await hook(page, () => window.vilabPage.sim().step), s0 + 2, 'Step advances one step per press');
  // h by the log slider: arrow keys move along the ladder of nice values
  assert.ok(await tabTo(page, 'h-range'));
  await page.keyboard.press('ArrowLeft');
  await sleep(50);
  await page.keyboard.press('Tab'); // change fires on commit
  await sleep(100);
  const h = await hook(page, () => window.vilabPage.state().scenario.h);
  assert.ok(h < 0.01, `h decreased by keyboard (${h})`);
  // integrator B (compare) by keyboard
  assert.ok(await tabTo(page, 'integrator-a'));
  await page.keyboard.press('ArrowDown');
  await sleep(100);
  const a = await hook(page, () => window.vilabPage.state().scenario.integrator);
  assert.notEqual(a, 'midpoint', 'integrator A changed by keyboard');
  await page.keyboard.press('Tab');
  assert.equal(await focusedId(page), 'integrator-b');
  await page.keyboard.press('ArrowDown');
  await sleep(100);
  assert.ok(await hook(page, () => window.vilabPage.state().compare), 'compare switched on by keyboard');
  // the parameters disclosure opens with the keyboard, and a value is typed in
  await page.focus('#params-section summary');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#params-section').getAttribute('open'), '');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await sleep(100);
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.params.masses[0]), 2, 'mass edited by keyboard');
  // the Explain drawer: open, focus inside, Escape closes and returns focus
  await page.focus('#explain-button');
  await page.keyboard.press('Enter');
  await page.locator('#explain').waitFor({ state: 'visible' });
  // the title takes focus once the drawer has opened (later on a busy machine than 200 ms)
  await page.waitForFunction(() => document.activeElement?.id === 'explain-title', null, { timeout: 5000 }).catch(() => {});
  assert.equal(await focusedId(page), 'explain-title');
  await page.locator('#explain .katex').first().waitFor({ timeout: 5000 });
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#explain').isVisible(), false);
  assert.equal(await focusedId(page), 'explain-button');
  // global shortcuts when no field has focus
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('Space');
  assert.equal(await hook(page, () => window.vilabPage.playing()), true, 'Space plays');
  await page.keyboard.press('Space');
  assert.equal(await hook(page, () => window.vilabPage.playing()), false, 'Space pauses');
  await page.keyboard.press('c');
  await sleep(50);
  assert.equal(await hook(page, () => window.vilabPage.state().compare), null, 'C toggles compare');
  // every control has an accessible name
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('button, select, input, [tabindex="0"]')]
      .filter((e) => e.offsetParent !== null)
      .filter((e) => {
        const name = e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent || e.getAttribute('aria-labelledby');
        return !name || !name.trim();
      })
      .map((e) => e.id || e.outerHTML.slice(0, 60)),
  );
  assert.deepEqual(unnamed, []);
  assert.deepEqual(errors, []);
  await page.close();
});

async function axe(page) {
  await injectAxe(page);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(' | ')}`,
      );
  });
}

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

test('axe-core: 0 serious/critical violations at phone and desktop sizes, light and dark (compare, sections open, drawer)', async () => {
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const scheme of ['light', 'dark']) {
      const { page, errors } = await openPage(browser.context, '#compare=rk4', { viewport });
      await page.emulateMedia({ colorScheme: scheme });
      await hook(page, () => window.vilabPage.pause());
      await hook(page, () => window.vilabPage.step(200));
      // on a phone the settings live in the sheet: open it first
      if (size === 'phone') await page.click('#sheet-toggle');
      await page.click('#params-section summary');
      await page.click('#initial-section summary');
      await sleep(300);
      assert.deepEqual(await axe(page), [], `${size}, ${scheme}: page`);
      if (size === 'desktop') {
        await page.click('#explain-button');
        await page.locator('#explain .katex').first().waitFor({ timeout: 5000 });
        assert.deepEqual(await axe(page), [], `${size}, ${scheme}: with the Explain drawer`);
      } else {
        await page.click('#help-button');
        await sleep(100);
        assert.deepEqual(await axe(page), [], `${size}, ${scheme}: with the help drawer`);
      }
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
});

/** The focused element and whether it shows a focus ring (an outline ≥ 2 px, :focus-visible). */
const focusRing = (page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    const s = getComputedStyle(e);
    return {
      id: e.id || (e.tagName === 'SUMMARY' ? e.parentElement.id : e.tagName),
      ring: e.matches(':focus-visible') && s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
    };
  });

test('keyboard only: Tab reaches the new controls in order, each with a visible focus ring', async () => {
  const { page, errors } = await openPage(browser.context, '');
  await hook(page, () => window.vilabPage.pause());
  const wanted = ['system', 'preset', 'projector', 'language', 'play', 'integrator-a', 'integrator-b', 'params-section', 'initial-section'];
  const seen = [];
  for (let i = 0; i < 80 && seen.length < wanted.length; i++) {
    await page.keyboard.press('Tab');
    const f = await focusRing(page);
    if (wanted.includes(f.id) && !seen.includes(f.id)) {
      assert.ok(f.ring, `${f.id}: visible focus ring`);
      seen.push(f.id);
    }
  }
  assert.deepEqual(seen, wanted, 'reached in reading order');
  // the projector toggle and a settings section work from the keyboard
  await page.focus('#projector');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#projector').getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('Space');
  assert.equal(await page.locator('#projector').getAttribute('aria-pressed'), 'false');
  await page.focus('#initial-section summary');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#initial-section').getAttribute('open'), '');
  // the language select has a visible label and lists every catalogue
  assert.equal(await page.locator('label[for="language"]').isVisible(), true);
  assert.ok((await page.locator('#language option').count()) >= 2);
  // one h1, and the landmarks
  assert.equal(await page.locator('h1').count(), 1);
  assert.equal(await page.locator('body > header').count(), 1, 'a banner landmark');
  assert.equal(await page.locator('main').count(), 1, 'a main landmark');
  assert.deepEqual(errors, []);
  await page.close();
});
