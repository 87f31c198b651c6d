// Share links (round trip with equal fingerprints), bad and tampered links, and
// a solver failure: banners name the field or the step, and the page stays usable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, sleep } from './helpers.mjs';

const browser = useBrowser();

const hook = (page, fn, arg) => page.evaluate(fn, arg);

test('share-link round trip: the copied URL reproduces the run (equal fingerprints at the same step)', async () => {
  const { page, errors } = await openPage(browser.context, '');
  await hook(page, () => window.vilabPage.pause());
  // change things through the UI
  await page.selectOption('#system', 'spherical-pendulum');
  await page.fill('#h-number', '0.005');
  await page.press('#h-number', 'Enter');
  await page.click('#invite');
  await hook(page, () => window.vilabPage.pause());
  await sleep(100);
  const st = await hook(page, () => window.vilabPage.state());
  assert.equal(st.scenario.system, 'spherical-pendulum');
  assert.equal(st.scenario.h, 0.005);
  assert.equal(st.compare, 'rk4');
  await hook(page, () => window.vilabPage.runTo(777));
  const fpA = await hook(page, () => window.vilabPage.fingerprint());
  const fpB = await hook(page, () => window.vilabPage.simB().hash());
  const camera = await hook(page, () => window.vilabPage.camera());
  await page.click('#copy-link');
  const banner = page.locator('.banner.info');
  await banner.waitFor();
  const url = await banner.locator('code').textContent();
  assert.ok(url.startsWith(new URL(page.url()).origin), 'a same-origin link');
  const hash = decodeURIComponent(new URL(url).hash);
  assert.match(hash, /system=spherical-pendulum/);
  assert.match(hash, /h=0\.005/);
  assert.match(hash, /compare=rk4/);
  assert.match(hash, /cam=/);
  assert.match(hash, new RegExp(`fp=777\\.${fpA}`));
  assert.ok(url.length < 200, `short link (${url.length} chars)`);
  await page.close();

  const fresh = await openPage(browser.context, url);
  const p2 = fresh.page;
  await hook(p2, () => window.vilabPage.pause());
  const st2 = await hook(p2, () => window.vilabPage.state());
  assert.deepEqual(st2.scenario, st.scenario);
  assert.equal(st2.compare, 'rk4');
  assert.equal((await hook(p2, () => window.vilabPage.sim().step)) <= 777, true);
  await hook(p2, () => window.vilabPage.runTo(777));
  assert.equal(await hook(p2, () => window.vilabPage.fingerprint()), fpA, 'A: same fingerprint at step 777');
  assert.equal(await hook(p2, () => window.vilabPage.simB().hash()), fpB, 'B: same fingerprint at step 777');
  const check = p2.locator('#fp-check');
  await check.waitFor({ state: 'visible' });
  assert.match(await check.textContent(), /✓ same run as the link \(step 777\)/);
  const cam2 = await hook(p2, () => window.vilabPage.camera());
  cam2.forEach((x, i) => assert.ok(Math.abs(x - camera[i]) < 0.01, 'camera restored'));
  assert.deepEqual(errors, []);
  assert.deepEqual(fresh.errors, []);
  await p2.close();
});

test('a bad link shows a banner naming the field and loads the default scenario; the page stays usable', async () => {
  const { page, errors } = await openPage(browser.context, '#h=-0.01&compare=rk4');
  const banner = page.locator('.banner.error');
  await banner.waitFor();
  const text = await banner.textContent();
  const hMax = await hook(page, () => window.vilabPage.lab.system('double-spherical-pendulum').h.max);
  assert.ok(text.includes(`This link's h is invalid: must be in (0, ${hMax}], got -0.01. Showing the default scenario instead.`), text);
  assert.equal(await banner.getAttribute('role'), 'alert');
  const st = await hook(page, () => window.vilabPage.state());
  assert.equal(st.scenario.system, 'double-spherical-pendulum');
  assert.equal(st.scenario.h, 0.01);
  assert.equal(st.compare, null);
  // usable: it runs, and matches the default run's fingerprint
  await hook(page, () => window.vilabPage.pause());
  await hook(page, () => window.vilabPage.runTo(200));
  const fp = await hook(page, () => window.vilabPage.fingerprint());
  const ref = await hook(page, () => {
    const lab = window.vilabPage.lab;
    const sim = lab.simulate(lab.normalize({ system: 'double-spherical-pendulum' }));
    sim.advance(200);
    const h = sim.hash();
    sim.dispose();
    return h;
  });
  assert.equal(fp, ref);
  await banner.getByRole('button', { name: /dismiss/i }).click();
  assert.equal(await page.locator('.banner.error').count(), 0, 'dismissible');
  await page.click('#invite');
  assert.equal(await hook(page, () => window.vilabPage.state().compare), 'rk4');
  assert.deepEqual(errors, []);
  await page.close();
});

