// Embed protocol 2 through the client helper vilab/embed-client, from a host page on
// another origin: ids echoed on every reply (errors too), commands answered once done,
// vilab:state's share link and energy error, vilab:change for what the reader does, and
// the client's own checks (origin, timeout, unsubscribe).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { useBrowser, openPage, BASE } from './helpers.mjs';

const browser = useBrowser();
const CLIENT = readFileSync(new URL('../../web/sim/embed-client.js', import.meta.url));
let host;

// the host page: the client imported by its package name through an import map
function hostPage(src, origin) {
  const options = origin ? `{ origin: ${JSON.stringify(origin)}, timeout: 1500 }` : '{}';
  return `<!doctype html><meta charset="utf-8"><title>course page</title>
<script type="importmap">{ "imports": { "vilab/embed-client": "/embed-client.js" } }</script>
<iframe id="lab" src="${src.replace(/"/g, '&quot;')}" width="1240" height="780"></iframe>
<script type="module">
import { connect, EmbedError } from 'vilab/embed-client';
window.EmbedError = EmbedError;
window.lab = connect(document.getElementById('lab'), ${options});
window.changes = [];
window.raw = [];
window.lab.on('change', (e) => window.changes.push(e));
addEventListener('message', (e) => window.raw.push(e.data));
window.post = (m) => document.getElementById('lab').contentWindow.postMessage(m, '*');
window.replyTo = (id, wait = 1500) => new Promise((resolve) => {
  const t0 = Date.now();
  (function poll() {
    const r = window.raw.find((m) => m && m.id === id && /^vilab:(state|done|error)$/.test(m.type));
    if (r || Date.now() - t0 > wait) resolve(r ?? null); else setTimeout(poll, 20);
  })();
});
</script>`;
}

before(async () => {
  await new Promise((resolve) => {
    const server = createServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/embed-client.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return res.end(CLIENT);
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostPage(url.searchParams.get('src') ?? '', url.searchParams.get('origin')));
    });
    server.listen(0, '127.0.0.1', () => {
      host = { server, origin: `http://127.0.0.1:${server.address().port}` };
      resolve();
    });
  });
});
after(() => host?.server.close());

const SCENARIO = '#system=double-spherical-pendulum&integrator=midpoint&h=0.01';

async function openHost({ query = `embed=1&paused=1&origin=${encodeURIComponent(host.origin)}`, hash = SCENARIO, origin } = {}) {
  const src = new URL(`?${query}${hash}`, BASE).toString();
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const extra = origin ? `&origin=${encodeURIComponent(origin)}` : '';
  await page.goto(`${host.origin}/?src=${encodeURIComponent(src)}${extra}`);
  await page.waitForFunction(() => window.lab, null, { timeout: 10000 });
  if (!origin) await page.evaluate(() => window.lab.ready);
  const frame = page.frames().find((f) => f.url().startsWith(BASE));
  if (!origin) await frame.evaluate(() => window.vilabPage.ready);
  return { page, frame, errors };
}

test('the client helper is small: at most 2 KB gzipped', () => {
  const gz = gzipSync(CLIENT, { level: 9 }).length;
  assert.ok(gz <= 2048, `${gz} bytes gzipped`);
});

