// The page loads the lean build first and the full one only when a scenario needs it:
// a first visit fetches one wasm, the lean one; choosing a Lobatto integrator or the
// data-defined system loads the full build and applies the change; a link that needs
// the full build opens directly; runs keep their bits across the switch. uPlot and the
// drawers' code are not on the first frame's path either, and the Explain drawer shows
// the prose the lean registry leaves out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useBrowser, openPage, sleep, BASE } from './helpers.mjs';

const browser = useBrowser();
const PAGE = new URL('?nosw=1', BASE).toString();

const wasmRequests = (page) => {
  const list = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (name.endsWith('.wasm')) list.push(name);
  });
  return list;
};

test('a first visit fetches the lean wasm only, and runs the default scenario on it: its first part before the first frame, the deferred one after', async () => {
  const page = await browser.context.newPage();
  const wasm = wasmRequests(page);
  await page.goto(PAGE);
  await page.waitForFunction(() => window.vilabPage?.firstFrameAt?.() != null, null, { timeout: 30000 });
  await sleep(1500);
  assert.equal(await page.evaluate(() => window.vilabPage.lab.build), 'lean');
  assert.equal(wasm.length, 2, wasm.join(', '));
  assert.match(wasm[0], /^vilab-lean-.*\.wasm$/);
  assert.match(wasm[1], /^vilab-lean\.deferred-.*\.wasm$/);
  // when each started, against the first frame (ms from navigation)
  const { firstFrame, started } = await page.evaluate(() => ({
    firstFrame: window.vilabPage.firstFrameAt(),
    started: Object.fromEntries(performance.getEntriesByType('resource').map((e) => [e.name.split('/').pop(), e.startTime])),
  }));
  assert.ok(started[wasm[0]] <= firstFrame, `the first part before the first frame: ${JSON.stringify(started)}, ${firstFrame}`);
  assert.ok(started[wasm[1]] > firstFrame, `the second part after it: ${JSON.stringify(started)}, ${firstFrame}`);
  await page.close();
});

test("a second part that failed to load after the first frame comes synchronously when a run needs it, with a fresh run's bits", async () => {
  const page = await browser.context.newPage();
  let asked = 0;
  await page.route(/vilab-lean\.deferred-[^/]*\.wasm$/, (route) =>
    ++asked === 1 ? route.fulfill({ status: 503, body: 'busy' }) : route.continue(),
  );
  await page.goto(PAGE);
  await page.waitForFunction(() => window.vilabPage?.firstFrameAt?.() != null, null, { timeout: 30000 });
  await page.evaluate(() => window.vilabPage.ready);
  for (let waited = 0; asked < 1 && waited < 10000; waited += 50) await sleep(50);
  assert.equal(asked, 1, 'the fetch after the first frame, refused');
  // the rigid body's step is in the second part: its placeholder fetches it, synchronously
  await page.evaluate(() => window.vilabPage.pause());
  const err = await page.evaluate(() => window.vilabPage.setState({ scenario: { system: 'rigid-body' } }));
  assert.equal(err, null);
  assert.equal(asked, 2, 'fetched again when needed');
  const same = await page.evaluate(async () => {
    const p = window.vilabPage;
    await p.step(50);
    const sim = p.lab.simulate(p.state().scenario);
    sim.advance(50);
    const ok = sim.hash() === p.fingerprint();
    sim.dispose();
    return ok;
  });
  assert.ok(same, "the page's run and a fresh one agree bit for bit");
  await page.unroute(/vilab-lean\.deferred-[^/]*\.wasm$/);
  await page.close();
});

test('a wasm that cannot be fetched is reported on the page, not waited for', async () => {
  // the wasm compiles from its own fetch while the loader loads (web/sim/vilab.js): a
  // failure there must reach the page as the engine's failure
  const page = await browser.context.newPage();
  await page.route(/vilab-lean-[^/]*\.wasm$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(PAGE);
  await page.waitForFunction(() => /could not be loaded/.test(document.querySelector('#loading')?.textContent ?? ''), null, {
    timeout: 30000,
  });
  assert.equal(await page.evaluate(() => window.vilabPage.firstFrameAt?.() ?? null), null);
  await page.unroute(/vilab-lean-[^/]*\.wasm$/);
  await page.close();
});

test('a server that sends the wasm as application/octet-stream still gets the page running', async () => {
  // streaming compilation needs application/wasm; the same response's bytes are compiled instead
  const page = await browser.context.newPage();
  let served = 0;
  await page.route(/vilab-lean-[^/]*\.wasm$/, async (route) => {
    served++;
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
  });
  await page.goto(PAGE);
  await page.waitForFunction(() => window.vilabPage?.firstFrameAt?.() != null, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => window.vilabPage.lab.build), 'lean');
  assert.equal(served, 1, 'the wasm is fetched once');
  await page.unroute(/vilab-lean-[^/]*\.wasm$/);
  await page.close();
});

