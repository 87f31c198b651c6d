// The classroom page in Chromium: loads cleanly, draws, moves, plots, switches,
// compares, exports, fits a phone. Run against `vite preview` of dist/ (VILAB_URL).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, openPage, pixelStats, diffFraction, countColor, sleep } from './helpers.mjs';

const browser = useBrowser();

const hook = (page, fn, arg) => page.evaluate(fn, arg);
const viewShot = (page) => page.locator('#view canvas').screenshot();

test('first open: no console errors, no third-party requests, default scenario playing, canvas non-blank, bob moves, plot updates', async () => {
  const { page, errors, foreign } = await openPage(browser.context, '');
  const state = await hook(page, () => window.vilabPage.state());
  assert.equal(state.scenario.system, 'double-spherical-pendulum');
  assert.equal(state.scenario.integrator, 'midpoint');
  assert.equal(state.scenario.h, 0.01);
  assert.equal(state.compare, null);
  assert.equal(await hook(page, () => window.vilabPage.playing()), true, 'plays on first open');
  // the "Compare with RK4" invitation is visible
  assert.equal(await page.locator('#invite').isVisible(), true);
  const a = await viewShot(page);
  const stats = pixelStats(a);
  assert.ok(stats.variance > 50 && stats.colors > 20, `canvas not blank (variance ${stats.variance.toFixed(1)}, ${stats.colors} colours)`);
  assert.ok(countColor(a, [0, 114, 178], 45) > 200, 'blue bobs (integrator A) are drawn');
  const step0 = await hook(page, () => window.vilabPage.sim().step);
  await sleep(700);
  const b = await viewShot(page);
  const step1 = await hook(page, () => window.vilabPage.sim().step);
  assert.ok(step1 > step0, `simulation advances on its own (${step0} → ${step1})`);
  assert.ok(diffFraction(a, b) > 0.002, 'the bob moves between two screenshots');
  // the energy plot has data and redraws
  const e1 = await page.locator('#plot-energy .plot-values').textContent();
  const p1 = await page.locator('#plot-energy canvas').screenshot();
  await sleep(600);
  const p2 = await page.locator('#plot-energy canvas').screenshot();
  const e2 = await page.locator('#plot-energy .plot-values').textContent();
  assert.match(e2, /^A [−+]?\d/);
  assert.ok(diffFraction(p1, p2) > 0 || e1 !== e2, 'the energy plot updates');
  const series = await hook(page, () => window.vilabPage.plotSeries());
  assert.ok(Number.isFinite(series.energy_A) && Math.abs(series.energy_A) < 0.05, `relative energy error plotted (${series.energy_A})`);
  // the readout shows t, step and a fingerprint that matches sim.hash()
  const fp = await page.locator('#fingerprint').getAttribute('data-hash');
  assert.match(fp, /^[0-9a-f]{16}$/);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, [], 'no third-party requests');
  await page.close();
});

test('every system in the registry loads and moves', async () => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  assert.equal(await hook(page, () => window.vilabPage.playing()), false, 'prefers-reduced-motion: starts paused');
  const systems = await hook(page, () => window.vilabPage.lab.systems.map((s) => s.id));
  assert.ok(systems.length >= 5);
  for (const id of systems) {
    const err = await hook(
      page,
      async (sys) => (await window.vilabPage.setState({ scenario: { system: sys }, compare: null }))?.message ?? null,
      id,
    );
    assert.equal(err, null, `${id} loads`);
    await sleep(120);
    const before = await viewShot(page);
    const v0 = await hook(page, () => Array.from(window.vilabPage.sim().visualState()));
    await hook(page, () => window.vilabPage.step(40));
    await sleep(150);
    const v1 = await hook(page, () => Array.from(window.vilabPage.sim().visualState()));
    const after = await viewShot(page);
    assert.ok(pixelStats(after).variance > 30, `${id}: canvas not blank`);
    assert.ok(
      v0.some((x, i) => Math.abs(x - v1[i]) > 1e-6),
      `${id}: the state moves`,
    );
    assert.ok(diffFraction(before, after) > 0.001, `${id}: the picture moves`);
    assert.equal(await page.locator('#system').inputValue(), id, `${id}: the system select follows`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching integrator restarts the run with the new method and its badges', async () => {
  const { page, errors } = await openPage(browser.context, '');
  await hook(page, () => window.vilabPage.pause());
  await page.selectOption('#integrator-a', 'rk4');
  await sleep(100);
  const st = await hook(page, () => window.vilabPage.state());
  assert.equal(st.scenario.integrator, 'rk4');
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 0);
  const badges = await page.locator('#badges-a').textContent();
  assert.match(badges, /order 4/);
  assert.match(badges, /baseline/);
  assert.match(badges, /not symplectic/);
  // from the registry's metadata: a baseline is invited to meet the system's default integrator
  assert.equal(await page.locator('#invite').isVisible(), true);
  assert.equal(await page.locator('#invite').textContent(), 'Compare with Midpoint');
  assert.match(
    await page.locator('#why').textContent(),
    /not symplectic: its energy error drifts, and so do its momenta; its constraints hold only because it projects onto them after every step/,
  );
  await hook(page, () => window.vilabPage.step(100));
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 100);
  // an integrator with options shows them (from the registry)
  await page.selectOption('#integrator-a', 'alpha');
  await sleep(100);
  assert.equal(await page.locator('#options input').count(), 1);
  assert.match(await page.locator('#options').textContent(), /α/);
  // the URL holds only the differences from the defaults
  await sleep(300);
  assert.equal(new URL(page.url()).hash, '#integrator=alpha');
  assert.deepEqual(errors, []);
  await page.close();
});

