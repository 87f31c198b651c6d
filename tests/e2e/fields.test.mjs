// The field page (web/plots/field-plots.js): the plucked string and the sine-Gordon kink
// played in Chromium. The space–time image gets rows at the run's own step times (A and B
// when comparing) and is drawn; the kink readout's numbers are those of the same scenario
// run through the JS API and tracked in Node with the same code (web/sim/kinks.js); a run
// that blows up stops adding rows and never draws a NaN; no console errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, openPage, sleep } from './helpers.mjs';
import { KinkTracker, exactSpeedOf, kinkSetup, nodeVelocities } from '../../web/sim/kinks.js';
import { num } from '../../web/sim/format.js';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);

const scene = (id) => {
  const { about, ...scenario } = JSON.parse(readFileSync(new URL(`../../scenes/fields/${id}.json`, import.meta.url), 'utf8'));
  return scenario;
};

/** Chooses a preset (the full build loaded), paused at t = 0. */
async function choose(page, id) {
  await page.selectOption('#preset', id);
  await hook(page, () => window.vilabPage.loadFull());
  await hook(page, () => window.vilabPage.pause());
  await page.waitForFunction(() => window.vilabPage.fieldPlots()?.A, null, { timeout: 10000 });
}

/** Plays until A's time reaches t (or the run stops), then pauses and redraws. */
async function playTo(page, t) {
  await hook(page, () => window.vilabPage.play());
  await page.waitForFunction((t) => window.vilabPage.sim().time >= t || !window.vilabPage.playing(), t, { timeout: 60000 });
  await hook(page, () => window.vilabPage.pause());
  await sleep(200);
}

/** How many pixels of a card's canvas are drawn in colour (not grey: the image's rows). */
async function colouredPixels(page, index) {
  return hook(
    page,
    (i) => {
      const c = document.querySelectorAll('#plot-spacetime canvas')[i];
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let k = 0; k < d.length; k += 4)
        if (d[k + 3] > 0 && Math.max(d[k], d[k + 1], d[k + 2]) - Math.min(d[k], d[k + 1], d[k + 2]) > 40) n++;
      return n;
    },
    index,
  );
}

