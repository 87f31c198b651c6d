// Landing and stopping: a broken run stops at the same step for the same reason however
// the link is opened (at = 700, 1500, 3000, or watched live); landing far away is
// time-sliced (no frame waits on it), shows its progress and stops on Cancel; a landing
// beyond the bound is refused by field with its estimate, the run kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, openPage, sleep } from './helpers.mjs';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);

const BREAKDOWN = '#system=pendulum&initial.angles=1.2&compare=euler';

/** B's stop as the page holds it: the failure, where B rests, its fingerprint, the banner. */
async function stopOfB(page) {
  await page.waitForFunction(() => window.vilabPage.failure().B && window.vilabPage.landing().settled, null, { timeout: 30000 });
  await page.waitForFunction(() => !window.vilabPage.landing().active, null, { timeout: 30000 });
  return page.evaluate(() => {
    const { step, code, kind, t } = window.vilabPage.failure().B;
    const b = window.vilabPage.simB();
    return {
      step,
      code,
      kind,
      t,
      rest: b.step,
      hash: b.hash(),
      banner: document.querySelector('.banner[data-key="failure-b"] .banner-text')?.textContent ?? null,
    };
  });
}

test('the breakdown link stops B at the same step, for the same reason, on the same bits: at = 700, 1500, 3000 and live', async () => {
  const stops = {};
  for (const at of [700, 1500, 3000]) {
    const { page, errors } = await openPage(browser.context, `${BREAKDOWN}&at=${at}`);
    stops[at] = await stopOfB(page);
    await page.waitForFunction((n) => window.vilabPage.sim().step === n, at, { timeout: 30000 });
    assert.equal(await hook(page, () => window.vilabPage.playing()), false, `at=${at} lands paused`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // live, at 10× (the breakdown comes after about 0.5 s of watching)
  const { page, errors } = await openPage(browser.context, `${BREAKDOWN}&speed=10`);
  stops.live = await stopOfB(page);
  // B may stop on the last step of A's chunk: A is then at B's step until its next frame.
  const aRuns = await page
    .waitForFunction((step) => window.vilabPage.sim().step > step, stops.live.step, { timeout: 10000 })
    .then(
      () => true,
      () => false,
    );
  assert.ok(aRuns, 'A keeps running');
  assert.deepEqual(errors, []);
  await page.close();
  const ref = stops[700];
  assert.equal(ref.code, 'breakdown');
  assert.equal(ref.kind, 'energy', 'the energy left the band before the step overflowed');
  assert.equal(ref.rest, ref.step - 1, 'B rests on its last good step');
  assert.match(ref.banner, /stopped at t = \d+\.\d\d s/);
  for (const [how, stop] of Object.entries(stops)) assert.deepEqual(stop, ref, `opened ${how === 'live' ? 'live' : `at = ${how}`}`);
});

/** Records the longest gap between animation frames from now on (window.__gap()) and counts them (window.__frames()). */
async function watchFrames(page) {
  await page.evaluate(() => {
    if (window.__frameLoop) cancelAnimationFrame(window.__frameLoop);
    let last = performance.now();
    let max = 0;
    let frames = 0;
    const tick = (now) => {
      max = Math.max(max, now - last);
      last = now;
      frames++;
      window.__frameLoop = requestAnimationFrame(tick);
    };
    window.__frameLoop = requestAnimationFrame(tick);
    window.__gap = () => Math.max(max, performance.now() - last);
    window.__frames = () => frames;
  });
}

/**
 * The longest gap between frames of this page sitting idle for a second: when even that is
 * over MEASURABLE_MS the machine is too busy for frame gaps to mean anything.
 */
async function idleGap(page) {
  await watchFrames(page);
  await sleep(1000);
  return page.evaluate(() => window.__gap());
}

const FRAME_GAP_MS = 200; // the longest frame gap allowed while the page computes
const MEASURABLE_MS = 50; // the idle page's longest gap beyond which gaps are not measured (3 frames)

/**
 * Asserts a frame gap ≤ FRAME_GAP_MS, unless the idle page had gaps over MEASURABLE_MS before
 * or after (measured again now: the page must be idle): then it is said, not judged.
 */
async function assertGap(t, page, idleBefore, gap, what) {
  const idle = Math.max(idleBefore, await idleGap(page));
  if (idle > MEASURABLE_MS) {
    t.diagnostic(`${what}: ${gap.toFixed(0)} ms, not judged: the idle page's frames were ${idle.toFixed(0)} ms apart (a busy machine)`);
    return false;
  }
  assert.ok(gap <= FRAME_GAP_MS, `${what}: ${gap.toFixed(0)} ms`);
  return true;
}

/**
 * A frame came between every two slices of the landing (since watchFrames, when `before`
 * slices had been taken; `slices`: as counted with the frames, else all of them), and, where frame gaps are measurable (`judged`), each slice took
 * at most 100 ms.
 */
async function assertSlices(page, { before = 0, frames, judged, slices: counted }) {
  const { longestSliceMs, slices: total } = await page.evaluate(() => window.vilabPage.landing());
  const slices = counted ?? total;
  assert.ok(slices - before > 1 && frames >= slices - before - 1, `${frames} frames for ${slices - before} slices`);
  if (judged) assert.ok(longestSliceMs > 0 && longestSliceMs <= 100, `longest slice ${longestSliceMs.toFixed(0)} ms`);
}

// a chain of 64 links in DOPRI5 at a tight tolerance: each step costs many evaluations
const N = 64;
const list = (x) => Array(N).fill(x).join(',');
const angles = Array.from({ length: N }, (_, i) => `${(0.3 + 0.01 * i).toFixed(2)},0`).join(';');
const CHAIN = `#system=chain&integrator=dopri5&h=0.05&options.tol=1e-12&params.masses=${list(1)}&params.lengths=${list(0.1)}&initial.angles=${angles}`;

/** ms per step of the page's run, measured in a scratch simulation of its scenario. */
const msPerStep = (page, steps) =>
  page.evaluate((n) => {
    const sim = window.vilabPage.lab.simulate(window.vilabPage.sim().scenario());
    sim.advance(1);
    const t0 = performance.now();
    sim.advance(n);
    const ms = (performance.now() - t0) / n;
    sim.dispose();
    return ms;
  }, steps);

test('landing far away: time-sliced (longest frame gap ≤ 200 ms), progress with an estimate, Cancel keeps the step reached', async (t) => {
  const { page, errors } = await openPage(browser.context, CHAIN, { reducedMotion: 'reduce' });
  assert.equal(await hook(page, () => window.vilabPage.sim().scenario().params.masses.length), N);
  const idle = await idleGap(page);
  // a landing of about 10 s on this machine: well under the bound, long enough to cancel
  const goal = Math.max(50, Math.round(10000 / (await msPerStep(page, 5))));
  const viewSize = () => page.evaluate(() => document.querySelector('#view canvas').getBoundingClientRect().toJSON());
  const sizeBefore = await viewSize();
  await watchFrames(page);
  await page.evaluate((n) => {
    window.__landing = window.vilabPage.landAt(n);
  }, goal);
  await page.locator('#landing').waitFor({ timeout: 5000 });
  assert.match(await page.locator('#landing').textContent(), /step [\d,]+, \d+\s?% done, about [\d,]+ (s|min) left/);
  // the line floats over the stage: the view keeps its size (a resize would reallocate its canvas in the landing's frames)
  assert.deepEqual(await viewSize(), sizeBefore, 'the view keeps its size while the progress line shows');
  await sleep(1500);
  const [gap, frames, slices] = await hook(page, () => [window.__gap(), window.__frames(), window.vilabPage.landing().slices]);
  const midway = await hook(page, () => window.vilabPage.sim().step);
  assert.ok(midway > 0 && midway < goal, `midway at ${midway} of ${goal}`);
  await page.click('#landing-cancel');
  const result = await page.evaluate(() => window.__landing);
  assert.equal(result.cancelled, true);
  assert.equal(result.reached, false);
  assert.ok(result.step >= midway && result.step < goal, `stopped at ${result.step}`);
  assert.equal(await page.locator('#landing').count(), 0, 'the progress line is gone');
  assert.deepEqual(await viewSize(), sizeBefore, 'and the view kept its size');
  await sleep(200);
  assert.equal(await hook(page, () => window.vilabPage.sim().step), result.step, 'no more steps after Cancel');
  assert.equal(await hook(page, () => window.vilabPage.playing()), false);
  // measured while landing, judged once the page is idle again
  const judged = await assertGap(t, page, idle, gap, 'longest frame gap while landing');
  await assertSlices(page, { frames, slices, judged });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link whose landing would exceed the bound (at = 10,000,000 on the 64-link DOPRI5 chain) is refused by field with its estimate', async (t) => {
  // opened with the page: refused, the run opens at step 0
  const { page, errors } = await openPage(browser.context, `${CHAIN}&at=10000000`);
  await hook(page, () => window.vilabPage.pause());
  const banner = page.locator('.banner[data-key="link"]');
  await banner.waitFor({ timeout: 10000 }); // the start link's landing is measured once the page is open
  const idle = await idleGap(page);
  await watchFrames(page);
  const text = await banner.textContent();
  assert.match(text, /This link's at asks for step 10000000: .* about [\d,]+ h of computing \(the bound is 60 s\)/);
  assert.equal(await banner.locator('code').textContent(), 'at');
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 0);
  assert.equal(await hook(page, () => window.vilabPage.landing().active), false);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /at=/, 'the address no longer asks for it');
  // pasted into the open page, with a run under way: refused, the run kept
  await hook(page, () => window.vilabPage.runTo(3));
  const before = await hook(page, () => window.vilabPage.fingerprint());
  await page.evaluate(() => (location.hash = `${location.hash.slice(1)}&at=9999999`));
  await page.waitForFunction(() => /kept/.test(document.querySelector('.banner[data-key="link"]')?.textContent ?? ''));
  assert.match(await banner.textContent(), /asks for step 9999999: .* about [\d,]+ h .*the run shown is kept/);
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 3);
  assert.equal(await hook(page, () => window.vilabPage.fingerprint()), before);
  await sleep(300);
  const gap = await hook(page, () => window.__gap());
  await assertGap(t, page, idle, gap, 'longest frame gap after the paste');
  assert.deepEqual(errors, []);
  await page.close();
});