test("choosing a Lobatto integrator loads the full build and applies it; the run has the full build's bits", async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1');
  const wasm = wasmRequests(page);
  await page.evaluate(() => window.vilabPage.pause());
  const err = await page.evaluate(() =>
    window.vilabPage.setState({ scenario: { system: 'double-spherical-pendulum', integrator: 'lobatto', h: 0.01 } }),
  );
  assert.equal(err, null);
  const after = await page.evaluate(() => ({
    build: window.vilabPage.lab.build,
    integrator: window.vilabPage.state().scenario.integrator,
  }));
  assert.deepEqual(after, { build: 'full', integrator: 'lobatto' });
  assert.equal(wasm.filter((n) => !n.startsWith('vilab-lean')).length, 1, wasm.join(', '));
  // the page's run and a fresh run of the same scenario agree bit for bit
  const same = await page.evaluate(async () => {
    const p = window.vilabPage;
    await p.step(50); // a promise when the steps go on between frames
    const sim = p.lab.simulate(p.state().scenario);
    sim.advance(50);
    const ok = sim.hash() === p.fingerprint();
    sim.dispose();
    return ok;
  });
  assert.ok(same);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the system menu switches to the data-defined system through the full build', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1');
  await page.selectOption('#system', 'lagrangian');
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'lagrangian', null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.vilabPage.lab.build), 'full');
  assert.equal(await page.locator('#banners [data-key="control"]').count(), 0);
  // the data-defined run steps on the full build (paused first: a playing run can pass k0 + 20
  // before runTo is asked, and runTo never steps back)
  await page.evaluate(() => window.vilabPage.pause());
  const k0 = await page.evaluate(() => window.vilabPage.sim().step);
  assert.equal(await page.evaluate((k) => window.vilabPage.runTo(k), k0 + 20), k0 + 20);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link that needs the full build opens at once, without a banner', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1#system=double-spherical-pendulum&integrator=composition4&h=0.02');
  const st = await page.evaluate(() => ({
    build: window.vilabPage.lab.build,
    integrator: window.vilabPage.state().scenario.integrator,
    h: window.vilabPage.state().scenario.h,
  }));
  assert.deepEqual(st, { build: 'full', integrator: 'composition4', h: 0.02 });
  assert.equal(await page.locator('#banners [data-key="link"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the first frame waits for neither the plots, uPlot nor the drawers: the plots follow it, a drawer's code comes when it opens", async () => {
  const page = await browser.context.newPage();
  const scripts = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (/\.m?js$/.test(name)) scripts.push(name);
  });
  await page.goto(PAGE);
  await page.evaluate(() => window.vilabPage.ready);
  const timing = await page.evaluate(() => ({
    firstFrame: window.vilabPage.firstFrameAt(),
    // the plots' code, words and CSS, and the library (uPlot.esm-…)
    later: performance
      .getEntriesByType('resource')
      .filter((e) => /\/(plots-|words-en-plots-|uplot)/i.test(e.name))
      .map((e) => ({ name: e.name.split('/').pop(), start: e.startTime })),
    charts: document.querySelectorAll('#plots .uplot').length,
  }));
  const names = timing.later.map((e) => e.name);
  assert.equal(names.filter((n) => n.startsWith('uPlot.esm-')).length, 1, scripts.join(', '));
  assert.equal(names.filter((n) => n.startsWith('plots-')).length, 1, scripts.join(', '));
  for (const { name, start } of timing.later)
    assert.ok(start >= timing.firstFrame, `${name} requested at ${start} ms, first frame at ${timing.firstFrame} ms`);
  assert.ok(timing.charts >= 3, `${timing.charts} plots once ready`);
  const drawerCode = (list) => list.filter((n) => /^(studies|explain|lessons)-/.test(n));
  assert.deepEqual(drawerCode(scripts), []);
  await page.click('#studies-button');
  await page.waitForSelector('#studies:not([hidden]) .drawer-body > *', { timeout: 20000 });
  assert.ok(
    drawerCode(scripts).some((n) => n.startsWith('studies-')),
    scripts.join(', '),
  );
  await page.close();
});

test('on the lean build the Explain drawer shows what its registry leaves out: docs, equations, citation', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1');
  const integ = await page.evaluate(() => {
    const i = window.vilabPage.lab.integrator(window.vilabPage.state().scenario.integrator);
    return { build: window.vilabPage.lab.build, id: i.id, left: ['docs', 'equations', 'citation'].filter((f) => f in i) };
  });
  assert.deepEqual({ build: integ.build, left: integ.left }, { build: 'lean', left: [] });
  const prose = JSON.parse(readFileSync(new URL(`../../core/prose/integrators/${integ.id}.en.json`, import.meta.url), 'utf8'));
  await page.click('#explain-button');
  await page.waitForSelector('#explain .explain-integrator .katex', { timeout: 20000 });
  const section = page.locator('#explain .explain-integrator').first();
  const text = await section.textContent();
  // the docs paragraph, its formula fragments typeset (each keeps the prose's text as data-source)
  const docs = await section
    .locator('.explain-docs p:not(.summary)')
    .evaluate((p) => [...p.childNodes].map((n) => (n.nodeType === Node.TEXT_NODE ? n.textContent : n.dataset.source)).join(''));
  assert.equal(docs, prose.docs, 'the docs paragraph');
  assert.ok((await section.locator('.explain-docs .math-inline .katex').count()) >= 3, 'its formulas typeset');
  assert.ok(text.includes(prose.citation), 'the citation');
  assert.equal(
    await section.locator('.math annotation').first().textContent(),
    `\\begin{gathered}${prose.equations.join('\\\\')}\\end{gathered}`,
  );
  assert.equal(await page.evaluate(() => window.vilabPage.lab.build), 'lean', 'the drawer loads no full build');
  assert.deepEqual(errors, []);
  await page.close();
});
