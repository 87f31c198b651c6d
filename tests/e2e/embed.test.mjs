// Embedding: a host page on another origin drives the embedded page through
// postMessage (commands only from the origins its embed code names, reads from any),
// receives its events, and the "Copy embed code" dialog writes a working iframe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { useBrowser, openPage, BASE } from './helpers.mjs';

const browser = useBrowser();
const hosts = {};

// A host page: an iframe of the app, a log of every message the app posts, and a
// send(message) → the first reply (vilab:state / vilab:error) or null after a wait.
function hostPage(src) {
  return `<!doctype html><meta charset="utf-8"><title>course page</title>
<iframe id="lab" src="${src.replace(/"/g, '&quot;')}" width="900" height="600"></iframe>
<script>
window.events = [];
addEventListener('message', (e) => { if (e.source === document.getElementById('lab').contentWindow) window.events.push(e.data); });
window.send = (message, wait = 1500) => new Promise((resolve) => {
  const from = window.events.length;
  document.getElementById('lab').contentWindow.postMessage(message, '*');
  const t0 = Date.now();
  (function poll() {
    const reply = window.events.slice(from).find((m) => m && (m.type === 'vilab:state' || m.type === 'vilab:error'));
    if (reply || Date.now() - t0 > wait) resolve(reply ?? null); else setTimeout(poll, 20);
  })();
});
</script>`;
}

function serve(name) {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      const src = new URL(req.url, 'http://x').searchParams.get('src');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostPage(src ?? ''));
    });
    server.listen(0, '127.0.0.1', () => {
      hosts[name] = { server, origin: `http://127.0.0.1:${server.address().port}` };
      resolve();
    });
  });
}

before(async () => {
  await serve('course');
  await serve('stranger');
});
after(() => Object.values(hosts).forEach((h) => h.server.close()));

const SCENARIO = '#system=double-spherical-pendulum&integrator=midpoint&h=0.01';