test('the plucked string: a space–time image of A and B, rows at the run’s step times, labelled', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'plucked-string');
  await playTo(page, 1.5);
  const st = await hook(page, () => window.vilabPage.fieldPlots());
  const h = scene('plucked-string').h;
  assert.equal(st.rowEvery, 1, 'L = 1, c = 1: 2 s over 480 rows is one step of 0.004 s');
  for (const im of [st.A, st.B]) {
    assert.ok(im.rows >= 100, `${im.rows} rows`);
    assert.equal(im.times[0], 0);
    assert.ok(!im.broken && im.finite);
    // a row on every rowEvery-th step, none skipped however the frames batched the steps
    const steps = im.times.map((t) => t / h);
    for (let k = 1; k < steps.length; k++) assert.ok(Math.abs(steps[k] - steps[k - 1] - st.rowEvery) < 1e-6, `row ${k}: ${steps[k]}`);
    assert.match(im.label, /x from 0 to 1 m/);
    assert.ok(im.label.includes(num(im.t1, 4)), im.label);
  }
  assert.deepEqual(st.A.times, st.B.times, 'A and B have rows at the same times');
  assert.equal(st.kinks, null, 'the plucked string has no kinks');
  assert.equal(await page.locator('#plot-kinks').count(), 0);
  assert.ok((await colouredPixels(page, 0)) > 1000, 'A’s image is drawn');
  assert.ok((await colouredPixels(page, 1)) > 1000, 'B’s image is drawn');
  // projector mode: larger images (240 → 300 px high), the rows kept
  const height = () => hook(page, () => document.querySelector('#plot-spacetime canvas').getBoundingClientRect().height);
  assert.equal(await height(), 240);
  await page.click('#projector');
  await sleep(200);
  assert.equal(await height(), 300);
  assert.equal((await hook(page, () => window.vilabPage.fieldPlots())).A.rows, st.A.rows);
  await page.click('#projector');
  // reset: the image starts again at t = 0
  await page.click('#reset');
  await sleep(200);
  const after = await hook(page, () => window.vilabPage.fieldPlots());
  assert.equal(after.A.rows, 1);
  assert.equal(after.A.t1, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the sine-Gordon kink: the readout’s position and speed are the JS API run’s, and the exact speed is its data’s', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'sine-gordon-kink');
  await playTo(page, 6);
  const st = await hook(page, () => window.vilabPage.fieldPlots());
  assert.equal(st.rowEvery, 8, 'L = 40: 80 s over 480 rows, 8 steps of 0.02 s');
  assert.ok(st.A.rows >= 30, `${st.A.rows} rows`);
  assert.ok(
    st.A.times.every((t, k) => Math.abs(t - 0.16 * k) < 1e-9),
    'rows every 0.16 s',
  );
  assert.equal(st.kinks.A.length, 1);
  // the same scenario through the API, stopped at the page's row times; tracked here with the same code
  const sc = scene('sine-gordon-kink');
  const states = await hook(
    page,
    ({ sc, times }) => {
      const { lab } = window.vilabPage;
      const sim = lab.simulate(sc, { historyCapacity: 16 });
      const out = { scenario: sim.scenario(), q0: Array.from(sim.q), p0: Array.from(sim.p), rows: [] };
      for (const t of times) {
        sim.advance(Math.round(t / sc.h) - sim.step);
        out.rows.push({ t: sim.time, u: Array.from(sim.q) });
      }
      sim.dispose();
      return out;
    },
    { sc, times: st.A.times },
  );
  const setup = kinkSetup(states.scenario, states.q0);
  const tracker = new KinkTracker(setup);
  for (const r of states.rows) tracker.push(r.t, r.u);
  const [mine] = tracker.current();
  const [page1] = st.kinks.A;
  assert.equal(page1.x, mine.x, 'the same position, to the bit');
  assert.equal(page1.speed, mine.speed, 'the same speed, to the bit');
  const exact = exactSpeedOf(setup, states.q0, nodeVelocities(setup, states.p0));
  assert.equal(st.exact.v, exact.v);
  assert.ok(Math.abs(exact.v - sc.params.constants.v) < 1e-6);
  assert.ok(Math.abs(page1.speed - exact.v) < 2e-3, `measured ${page1.speed}, exact ${exact.v}`);
  // the readout says those numbers
  const text = st.readout.join(' | ');
  assert.ok(text.includes(`x = ${num(mine.x, 4)} m`), text);
  assert.ok(text.includes(num(exact.v, 6)), text);
  assert.equal(await page.locator('#plot-kinks .uplot').count(), 1, 'the position plot is drawn');
  // in Spanish the cards speak Spanish, the numbers unchanged
  await page.selectOption('#language', 'es');
  await sleep(300);
  const es = await hook(page, () => ({
    text: document.querySelector('#field-plots').textContent,
    label: document.querySelector('#plot-spacetime canvas').getAttribute('aria-label'),
    state: window.vilabPage.fieldPlots(),
  }));
  assert.match(es.text, /Imagen espacio-tiempo/);
  assert.match(es.label, /^Imagen espacio-tiempo de u para A/);
  assert.ok(!/Space–time image|no kink now|Exact speed/.test(es.text), es.text);
  assert.deepEqual(es.state.kinks, st.kinks);
  await page.selectOption('#language', 'en');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a field run that blows up stops adding rows and draws no NaN; a bad scenario is refused by field', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'sine-gordon-kink');
  // the leapfrog far beyond its step limit (h = 0.5 against ≈ 0.078): the numbers overflow
  const sc = { ...scene('sine-gordon-kink'), integrator: 'trapezoid', h: 0.5 };
  const err = await hook(page, (sc) => window.vilabPage.setState({ scenario: sc }), sc);
  assert.equal(err, null);
  await hook(page, () => window.vilabPage.play());
  await page.waitForFunction(() => window.vilabPage.failure().A, null, { timeout: 30000 });
  await sleep(300);
  const st = await hook(page, () => window.vilabPage.fieldPlots());
  assert.ok(st.A.finite, 'no NaN in the image');
  assert.ok(st.A.times.every(Number.isFinite));
  assert.ok(!/NaN|Infinity/.test(st.A.label), st.A.label);
  assert.ok(!st.readout.some((s) => /NaN|Infinity/.test(s)), st.readout.join(' | '));
  const rows = st.A.rows;
  await hook(page, () => window.vilabPage.step(5));
  await sleep(200);
  assert.equal((await hook(page, () => window.vilabPage.fieldPlots())).A.rows, rows, 'a stopped run adds no rows');
  // a grid beyond 4096 points: refused, naming the field; the last good run stays
  const bad = { ...scene('sine-gordon-kink'), params: { ...sc.params, grid: { ...sc.params.grid, points: 5000 } } };
  const refused = await hook(page, (sc) => String(window.vilabPage.setState({ scenario: sc })), bad);
  assert.match(refused, /grid\.points/);
  assert.ok((await hook(page, () => window.vilabPage.fieldPlots())).A);
  assert.deepEqual(
    errors.filter((e) => !/non-finite|breakdown/.test(e)),
    [],
  );
  await page.close();
});

