// Page figures (not a test; run by hand against a `vite preview` of dist/):
//   VILAB_URL=http://127.0.0.1:4173/ node tests/e2e/measure.mjs
// Prints: first-load transfer of JS + wasm + CSS (gzip and brotli of the built
// files the page loads before its first frame), load → first simulated frame in
// headless Chromium (fresh profile, no service worker), and main-thread ms per
// animation frame with plots live (window.vilabPage.frameStats()).
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { launch, sleep } from './helpers.mjs';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const url = process.env.VILAB_URL ?? 'http://127.0.0.1:4173/';

const b = await launch();
const page = await b.context.newPage();
const loaded = new Set();
page.on('request', (r) => loaded.add(new URL(r.url()).pathname.split('/').pop()));
await page.goto(`${url}?nosw=1`);
await page.waitForFunction(() => window.vilabPage?.firstFrameAt?.() != null, null, { timeout: 30000 });
const firstFrame = await page.evaluate(() => window.vilabPage.firstFrameAt());
await page.close();

const sizes = { gzip: 0, brotli: 0, files: [] };
for (const f of [...readdirSync(`${dist}assets`).map((f) => `assets/${f}`), 'index.html']) {
  const name = f.split('/').pop();
  if (!loaded.has(name) && name !== 'index.html') continue;
  if (!/\.(js|css|wasm|html)$/.test(name)) continue;
  const buf = readFileSync(dist + f);
  const gz = gzipSync(buf, { level: 9 }).length;
  const br = brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  sizes.gzip += gz;
  sizes.brotli += br;
  sizes.files.push(`${name} ${(buf.length / 1024).toFixed(0)} KB → gzip ${(gz / 1024).toFixed(1)} KB, br ${(br / 1024).toFixed(1)} KB`);
}

const frames = {};
for (const [name, hash] of [['default (DSP, midpoint)', ''], ['compare (midpoint vs RK4)', '#compare=rk4'], ['chain 8 links vs RK4', '#system=chain&compare=rk4'], ['rigid body vs RK4 + inset', '#system=rigid-body&compare=rk4']]) {
  const p = await b.context.newPage();
  await p.goto(`${url}?nosw=1${hash}`);
  await p.waitForFunction(() => window.vilabPage?.frameStats, null, { timeout: 30000 });
  await sleep(6000);
  const s = await p.evaluate(() => window.vilabPage.frameStats());
  frames[name] = `mean ${s.mean.toFixed(2)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms over ${s.n} frames`;
  await p.close();
}
await b.close();

console.log('first-load files:\n  ' + sizes.files.join('\n  '));
console.log(`first-load total: gzip ${(sizes.gzip / 1024).toFixed(1)} KB, brotli ${(sizes.brotli / 1024).toFixed(1)} KB`);
console.log(`load → first simulated frame: ${firstFrame.toFixed(0)} ms`);
for (const [k, v] of Object.entries(frames)) console.log(`main thread per frame, ${k}: ${v}`);