test('controls come from the registry: parameters, initial data, N links, inline API errors, presets', async () => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  // initial data: a θ/φ grid per link, named from the registry description
  await page.click('#initial-section summary');
  const labels = await page.locator('#initial label').allTextContents();
  assert.ok(labels.includes('θ link 1') && labels.includes('φ link 2'), labels.join('|'));
  // angles are edited in degrees; the scenario keeps radians
  await page.getByLabel('angles: θ link 1 (°)').fill('90');
  await page.getByLabel('angles: θ link 1 (°)').press('Enter');
  await sleep(100);
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.initial.angles[0][0]), Math.PI / 2);
  assert.equal(await page.getByLabel('angles: θ link 1 (°)').inputValue(), '90');
  // per-body parameters are named for what they are
  await page.click('#params-section summary');
  assert.equal(await page.getByLabel('mass of bob 2 (kg)').inputValue(), '1');
  assert.equal(await page.getByLabel('length of link 1 (m)').inputValue(), '1');
  // parameters with units and ranges; a value the API refuses shows its problem inline
  assert.match(await page.locator('#params').textContent(), /gravity \(m\/s²\)/);
  await page.getByLabel('gravity (m/s²)', { exact: true }).fill('-3');
  await page.getByLabel('gravity (m/s²)', { exact: true }).press('Enter');
  await sleep(100);
  assert.match(await page.locator('#params .field-error:not(:empty)').first().textContent(), /must be in \[0, 1000\], got -3/);
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.params.g), 9.81, 'refused value not applied');
  // gravity of familiar places
  await page.getByLabel('gravity of').selectOption({ label: 'Moon (1.62 m/s²)' });
  await sleep(100);
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.params.g), 1.62);
  // h out of range: the API's message next to the field, with the system's largest h
  const hMax = await hook(page, () => window.vilabPage.lab.system('double-spherical-pendulum').h.max);
  await page.fill('#h-number', String(2 * hMax));
  await page.press('#h-number', 'Enter');
  await sleep(100);
  assert.ok((await page.locator('#h-error').textContent()).startsWith(`must be in (0, ${hMax}], got ${2 * hMax} (with a larger step`));
  // the chain's link count resizes every per-body parameter
  await page.selectOption('#system', 'chain');
  await sleep(100);
  await page.getByLabel('bodies N').fill('12');
  await page.getByLabel('bodies N').press('Enter');
  await sleep(150);
  const sc = await hook(page, () => window.vilabPage.state().scenario);
  assert.equal(sc.params.masses.length, 12);
  assert.equal(sc.params.lengths.length, 12);
  assert.equal(sc.initial.angles.length, 12);
  await hook(page, () => window.vilabPage.step(20));
  assert.equal(await hook(page, () => window.vilabPage.sim().visualState().length), 36);
  // presets set scenario + compare and explain themselves in one line
  const ids = await hook(page, () => window.vilabPage.presets());
  for (const id of ['dsp-chaos', 'long-run-energy', 'chain-whip', 'spherical-precession']) assert.ok(ids.includes(id), id);
  await page.selectOption('#preset', 'long-run-energy');
  await sleep(150);
  const st = await hook(page, () => window.vilabPage.state());
  assert.equal(st.compare, 'rk4');
  assert.equal(st.scenario.h, 0.02);
  assert.equal(st.speed, 50, 'the preset sets the speed its lesson needs');
  assert.match(await page.locator('#caption').textContent(), /reaches .+ at t = 600 s/);
  if (await hook(page, () => !!window.vilabPage.lab.system('rigid-body'))) {
    assert.ok(ids.includes('dzhanibekov'), 'rigid-body presets are loaded when the system exists');
    await page.selectOption('#preset', 'dzhanibekov');
    await sleep(150);
    assert.equal(await hook(page, () => window.vilabPage.state().scenario.system), 'rigid-body');
    assert.equal(await page.locator('#inset-caption').isVisible(), true, 'momentum-sphere inset');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the h ladder ends at each system's largest h; dopri5 shows its tolerance; the phase portrait follows the model", async () => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  const systems = await hook(page, () => window.vilabPage.lab.systems.map((s) => ({ id: s.id, hMax: s.h.max })));
  for (const { id, hMax } of systems) {
    assert.equal(
      await hook(page, async (sys) => (await window.vilabPage.setState({ scenario: { system: sys }, compare: null }))?.message ?? null, id),
      null,
    );
    await sleep(50);
    // the top of the slider is h.max itself, and choosing it is accepted
    const top = await page.evaluate(() => {
      const range = document.querySelector('#h-range');
      range.value = range.max;
      range.dispatchEvent(new Event('input'));
      range.dispatchEvent(new Event('change'));
      return Number(document.querySelector('#h-number').value);
    });
    assert.equal(top, hMax, `${id}: the ladder ends at h.max`);
    await sleep(50);
    assert.equal(await hook(page, () => window.vilabPage.state().scenario.h), hMax, `${id}: h.max is accepted`);
    assert.equal(await page.locator('#h-error').textContent(), '');
  }
  // dopri5's tolerance comes from the registry like every option, and edits the scenario
  await hook(page, () => window.vilabPage.setState({ scenario: { system: 'double-spherical-pendulum' }, compare: null }));
  await page.selectOption('#integrator-a', 'dopri5');
  await sleep(100);
  assert.equal(await page.locator('#options input').count(), 1);
  assert.match(await page.locator('#options').textContent(), /tolerance/);
  await page.getByLabel('tolerance').fill('1e-8');
  await page.getByLabel('tolerance').press('Enter');
  await sleep(100);
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.options.tol), 1e-8);
  await hook(page, () => window.vilabPage.step(50));
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 50);
  // the graph in natural variables: θ̇₁ against θ₁ for the double pendulum, Π₂ against Π₁ for the free body
  await hook(page, () => window.vilabPage.drawPlots());
  assert.equal(await page.locator('#plot-phase .plot-values').textContent(), 'θ̇₁ against θ₁');
  await hook(page, () => window.vilabPage.setState({ scenario: { system: 'rigid-body', integrator: 'rk4' }, compare: null }));
  await sleep(100);
  await hook(page, () => window.vilabPage.step(20));
  await hook(page, () => window.vilabPage.drawPlots());
  assert.equal(await page.locator('#plot-phase .plot-values').textContent(), 'Π₂ against Π₁');
  const axes = await page.locator('#phase-x option').allTextContents();
  assert.deepEqual(
    axes,
    ['time t', 'Π₁', 'Π₂', 'Π₃', 'ω₁', 'ω₂', 'ω₃', 'θ', 'φ'],
    'natural variables of a rigid body, whatever the integrator',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare mode draws two bodies and two series', async () => {
  const { page, errors } = await openPage(browser.context, '');
  await page.click('#invite'); // it leads to the dsp-energy preset: its set-up plays at 100×
  await hook(page, () => window.vilabPage.pause());
  assert.equal(await hook(page, () => window.vilabPage.state().compare), 'rk4');
  assert.equal(await page.locator('#invite').isVisible(), false);
  const target = (await hook(page, () => window.vilabPage.sim().step)) + 3000;
  await hook(page, (k) => window.vilabPage.runTo(k), target);
  await hook(page, () => window.vilabPage.drawPlots());
  await sleep(200);
  const stepB = await hook(page, () => window.vilabPage.simB().step);
  assert.equal(stepB, target, 'B runs in lockstep with A');
  const shot = await viewShot(page);
  assert.ok(countColor(shot, [0, 114, 178], 45) > 200, 'body A (blue)');
  assert.ok(countColor(shot, [230, 159, 0], 30) > 200, 'ghost B (flat orange, behind A)');
  const series = await hook(page, () => window.vilabPage.plotSeries());
  assert.ok(Number.isFinite(series.energy_A) && Number.isFinite(series.energy_B), 'both energy series');
  // At 30 s or so RK4's energy error is still small (order 4) but already a drift, downward;
  // its J_z drifts while the midpoint rule keeps it to round-off; both keep the links.
  assert.ok(series.energy_B < 0 && Math.abs(series.energy_B) < 1e-3, `RK4's energy error at 30 s: ${series.energy_B}`);
  assert.ok(Math.abs(series.J_A) < 1e-10 && Math.abs(series.J_B) > 1e-8, `J_z drift: A ${series.J_A}, B ${series.J_B}`);
  assert.ok(series.constraint_A < 1e-12 && series.constraint_B < 1e-12, 'both keep the links (RK4 by projection)');
  const plot = await page.locator('#plot-energy canvas').screenshot();
  assert.ok(countColor(plot, [230, 159, 0], 40) > 30, 'orange series in the energy plot');
  assert.ok(countColor(plot, [0, 114, 178], 40) > 30, 'blue series in the energy plot');
  assert.match(await page.locator('#legend').textContent(), /B · Runge–Kutta 4/);
  assert.match(await page.locator('#why').textContent(), /Why the curves differ/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('CSV of the exact run and PNG of the whole view download with real content', async () => {
  const { page, errors } = await openPage(browser.context, '#compare=rk4', { reducedMotion: 'reduce' });
  await page.click('#reset');
  await hook(page, () => window.vilabPage.step(500));
  const [csvDl] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
  assert.match(csvDl.suggestedFilename(), /^vilab-double-spherical-pendulum-midpoint-vs-rk4\.csv$/);
  const csv = readFileSync(await csvDl.path(), 'utf8')
    .trim()
    .split('\n');
  // the header comments carry the scenarios (JSON), the steps and the fingerprint
  assert.match(csv[0], /^# vilab: every step, simulated again from t = 0/);
  const scenarioA = JSON.parse(csv[1].replace(/^# A: /, ''));
  assert.equal(scenarioA.integrator, 'midpoint');
  assert.equal(JSON.parse(csv[2].replace(/^# B: /, '')).integrator, 'rk4');
  const fp = await hook(page, () => window.vilabPage.fingerprint());
  assert.match(csv[3], new RegExp(`A ran to step 500; B ran to step 500; A's fingerprint there: ${fp}`));
  const header = csv[4].split(',');
  assert.deepEqual(header.slice(0, 3), ['t_s', 'theta1_rad_A', 'phi1_rad_A']);
  for (const name of ['kinetic_J_A', 'energy_error_relative_A', 'J_drift_relative_B', 'constraint_residual_A', 'newton_iterations_B'])
    assert.ok(header.includes(name), name);
  assert.equal(csv.length - 5, 501, 'one row per step (t = 0 … 5 s)');
  const last = csv[csv.length - 1].split(',');
  assert.equal(last.length, header.length);
  assert.equal(last[0], '5', 'the last time, printed without float noise');
  assert.ok(
    csv.slice(5).every((row) => !/\.\d*0000000\d\b|9999999\d\b/.test(row.split(',')[0])),
    't without float noise',
  );
  assert.ok(last.map(Number).every(Number.isFinite));
  // the last row is the page's state at step 500, exactly
  const now = await hook(page, () => ({ vars: Array.from(window.vilabPage.sim().variables()), d: window.vilabPage.sim().diagnostics() }));
  assert.deepEqual(last.slice(1, 1 + now.vars.length).map(Number), now.vars);
  assert.equal(Number(last[header.indexOf('energy_J_A')]), now.d.energy);
  const [pngDl] = await Promise.all([page.waitForEvent('download'), page.click('#png')]);
  const png = readFileSync(await pngDl.path());
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.ok(pixelStats(png).variance > 30, 'the PNG shows the scene');
  // the whole view: taller than the 3D canvas alone (the header and the plots are in it)
  const pngHeight = png.readUInt32BE(20);
  const canvasHeight = await page.evaluate(() => document.querySelector('#view canvas').height);
  assert.ok(pngHeight > canvasHeight, `PNG ${pngHeight} px high, 3D canvas ${canvasHeight} px`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('phone viewport: non-blank, view full width, controls in a bottom sheet', async () => {
  const { page, errors } = await openPage(browser.context, '', { viewport: { width: 390, height: 844 } });
  await sleep(400);
  const shot = await page.screenshot();
  assert.ok(pixelStats(shot).variance > 50, 'phone screenshot not blank');
  const box = await page.locator('#view').boundingBox();
  assert.ok(box.width >= 385, `view spans the width (${box.width})`);
  assert.equal(await page.locator('#panel').isVisible(), false, 'controls sheet closed');
  await page.click('#sheet-toggle');
  await sleep(300);
  assert.equal(await page.locator('#integrator-a').isVisible(), true, 'sheet opens');
  // plots sit below the view
  const plots = await page.locator('#plot-energy').boundingBox();
  assert.ok(plots.y >= box.y + box.height - 1, 'plots below the view');
  assert.deepEqual(errors, []);
  await page.close();
});

test('?embed=1 gives the compact layout', async () => {
  const { page, errors } = await openPage(browser.context, '?embed=1');
  assert.equal(await page.locator('#panel').isVisible(), false);
  assert.equal(await page.locator('#open-full').isVisible(), true);
  assert.equal(await page.locator('#plot-energy').isVisible(), true);
  assert.ok(pixelStats(await viewShot(page)).variance > 30);
  assert.deepEqual(errors, []);
  await page.close();
});