test('stepNow beyond a frame (the embed’s vilab:step, 100,000 steps) is time-sliced and gives the bits of stepping live', async (t) => {
  const { page, errors } = await openPage(browser.context, '#system=double-spherical-pendulum', { reducedMotion: 'reduce' });
  const idle = await idleGap(page);
  await watchFrames(page);
  const step = await hook(page, () => window.vilabPage.step(100000));
  assert.equal(step, 100000);
  const [gap, frames] = await hook(page, () => [window.__gap(), window.__frames()]);
  const judged = await assertGap(t, page, idle, gap, 'longest frame gap while stepping');
  await assertSlices(page, { frames, judged });
  const sliced = await hook(page, () => window.vilabPage.fingerprint());
  const fresh = await hook(page, () => {
    const sim = window.vilabPage.lab.simulate(window.vilabPage.state().scenario);
    sim.advance(100000);
    const h = sim.hash();
    sim.dispose();
    return h;
  });
  assert.equal(sliced, fresh, 'the same bits as one batch');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 16-coordinate definition with energy–momentum stays responsive: landing on its link and playing', async (t) => {
  // the FPUT chain (16 coordinates) with energy–momentum: its link, then that link with at=
  const definition = JSON.parse(readFileSync(new URL('../../scenes/lagrangian/fput.json', import.meta.url), 'utf8'));
  delete definition.about;
  assert.equal(definition.params.coordinates.length, 16);
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  const idle = await idleGap(page);
  const err = await page.evaluate(
    (sc) => window.vilabPage.setState({ scenario: { ...sc, integrator: 'energy-momentum' }, compare: null }),
    definition,
  );
  assert.equal(err, null);
  await page.waitForFunction(() => window.vilabPage.state().scenario.integrator === 'energy-momentum');
  await page.waitForFunction(() => /energy-momentum/.test(location.hash)); // the address bar follows
  const link = await page.evaluate(() => location.hash);
  const goal = Math.max(2000, Math.round(4000 / (await msPerStep(page, 20))));
  await page.close();
  const opened = await openPage(browser.context, `${link}&at=${goal}`, { waitReady: false });
  await opened.page.waitForFunction(() => window.vilabPage?.sim?.()?.step > 0, null, { timeout: 30000 });
  await watchFrames(opened.page);
  const before = await hook(opened.page, () => window.vilabPage.landing().slices);
  await opened.page.waitForFunction((n) => window.vilabPage.sim().step === n && !window.vilabPage.landing().active, goal, {
    timeout: 120000,
  });
  const [gap, frames] = await hook(opened.page, () => [window.__gap(), window.__frames()]);
  const judged = await assertGap(t, opened.page, idle, gap, `longest frame gap while landing on step ${goal}`);
  await assertSlices(opened.page, { frames, judged, before });
  // and playing it
  await hook(opened.page, () => window.vilabPage.play());
  await watchFrames(opened.page);
  await sleep(2000);
  const playing = await hook(opened.page, () => ({ gap: window.__gap(), step: window.vilabPage.sim().step }));
  await hook(opened.page, () => window.vilabPage.pause());
  await assertGap(t, opened.page, idle, playing.gap, 'longest frame gap while playing');
  assert.ok(playing.step > goal, 'it moves');
  assert.deepEqual([...errors, ...opened.errors], []);
  await opened.page.close();
});

