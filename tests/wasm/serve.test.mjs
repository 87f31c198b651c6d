// Serving the precompressed copies (scripts/precompress.mjs): the middleware alone, the page's
// own server (scripts/serve.mjs, npm start) and the preview (`vite preview` with the plugin of
// web/vite.config.js) answer Accept-Encoding: br with the .br bytes, gzip with the .gz bytes and
// anything else with the file itself, with Content-Encoding, Content-Type, Content-Length and
// Vary right; HEAD and byte ranges keep working; a copy older than its file is never sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress, servePrecompressed } from '../../scripts/precompress.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'vilab-serve-'));
const site = join(work, 'site');
const children = [];

// Compressible text and a wasm-like binary, large enough that compression matters.
const FILES = {
  'index.html': `<!doctype html><title>t</title>${'<p>variational integrators keep energy bounded</p>\n'.repeat(400)}`,
  'assets/app.js': `export const table = [${Array.from({ length: 3000 }, (_, i) => (i * 7919) % 1000).join(',')}];\n`,
  'assets/core.wasm': Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(60000, 'abcdefgh')]),
};

/** Makes a file a minute older than it is. */
function age(path) {
  const earlier = new Date(statSync(path).mtimeMs - 60000);
  utimesSync(path, earlier, earlier);
}

/** One request; resolves to { status, headers, body (raw bytes as sent) }. */
function get(url, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolvePromise({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(join(site, name, '..'), { recursive: true });
    writeFileSync(join(site, name), text);
  }
  writeFileSync(join(site, 'assets/font.woff2'), Buffer.alloc(2000, 7)); // compressed already: no copies
});

after(() => {
  for (const child of children) child.kill();
  rmSync(work, { recursive: true, force: true });
});

/** The checks every server of the site must pass; path: the address of the site's root. */
async function checkServer(base) {
  const original = (name) => Buffer.from(FILES[name]);
  for (const [name, path] of [
    ['index.html', ''],
    ['index.html', 'index.html'],
    ['assets/app.js', 'assets/app.js'],
    ['assets/core.wasm', 'assets/core.wasm'],
  ]) {
    const url = new URL(path, base);
    const br = await get(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    assert.equal(br.status, 200, `${url}`);
    assert.equal(br.headers['content-encoding'], 'br', `${url} br`);
    assert.ok(br.body.equals(readFileSync(join(site, `${name}.br`))), `${url}: the .br bytes themselves`);
    assert.ok(brotliDecompressSync(br.body).equals(original(name)));
    assert.equal(Number(br.headers['content-length']), br.body.length);
    assert.match(br.headers.vary ?? '', /accept-encoding/i);
    const type = { html: /^text\/html/, js: /^text\/javascript/, wasm: /^application\/wasm$/ }[name.split('.').pop()];
    assert.match(br.headers['content-type'], type, `${url}: the original's type (wasm streams only as application/wasm)`);
    assert.ok(br.body.length < original(name).length / 3, `${url}: ${br.body.length} of ${original(name).length} bytes`);

    const gz = await get(url, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip', `${url} gzip`);
    assert.ok(gz.body.equals(readFileSync(join(site, `${name}.gz`))), `${url}: the .gz bytes themselves`);
    assert.ok(gunzipSync(gz.body).equals(original(name)));
    assert.match(gz.headers.vary ?? '', /accept-encoding/i);

    // br refused by q=0: gzip; nothing accepted: the file itself
    const notBr = await get(url, { headers: { 'accept-encoding': 'br;q=0, gzip;q=0.8' } });
    assert.equal(notBr.headers['content-encoding'], 'gzip');
    for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
      const plain = await get(url, { headers });
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['content-encoding'] ?? 'identity', 'identity', `${url} ${JSON.stringify(headers)}`);
      assert.ok(plain.body.equals(original(name)), `${url}: the file itself`);
      assert.match(plain.headers['content-type'], type);
    }

    // HEAD: the headers of the GET, no body
    const head = await get(url, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], 'br');
    assert.equal(Number(head.headers['content-length']), readFileSync(join(site, `${name}.br`)).length);
    assert.equal(head.body.length, 0);
  }
  // a byte range is of the file itself, whatever the client accepts
  const range = await get(new URL('assets/core.wasm', base), { headers: { 'accept-encoding': 'br, gzip', range: 'bytes=0-7' } });
  assert.equal(range.status, 206);
  assert.equal(range.headers['content-encoding'] ?? 'identity', 'identity');
  assert.ok(range.body.equals(original('assets/core.wasm').subarray(0, 8)), 'the first 8 bytes of the wasm');
  // a file without copies (woff2) is served as it is, without Vary
  const font = await get(new URL('assets/font.woff2', base), { headers: { 'accept-encoding': 'br' } });
  assert.equal(font.status, 200);
  assert.equal(font.headers['content-encoding'] ?? 'identity', 'identity');
  assert.equal(font.body.length, 2000);
  // a missing file's stray copy is never sent (the preview answers its page instead, a plain server 404)
  const missing = await get(new URL('assets/gone.js', base), { headers: { 'accept-encoding': 'br' } });
  assert.ok(missing.status === 404 || /^text\/html/.test(missing.headers['content-type']), `${missing.status}`);
  assert.notEqual(missing.body.toString(), 'stray');
}

