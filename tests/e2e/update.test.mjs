// A redeploy under open tabs: the new service worker waits, open tabs keep their
// version (a lazy chunk that the new deploy no longer has still loads) and offer
// "Reload"; the reload switches to the new version, and a second old tab keeps working.
// A failed deploy (a file missing on the server) between two good ones leaves no cache,
// and the cache an open tab runs on is kept until that tab closes.
// The site is served under a sub-path, as on any static host (relative base).
// Each test has its own server and profile and the three run at once: headless Chromium
// starts a registration's update() about a minute after it is called, so they mostly wait.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useBrowser, launch, sleep } from './helpers.mjs';

const browser = useBrowser();
// the site as built (scripts/test.mjs serves the same dist/ to the other tests)
const dist = process.env.VILAB_DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'vilab-redeploy-'));
const v1 = join(work, 'v1');
const v2 = join(work, 'v2');
const servers = [];
const SUB = '/courses/physics-101/vilab/';
// headless Chromium starts an update about a minute after it is asked (above)
const UPDATE_WAIT_MS = 150000;
// a test that hangs anyway fails in minutes, not at the CI's limit (the three take 40–70 s)
const TEST_TIMEOUT_MS = 420000;
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// the Explain drawer's KaTeX chunk: loaded only when the drawer opens
const lazyChunk = () => readdirSync(join(dist, 'assets')).find((f) => /^katex.*\.js$/i.test(f));

before(async () => {
  cpSync(dist, v1, { recursive: true });
  cpSync(dist, v2, { recursive: true });
  // v2: a new deploy: the lazy chunk has a new name, the worker a new version, the page a marker
  const old = lazyChunk();
  const renamed = old.replace(/\.js$/, '-v2.js');
  renameSync(join(v2, 'assets', old), join(v2, 'assets', renamed));
  for (const dir of [v2, join(v2, 'assets')]) {
    for (const f of readdirSync(dir).filter((f) => /\.(js|html)$/.test(f))) {
      const p = join(dir, f);
      writeFileSync(p, readFileSync(p, 'utf8').replaceAll(old, renamed));
    }
  }
  const sw = join(v2, 'sw.js');
  writeFileSync(sw, readFileSync(sw, 'utf8').replace(/const VERSION = '([0-9a-f]+)'/, "const VERSION = '$1v2'"));
  const index = join(v2, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('<head>', '<head><meta name="deploy" content="v2">'));
});

after(() => {
  for (const server of servers) server.close();
  rmSync(work, { recursive: true, force: true });
});

/** A static host of `site` (a deploy's directory, changed by setting host.site) under SUB. */
async function serve(site) {
  // notFound: what it answered 404 to, with the deploy it served then (an install that
  // fails names them)
  const host = { site, origin: '', notFound: [], lastRequest: Date.now() };
  const server = createServer((req, res) => {
    host.lastRequest = Date.now();
    const full = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const path = full.startsWith(SUB) ? full.slice(SUB.length - 1) : null;
    const file = path && join(host.site, path.endsWith('/') ? path + 'index.html' : path);
    if (!file || !file.startsWith(host.site) || !existsSync(file)) {
      host.notFound.push(`${full} (${host.site.split(/[\\/]/).pop()})`);
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(readFileSync(file));
  });
  servers.push(server);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  host.origin = `http://127.0.0.1:${server.address().port}`;
  return host;
}

/**
 * Resolves once `host` has had no request for `ms` (at most `limit` ms). A failed
 * install's fetches still arrive after its worker is redundant: once in CI, under load,
 * nine of its fonts came during the next deploy's install, and that install ended
 * redundant too with no file of its own missing. A real redeploy comes minutes later.
 */
async function quiet(host, ms = 3000, limit = 30000) {
  const start = Date.now();
  while (Date.now() - host.lastRequest < ms && Date.now() - start < limit) await sleep(250);
}

async function openTab(host, path = '', context = browser.context) {
  const page = await context.newPage();
  // Paused (the page does not play under reduced motion, and the setting outlives reloads):
  // the tabs mostly wait for the worker, and six playing tabs kept both cores busy.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(host.origin + SUB + path);
  await page.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 20000 });
  await page.evaluate(() => window.vilabPage.ready);
  return { page, errors };
}

