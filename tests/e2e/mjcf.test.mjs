// MuJoCo models in the page (web/page/model.js, web/ui/model-dialog.js): MJCF pasted into
// Open model's dialog runs as a mechanism (drawn, its joint closed, its link carrying it); a
// refused file shows the importer's message with its line beside the text, that line
// selected, while the run shown stays exactly where it was; a file chosen in the dialog or
// dropped on the page opens the same way, and one too large is refused before it is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, openPage, sleep, injectAxe, bluePixels } from './helpers.mjs';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);
const mjcf = (name) => readFileSync(new URL(`../native/mjcf/${name}`, import.meta.url), 'utf8');

/** Where the run is: A's step and fingerprint, and the document. */
const position = (page) =>
  hook(page, () => ({ step: window.vilabPage.sim().step, hash: window.vilabPage.fingerprint(), state: window.vilabPage.state() }));

/** The dialog's error once it shows one. */
async function problem(page) {
  await page.waitForFunction(() => document.querySelector('#model-problem')?.textContent, null, { timeout: 10000 });
  return page.locator('#model-problem').textContent();
}

test('a pasted model runs as a mechanism; a refused one names its line and keeps the run; files open by picker and drop', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { reducedMotion: 'reduce' });

  // pasted: the hinge pendulum becomes the run, drawn, its joint closed, carried by the link
  await page.click('#open-model');
  await page.fill('#model-text', mjcf('hinge-pendulum.xml'));
  await page.click('#model-open');
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'mechanism', null, { timeout: 15000 });
  assert.equal(await page.locator('#model-dialog').isVisible(), false, 'the dialog closes on success');
  assert.deepEqual(await page.locator('.banner.error').allTextContents(), [], 'built without a refusal');
  await hook(page, () => window.vilabPage.pause());
  const start = (await position(page)).step;
  await hook(page, (k) => window.vilabPage.runTo(k), start + 400);
  await sleep(80);
  const facts = await hook(page, () => {
    const sim = window.vilabPage.sim();
    return { step: sim.step, constraint: sim.diagnostics().constraint, energy: sim.diagnostics().energy };
  });
  assert.ok(facts.step >= start + 400, `advanced to ${facts.step}`);
  assert.ok(Number.isFinite(facts.energy), 'energy finite');
  assert.ok(facts.constraint <= 1e-12, `the hinge stays closed (${facts.constraint})`);
  const blue = bluePixels(await page.locator('#view canvas').screenshot());
  assert.ok(blue >= 200, `the bob is drawn (${blue} blue pixels)`);
  assert.match(await hook(page, () => window.vilabPage.shareURL()), /[#&]system=mechanism&.*def=/, 'the link carries the model');

  // refused: the importer's message with its line, the line selected, the run untouched
  const before = await position(page);
  await page.click('#open-model');
  await page.fill('#model-text', mjcf('bad/tendon.xml'));
  await page.keyboard.press('Control+Enter');
  assert.equal(await problem(page), 'mjcf line 5: <tendon> is not supported');
  assert.equal(await page.locator('#model-text').getAttribute('aria-invalid'), 'true');
  const selected = await hook(page, () => {
    const box = document.querySelector('#model-text');
    return box.value.slice(box.selectionStart, box.selectionEnd);
  });
  assert.equal(selected.trim(), '<tendon>', 'line 5 is selected in the text');
  await injectAxe(page);
  const violations = await hook(page, async () => {
    const r = await window.axe.run('#model-dialog', { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
  assert.deepEqual(violations, [], 'the dialog, with its error, has no serious accessibility violation');
  assert.deepEqual(await position(page), before, 'the run shown is the same: step, fingerprint, document');

  // the file picker: a refused file names its line too; one too large is refused before reading
  await page.setInputFiles('#model-file', { name: 'damping.xml', mimeType: 'text/xml', buffer: Buffer.from(mjcf('bad/damping.xml')) });
  assert.match(await problem(page), /^mjcf line 6: attribute damping of <joint> is not supported/);
  await page.setInputFiles('#model-file', { name: 'huge.xml', mimeType: 'text/xml', buffer: Buffer.alloc(1.5 * 2 ** 20, 32) });
  await page.waitForFunction(() => /1536 KB/.test(document.querySelector('#model-problem').textContent));
  assert.deepEqual(await position(page), before, 'still the same run');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#model-dialog').isVisible(), false, 'Escape closes the dialog');

  // dropped on the page: the ball-joint plate opens without the dialog
  const taken = await hook(
    page,
    (text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'physical-pendulum.xml', { type: 'text/xml' }));
      const view = document.querySelector('#view');
      view.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      return !view.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    mjcf('physical-pendulum.xml'),
  );
  assert.ok(taken, 'the page takes the drop (the browser does not open the file)');
  await page.waitForFunction(() => window.vilabPage.state().scenario.params.joints?.[0]?.type === 'ball', null, { timeout: 10000 });
  assert.equal(await page.locator('#model-dialog').isVisible(), false);
  assert.deepEqual(errors, [], 'nothing thrown to the console');
  await page.close();
});