test('a comparison added far into a run: both land on A’s step, time-sliced, with the bits of running alongside', async (t) => {
  const { page, errors } = await openPage(browser.context, '#system=double-spherical-pendulum', { reducedMotion: 'reduce' });
  const idle = await idleGap(page);
  assert.equal(await hook(page, () => window.vilabPage.runTo(200000)), 200000);
  const hashA = await hook(page, () => window.vilabPage.fingerprint());
  assert.equal(await hook(page, () => window.vilabPage.setState({ compare: 'rk4' })), null);
  // the rebuild itself (new plots, new scene) is any comparison's; from the landing on, frames keep coming
  await page.waitForFunction(() => window.vilabPage.landing().active);
  await watchFrames(page);
  const before = await hook(page, () => window.vilabPage.landing().slices);
  await page.waitForFunction(() => window.vilabPage.simB()?.step === 200000 && !window.vilabPage.landing().active, null, {
    timeout: 120000,
  });
  const [gap, frames] = await hook(page, () => [window.__gap(), window.__frames()]);
  const judged = await assertGap(t, page, idle, gap, 'longest frame gap while B caught up');
  await assertSlices(page, { frames, judged, before });
  assert.equal(await hook(page, () => window.vilabPage.fingerprint()), hashA, 'A: the same bits');
  const [hashB, fresh] = await hook(page, () => {
    const b = window.vilabPage.simB();
    const sim = window.vilabPage.lab.simulate(b.scenario());
    sim.advance(200000);
    const h = sim.hash();
    sim.dispose();
    return [b.hash(), h];
  });
  assert.equal(hashB, fresh, 'B: the bits of a run to that step');
  assert.deepEqual(errors, []);
  await page.close();
});