describe('redeploys', { concurrency: true }, () => {
  test('after a redeploy, open tabs keep their version until the reader reloads', { timeout: TEST_TIMEOUT_MS }, async () => {
    const host = await serve(v1);
    const tab1 = await openTab(host, '');
    // the first visit installs the worker, which takes the page
    await tab1.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
    const tab2 = await openTab(host, '?lang=en');
    await tab2.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });

    host.site = v2; // redeploy: the old lazy chunk is gone from the server
    assert.equal((await fetch(`${host.origin}${SUB}assets/${lazyChunk()}`)).status, 404);
    await tab1.page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    await tab1.page.waitForSelector('.banner[data-key="update"]', { timeout: 20000 });
    assert.match(await tab1.page.locator('.banner[data-key="update"]').textContent(), /new version/);

    // the old tab still opens its lazy chunk (from its cache), although the server has a new deploy
    await tab1.page.click('#explain-button');
    await tab1.page.waitForSelector('#explain .katex', { timeout: 15000 });
    assert.equal(await tab1.page.locator('meta[name="deploy"]').count(), 0, 'still the first deploy');

    await tab1.page.keyboard.press('Escape'); // the drawer closes; the banner is reachable
    // the reader accepts: the tab reloads into the new deploy
    await Promise.all([
      tab1.page.waitForEvent('load', { timeout: 20000 }),
      tab1.page.locator('.banner[data-key="update"] button', { hasText: 'Reload' }).click(),
    ]);
    await tab1.page.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 20000 });
    assert.equal(await tab1.page.locator('meta[name="deploy"]').count(), 1, 'the new deploy');
    await tab1.page.click('#explain-button');
    await tab1.page.waitForSelector('#explain .katex', { timeout: 15000 });

    // the other old tab, now under the new worker, still finds its old chunk
    await tab2.page.click('#explain-button');
    await tab2.page.waitForSelector('#explain .katex', { timeout: 15000 });
    assert.deepEqual([...tab1.errors, ...tab2.errors], []);
    await tab1.page.close();
    await tab2.page.close();
  });

  /**
   * A deploy made from the build: every file under assets/ renamed with `tag` (as a build
   * with changed sources would name them), the worker given a new version, the page a
   * marker; `missing`: a pattern of files left off the server (an upload cut short).
   */
  function deploy(tag, { missing } = {}) {
    const dir = join(work, tag);
    cpSync(dist, dir, { recursive: true });
    const names = readdirSync(join(dir, 'assets')).sort((a, b) => b.length - a.length);
    const renamed = new Map(names.map((f) => [f, f.replace(/(\.[^.]+)$/, `-${tag}$1`)]));
    for (const [from, to] of renamed) renameSync(join(dir, 'assets', from), join(dir, 'assets', to));
    const texts = [dir, join(dir, 'assets')].flatMap((d) =>
      readdirSync(d)
        .filter((f) => /\.(js|html|css|webmanifest)$/.test(f))
        .map((f) => join(d, f)),
    );
    for (const p of texts) {
      let text = readFileSync(p, 'utf8');
      for (const [from, to] of renamed) text = text.replaceAll(from, to);
      if (p.endsWith('sw.js')) text = text.replace(/const VERSION = '([0-9a-f]+)'/, `const VERSION = '$1${tag}'`);
      if (p.endsWith('index.html')) text = text.replace('<head>', `<head><meta name="deploy" content="${tag}">`);
      writeFileSync(p, text);
    }
    if (missing) for (const f of readdirSync(join(dir, 'assets')).filter((f) => missing.test(f))) rmSync(join(dir, 'assets', f));
    return dir;
  }

  const cacheNames = (page) => page.evaluate(() => caches.keys().then((keys) => keys.filter((k) => k.startsWith('vilab-')).sort()));

  /**
   * Asks the server for a new worker; resolves to its final state ('installed' or
   * 'redundant'). The new worker is watched from its updatefound and from update()'s own
   * resolution, whichever comes, and update() is asked again every 10 s until one exists: a
   * CI run once waited 50 min here on an updatefound that never came. After UPDATE_WAIT_MS
   * it resolves to what the registration holds, which the assertion then names.
   */
  const updateTo = (page) =>
    page.evaluate(
      (waitMs) =>
        new Promise((resolve) => {
          navigator.serviceWorker.getRegistration().then((r) => {
            const watched = new Set();
            let again = null;
            let giveUp = null;
            const finish = (result) => {
              clearInterval(again);
              clearTimeout(giveUp);
              resolve(result);
            };
            const watch = (worker) => {
              if (!worker || watched.has(worker)) return;
              watched.add(worker);
              const settled = () => ['installed', 'redundant'].includes(worker.state) && finish(worker.state);
              worker.addEventListener('statechange', settled);
              settled();
            };
            const ask = () =>
              r.update().then(
                () => watch(r.installing),
                (e) => finish(String(e)),
              );
            r.addEventListener('updatefound', () => watch(r.installing));
            ask();
            again = setInterval(() => watched.size === 0 && ask(), 10000);
            giveUp = setTimeout(
              () => finish(`no new worker after ${waitMs} ms (installing ${r.installing?.state}, waiting ${r.waiting?.state})`),
              waitMs,
            );
          });
        }),
      UPDATE_WAIT_MS,
    );

  /**
   * Three deploys under an old tab: the first (both tabs open on it), `middle` (its state
   * after the install: 'redundant' when it fails, 'installed' when it waits unaccepted) and
   * `last` (published once the server is quiet), accepted in one tab. The old tab then
   * opens what it had not loaded yet, Explain (KaTeX) and the editor of a system defined by
   * data (its preview, the full engine), whose files the server no longer has. Returns the cache names after `middle`, after `last`
   * with the old tab open, and the first deploy's.
   */
  async function threeDeploys(own, middle, state, last) {
    const host = await serve(v1);
    const tab = await openTab(host, '', own.context);
    await tab.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
    const old = await openTab(host, '?lang=en', own.context);
    await old.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
    const [first] = await cacheNames(tab.page);

    host.site = middle;
    assert.equal(await updateTo(tab.page), state, 'the middle deploy');
    const afterMiddle = await cacheNames(tab.page);

    await quiet(host);
    host.site = last;
    host.notFound.length = 0;
    assert.equal(await updateTo(tab.page), 'installed', `the last deploy; the server's 404s: ${host.notFound.join(', ') || 'none'}`);
    await tab.page.waitForSelector('.banner[data-key="update"]', { timeout: 20000 });
    await Promise.all([
      tab.page.waitForEvent('load', { timeout: 20000 }),
      tab.page.locator('.banner[data-key="update"] button', { hasText: 'Reload' }).click(),
    ]);
    await tab.page.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 20000 });
    assert.equal(await tab.page.locator('meta[name="deploy"]').getAttribute('content'), last.split(/[\\/]/).pop());

    const missing = () => assert.fail(`the old tab lost its files: ${old.errors.join('; ') || 'no response'}`);
    await old.page.click('#explain-button');
    await old.page.waitForSelector('#explain .katex', { timeout: 15000 }).catch(missing);
    await old.page.keyboard.press('Escape');
    const defined = await old.page.evaluate(() => window.vilabPage.lab.systems.find((s) => s.definition)?.id);
    assert.ok(defined, 'a system defined by data');
    await old.page.selectOption('#system', defined);
    await old.page.locator('#definition .def-preview-math .katex').first().waitFor({ timeout: 20000 }).catch(missing);
    assert.equal(await old.page.locator('meta[name="deploy"]').count(), 0, 'still the first deploy');
    assert.deepEqual(old.errors, [], 'no 404 and no error in the old tab');
    const afterLast = await cacheNames(tab.page);

    // once no tab runs the first deploy, the next tab that starts lets the older caches go
    await old.page.close();
    const later = await openTab(host, '', own.context);
    await later.page.waitForFunction(() => caches.keys().then((keys) => keys.filter((k) => k.startsWith('vilab-')).length === 1), null, {
      timeout: 15000,
      polling: 250,
    });
    const final = await cacheNames(later.page);
    assert.deepEqual([...tab.errors, ...later.errors], []);
    return { first, afterMiddle, afterLast, final };
  }

  // With a worker that keeps the failed install's empty cache and rotates by count, the
  // second good deploy deletes the first one's cache and the old tab's Explain never loads
  // (checked by serving this build with such a sw.js through VILAB_DIST).
  test('good deploy, failed deploy, good deploy with an old tab open: its lazy chunks still load, the failed cache is gone', {
    timeout: TEST_TIMEOUT_MS,
  }, async () => {
    const failed = deploy('failed', { missing: /^katex.*\.js$/i });
    const good = deploy('good');
    const own = await launch(); // a fresh profile: no worker or cache from the test above
    try {
      const { first, afterMiddle, afterLast, final } = await threeDeploys(own, failed, 'redundant', good);
      assert.deepEqual(afterMiddle, [first], 'the failed install left no cache');
      assert.equal(afterLast.length, 2, afterLast.join(', '));
      assert.equal(afterLast[0], first, "the old tab's cache is kept while it is open");
      assert.match(afterLast[1], /good$/);
      assert.match(final[0], /good$/);
    } finally {
      await own.close();
    }
  });

  test('two good deploys under an old tab: its cache is kept while it is open, then let go', { timeout: TEST_TIMEOUT_MS }, async () => {
    const second = deploy('second');
    const third = deploy('third');
    const own = await launch();
    try {
      const { first, afterMiddle, afterLast, final } = await threeDeploys(own, second, 'installed', third);
      assert.equal(afterMiddle.length, 2, 'the waiting deploy has its cache beside the first');
      assert.equal(afterLast[0], first, "the old tab's cache is kept while it is open");
      assert.match(afterLast.at(-1), /third$/);
      assert.match(final[0], /third$/);
    } finally {
      await own.close();
    }
  });
});
