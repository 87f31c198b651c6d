// Mechanisms in the page: every scenes/mechanisms preset loads (the full module on
// demand), is drawn by the mechanism view (A's blue pixels), runs with its joints closed
// and its energy finite, and its share link reopens the same run, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useBrowser, openPage, openPresetPaused, sleep, bluePixels } from './helpers.mjs';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);
const SCENES = fileURLToPath(new URL('../../scenes/mechanisms/', import.meta.url));
const IDS = readdirSync(SCENES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length));

test('every mechanism preset loads, is drawn, runs with its joints closed, and its link reopens the same run', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { reducedMotion: 'reduce' });
  const presets = await hook(page, () => window.vilabPage.presets());
  for (const id of IDS) {
    assert.ok(presets.includes(id), `${id} is a preset of the page`);
    await page.selectOption('#preset', id);
    await hook(page, () => window.vilabPage.loadFull());
    await hook(page, () => window.vilabPage.pause());
    await sleep(100);
    const state = await hook(page, () => window.vilabPage.state());
    assert.equal(state.scenario.system, 'mechanism', `${id} runs the mechanism system`);
    assert.deepEqual(await page.locator('.banner.error').allTextContents(), [], `${id}: built without an error banner`);
    const start = await hook(page, () => window.vilabPage.sim().step);
    await hook(page, (k) => window.vilabPage.runTo(k), start + 400);
    await sleep(80);
    const facts = await hook(page, () => {
      const sim = window.vilabPage.sim();
      const d = sim.diagnostics();
      return { step: sim.step, energy: d.energy, constraint: d.constraint, fingerprint: sim.hash() };
    });
    assert.ok(facts.step >= start + 400, `${id} advanced to ${facts.step}`);
    assert.ok(Number.isFinite(facts.energy), `${id}: energy finite`);
    assert.ok(facts.constraint <= 1e-12, `${id}: joints closed (${facts.constraint})`);
    const blue = bluePixels(await page.locator('#view canvas').screenshot());
    assert.ok(blue >= 200, `${id}: the bodies are drawn (${blue} blue pixels)`);
    // the share link reopens the same scenario; run to the same step, the same bits
    const url = await hook(page, () => window.vilabPage.shareURL());
    const other = await openPage(browser.context, url.slice(url.indexOf('?')) || url.slice(url.indexOf('#')), {
      reducedMotion: 'reduce',
    });
    await hook(other.page, () => window.vilabPage.loadFull());
    await hook(other.page, () => window.vilabPage.pause());
    const reopened = await hook(other.page, () => window.vilabPage.state().scenario);
    assert.deepEqual(reopened, state.scenario, `${id}: the link carries the scenario`);
    await hook(other.page, (k) => window.vilabPage.runTo(k), facts.step);
    const again = await hook(other.page, () => window.vilabPage.sim().hash());
    assert.equal(again, facts.fingerprint, `${id}: the link's run has the same bits at step ${facts.step}`);
    assert.deepEqual(other.errors, [], `${id}: no errors on the reopened page`);
    await other.page.close();
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a mechanism preset offers the quaternion midpoint from the registry, and choosing it runs with joints and |q| kept', async () => {
  const { page, errors } = await openPresetPaused(browser.context, 'compound-double-pendulum');
  // a preset with a lesson opens the lesson layout, its settings tucked away: back to the standard one
  if ((await hook(page, () => window.vilabPage.lessonLayout())).on) await page.locator('#lesson-toggle').click();
  const offered = await page.locator('#integrator-a option').evaluateAll((os) => os.map((o) => o.value));
  for (const id of ['lie-group', 'quaternion', 'energy-momentum', 'rk4', 'dopri5'])
    assert.ok(offered.includes(id), `${id} offered (${offered.join(', ')})`);
  await page.selectOption('#integrator-a', 'quaternion');
  await hook(page, () => window.vilabPage.pause());
  await sleep(100);
  assert.equal((await hook(page, () => window.vilabPage.state())).scenario.integrator, 'quaternion');
  const start = await hook(page, () => window.vilabPage.sim().step);
  await hook(page, (k) => window.vilabPage.runTo(k), start + 400);
  const facts = await hook(page, () => {
    const sim = window.vilabPage.sim();
    const d = sim.diagnostics();
    return { step: sim.step, energy: d.energy, constraint: d.constraint };
  });
  assert.ok(facts.step >= start + 400, `advanced to ${facts.step}`);
  assert.ok(Number.isFinite(facts.energy), 'energy finite');
  // the constraint diagnostic is the larger of the joints' gap and | |q| − 1 |
  assert.ok(facts.constraint <= 1e-12, `joints and |q| = 1 kept (${facts.constraint})`);
  assert.deepEqual(await page.locator('.banner.error').allTextContents(), [], 'no error banner');
  assert.deepEqual(errors, []);
  await page.close();
});