test('4096 nodes: drawn as 512 columns, each the mean of 8 nodes, and the kink still tracked', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'sine-gordon-kink');
  const base = scene('sine-gordon-kink');
  const sc = { ...base, params: { ...base.params, grid: { ...base.params.grid, points: 4096 } } };
  assert.equal(await hook(page, (sc) => window.vilabPage.setState({ scenario: sc }), sc), null);
  await hook(page, () => window.vilabPage.step(80));
  await sleep(300);
  const st = await hook(page, () => window.vilabPage.fieldPlots());
  assert.equal(st.A.columns, 512);
  assert.equal(st.A.rows, 11); // t = 0 and every 8 steps to 80
  assert.ok(st.A.finite);
  const note = await page.locator('#plot-spacetime .plot-note').textContent();
  assert.match(note, /4096 nodes drawn as 512 columns, each the mean of its nodes/);
  assert.equal(st.kinks.A.length, 1);
  assert.ok(Math.abs(st.kinks.A[0].x - (10 + 0.5 * 1.6)) < 2e-3, `${st.kinks.A[0].x}`);
  assert.ok(Math.abs(st.exact.v - 0.5) < 1e-6);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the multisymplectic law card: the leapfrog keeps it to rounding, RK4 breaks it, DOPRI5 says why it has none', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'plucked-string');
  await playTo(page, 1);
  const { law } = await hook(page, () => window.vilabPage.fieldPlots());
  assert.ok(law.A.probes >= 2 && law.B.probes >= 2, `${law.A.probes}, ${law.B.probes} probes`);
  assert.equal(law.A.law, 'trapezoid');
  assert.equal(law.B.law, 'trapezoid');
  assert.ok(law.A.last <= 1e-12, `leapfrog ${law.A.last}`);
  assert.ok(law.B.last >= 1e-8, `RK4 ${law.B.last}`);
  assert.equal(law.A.nodes.length, scene('plucked-string').params.grid.points);
  // the probe's numbers are the JS API's at the same step: a probe leaves the run as it was
  const again = await hook(page, () => {
    const s = window.vilabPage.sim();
    const before = s.hash();
    const r = s.lawResidual();
    return { same: s.hash() === before, max: r.max };
  });
  assert.ok(again.same);
  assert.ok(again.max <= 1e-12);
  const values = await page.locator('#plot-law-values').textContent();
  assert.match(values, /A: largest .* \(trapezoid density\)/);
  assert.equal((await page.locator('#plot-law canvas').count()) >= 2, true, 'the time and profile plots');
  assert.equal(await hook(page, () => window.vilabPage.setState({ compare: 'dopri5' })), null);
  await playTo(page, 0.2);
  const after = await hook(page, () => window.vilabPage.fieldPlots());
  assert.equal(after.law.B.probes, 0);
  assert.match(after.law.B.why, /substeps adapt/);
  assert.match(await page.locator('#plot-law-values').textContent(), /B: none — /);
  assert.deepEqual(errors, []);
  await page.close();
});