test('in Spanish: the progress line, its Cancel and the refusal of a link beyond the bound', async () => {
  const { page, errors } = await openPage(browser.context, `?lang=es${CHAIN}&at=10000000`, { reducedMotion: 'reduce' });
  const banner = page.locator('.banner[data-key="link"]');
  await banner.waitFor({ timeout: 10000 });
  assert.match(
    await banner.textContent(),
    /El campo at de este enlace pide el paso 10000000: .* unos [\d.\s]+ h de cálculo \(el límite es 60 s\)/,
  );
  const goal = Math.max(50, Math.round(10000 / (await msPerStep(page, 5))));
  await page.evaluate((n) => {
    window.__landing = window.vilabPage.landAt(n);
  }, goal);
  await page.locator('#landing').waitFor({ timeout: 5000 });
  assert.match(
    await page.locator('#landing').textContent(),
    /^Yendo al paso [\d.\s]+: paso [\d.\s]+, \d+\s?% hecho, quedan unos [\d.\s]+ (s|min)\./,
  );
  assert.equal(await page.locator('#landing-cancel').textContent(), 'Cancelar');
  await page.click('#landing-cancel');
  assert.equal((await page.evaluate(() => window.__landing)).cancelled, true);
  assert.deepEqual(errors, []);
  await page.close();
});
