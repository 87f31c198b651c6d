// A preset's caption on the page is the run's (web/page/caption-claims.js): its {slots} are
// filled from the run as it reaches them, with a "Not yet" note until then, in English and
// Spanish; a broken run's stop time in the caption is the one the legend reports; the
// invitation to compare applies the set-up of the preset it leads to; and quantities a
// definition declares but the motion does not conserve are not shown as conserved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, sleep } from './helpers.mjs';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);
const caption = (page) => page.locator('#caption').textContent();

test('the invitation to compare applies the preset it leads to, with its set-up; its caption says what is not yet', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { reducedMotion: 'reduce' });
  await page.click('#invite');
  await sleep(300);
  const st = await hook(page, () => window.vilabPage.state());
  assert.equal(await page.locator('#preset').inputValue(), 'dsp-energy');
  assert.equal(st.compare, 'rk4');
  assert.equal(st.speed, 100, 'the preset’s speed, as its caption says');
  assert.equal(await page.locator('#plot-energy .plot-note button').getAttribute('aria-pressed'), 'true', 'the envelope (log) view');
  await hook(page, () => window.vilabPage.pause());
  await hook(page, () => window.vilabPage.runTo(2100)); // t = 21 s
  const early = await caption(page);
  assert.match(early, /\(3\.5e−3 after 20 s\)/, early);
  assert.match(early, /passes the blue band at t = …/, early);
  assert.match(early, /Not yet: the values at t = 1000 s; .+ is ahead until about t = 17\d0 s\./, early);
  assert.deepEqual(errors, []);
  await page.close();
});

test('explicit Euler’s stop in the caption is the run’s reported stop, and the caption fills as the run goes', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { reducedMotion: 'reduce' });
  await page.selectOption('#preset', 'pendulum-euler');
  await sleep(200);
  await hook(page, () => window.vilabPage.pause());
  assert.match(
    await caption(page),
    /Not yet: the values at t = 1 s, 5 s, and 20 s; .+ is still running \(it stops at about t = 5\.29 s\)\./,
  );
  await hook(page, () => window.vilabPage.runTo(700));
  const failure = await hook(page, () => window.vilabPage.failure());
  assert.ok(failure.B, 'B was stopped');
  const legend = await page.locator('#legend').textContent();
  const reported = legend.match(/stopped at t = ([\d.]+) s/)?.[1];
  assert.ok(reported, legend);
  const text = await caption(page);
  assert.match(text, /\(\+14 % after 1 s, \+84 % after 5 s\)/, text);
  assert.ok(text.includes(`the page stops it, at t = ${Number(reported)} s.`), `${text} | legend: ${reported}`);
  await hook(page, () => window.vilabPage.runTo(2000));
  const done = await caption(page);
  assert.match(done, /stays below 0\.03 % and/, done);
  assert.doesNotMatch(done, /Not yet|…/, 'every claim measured by t = 20 s');
  assert.deepEqual(errors, []);
  await page.close();
});

test('in Spanish the caption is filled with Spanish numbers and notes', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=es', { reducedMotion: 'reduce' });
  await page.selectOption('#preset', 'pendulum-euler');
  await sleep(200);
  await hook(page, () => window.vilabPage.pause());
  assert.match(await caption(page), /Todavía no: los valores en t = 1 s, 5 s y 20 s; .+ sigue en marcha \(se detiene hacia t = 5,29 s\)\./);
  await hook(page, () => window.vilabPage.runTo(700)); // B stops on its energy error, at 5.29 s
  await hook(page, () => window.vilabPage.runTo(2000));
  const text = await caption(page);
  assert.match(text, /^Euler explícito añade energía en cada paso \(\+14 % al cabo de 1 s, \+84 % a los 5 s\)/, text);
  assert.match(text, /la página lo detiene, en t = 5,29 s\./, text);
  assert.doesNotMatch(text, /Todavía no|…/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('FPUT’s mode energies and Kapitza’s height are shown as values, not as conserved quantities', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { reducedMotion: 'reduce' });
  await hook(page, () => window.vilabPage.loadFull());
  for (const [id, names] of [
    ['fput', 'E1, E2, E3, E4'],
    ['kapitza', 'height'],
  ]) {
    await page.selectOption('#preset', id);
    await sleep(300);
    await hook(page, () => window.vilabPage.pause());
    await hook(page, () => window.vilabPage.drawPlots());
    const titles = (await page.locator('#plots .plot-title').allTextContents()).join(' | ');
    assert.doesNotMatch(titles, /Conserved quantities/, `${id}: ${titles}`);
    assert.match(titles, new RegExp(`Not conserved \\(.*${names}\\)`), `${id}: ${titles}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
