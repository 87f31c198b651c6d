// The classroom page tells the truth from the first second: only conserved quantities
// are plotted as conservation errors, graphs are in natural variables, a run that
// breaks down stops at a marked last good point without rescaling the others, and a
// copied link (taken from one snapshot) opens paused on the same step and bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, sleep } from './helpers.mjs';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);

test('heavy top: conservation cards hold only conserved quantities; J_x and J_y are shown as not conserved', async () => {
  const { page, errors } = await openPage(browser.context, '#system=heavy-top', { reducedMotion: 'reduce' });
  await hook(page, () => window.vilabPage.step(400));
  await hook(page, () => window.vilabPage.drawPlots());
  const quantities = await hook(page, () => window.vilabPage.sim().describe().quantities);
  const conservedSymbols = quantities.filter((q) => q.conserved).map((q) => q.symbol);
  const notConserved = quantities.filter((q) => !q.conserved).map((q) => q.symbol);
  assert.deepEqual(notConserved, ['J_x', 'J_y']);
  const momentumTitle = await page.locator('#plot-momentum .plot-title').textContent();
  for (const s of notConserved) assert.ok(!momentumTitle.includes(s), `${s} is not in "${momentumTitle}"`);
  for (const s of conservedSymbols.filter((s) => s !== 'E')) assert.ok(momentumTitle.includes(s), `${s} in "${momentumTitle}"`);
  assert.match(await page.locator('#plot-unconserved .plot-title').textContent(), /Not conserved \(J_x, J_y\)/);
  assert.match(await page.locator('#plot-unconserved .plot-note').textContent(), /Gravity's torque/);
  // the drifts in the conservation card are round-off; J_x really moves
  const series = await hook(page, () => window.vilabPage.plotSeries());
  assert.ok(Math.abs(series.J_z_A) < 1e-10 && Math.abs(series.Pi3_A) < 1e-10, `J_z ${series.J_z_A}, Π₃ ${series.Pi3_A}`);
  const jx = await hook(page, () => window.vilabPage.sim().diagnostics().momentum[0]);
  assert.ok(Math.abs(series['value.J_x_A'] - jx) < 1e-12);
  // the oscillator has no constraint card and no momentum card
  await hook(page, () => window.vilabPage.setState({ scenario: { system: 'oscillator' }, compare: null }));
  await sleep(100);
  assert.equal(await page.locator('#plot-constraint').count(), 0);
  assert.equal(await page.locator('#plot-momentum').count(), 0);
  // and no badge it does not have
  const badges = await page.locator('#badges-a').textContent();
  assert.ok(!/momentum|constraint/.test(badges), badges);
  assert.match(badges, /symplectic form/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the long-run preset plays at its speed with the energy envelope on log axes, and names the crossover', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1');
  await page.selectOption('#preset', 'long-run-energy');
  await sleep(200);
  const st = await hook(page, () => window.vilabPage.state());
  assert.equal(st.speed, 50);
  assert.equal(st.compare, 'rk4');
  // it asks its prediction first, waiting at t = 0; the card's play runs it
  assert.equal(await hook(page, () => window.vilabPage.playing()), false);
  await page.click('#predict .predict-play');
  assert.equal(await hook(page, () => window.vilabPage.playing()), true);
  assert.equal(await page.locator('#plot-energy .plot-note button').getAttribute('aria-pressed'), 'true', 'envelope mode');
  // at 50× the run covers seconds of motion per second (a slow machine may fall behind, never ahead)
  // (the rate over the page's own clock: a loaded machine stretches the second the test sleeps)
  const clock = () => hook(page, () => ({ t: window.vilabPage.sim().time, ms: performance.now() }));
  const a = await clock();
  await sleep(1000);
  const b = await clock();
  const rate = (b.t - a.t) / ((b.ms - a.ms) / 1000);
  assert.ok(rate > 5 && rate < 55, `simulated ${rate} s per second of the page's clock`);
  // the crossover, reached exactly: RK4's envelope passes the midpoint band near 240 s
  await hook(page, () => window.vilabPage.pause());
  await hook(page, () => window.vilabPage.runTo(15000));
  await hook(page, () => window.vilabPage.drawPlots());
  const series = await hook(page, () => window.vilabPage.plotSeries());
  assert.ok(
    series.energyEnvelope_A > 0 && series.energyEnvelope_B > series.energyEnvelope_A,
    `envelopes A ${series.energyEnvelope_A}, B ${series.energyEnvelope_B} at 300 s`,
  );
  const note = await page.locator('#plot-energy .plot-note').textContent();
  const crossing = Number(note.match(/more accurate for the first ([\d.]+) s/)?.[1]);
  assert.ok(crossing > 200 && crossing < 280, note);
  assert.match(note, /error never grows/);
  // log axes: a positive y range spanning decades (a linear axis would be padded below zero)
  const [lo, hi] = await hook(page, () => window.vilabPage.plotRange('energy'));
  assert.ok(lo > 0 && hi / lo >= 100, `log range [${lo}, ${hi}]`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the pendulum graph is θ against θ̇ (degrees), with a period timer close to the exact period', async () => {
  const { page, errors } = await openPage(browser.context, '#system=pendulum', { reducedMotion: 'reduce' });
  await hook(page, () => window.vilabPage.drawPlots());
  const [x, y] = await page.locator('#plot-phase select').evaluateAll((s) => s.map((e) => e.selectedOptions[0].textContent));
  assert.equal(x, 'θ');
  assert.equal(y, 'θ̇');
  // 5 s of swinging (two periods and more), sampled once per step through the page's own hook
  for (let k = 0; k < 500; k++) await hook(page, () => window.vilabPage.step(1));
  await hook(page, () => window.vilabPage.drawPlots());
  const text = await page.locator('#period').textContent();
  const T = Number(text.match(/period ≈ ([\d.]+) s/)?.[1]);
  // θ₀ = 1 rad, l = 1, g = 9.81: T = 4K(sin²(½))/ω₀ = 2.1436 s (Jacobi); a frame-sampled
  // maximum is off by at most a step
  assert.ok(Math.abs(T - 2.1436) < 0.02, `period ${text}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a breakdown freezes the broken curves at a marked point; the other series keep their range; the CSV holds real values only', async () => {
  // explicit Euler at h = 0.5 on the oscillator: its energy grows by 25 % per step
  const { page, errors } = await openPage(browser.context, '#system=oscillator&h=0.5&compare=euler', { reducedMotion: 'reduce' });
  await hook(page, () => window.vilabPage.step(3));
  await hook(page, () => window.vilabPage.drawPlots());
  await hook(page, () => window.vilabPage.step(40));
  await hook(page, () => window.vilabPage.drawPlots());
  const failure = await hook(page, () => window.vilabPage.failure());
  assert.equal(failure.A, null, 'A keeps running');
  assert.equal(failure.B.code, 'breakdown');
  assert.equal(failure.B.kind, 'energy');
  const stepB = await hook(page, () => window.vilabPage.simB().step);
  const range1 = await hook(page, () => window.vilabPage.plotRange('energy'));
  assert.ok(Math.max(Math.abs(range1[0]), Math.abs(range1[1])) < 1.5, `no clip value stretches the axis: ${range1}`);
  await hook(page, () => window.vilabPage.step(200));
  await hook(page, () => window.vilabPage.drawPlots());
  const range2 = await hook(page, () => window.vilabPage.plotRange('energy'));
  assert.deepEqual(range2, range1, 'the range stays once B has stopped');
  assert.equal(await hook(page, () => window.vilabPage.simB().step), stepB, 'B takes no more steps');
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 243, 'A goes on');
  assert.match(await page.locator('#plot-energy .plot-mark').textContent(), /B stopped at t = [\d.]+ s/);
  const banner = await page.locator('.banner[data-key="failure-b"]').textContent();
  assert.match(banner, /its energy has grown by \d+%/);
  // the CSV: B's columns end where B stopped; no clip value anywhere
  const csv = (await hook(page, () => window.vilabPage.csv())).trim().split('\n');
  const header = csv[4].split(',');
  const eB = header.indexOf('energy_error_relative_B');
  const rows = csv.slice(5).map((r) => r.split(','));
  const filled = rows.filter((r) => r[eB] !== '');
  assert.equal(filled.length, stepB + 1, 'one row per step B took');
  const errorCols = header.flatMap((h, j) => (/error|drift|residual/.test(h) ? [j] : []));
  assert.ok(
    rows.every((r) => r.every((v) => v === '' || Number.isFinite(Number(v)))),
    'numbers or blanks only',
  );
  assert.ok(
    rows.every((r) => errorCols.every((j) => r[j] === '' || (Math.abs(Number(r[j])) !== 10 && Number(r[j]) !== 1000))),
    'no clip value',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('Enlarge makes a plot at least twice as tall; Escape restores it', async () => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  const before = await page.locator('#plot-energy canvas').boundingBox();
  await page.locator('#plot-energy .enlarge').click();
  await sleep(100);
  const big = await page.locator('#plot-energy canvas').boundingBox();
  assert.ok(big.height >= 2 * before.height, `${before.height} → ${big.height}`);
  await page.keyboard.press('Escape');
  await sleep(100);
  const after = await page.locator('#plot-energy canvas').boundingBox();
  assert.ok(Math.abs(after.height - before.height) < 2);
  // energy bars: kinetic + potential = total, as numbers a reader can check
  await hook(page, () => window.vilabPage.play());
  await sleep(400);
  await hook(page, () => window.vilabPage.pause());
  await sleep(300);
  const bars = page.locator('#energy-bars');
  assert.equal(await bars.isVisible(), true);
  const [K, U, E] = (await bars.locator('.bar-value').allTextContents()).slice(0, 3).map((x) => Number(x.replace('\u2212', '-')));
  assert.ok(Math.abs(K + U - E) < 1e-3 * Math.abs(E), `${K} + ${U} = ${E}`);
  // screen readers: the live summary after a pause, and a table per card
  assert.match(await page.locator('#diag-summary').textContent(), /Energy error: A [−+]?\d/);
  assert.ok((await page.locator('#plot-energy table tr').count()) >= 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('copy link while playing: one snapshot; the link opens paused on that step with the same fingerprint', async () => {
  const { page, errors } = await openPage(browser.context, '');
  await hook(page, () => window.vilabPage.play());
  await sleep(500);
  await page.click('#copy-link');
  const banner = page.locator('.banner.info');
  await banner.waitFor();
  const url = await banner.locator('code').textContent();
  const step = Number(await banner.getAttribute('data-step'));
  const shown = await banner.getAttribute('data-hash');
  const hash = decodeURIComponent(new URL(url).hash);
  assert.ok(step > 0);
  assert.match(hash, new RegExp(`fp=${step}\\.${shown}`), 'the URL carries the fingerprint shown');
  assert.match(hash, new RegExp(`at=${step}\\b`));
  assert.match(await banner.textContent(), new RegExp(`paused at step ${step}`));
  await page.close();
  const opened = await openPage(browser.context, url.replace(/^https?:\/\/[^/]+\//, ''));
  await opened.page.waitForFunction((k) => window.vilabPage.sim().step === k, step, { timeout: 20000 });
  await sleep(300);
  assert.equal(await hook(opened.page, () => window.vilabPage.playing()), false, 'lands paused');
  assert.equal(await hook(opened.page, () => window.vilabPage.sim().step), step, 'and stays on the step');
  assert.equal(await hook(opened.page, () => window.vilabPage.fingerprint()), shown);
  assert.match(await opened.page.locator('#fp-check').textContent(), /✓ same run as the link/);
  assert.deepEqual([...errors, ...opened.errors], []);
  await opened.page.close();
});

test("changing B keeps A's run; B is brought to A's step; one pacing control", async () => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  await hook(page, () => window.vilabPage.runTo(600));
  const fpA = await hook(page, () => window.vilabPage.fingerprint());
  // B is brought to A's step at once when the estimate says that is quick (STEP_NOW_MS); on a
  // busy machine the estimate can say otherwise, and both land on A's step between frames
  // (the same bits): either way the run ends on step 600 with A's fingerprint
  const landed = () =>
    page.waitForFunction(() => !window.vilabPage.landing().active && window.vilabPage.landing().settled, null, { timeout: 20000 });
  await page.selectOption('#integrator-b', 'rk4');
  await landed();
  await sleep(150);
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 600, "A's run goes on from where it was");
  assert.equal(await hook(page, () => window.vilabPage.fingerprint()), fpA);
  assert.equal(await hook(page, () => window.vilabPage.simB().step), 600, 'B starts level with A');
  // B at step 600 is the same bits as B run from the start alongside A
  const fresh = await hook(page, () => {
    const sim = window.vilabPage.lab.simulate(window.vilabPage.simB().scenario());
    sim.advance(600);
    const h = sim.hash();
    sim.dispose();
    return h;
  });
  assert.equal(await hook(page, () => window.vilabPage.simB().hash()), fresh);
  await page.selectOption('#integrator-b', 'alpha');
  await landed();
  await sleep(150);
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 600);
  await hook(page, () => window.vilabPage.drawPlots());
  const series = await hook(page, () => window.vilabPage.plotSeries());
  assert.ok(Number.isFinite(series.energy_A) && Number.isFinite(series.energy_B), 'both curves, from the oldest kept sample');
  // pacing: real-time multiples and fixed steps per frame are one select
  assert.equal(await page.locator('#spf').count(), 0);
  await page.selectOption('#speed', 'spf100');
  let st = await hook(page, () => window.vilabPage.state());
  assert.equal(st.stepsPerFrame, 100);
  await page.selectOption('#speed', 'x5');
  st = await hook(page, () => window.vilabPage.state());
  assert.deepEqual([st.speed, st.stepsPerFrame], [5, 0]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('dragging a bob sets a new start on the constraint manifold (mouse and touch)', async () => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  await hook(page, () => window.vilabPage.pause());
  const before = await hook(page, () => window.vilabPage.state().scenario.initial.angles);
  const camera = await hook(page, () => window.vilabPage.camera());
  const bob = await hook(page, () => window.vilabPage.bobScreen(1));
  await page.mouse.move(bob.x, bob.y);
  await page.mouse.down();
  await page.mouse.move(bob.x + 40, bob.y - 30, { steps: 5 });
  await page.mouse.move(bob.x + 80, bob.y - 60, { steps: 5 });
  await page.mouse.up();
  await sleep(150);
  const st = await hook(page, () => window.vilabPage.state());
  assert.notDeepEqual(st.scenario.initial.angles, before, 'the start changed');
  assert.deepEqual(
    st.scenario.initial.rates,
    [
      [0, 0],
      [0, 0],
    ],
    'released from rest',
  );
  assert.deepEqual(st.scenario.initial.angles[0], before[0], 'the upper link keeps its direction');
  const run = await hook(page, () => ({
    step: window.vilabPage.sim().step,
    constraint: window.vilabPage.sim().diagnostics().constraint,
    playing: window.vilabPage.playing(),
  }));
  assert.equal(run.step, 0, 'the run restarts at t = 0');
  assert.equal(run.playing, false, 'paused, ready to play');
  assert.ok(run.constraint <= 1e-12, `on the manifold: |g| = ${run.constraint}`);
  const cameraAfter = await hook(page, () => window.vilabPage.camera());
  assert.ok(
    cameraAfter.every((x, k) => Math.abs(x - camera[k]) < 1e-9),
    `the camera did not orbit while the bob was held: ${cameraAfter}`,
  );
  // the planar pendulum stays in its plane
  await hook(page, () => window.vilabPage.setState({ scenario: { system: 'pendulum' }, compare: null }));
  await sleep(150);
  const p = await hook(page, () => window.vilabPage.bobScreen(0));
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(p.x - 60, p.y - 20, { steps: 6 });
  await page.mouse.up();
  await sleep(150);
  const sc = await hook(page, () => window.vilabPage.state().scenario);
  assert.equal(typeof sc.initial.angles[0], 'number');
  assert.notEqual(sc.initial.angles[0], 1);
  assert.ok((await hook(page, () => window.vilabPage.sim().diagnostics().constraint)) <= 1e-12);
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare: at t = 0, B is drawn as an opaque orange rim around A, not blended into A', async () => {
  const { page, errors } = await openPage(browser.context, '#compare=rk4', { reducedMotion: 'reduce' });
  await hook(page, () => window.vilabPage.pause());
  await hook(page, () => window.vilabPage.drawPlots());
  await sleep(200);
  const { countColor } = await import('./helpers.mjs');
  const shot = await page.locator('#view canvas').screenshot();
  assert.ok(countColor(shot, [230, 159, 0], 30) > 150, `pure orange outline pixels: ${countColor(shot, [230, 159, 0], 30)}`);
  assert.deepEqual(errors, []);
  await page.close();
});