test('precompress writes a .br and a .gz of each compressible file, keeps fresh copies and redoes stale ones', async () => {
  assert.equal(await precompress(site), 3, 'index.html, app.js, core.wasm (not the woff2)');
  assert.ok(!existsSync(join(site, 'assets/font.woff2.br')));
  assert.equal(await precompress(site), 0, 'fresh copies are kept');
  age(join(site, 'assets/app.js.br')); // its file rebuilt after its copies
  assert.equal(await precompress(site), 1, 'the stale file compressed again');
  writeFileSync(join(site, 'assets/gone.js.br'), 'stray');
});

test('the middleware: br, gzip, identity, HEAD, ranges; a stale copy is never sent; nothing outside the folder', async () => {
  const handler = servePrecompressed(site);
  // the fallback, as a plain static server: the file itself, with byte ranges
  const server = createServer((req, res) =>
    handler(req, res, () => {
      const path = new URL(req.url, 'http://host').pathname.slice(1) || 'index.html';
      const file = join(site, path);
      if (!path.split('/').every((p) => p && p !== '..') || !existsSync(file) || !statSync(file).isFile()) {
        res.statusCode = 404;
        return res.end();
      }
      const bytes = readFileSync(file);
      const type = { html: 'text/html', js: 'text/javascript', wasm: 'application/wasm', woff2: 'font/woff2' };
      res.setHeader('Content-Type', type[file.split('.').pop()]);
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (m) res.statusCode = 206;
      res.end(req.method === 'HEAD' ? undefined : m ? bytes.subarray(Number(m[1]), Number(m[2]) + 1) : bytes);
    }),
  );
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}/`;
  try {
    await checkServer(base);
    // negative control: a copy older than its file is left alone
    age(join(site, 'assets/app.js.br'));
    age(join(site, 'assets/app.js.gz'));
    const stale = await get(new URL('assets/app.js', base), { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(stale.headers['content-encoding'] ?? 'identity', 'identity', 'a stale copy is not sent');
    assert.ok(stale.body.equals(Buffer.from(FILES['assets/app.js'])));
    assert.equal(await precompress(site), 1);
    // both refused by q=0: the file itself (the preview's own on-the-fly gzip ignores q=0)
    const refused = await get(new URL('assets/app.js', base), { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    assert.equal(refused.headers['content-encoding'] ?? 'identity', 'identity');
    // nothing above the folder, however the path is spelled
    for (const path of ['/../serve.test.mjs', '/%2e%2e/site/index.html', '/%E0%A4%A']) {
      const r = await get(`${base.slice(0, -1)}${path}`, { headers: { 'accept-encoding': 'br' } });
      assert.notEqual(r.headers['content-encoding'], 'br', path);
    }
  } finally {
    server.close();
  }
});

test('the preview (vite preview with web/vite.config.js) serves the copies', async () => {
  const { preview } = await import('vite');
  const server = await preview({
    configFile: join(root, 'web/vite.config.js'),
    build: { outDir: site },
    preview: { port: 0, host: '127.0.0.1' },
    logLevel: 'silent',
  });
  try {
    await checkServer(server.resolvedUrls.local[0]);
  } finally {
    await server.close();
  }
});

test('npm start (scripts/serve.mjs) writes the missing copies, then serves them', async () => {
  const copy = join(work, 'fresh-site');
  mkdirSync(join(copy, 'assets'), { recursive: true });
  for (const name of [...Object.keys(FILES), 'assets/font.woff2']) writeFileSync(join(copy, name), readFileSync(join(site, name)));
  const child = spawn(process.execPath, [join(root, 'scripts/serve.mjs'), copy], { env: { ...process.env, PORT: '0' } });
  children.push(child);
  let out = '';
  const url = await new Promise((resolveUrl, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /running at (\S+)/.exec(out);
      if (m) resolveUrl(m[1]);
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`serve.mjs exited ${code}: ${out}`)));
  });
  assert.match(out, /compressed 3 files/);
  for (const name of Object.keys(FILES)) assert.ok(existsSync(join(copy, `${name}.br`)) && existsSync(join(copy, `${name}.gz`)), name);
  // the served copies are those of this folder: check them against its own files
  const br = await get(new URL('assets/app.js', url), { headers: { 'accept-encoding': 'br' } });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.ok(br.body.equals(readFileSync(join(copy, 'assets/app.js.br'))));
  const range = await get(new URL('assets/core.wasm', url), { headers: { 'accept-encoding': 'br', range: 'bytes=0-7' } });
  assert.equal(range.status, 206);
  assert.ok(range.body.equals(Buffer.from(FILES['assets/core.wasm']).subarray(0, 8)));
  const head = await get(new URL('', url), { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(head.headers['content-encoding'], 'gzip');
  assert.equal(head.body.length, 0);
  child.kill();
});