async function openHost(name, query) {
  const src = new URL(`?${query}${SCENARIO}`, BASE).toString();
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${hosts[name].origin}/?src=${encodeURIComponent(src)}`);
  await page.waitForFunction(() => window.events.some((m) => m?.type === 'vilab:ready'), null, { timeout: 20000 });
  const frame = page.frames().find((f) => f.url().startsWith(BASE));
  return { page, frame, errors };
}

const frameHook = (frame, fn, arg) => frame.evaluate(fn, arg);

test('a named host origin drives the page: pause, step, get, load; events carry step and fingerprint', async () => {
  const { page, frame, errors } = await openHost('course', `embed=1&origin=${encodeURIComponent(hosts.course.origin)}`);
  const ready = await page.evaluate(() => window.events.find((m) => m.type === 'vilab:ready'));
  assert.match(ready.version, /^\d+\.\d+\.\d+/);
  assert.match(ready.fingerprint, /^[0-9a-f]{16}$/);

  await page.evaluate(() => window.send({ type: 'vilab:pause' }, 300));
  assert.equal(await frameHook(frame, () => window.vilabPage.playing()), false, 'paused by the host');
  const before = await page.evaluate(() => window.send({ type: 'vilab:get', id: 7 }));
  assert.equal(before.type, 'vilab:state');
  assert.equal(before.id, 7);
  const from = before.step;
  await page.evaluate(() => window.send({ type: 'vilab:step', steps: 250 }, 300));
  const after = await page.evaluate(() => window.send({ type: 'vilab:get', id: 'x' }));
  assert.equal(after.step, from + 250, 'exactly 250 steps');
  assert.equal(after.fingerprint, await frameHook(frame, () => window.vilabPage.fingerprint()));
  assert.equal(after.scenario.system, 'double-spherical-pendulum');
  assert.ok(Number.isFinite(after.diagnostics.energy), 'diagnostics travel');
  const stepEvent = await page.evaluate(() => window.events.filter((m) => m.type === 'vilab:step').pop());
  assert.equal(stepEvent.step, after.step, 'a vilab:step event after the command');
  assert.equal(stepEvent.fingerprint, after.fingerprint);

  // the same 250 steps through the API give the same bits
  const direct = await frameHook(
    frame,
    (n) => {
      const sim = window.vilabPage.lab.simulate({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
      sim.advance(n);
      const h = sim.hash();
      sim.dispose();
      return h;
    },
    after.step,
  );
  assert.equal(direct, after.fingerprint);

  // load a valid scenario: a new run at step 0; play resumes
  const loadReply = await page.evaluate(() =>
    window.send({ type: 'vilab:load', scenario: { system: 'oscillator', integrator: 'midpoint', h: 0.05 } }, 400),
  );
  assert.equal(loadReply, null, 'no error');
  const loaded = await page.evaluate(() => window.send({ type: 'vilab:get' }));
  assert.equal(loaded.scenario.system, 'oscillator');
  await page.evaluate(() => window.send({ type: 'vilab:play' }, 300));
  await page.waitForFunction(() => window.events.filter((m) => m.type === 'vilab:step').pop()?.step > 20, null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('vilab:load takes B: a registry id, a MuJoCo one on a mechanism, or null', async () => {
  const { page, errors } = await openHost('course', `embed=1&origin=${encodeURIComponent(hosts.course.origin)}`);
  await page.evaluate(() => window.send({ type: 'vilab:pause' }, 300));
  const load = (message) => page.evaluate((m) => window.send({ type: 'vilab:load', ...m }, 400), message);
  assert.equal(await load({ scenario: { system: 'oscillator', integrator: 'midpoint', h: 0.05 }, compare: 'rk4' }), null);
  assert.equal((await page.evaluate(() => window.send({ type: 'vilab:get' }))).compare, 'rk4');
  assert.equal(await load({ scenario: { system: 'oscillator', integrator: 'midpoint', h: 0.05 }, compare: null }), null);
  assert.equal((await page.evaluate(() => window.send({ type: 'vilab:get' }))).compare, null);
  // a mechanism (the full module) with MuJoCo as B: accepted (done, no error), its engine loads on demand
  const { about, ...scenario } = JSON.parse(
    readFileSync(new URL('../../scenes/mechanisms/compound-double-pendulum.json', import.meta.url), 'utf8'),
  );
  assert.equal(await load({ scenario, compare: 'mujoco-implicit' }), null);
  await page.waitForFunction(
    () => window.events.some((m) => m?.type === 'vilab:done' && m.request === 'vilab:load' && m.step === 0),
    null,
    {
      timeout: 30000,
    },
  );
  const state = await page.evaluate(() => window.send({ type: 'vilab:get' }));
  assert.equal(state.scenario.system, 'mechanism');
  assert.equal(state.compare, 'mujoco-implicit');
  assert.deepEqual(errors, []);
  await page.close();
});

test('bad messages from the named host: an error naming the field, a banner, the run kept', async () => {
  const { page, frame } = await openHost('course', `embed=1&origin=${encodeURIComponent(hosts.course.origin)}`);
  await page.evaluate(() => window.send({ type: 'vilab:pause' }, 300));
  const fp = await frameHook(frame, () => window.vilabPage.fingerprint());
  const cases = [
    [{ type: 'vilab:load', scenario: { system: 'oscillator', h: -1 } }, 'scenario.h'],
    [{ type: 'vilab:load', scenario: { system: 'no-such-system' } }, 'scenario.system'],
    [{ type: 'vilab:load', scenario: 'javascript:alert(1)' }, 'scenario'],
    [{ type: 'vilab:load' }, 'scenario'],
    [{ type: 'vilab:load', scenario: { system: 'oscillator' }, compare: 5 }, 'compare'],
    [{ type: 'vilab:load', scenario: { system: 'oscillator' }, compare: 'no-such-method' }, 'compare'],
    [{ type: 'vilab:load', scenario: { system: 'oscillator' }, compare: 'mujoco-rk4' }, 'compare'], // MuJoCo runs mechanisms only
    [{ type: 'vilab:step', steps: 0 }, 'steps'],
    [{ type: 'vilab:step', steps: 1e9 }, 'steps'],
    [{ type: 'vilab:step', steps: 1.5 }, 'steps'],
    [{ type: 'vilab:explode' }, 'type'],
    [{ type: 'vilab:play', extra: '<img src=x onerror=alert(1)>' }, 'extra'],
    [{ type: 'vilab:get', id: { nested: true } }, 'id'],
  ];
  for (const [message, field] of cases) {
    const reply = await page.evaluate((m) => window.send(m), message);
    assert.equal(reply?.type, 'vilab:error', JSON.stringify(message));
    assert.equal(reply.field, field, JSON.stringify(message));
    assert.match(reply.message, /^vilab: /);
  }
  assert.equal(await frameHook(frame, () => window.vilabPage.fingerprint()), fp, 'the run is untouched');
  const banner = frame.locator('.banner[data-key="embed-command"]');
  assert.equal(await banner.count(), 1, 'the reader sees the last rejected request');
  // messages that are not vilab's are ignored: no reply
  assert.equal(await page.evaluate(() => window.send({ type: 'other-widget:ping' }, 300)), null);
  assert.equal(await page.evaluate(() => window.send('vilab:play', 300)), null);
  await page.close();
});

test('an origin the embed code does not name may read but not command', async () => {
  const { page, frame } = await openHost('stranger', `embed=1&origin=${encodeURIComponent(hosts.course.origin)}`);
  await frameHook(frame, () => window.vilabPage.play());
  const reply = await page.evaluate(() => window.send({ type: 'vilab:pause' }));
  assert.equal(reply.type, 'vilab:error');
  assert.equal(reply.field, 'origin');
  assert.equal(await frameHook(frame, () => window.vilabPage.playing()), true, 'still playing');
  const state = await page.evaluate(() => window.send({ type: 'vilab:get' }));
  assert.equal(state.type, 'vilab:state', 'reads are answered');
  assert.equal(await frame.locator('.banner[data-key="embed-command"]').count(), 0, 'a stranger cannot put text on the page');
  await page.close();
});

test('a refused step reaches the host as vilab:refusal', async () => {
  const { page } = await openHost('course', `embed=1&origin=${encodeURIComponent(hosts.course.origin)}`);
  // explicit Euler at h = 0.5 on the oscillator: energy grows 25 % per step until the page stops it
  await page.evaluate(() => window.send({ type: 'vilab:load', scenario: { system: 'oscillator', integrator: 'euler', h: 0.5 } }, 300));
  await page.evaluate(() => window.send({ type: 'vilab:step', steps: 100 }, 300));
  const refusal = await page
    .waitForFunction(() => window.events.find((m) => m.type === 'vilab:refusal'), null, { timeout: 10000 })
    .then((h) => h.jsonValue());
  assert.equal(refusal.track, 'A');
  assert.ok(refusal.message.length > 10);
  await page.close();
});

test('Copy embed code writes an iframe that opens paused, bare, with the host origin; bad keys are named', async () => {
  const { page, errors } = await openPage(browser.context, SCENARIO.slice(0) + '&speed=5');
  await page.click('#embed-code');
  const dialog = page.locator('#embed-dialog');
  await dialog.waitFor({ state: 'visible', timeout: 10000 }); // its code comes with the first press
  await page.check('#embed-bare');
  await page.fill('#embed-origin', 'not a url');
  assert.match(await page.locator('#embed-problem').textContent(), /origin/);
  await page.fill('#embed-origin', 'https://course.example.org/');
  assert.equal(await page.locator('#embed-problem').textContent(), '');
  const code = await page.locator('#embed-text').inputValue();
  const src = code.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  const url = new URL(src);
  assert.equal(url.searchParams.get('embed'), '1');
  assert.equal(url.searchParams.get('paused'), '1');
  assert.equal(url.searchParams.get('chrome'), '0');
  assert.equal(url.searchParams.get('origin'), 'https://course.example.org');
  assert.match(url.hash, /speed=5/);
  assert.match(url.hash, /at=\d+/, 'the step it was on');
  assert.match(code, /title="vilab: /);
  await page.keyboard.press('Escape');
  assert.equal(await dialog.isVisible(), false);

  const opened = await openPage(browser.context, url.pathname + url.search + url.hash);
  assert.equal(await opened.page.evaluate(() => window.vilabPage.playing()), false, 'opens paused');
  assert.equal(await opened.page.locator('#topbar').isVisible(), false, 'chrome=0 hides the menus');
  assert.ok(await opened.page.locator('#transport').isVisible());
  assert.ok(await opened.page.locator('#plots').isVisible());
  await opened.page.close();

  const bad = await openPage(browser.context, '?embed=1&paused=maybe&origin=javascript:alert(1)' + SCENARIO);
  const banners = await bad.page.locator('.banner').allTextContents();
  assert.ok(
    banners.some((b) => /paused/.test(b)),
    banners.join(' | '),
  );
  assert.deepEqual(bad.errors, []);
  await bad.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

// Each embed key next to a bad value of another key (and a bad origin next to a good one):
// the bad key is named in a banner and ignored, the good one keeps its effect.
const BAD_KEYS = { embed: 'embed=yes', paused: 'paused=maybe', chrome: 'chrome=2', origin: 'origin=javascript:alert(1)' };
const EFFECTS = {
  embed: [
    'embed=1',
    (page) => page.evaluate(() => document.documentElement.classList.contains('embed') && !document.querySelector('#open-full').hidden),
  ],
  paused: ['paused=1', (page) => page.evaluate(() => !window.vilabPage.playing())],
  chrome: ['chrome=0', async (page) => !(await page.locator('#topbar').isVisible())],
};

async function assertNamed(page, bad, good) {
  const banner = page.locator(`.banner[data-key="embed-key-${bad}"]`);
  assert.equal(await banner.count(), 1, `a banner for ${bad}`);
  assert.match(await banner.textContent(), new RegExp(`\\b${bad}\\b.*ignored`), `the banner names ${bad}`);
  assert.equal(await page.locator(`.banner[data-key="embed-key-${good}"]`).count(), 0, `no banner for ${good}`);
}

test('embed keys are read one by one: a bad key is named and ignored, every other key keeps its effect', async () => {
  for (const [good, [query, holds]] of Object.entries(EFFECTS)) {
    for (const [bad, badQuery] of Object.entries(BAD_KEYS).filter(([key]) => key !== good)) {
      const { page, errors } = await openPage(browser.context, `?${query}&${badQuery}${SCENARIO}`);
      await assertNamed(page, bad, good);
      assert.equal(await holds(page), true, `${query} keeps its effect next to ${badQuery}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
});

test('a good origin= keeps its effect next to a bad key, and next to a bad origin=', async () => {
  const course = encodeURIComponent(hosts.course.origin);
  for (const [bad, badQuery] of Object.entries(BAD_KEYS)) {
    const { page, frame, errors } = await openHost('course', `origin=${course}&${badQuery}`);
    await assertNamed(frame, bad, bad === 'origin' ? 'none' : 'origin');
    await frameHook(frame, () => window.vilabPage.play());
    const reply = await page.evaluate(() => window.send({ type: 'vilab:pause' }, 400));
    assert.equal(reply, null, `the named host's command is obeyed next to ${badQuery}`);
    assert.equal(await frameHook(frame, () => window.vilabPage.playing()), false, `paused by the host next to ${badQuery}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