test('tampered links: text is never inserted as HTML, unknown fields are named', async () => {
  const evil = '#system=' + encodeURIComponent('<img src=x onerror="window.__pwned=1">');
  const { page, errors } = await openPage(browser.context, evil);
  const banner = page.locator('.banner.error');
  await banner.waitFor();
  assert.match(await banner.textContent(), /system is invalid: unknown id "<img src=x onerror="window.__pwned=1">"/);
  assert.equal(await page.locator('.banner img').count(), 0);
  assert.equal(await hook(page, () => window.__pwned ?? null), null);
  await page.close();
  for (const [hash, field, problem] of [
    ['#params.g=abc', 'params.g', /must be a number/],
    ['#foo=1', 'foo', /unknown field/],
    ['#params.masses=1,2,3', 'params.masses', /expected 2 entries/],
    ['#cam=1,2', 'cam', /6 finite numbers/],
    ['#integrator=rk5', 'integrator', /unknown/],
  ]) {
    const p = await openPage(browser.context, hash);
    const b = p.page.locator('.banner.error');
    await b.waitFor();
    const text = await b.locator('code').textContent();
    assert.equal(text, field, `${hash} names ${field}`);
    assert.match(await b.textContent(), problem);
    assert.equal(await hook(p.page, () => window.vilabPage.state().scenario.system), 'double-spherical-pendulum');
    assert.deepEqual(p.errors, []);
    await p.page.close();
  }
  assert.deepEqual(errors, []);
});

test('a refused step pauses, names the step, the reason and its code, offers to halve h, and no NaN is drawn', async () => {
  // The default double pendulum with the midpoint rule at its largest h: step 24 is refused.
  const { page, errors } = await openPage(browser.context, '#h=0.1', { reducedMotion: 'reduce' });
  await hook(page, () => window.vilabPage.play());
  const banner = page.locator('.banner.error');
  await banner.waitFor({ timeout: 5000 });
  const text = await banner.textContent();
  const failure = await hook(page, () => window.vilabPage.failure().A);
  assert.equal(failure.step, 24);
  assert.equal(failure.code, 'no-convergence');
  assert.equal(failure.suggestion, 'reduce h');
  // plain words, said once: the step, the cause, what to do
  assert.match(
    text,
    /Midpoint \(variational\) could not take step 24 \(t = 2\.40 s\): the equation this method solves at every step has no solution it can find at this step size\./,
  );
  assert.match(failure.reason, /Newton/, "the core's own words stay in the API");
  assert.ok(!/Newton/.test(text), 'no solver jargon in the banner');
  assert.match(text, /A smaller step h \(now 0\.1 s\) usually helps/);
  assert.equal(await banner.getAttribute('data-code'), 'no-convergence');
  assert.equal(await hook(page, () => window.vilabPage.playing()), false, 'paused');
  assert.equal(await page.locator('#play').textContent(), 'Play');
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 23, 'at the last good step');
  const visual = await hook(page, () => Array.from(window.vilabPage.sim().visualState()));
  assert.ok(visual.every(Number.isFinite));
  // Play stays off until the run is reset or changed
  await hook(page, () => window.vilabPage.play());
  assert.equal(await hook(page, () => window.vilabPage.playing()), false);
  // the suggestion is one click away
  await banner.getByRole('button', { name: 'Halve h and restart' }).click();
  await sleep(100);
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.h), 0.05);
  assert.equal(await page.locator('.banner.error').count(), 0, 'the banner goes with the failed run');
  assert.deepEqual(errors, []);
  await page.close();
});