test('every reply echoes its id: success, refusal, an origin refused; an unreadable id answers null', async () => {
  const { page, errors } = await openHost();
  const cases = [
    [{ type: 'vilab:step', steps: 0, id: 'S0' }, 'vilab:error', 'steps'],
    [{ type: 'vilab:step', steps: 1.5, id: 15 }, 'vilab:error', 'steps'],
    [{ type: 'vilab:explode', id: 'X' }, 'vilab:error', 'type'],
    [{ type: 'vilab:play', extra: 1, id: 'E' }, 'vilab:error', 'extra'],
    [{ type: 'vilab:load', id: 'L0' }, 'vilab:error', 'scenario'],
    [{ type: 'vilab:load', scenario: { system: 'oscillator', h: -1 }, id: 'L1' }, 'vilab:error', 'scenario.h'],
    [{ type: 'vilab:get', id: 'G' }, 'vilab:state', null],
    [{ type: 'vilab:pause', id: 'P' }, 'vilab:done', null],
    [{ type: 'vilab:step', steps: 3, id: 'S3' }, 'vilab:done', null],
  ];
  for (const [message, type, field] of cases) {
    await page.evaluate((m) => window.post(m), message);
    const reply = await page.evaluate((id) => window.replyTo(id), message.id);
    assert.equal(reply?.type, type, JSON.stringify(message));
    assert.equal(reply.id, message.id, JSON.stringify(message));
    if (field) assert.equal(reply.field, field, JSON.stringify(message));
  }
  const s3 = await page.evaluate(() => window.raw.find((m) => m.id === 'S3' && m.type === 'vilab:done'));
  assert.equal(s3.request, 'vilab:step');
  assert.equal(s3.step, 3, 'vilab:done comes with the step reached');
  // negative control: an id that cannot be read is not echoed (the reply names the id)
  await page.evaluate(() => window.post({ type: 'vilab:step', steps: 0, id: { bad: 1 } }));
  await page.waitForFunction(() => window.raw.some((m) => m?.type === 'vilab:error' && m.field === 'id'));
  const bad = await page.evaluate(() => window.raw.find((m) => m?.type === 'vilab:error' && m.field === 'id'));
  assert.equal(bad.id, null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a host not named by origin= is refused with its id; the client rejects with the field', async () => {
  const { page } = await openHost({ query: 'embed=1&paused=1&origin=https://elsewhere.example' });
  await page.evaluate(() => window.post({ type: 'vilab:play', id: 'O1' }));
  const reply = await page.evaluate(() => window.replyTo('O1'));
  assert.equal(reply.type, 'vilab:error');
  assert.equal(reply.field, 'origin');
  assert.equal(reply.id, 'O1');
  const rejected = await page.evaluate(() =>
    window.lab.play().then(
      () => null,
      (e) => ({ name: e.name, field: e.field, request: e.request, isEmbedError: e instanceof window.EmbedError }),
    ),
  );
  assert.deepEqual(rejected, { name: 'EmbedError', field: 'origin', request: 'vilab:play', isEmbedError: true });
  await page.close();
});

test('the client: step resolves when the steps are taken, get carries the share link and the energy error', async () => {
  const { page, frame, errors } = await openHost();
  const done = await page.evaluate(() => window.lab.step(250));
  assert.equal(done.type, 'vilab:done');
  assert.equal(done.step, 250);
  // a step past one slice (25 ms) goes on between frames: done only when the last is taken
  const long = await page.evaluate(() => window.lab.step(20000));
  assert.equal(long.step, 20250);
  assert.equal(long.fingerprint, await frame.evaluate(() => window.vilabPage.fingerprint()));
  const state = await page.evaluate(() => window.lab.get());
  assert.equal(state.step, 20250);
  assert.equal(state.protocol, 2);
  assert.match(state.version, /^\d+\.\d+\.\d+/);
  assert.equal(state.compare, null);
  // the energy error: (E − E₀)/|E₀| with E₀ from a fresh run of the same scenario
  const E0 = await frame.evaluate((sc) => {
    const sim = window.vilabPage.lab.simulate(sc);
    const e = sim.diagnostics().energy;
    sim.dispose();
    return e;
  }, state.scenario);
  assert.equal(state.energyErrorRelative, true);
  assert.equal(state.energyError, (state.diagnostics.energy - E0) / Math.abs(E0));
  assert.ok(state.energyError !== 0 && Number.isFinite(state.energyError), String(state.energyError));
  // the share link opens the same run at the same step, with the same bits
  const url = new URL(state.shareURL);
  assert.match(url.hash, /at=20250/);
  const opened = await openPage(browser.context, url.pathname + url.search + url.hash);
  await opened.page.waitForFunction(() => window.vilabPage.runTo && window.vilabPage.sim()?.step === 20250, null, { timeout: 30000 });
  assert.equal(await opened.page.evaluate(() => window.vilabPage.fingerprint()), state.fingerprint);
  await opened.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test("the energy error tells explicit Euler's growth from midpoint's bounded error", async () => {
  const { page } = await openHost();
  const errorAfter = async (integrator) => {
    await page.evaluate((i) => window.lab.load({ system: 'oscillator', integrator: i, h: 0.05 }), integrator);
    await page.evaluate(() => window.lab.step(200));
    return (await page.evaluate(() => window.lab.get())).energyError;
  };
  const euler = await errorAfter('euler');
  const midpoint = await errorAfter('midpoint');
  // Euler multiplies the oscillator's energy by 1 + h²ω² each step: 1.0025^200 − 1 = 0.648
  assert.ok(Math.abs(euler - (1.0025 ** 200 - 1)) < 1e-9, `euler ${euler}`);
  // the midpoint rule keeps the oscillator's quadratic energy to rounding
  assert.ok(Math.abs(midpoint) < 1e-12, `midpoint ${midpoint}`);
  await page.close();
});

test('a load the first (lean) build leaves out is answered once the full build has applied it', async () => {
  const { page, frame } = await openHost();
  assert.equal(await frame.evaluate(() => window.vilabPage.lab.build), 'lean', 'the page starts on the lean build');
  const done = await page.evaluate(() => window.lab.load({ system: 'pendulum', integrator: 'lobatto', h: 0.01 }));
  assert.equal(done.type, 'vilab:done');
  assert.equal(done.step, 0);
  const state = await page.evaluate(() => window.lab.get());
  assert.equal(state.scenario.integrator, 'lobatto');
  const change = await page.evaluate(() => window.changes.find((c) => c.scenario.integrator === 'lobatto'));
  assert.equal(change.source, 'host', 'applied later, still by the host');
  await page.close();
});

test('a refused load rejects with the field inside the scenario; the run is kept', async () => {
  const { page, frame } = await openHost();
  await page.evaluate(() => window.lab.step(10));
  const fp = await frame.evaluate(() => window.vilabPage.fingerprint());
  const e = await page.evaluate(() =>
    window.lab.load({ system: 'pendulum', params: { g: -3 } }).then(
      () => null,
      (err) => ({ field: err.field, message: err.message }),
    ),
  );
  assert.equal(e.field, 'scenario.params.g');
  assert.match(e.message, /^vilab: scenario\.params\.g: /);
  assert.equal(await frame.evaluate(() => window.vilabPage.fingerprint()), fp);
  await page.close();
});

/** The last change event of a kind, once it has come. */
const changeOf = (page, kind, from) =>
  page
    .waitForFunction(([k, n]) => window.changes.slice(n).find((c) => c.change === k), [kind, from], { timeout: 10000 })
    .then((h) => h.jsonValue());

test('vilab:change tells the host what the reader does, with the new values', async () => {
  // the whole page in the iframe (no embed=1, which leaves out the menus and the panel)
  const { page, frame, errors } = await openHost({ query: `paused=1&origin=${encodeURIComponent(host.origin)}` });
  const count = () => page.evaluate(() => window.changes.length);
  let n = await count();
  await frame.click('#play');
  const play = await changeOf(page, 'play', n);
  assert.equal(play.playing, true);
  assert.equal(play.source, 'reader');
  n = await count();
  await frame.click('#play');
  assert.equal((await changeOf(page, 'pause', n)).playing, false);

  n = await count();
  await frame.selectOption('#integrator-a', 'rk4');
  const integ = await changeOf(page, 'integrator', n);
  assert.equal(integ.scenario.integrator, 'rk4');
  assert.ok(integ.fields.includes('integrator'));

  n = await count();
  await frame.selectOption('#integrator-b', 'midpoint');
  const compare = await changeOf(page, 'compare', n);
  assert.equal(compare.compare, 'midpoint');
  assert.deepEqual(compare.fields, ['compare']);

  n = await count();
  await frame.fill('#h-number', '0.005');
  await frame.press('#h-number', 'Enter');
  const h = await changeOf(page, 'h', n);
  assert.equal(h.scenario.h, 0.005);

  n = await count();
  const err = await frame.evaluate(() => {
    const s = window.vilabPage.state().scenario;
    return window.vilabPage.setState({ scenario: { ...s, params: { ...s.params, g: 3.7 } } });
  });
  assert.equal(err, null);
  const param = await changeOf(page, 'parameter', n);
  assert.deepEqual(param.fields, ['params.g']);
  assert.equal(param.scenario.params.g, 3.7);

  n = await count();
  await frame.click('#reset');
  const reset = await changeOf(page, 'reset', n);
  assert.equal(reset.step, 0);

  n = await count();
  await frame.selectOption('#preset', 'pendulum-euler');
  const preset = await changeOf(page, 'preset', n);
  assert.equal(preset.preset, 'pendulum-euler');
  assert.equal(preset.scenario.system, 'pendulum');
  assert.equal(preset.compare, (await frame.evaluate(() => window.vilabPage.state().compare)) ?? null);

  n = await count();
  await frame.evaluate(() => {
    location.hash = '#system=oscillator&integrator=midpoint&h=0.02';
  });
  const link = await changeOf(page, 'link', n);
  assert.equal(link.scenario.system, 'oscillator');
  assert.equal(link.scenario.h, 0.02);

  n = await count();
  await frame.selectOption('#system', 'spherical-pendulum');
  const system = await changeOf(page, 'system', n);
  assert.equal(system.scenario.system, 'spherical-pendulum');
  assert.equal(system.source, 'reader');

  n = await count();
  const initialErr = await frame.evaluate(() => {
    const s = window.vilabPage.state().scenario;
    return window.vilabPage.setState({ scenario: { ...s, initial: { ...s.initial, angles: [[0.5, 0]] } } });
  });
  assert.equal(initialErr, null);
  const initial = await changeOf(page, 'initial', n);
  assert.deepEqual(initial.fields, ['initial.angles']);
  assert.deepEqual(initial.scenario.initial.angles, [[0.5, 0]]);

  n = await count();
  const speeds = await frame.locator('#speed option').evaluateAll((os) => os.map((o) => o.value));
  const other = speeds.find((v) => v !== (speeds.includes('s1') ? 's1' : speeds[0]) && !v.startsWith('spf'));
  await frame.selectOption('#speed', other);
  const pace = await changeOf(page, 'pace', n);
  assert.ok(pace.fields.includes('speed'), pace.fields.join());

  // a host's own command is marked as the host's
  n = await count();
  await page.evaluate(() => window.lab.load({ system: 'pendulum', integrator: 'midpoint', h: 0.01 }));
  const loaded = await changeOf(page, 'system', n);
  assert.equal(loaded.source, 'host');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the client ignores another origin, times out, and stops hearing an unsubscribed listener', async () => {
  // told the page lives elsewhere: the real page's messages are ignored, requests time out
  const { page } = await openHost({ origin: 'https://elsewhere.example' });
  const outcome = await page.evaluate(() =>
    window.lab.get().then(
      () => 'answered',
      (e) => `${e.name}:${e.code}:${e.request}`,
    ),
  );
  assert.equal(outcome, 'EmbedError:timeout:vilab:get');
  const heard = await page.evaluate(() => window.changes.length);
  assert.equal(heard, 0, 'no event from an origin it was not told');
  await page.close();

  const real = await openHost();
  const count = await real.page.evaluate(async () => {
    let n = 0;
    const off = window.lab.on('change', () => n++);
    await window.lab.play();
    await new Promise((r) => setTimeout(r, 300));
    off();
    await window.lab.pause();
    await new Promise((r) => setTimeout(r, 300));
    return n;
  });
  assert.equal(count, 1, 'heard play, not the pause after off()');
  await real.page.close();
});
