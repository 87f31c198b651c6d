// The field page (web/plots/field-plots.js): the plucked string and the sine-Gordon kink
// played in Chromium. The space–time image gets rows at the run's own step times (A and B
// when comparing) and is drawn; the kink readout's numbers are those of the same scenario
// run through the JS API and tracked in Node with the same code (web/sim/kinks.js); a run
// that blows up stops adding rows and never draws a NaN; the law card plots the box
// scheme's law on the whirling string's two components too; no console errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, openPage, sleep } from './helpers.mjs';
import { KinkTracker, exactSpeedOf, kinkSetup, nodeVelocities } from '../../web/sim/kinks.js';
import { num } from '../../web/sim/format.js';
import { COLOR_A, COLOR_B } from '../../web/scene/palette.js';

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
  await page.waitForFunction(() => document.documentElement.lang === 'es'); // its words fetched (slow under load)
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

test('the multisymplectic law card on several components: the whirling string’s box scheme keeps it to rounding', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'whirling-string');
  await playTo(page, 0.5);
  const { law } = await hook(page, () => window.vilabPage.fieldPlots());
  assert.ok(law.A.probes >= 2, `${law.A.probes} probes`);
  assert.equal(law.A.why, null);
  assert.equal(law.A.law, 'midpoint');
  assert.ok(law.A.last <= 1e-12, `box ${law.A.last}`);
  assert.equal(law.A.nodes.length, scene('whirling-string').params.grid.points);
  assert.ok(law.A.nodes.every(Number.isFinite));
  assert.match(await page.locator('#plot-law-values').textContent(), /A: largest .* \(midpoint density\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

/** The words over the view: the legend, why the curves differ, and the integrator menus' option texts. */
const words = (page) =>
  hook(page, () => ({
    legend: document.querySelector('#legend').textContent,
    why: document.querySelector('#why').textContent,
    menuB: [...document.querySelectorAll('#integrator-b option')].map((o) => o.textContent),
    note: document.querySelector('#plot-spacetime .plot-note')?.textContent ?? '',
  }));

test('the stiff string: B’s stop at its step’s digits, both methods of order 2, its stiff stretch drawn, rows every step; in Spanish too', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'stiff-string');
  await hook(page, () => window.vilabPage.play());
  await page.waitForFunction(() => window.vilabPage.failure().B, null, { timeout: 30000 });
  await playTo(page, 0.2);
  const w = await words(page);
  // the leapfrog is stopped in its first steps (h = 0.004 s): the legend says when, never "0.00"
  assert.match(w.legend, /stopped at t = 0\.0(0[4-9]|1[0-2]) s/, w.legend);
  assert.ok(!/t = 0\.00 s/.test(w.legend), w.legend);
  // the AVI and the trapezoid rule are both of order 2
  assert.match(w.why, /both order 2/, w.why);
  assert.ok(!/order 2 vs 2/.test(w.why), w.why);
  // the stiff stretch, from the core's c² cell by cell: x from 0.6 to 0.8 m, c² = κ = 16, a bar under it (the string drawn 2 long)
  const { stiff } = await hook(page, () => window.vilabPage.sceneFacts());
  assert.equal(stiff.segments.length, 1);
  const [seg] = stiff.segments;
  assert.ok(Math.abs(seg.from - 0.6) < 1e-9 && Math.abs(seg.to - 0.8) < 1e-9 && seg.speed2 === 16, JSON.stringify(seg));
  assert.equal(stiff.bars.length, 1);
  assert.ok(Math.abs(stiff.bars[0].x - 0.4) < 1e-9 && Math.abs(stiff.bars[0].width - 0.4) < 1e-9, JSON.stringify(stiff.bars));
  // space–time rows follow the stiff cells' waves (c = 4): one every step, a number (κ as text once gave NaN)
  const st = await hook(page, () => window.vilabPage.fieldPlots());
  assert.equal(st.rowEvery, 1);
  assert.ok(st.A.rows > 10, `${st.A.rows} rows`);
  assert.match(w.note, /a row every step \(0\.004 s\)/, w.note);
  assert.ok(!/every 1 steps/.test(w.note), w.note);
  await page.selectOption('#language', 'es');
  await page.waitForFunction(() => document.documentElement.lang === 'es'); // its words fetched (slow under load)
  await sleep(300);
  const es = await words(page);
  assert.match(es.legend, /t = 0,0(0[4-9]|1[0-2]) s/, es.legend);
  assert.match(es.why, /los dos de orden 2/, es.why);
  assert.match(es.note, /una fila en cada paso \(0,004 s\)/, es.note);
  await page.selectOption('#language', 'en');
  // a string whose κ is a number has no stiff stretch
  await choose(page, 'plucked-string');
  assert.deepEqual((await hook(page, () => window.vilabPage.sceneFacts())).stiff.segments, []);
  assert.deepEqual(
    errors.filter((e) => !/non-finite|breakdown/.test(e)),
    [],
  );
  await page.close();
});

