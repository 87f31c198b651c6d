// The deployed site as `npm run build:site` writes it (what .github/workflows/pages.yml
// uploads), served under a sub-path (/vilab/) with its precompressed copies: the page loads
// and runs from the .br files, Help offers the licences and the offline copy, and the
// downloaded vilab.html opens from file:// with the network off and replays a share link
// (its hidden # part) to the same fingerprint, its own links pointing at the hosted page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { servePrecompressed, CONTENT_TYPES } from '../../scripts/precompress.mjs';
import { useBrowser, sleep } from './helpers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BASE_PATH = '/vilab/';
const work = mkdtempSync(join(tmpdir(), 'vilab-site-'));
const out = join(work, 'site');
const browser = useBrowser();
let server;
let site; // http://127.0.0.1:<port>/vilab/

/** Files as they are (no precompressed copy, or a client that takes none). */
function plainFiles(req, res) {
  const path = decodeURIComponent(new URL(req.url, 'http://host').pathname);
  const file = resolve(out, (path.startsWith(BASE_PATH) ? path.slice(BASE_PATH.length) : '\0') || 'index.html');
  if (!file.startsWith(out + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.statusCode = 404;
    return res.end();
  }
  res.setHeader('Content-Type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
  createReadStream(file).pipe(res);
}

before(async () => {
  const precompressed = servePrecompressed(out, { base: BASE_PATH });
  server = createServer((req, res) => precompressed(req, res, () => plainFiles(req, res)));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${server.address().port}${BASE_PATH}`;
  const build = spawnSync('npm', ['run', 'build:site'], {
    cwd: root,
    env: { ...process.env, VILAB_SITE_OUT: out, VILAB_SITE_URL: site },
    encoding: 'utf8',
  });
  assert.equal(build.status, 0, `npm run build:site failed:\n${build.stdout}\n${build.stderr}`);
});

after(() => {
  server?.close();
  rmSync(work, { recursive: true, force: true });
});

function* walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) yield* walk(join(dir, e.name));
    else yield join(dir, e.name);
  }
}

test('build:site writes the page, vilab.html and LICENSES.txt, and a .br and .gz of each asset with the same bytes', () => {
  for (const f of ['index.html', 'vilab.html', 'LICENSES.txt', 'sw.js']) assert.ok(existsSync(join(out, f)), f);
  const assets = [...walk(out)].filter((f) => extname(f) in CONTENT_TYPES);
  assert.ok(assets.length >= 20, `${assets.length} compressible files`);
  assert.ok(
    assets.some((f) => f.endsWith('.wasm')),
    'the wasm is among them',
  );
  let raw = 0;
  let br = 0;
  for (const f of assets) {
    const bytes = readFileSync(f);
    assert.ok(brotliDecompressSync(readFileSync(`${f}.br`)).equals(bytes), `${f}.br`);
    assert.ok(gunzipSync(readFileSync(`${f}.gz`)).equals(bytes), `${f}.gz`);
    raw += bytes.length;
    br += statSync(`${f}.br`).size;
  }
  // text and wasm shrink well; a copy that did not compress would fail this
  assert.ok(br < 0.45 * raw, `brotli ${br} of ${raw} bytes`);
  for (const f of walk(out)) if (f.endsWith('.woff2')) assert.ok(!existsSync(`${f}.br`), 'woff2 is compressed already');
  // the service worker precaches the site, not the 5 MB offline copy nor the compressed twins
  const sw = readFileSync(join(out, 'sw.js'), 'utf8');
  assert.doesNotMatch(sw, /vilab\.html|\.br"|\.gz"/);
});

async function openSite(hash = '') {
  const page = await browser.context.newPage();
  const errors = [];
  const responses = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('response', (r) => responses.push({ url: r.url(), status: r.status(), encoding: r.headers()['content-encoding'] }));
  await page.goto(`${site}?nosw=1${hash}`);
  await page.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 30000 });
  await page.evaluate(() => window.vilabPage.ready);
  return { page, errors, responses };
}

test('served under /vilab/ it loads from the .br copies and runs; nothing is asked outside the sub-path', async () => {
  const { page, errors, responses } = await openSite('#system=double-spherical-pendulum&integrator=midpoint&h=0.01');
  const s0 = await page.evaluate(() => window.vilabPage.sim().step);
  await sleep(600);
  const s1 = await page.evaluate(() => window.vilabPage.sim().step);
  assert.ok(s1 > s0, `it runs (${s0} → ${s1})`);
  const wasm = responses.filter((r) => r.url.endsWith('.wasm'));
  assert.ok(wasm.length >= 1, 'the wasm was fetched');
  for (const r of responses) {
    assert.ok(r.url.startsWith(site), `inside the sub-path: ${r.url}`);
    assert.ok(r.status < 400, `${r.status} ${r.url}`);
  }
  const compressed = responses.filter((r) => /\.(js|wasm|css|html)$|\/(\?.*)?$/.test(r.url.split('#')[0]));
  assert.ok(compressed.length >= 3);
  for (const r of compressed) assert.equal(r.encoding, 'br', r.url);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Help links the licences, and its offline copy downloads a file that replays a share link from file:// with the network off', async () => {
  const { page, errors } = await openSite('#system=double-spherical-pendulum&integrator=rk4&h=0.01');
  await page.evaluate(() => window.vilabPage.pause());
  await page.evaluate(() => window.vilabPage.step(300));
  const step = await page.evaluate(() => window.vilabPage.sim().step);
  const fingerprint = await page.evaluate(() => window.vilabPage.fingerprint());
  const link = await page.evaluate(() => window.vilabPage.shareURL());
  const hash = link.slice(link.indexOf('#'));
  assert.match(hash, new RegExp(`at=${step}`));

  await page.click('#help-button');
  const licences = page.locator('#licences-link');
  assert.ok(await licences.isVisible());
  const text = await (await page.request.get(new URL(await licences.getAttribute('href'), page.url()).toString())).text();
  assert.match(text, /Mozilla Public License/);
  const download = page.locator('#download-offline');
  await download.waitFor({ state: 'visible', timeout: 10000 });
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  assert.equal(file.suggestedFilename(), 'vilab.html');
  const saved = join(work, 'downloaded', 'vilab.html');
  await file.saveAs(saved);
  assert.ok(statSync(saved).size > 1e6, 'the whole lab in one file');
  assert.deepEqual(errors, []);
  await page.close();

  const fileURL = pathToFileURL(saved).toString();
  await browser.context.setOffline(true);
  try {
    const offline = await browser.context.newPage();
    const requests = [];
    const offlineErrors = [];
    offline.on('pageerror', (e) => offlineErrors.push(String(e)));
    offline.on('request', (r) => !/^(data|blob|file):/.test(r.url()) && requests.push(r.url()));
    await offline.goto(fileURL + hash);
    await offline.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 30000 });
    await offline.evaluate(() => window.vilabPage.ready);
    await offline.waitForFunction(() => !document.querySelector('#fp-check')?.hidden, null, { timeout: 30000 });
    assert.match(await offline.locator('#fp-check').textContent(), /✓/);
    assert.equal(await offline.evaluate(() => window.vilabPage.fingerprint()), fingerprint);
    assert.equal(await offline.evaluate(() => window.vilabPage.sim().step), step);
    // built with the site's address: its links open on the hosted page
    assert.ok((await offline.evaluate(() => window.vilabPage.shareURL())).startsWith(site));
    // the offline copy offers no download of itself, and carries its licences inside
    await offline.click('#help-button');
    assert.equal(await offline.locator('#download-offline').isVisible(), false);
    await offline.click('#licences-link');
    assert.match(await offline.locator('#licences-text').textContent(), /Eigen 3\.4\.0[\s\S]*sources\.debian\.org/);
    assert.deepEqual(requests, []);
    assert.deepEqual(offlineErrors, []);
    await offline.close();
  } finally {
    await browser.context.setOffline(false);
  }
});