test("B's refused step: A keeps running, B's banner names the step and the code", async () => {
  // the implicit midpoint (B) at h = 0.1 on the double spherical pendulum: Newton fails at
  // step 24; A (energy–momentum) goes on
  const { page, errors } = await openPage(
    browser.context,
    '#system=double-spherical-pendulum&integrator=energy-momentum&h=0.1&compare=midpoint',
    { reducedMotion: 'reduce' },
  );
  await hook(page, () => window.vilabPage.runTo(200));
  const warn = page.locator('.banner.warn');
  await warn.waitFor({ timeout: 5000 });
  const failure = await hook(page, () => window.vilabPage.failure());
  assert.equal(failure.A, null);
  assert.equal(failure.B.step, 24);
  assert.equal(failure.B.code, 'no-convergence');
  assert.match(await warn.textContent(), /B, Midpoint \(variational\), could not take step 24 \(t = 2\.40 s\)/);
  assert.equal(await warn.getAttribute('data-code'), 'no-convergence');
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 200, 'A took all its steps');
  assert.equal(await hook(page, () => window.vilabPage.simB().step), 23, 'B rests on its last good step');
  assert.match(await page.locator('#legend').textContent(), /stopped at t = 2\.40 s/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("B's breakdown comes before its overflow, however far one batch goes: explicit Euler stops at step 530, not at the refused step 1473", async () => {
  const { page, errors } = await openPage(browser.context, '#system=pendulum&initial.angles=1.2&initial.rates=0&compare=euler', {
    reducedMotion: 'reduce',
  });
  await hook(page, () => window.vilabPage.runTo(2000));
  const warn = page.locator('.banner.warn');
  await warn.waitFor({ timeout: 5000 });
  const failure = await hook(page, () => window.vilabPage.failure());
  assert.equal(failure.A, null);
  assert.deepEqual([failure.B.step, failure.B.code, failure.B.kind, failure.B.t], [530, 'breakdown', 'energy', 5.29]);
  assert.match(
    await warn.textContent(),
    /B, Explicit Euler with projection \(baseline\), stopped at t = 5\.29 s: its energy has grown by 100%/,
  );
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 2000, 'A took all its steps');
  assert.equal(await hook(page, () => window.vilabPage.simB().step), 529, 'B rests on its last good step');
  assert.match(await page.locator('#legend').textContent(), /stopped at t = 5\.29 s/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link that changes only some initial data (rates) opens with the others at their defaults, and round-trips', async () => {
  const { page, errors } = await openPage(browser.context, '#initial.rates=0,0.5;0,-0.25');
  const st = await page.evaluate(() => window.vilabPage.state());
  assert.deepEqual(st.scenario.initial.rates, [
    [0, 0.5],
    [0, -0.25],
  ]);
  const defaults = await page.evaluate(() => window.vilabPage.lab.normalize({ system: 'double-spherical-pendulum' }).initial.angles);
  assert.deepEqual(st.scenario.initial.angles, defaults);
  assert.equal(await page.locator('.banner[data-key="link"]').count(), 0);
  // the page writes the same difference back
  await page.waitForFunction(() => location.hash.includes('initial.rates'));
  assert.doesNotMatch(await page.evaluate(() => location.hash), /initial\.angles/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link pasted into an open page opens in place; a bad one is named and the run kept', async () => {
  const { page, errors } = await openPage(browser.context, '#system=pendulum');
  await page.evaluate(() => (location.hash = 'system=oscillator&h=0.05&at=40'));
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'oscillator' && window.vilabPage.sim().step === 40);
  assert.equal(await page.evaluate(() => window.vilabPage.playing()), false, 'at= lands paused');
  await page.evaluate(() => (location.hash = 'system=oscillator&h=-3'));
  await page.waitForSelector('.banner[data-key="link"]');
  assert.match(await page.locator('.banner[data-key="link"]').textContent(), /h is invalid.*current run is kept/);
  assert.equal(await page.evaluate(() => window.vilabPage.sim().step), 40, 'the run is kept');
  assert.deepEqual(errors, []);
  await page.close();
});