test('RK4 on a field is not said to project; on the double pendulum it is', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'plucked-string');
  await sleep(300);
  const w = await words(page);
  assert.match(w.legend, /B · Runge–Kutta 4 \(baseline\)/, w.legend);
  assert.ok(!/projection/.test(w.legend + w.why + w.menuB.join('|')), `${w.legend} | ${w.why} | ${w.menuB.join('|')}`);
  assert.ok(w.menuB.includes('Runge–Kutta 4 (baseline)'), w.menuB.join('|'));
  const label = await hook(page, () => document.querySelectorAll('#plot-spacetime .spacetime-label')[1].textContent);
  assert.equal(label, 'B · Runge–Kutta 4');
  await page.selectOption('#language', 'es');
  await page.waitForFunction(() => document.documentElement.lang === 'es'); // its words fetched (slow under load)
  await sleep(300);
  const es = await words(page);
  assert.match(es.legend, /B · Runge–Kutta 4 \(referencia\)/, es.legend);
  assert.ok(!/proyección/.test(es.legend + es.menuB.join('|')), es.legend);
  await page.selectOption('#language', 'en');
  // negative control: where constraints are projected the title names the projection
  await page.selectOption('#preset', 'long-run-energy');
  await sleep(500);
  const dsp = await words(page);
  assert.match(dsp.legend, /Runge–Kutta 4 with projection \(baseline\)/, dsp.legend);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the kink plot draws B’s kinks beside A’s when comparing, in the A/B colours', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'sine-gordon-kink');
  assert.equal(await hook(page, () => window.vilabPage.setState({ compare: 'trapezoid' })), null);
  await page.waitForFunction(() => window.vilabPage.fieldPlots()?.B, null, { timeout: 10000 });
  await playTo(page, 2);
  const st = await hook(page, () => window.vilabPage.fieldPlots());
  assert.equal(st.kinks.B.length, 1, 'B’s kink tracked');
  assert.deepEqual(
    st.kinkSeries.map((s) => [s.track, s.color]),
    [
      ['A', COLOR_A],
      ['B', COLOR_B],
    ],
  );
  const swatches = await hook(page, () =>
    [...document.querySelectorAll('#plot-kinks .kink-swatch')].map((s) => [s.dataset.track, getComputedStyle(s).borderTopStyle]),
  );
  assert.deepEqual(swatches, [
    ['A', 'solid'],
    ['B', 'dashed'],
  ]);
  // without B: A's line only
  assert.equal(await hook(page, () => window.vilabPage.setState({ compare: null })), null);
  await page.waitForFunction(() => !window.vilabPage.fieldPlots()?.B, null, { timeout: 10000 });
  await playTo(page, 0.5);
  assert.deepEqual(
    (await hook(page, () => window.vilabPage.fieldPlots())).kinkSeries.map((s) => s.track),
    ['A'],
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('the space–time colour range shrinks as a Klein–Gordon bump disperses, and a reset starts it afresh', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'klein-gordon');
  // the preset's bump on a string four times longer: room to disperse (the ring spans 2L/c = 8 s, 480 rows of 8 steps)
  const base = scene('klein-gordon');
  const sc = {
    ...base,
    params: { ...base.params, grid: { ...base.params.grid, length: 4, points: 1024 } },
    initial: { ...base.initial, u: '0.1*exp(-((x - 2)/0.05)^2)' },
  };
  assert.equal(await hook(page, (sc) => window.vilabPage.setState({ scenario: sc }), sc), null);
  await page.waitForFunction(() => window.vilabPage.fieldPlots()?.A?.rows === 1, null, { timeout: 10000 });
  const first = await hook(page, () => window.vilabPage.fieldPlots());
  assert.equal(first.rowEvery, 8);
  assert.equal(first.A.range, 0.1, 'the bump’s height, 0.1');
  // to t = 9 s: the rows kept (from about 1.3 s) are below half the first height, and the range follows them down
  await hook(page, () => window.vilabPage.step(4500));
  await sleep(300);
  const later = await hook(page, () => window.vilabPage.fieldPlots());
  assert.ok(later.A.t0 > 1, `the first rows have left the ring (oldest at ${later.A.t0} s)`);
  assert.ok(later.A.range < 0.05, `the range followed the amplitude down: ${later.A.range}`);
  await page.click('#reset');
  await sleep(300);
  const reset = await hook(page, () => window.vilabPage.fieldPlots());
  assert.equal(reset.A.rows, 1);
  assert.equal(reset.A.range, 0.1, 'a reset starts the range afresh');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the whirling string: two components drawn in 3-D, its rotation’s charge on the momentum card, the image of u, no NaN', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'whirling-string');
  // a quarter turn (the whirl's period is about 2 s): the pluck, up (u) at the start, is now across (v)
  await playTo(page, 0.5);
  const facts = await hook(page, () => window.vilabPage.sceneFacts().string);
  const n = scene('whirling-string').params.grid.points;
  assert.equal(facts.components, 2);
  assert.equal(facts.positions.length, 3 * n);
  assert.ok(facts.positions.every(Number.isFinite), 'no NaN drawn');
  // the string has left the plane of its pluck (drawn 0.2 up at the start): now it is across (y)
  const across = Math.max(...facts.positions.filter((_, k) => k % 3 === 1).map(Math.abs));
  const up = Math.max(...facts.positions.filter((_, k) => k % 3 === 2).map(Math.abs));
  assert.ok(across > 0.1 && up < across, `drawn out to ${across} across and ${up} up`);
  // the charge: plotted by name, its value the run's own
  await hook(page, () => window.vilabPage.drawPlots());
  const series = await hook(page, () => window.vilabPage.plotSeries());
  assert.match(await page.locator('#plot-momentum .plot-title').textContent(), /rotation/);
  assert.ok(Number.isFinite(series.J_rotation_A), `J_rotation plotted: ${series.J_rotation_A}`);
  const charge = await hook(page, () => window.vilabPage.sim().diagnostics().momentum[0]);
  assert.ok(charge > 0.01, `J_rotation = ${charge}`);
  // the space–time image shows the first component: one column per node, rows of finite values
  const st = await hook(page, () => window.vilabPage.fieldPlots());
  assert.ok(st.A.rows > 10 && st.A.finite && !st.A.broken, JSON.stringify(st.A).slice(0, 200));
  assert.ok((await colouredPixels(page, 0)) > 1000, 'the image of u is drawn');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the nonlinear string on the AVI: its options (fine, cfl; three fields shown) step the typed density; an h beyond the cells’ limit is refused naming h', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: { width: 1440, height: 900 } });
  await choose(page, 'nonlinear-string');
  // as the integrator menu and the option fields (fine, from, cfl) apply their patches
  const sc0 = await hook(page, () => window.vilabPage.state().scenario);
  const applied = await hook(page, (s) => window.vilabPage.setState({ scenario: s }), {
    ...sc0,
    integrator: 'avi',
    options: { fine: 3, cfl: 0.9 },
  });
  assert.equal(applied, null);
  await page.waitForFunction(() => window.vilabPage.sim()?.scenario().options?.cfl === 0.9, null, { timeout: 10000 });
  assert.equal(await page.locator('#options input').count(), 3);
  await hook(page, () => window.vilabPage.pause());
  await playTo(page, 0.4);
  const run = await hook(page, () => {
    const sim = window.vilabPage.sim();
    return { time: sim.time, energy: sim.diagnostics().energy, failure: window.vilabPage.failure().A };
  });
  assert.equal(run.failure, null);
  assert.ok(run.time >= 0.4 && Number.isFinite(run.energy), JSON.stringify(run));
  const st = await hook(page, () => window.vilabPage.fieldPlots());
  assert.ok(st.A.rows > 10 && st.A.finite && !st.A.broken, JSON.stringify(st.A).slice(0, 200));
  // h = 0.01 is beyond the inner cells' limit Δx = 1/127 without cfl: refused naming h, with the limit
  const sc = await hook(page, () => window.vilabPage.state().scenario);
  const refused = await hook(page, (s) => String(window.vilabPage.setState({ scenario: s })), {
    ...sc,
    h: 0.01,
    options: { fine: 1 },
  });
  assert.match(refused, /\bh\b.*stability limit 0\.00787/);
  assert.deepEqual(errors, []);
  await page.close();
});
