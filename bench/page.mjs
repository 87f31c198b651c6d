// The page figures, measured on the built app (dist/) in headless Chromium
// (/usr/bin/chromium via playwright-core; never a downloaded browser). Run by
// `npm run bench` after the step benchmarks, or alone: `node bench/page.mjs`
// (after `bash scripts/build.sh`). Options: VILAB_BENCH_LOADS (cold loads, 9),
// VILAB_BENCH_SECONDS (seconds per frame-time scenario, 8), VILAB_URL (an already
// running server instead of a vite preview of dist/).
//
//   1. first-load transfer: every file the page fetches from navigation to its first
//      simulated frame (index.html, JS, CSS, the lean wasm), Brotli q11 and gzip -9 of
//      the built file as a host with the precompressed copies sends them (goal ≤ 300 KB
//      Brotli, ≤ 380 KB gzip; tests/e2e/first-load.test.mjs holds a tighter budget, 280 and 340.5); what is
//      fetched without interaction right after the first frame (uPlot, OrbitControls, …)
//      is listed apart; KaTeX and the drawers load only when opened.
//   2. load → first simulated frame: window.vilabPage.firstFrameAt() (ms from
//      navigation start), each load in a fresh browser profile (no HTTP cache, no
//      compiled-wasm cache): the median and range of several cold loads (goal: median
//      ≤ 800 ms), with the machine's load average before and after them.
//   3. main-thread time per frame with plots live: window.vilabPage.frameStats(), the
//      frame callback (simulation, history reads, plot ingest, three.js updates and
//      renderer.render, uPlot redraws, readout), median and p95, split into phases.
//      A Chrome trace then separates what is not ours: headless Chromium draws WebGL
//      with SwiftShader (a CPU rasterizer) and composites in software, so after every
//      frame the main thread waits in Commit → glReadPixels for the GPU process to
//      rasterize the scene. That wait and the GPU process time are reported apart;
//      with a real GPU there is no readback. The callback's thread (CPU) time from the
//      trace shows how much of its wall-clock tail is the thread being descheduled.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { launch, sleep } from '../tests/e2e/helpers.mjs';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const GOALS = { brotliKB: 300, gzipKB: 380, firstFrameMs: 800, frameMs: 4 };
const brotliSize = (buf) => brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const LOADS = Number(process.env.VILAB_BENCH_LOADS ?? 9);
const SECONDS = Number(process.env.VILAB_BENCH_SECONDS ?? 8);
const SCENARIOS = [
  ['DSP, midpoint (default page)', ''],
  ['DSP, midpoint vs RK4', '#compare=rk4'],
  ['chain of 8, midpoint vs RK4', '#system=chain&compare=rk4'],
  ['rigid body (Dzhanibekov) vs RK4, inset + exact ghost', '#system=rigid-body&compare=rk4'],
];

const kb = (bytes) => (bytes / 1024).toFixed(1);
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const quantile = (a, q) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const mark = (ok) => (ok ? 'meets the goal' : 'OVER the goal');

async function startServer() {
  if (process.env.VILAB_URL) return { url: process.env.VILAB_URL, close: async () => {} };
  const { preview } = await import('vite');
  const server = await preview({
    configFile: fileURLToPath(new URL('../web/vite.config.js', import.meta.url)),
    preview: { port: 0, host: '127.0.0.1' },
    logLevel: 'warn',
  });
  return { url: server.resolvedUrls.local[0], close: () => server.close() };
}

/** A page in a fresh browser profile; resolves once the first simulated frame is drawn. */
async function openCold(url, hash = '') {
  const browser = await launch();
  const page = await browser.context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  try {
    await page.goto(`${url}?nosw=1${hash}`);
    await page.waitForFunction(() => window.vilabPage?.firstFrameAt?.() != null, null, { timeout: 60000 });
  } catch (e) {
    await browser.close(); // a failed load must not keep the run alive
    throw e;
  }
  return { browser, page, requests };
}

async function firstLoad(url) {
  const { browser, page, requests } = await openCold(url);
  await sleep(3000); // anything fetched right after the first frame counts too
  const info = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    const ext = gl?.getExtension('WEBGL_debug_renderer_info');
    return {
      renderer: gl ? String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER)) : 'no WebGL2',
      firstFrame: window.vilabPage.firstFrameAt(),
      timing: performance.getEntriesByType('resource').map((e) => ({ name: new URL(e.name).pathname, start: e.startTime })),
    };
  });
  // pages of the browser's own (its WebUI) load beside the page on the same cores: the
  // cold loads would measure them too (tests/e2e/helpers.mjs turns off the known one)
  const cdp = await browser.context.newCDPSession(page);
  const { targetInfos } = await cdp.send('Target.getTargets');
  const browserPages = targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => t.url);
  await browser.close();
  const files = new Map();
  for (const path of ['/index.html', ...requests]) {
    const name = path.split('/').pop() || 'index.html';
    const rel = name === 'index.html' ? 'index.html' : `assets/${name}`;
    let buf;
    try {
      if (!statSync(dist + rel).isFile()) continue;
      buf = readFileSync(dist + rel);
    } catch {
      continue; // not a built file (e.g. the service worker, skipped by ?nosw=1)
    }
    const kind = /\.wasm$/.test(name)
      ? 'wasm'
      : /\.m?js$/.test(name)
        ? 'JS'
        : /\.css$/.test(name)
          ? 'CSS'
          : /\.html$/.test(name)
            ? 'HTML'
            : 'other';
    const t = info.timing.find((e) => e.name.endsWith(name));
    files.set(name, {
      name,
      kind,
      raw: buf.length,
      gzip: gzipSync(buf, { level: 9 }).length,
      brotli: brotliSize(buf),
      beforeFirstFrame: kind === 'HTML' || (t != null && t.start <= info.firstFrame),
    });
  }
  const lazy = readdirSync(`${dist}assets`).filter((f) => /\.(m?js|css|wasm)$/.test(f) && !files.has(f));
  return { files: [...files.values()], renderer: info.renderer, lazy, browserPages };
}

async function coldLoads(url, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const { browser, page } = await openCold(url);
    times.push(await page.evaluate(() => window.vilabPage.firstFrameAt()));
    await browser.close();
  }
  return times;
}

/** Chrome trace of a few seconds: the frame callback, the compositor readback wait, the GPU process. */
async function traceFrames(page, seconds) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', 'gpu'] },
    transferMode: 'ReportEvents',
  });
  await sleep(seconds * 1000);
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  const threads = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const on = (name) => events.filter((e) => e.ph === 'X' && e.dur != null && threads.get(`${e.pid}:${e.tid}`) === name);
  const main = on('CrRendererMain');
  const rafEvents = main.filter((e) => e.name === 'FireAnimationFrame');
  const raf = rafEvents.map((e) => e.dur / 1000);
  // thread (CPU) time of the callback: without the time the thread was descheduled
  const rafCpu = rafEvents.filter((e) => e.tdur != null).map((e) => e.tdur / 1000);
  const readback = main.filter((e) => e.name === 'GLES2::ReadPixels').map((e) => e.dur / 1000);
  // busy time of the GPU process main thread (non-overlapping top-level tasks)
  let gpuBusy = 0;
  let end = -1;
  for (const e of on('CrGpuMain')
    .filter((x) => /toplevel/.test(x.cat))
    .sort((a, b) => a.ts - b.ts)) {
    const s = Math.max(e.ts, end);
    if (e.ts + e.dur > s) gpuBusy += e.ts + e.dur - s;
    end = Math.max(end, e.ts + e.dur);
  }
  const frames = Math.max(1, raf.length);
  return { frames, raf, rafCpu, readback, gpuPerFrame: gpuBusy / 1000 / frames, fps: raf.length / seconds };
}

async function frameTimes(url, hash, seconds) {
  const { browser, page } = await openCold(url, hash);
  await sleep(2000); // past start-up: shader compiles, wasm tier-up
  await page.evaluate(() => window.vilabPage.frameStats({ reset: true }));
  await sleep(seconds * 1000);
  const stats = await page.evaluate(() => window.vilabPage.frameStats());
  const trace = await traceFrames(page, Math.min(4, seconds));
  await browser.close();
  return { stats, trace };
}

export async function pageFigures() {
  const server = await startServer();
  try {
    console.log(`\npage figures: headless Chromium on ${server.url}, load average ${loadAverage()}`);
    const load = await firstLoad(server.url);
    console.log(`WebGL renderer: ${load.renderer}`);
    if (load.browserPages.length)
      console.log(`  the browser loads pages of its own beside the page, which the cold loads include: ${load.browserPages.join(', ')}`);
    const sum = (pred, key = 'gzip') => load.files.filter(pred).reduce((a, f) => a + f[key], 0);
    console.log('first-load files (Brotli q11 and gzip -9 of the built file):');
    for (const f of load.files.sort((a, b) => Number(b.beforeFirstFrame) - Number(a.beforeFirstFrame) || b.brotli - a.brotli)) {
      console.log(
        `  ${f.kind.padEnd(5)} ${f.name.padEnd(32)} ${kb(f.raw).padStart(7)} KB → br ${kb(f.brotli).padStart(6)}, gzip ${kb(f.gzip).padStart(6)} KB${f.beforeFirstFrame ? '' : '  (after the first frame)'}`,
      );
    }
    if (load.lazy.length) console.log(`  not fetched on first load (on demand): ${load.lazy.join(', ')}`);
    const fullWasm = load.lazy.find((f) => /^vilab-(?!lean)[^/]*\.wasm$/.test(f));
    if (fullWasm) {
      const bytes = readFileSync(`${dist}assets/${fullWasm}`);
      console.log(
        `  the full build, fetched when a scenario needs it: ${fullWasm} ${kb(bytes.length)} KB → gzip ${kb(gzipSync(bytes, { level: 9 }).length)} KB`,
      );
    }
    const first = (f) => f.beforeFirstFrame;
    const brotliFirst = sum(first, 'brotli');
    const gzipFirst = sum(first);
    const byKind = (key) => ['HTML', 'JS', 'wasm', 'CSS'].map((k) => `${k} ${kb(sum((f) => first(f) && f.kind === k, key))}`).join(' + ');
    const loadBefore = loadAverage();
    const loads = await coldLoads(server.url, LOADS);
    const loadAfter = loadAverage();
    const rows = [];
    for (const [name, hash] of SCENARIOS) rows.push([name, await frameTimes(server.url, hash, SECONDS)]);

    console.log('\nmain-thread time per frame with plots live (frameStats: the frame callback, ms; median / p95):');
    const f2 = (x) => x.toFixed(2);
    for (const [name, { stats: s, trace: t }] of rows) {
      const ph = Object.entries(s.phases)
        .map(([k, v]) => `${k} ${f2(v.median)}/${f2(v.p95)}`)
        .join(', ');
      console.log(`  ${name}: ${f2(s.median)} / ${f2(s.p95)} over ${s.n} frames (${ph})`);
      console.log(
        `      trace (${t.fps.toFixed(0)} fps): frame callback wall ${f2(median(t.raf))} / ${f2(quantile(t.raf, 0.95))}, CPU ${f2(median(t.rafCpu))} / ${f2(quantile(t.rafCpu, 0.95))}; ` +
          `not ours: compositor readback wait (SwiftShader) ${f2(median(t.readback))} / ${f2(quantile(t.readback, 0.95))} per frame on the main thread, GPU process ${f2(t.gpuPerFrame)} per frame`,
      );
    }
    const worstMedian = Math.max(...rows.map(([, r]) => r.stats.median));
    const worstP95 = Math.max(...rows.map(([, r]) => r.stats.p95));
    const worstCpuP95 = Math.max(...rows.map(([, r]) => quantile(r.trace.rafCpu, 0.95)));
    const ff = median(loads);
    console.log('\npage figures                                      measured                 goal');
    console.log(
      `  first load before the first frame, Brotli       ${kb(brotliFirst).padStart(6)} KB               ≤ ${GOALS.brotliKB} KB   ${mark(brotliFirst / 1024 <= GOALS.brotliKB)}`,
    );
    console.log(`      (${byKind('brotli')} KB)`);
    console.log(
      `  first load before the first frame, gzip         ${kb(gzipFirst).padStart(6)} KB               ≤ ${GOALS.gzipKB} KB   ${mark(gzipFirst / 1024 <= GOALS.gzipKB)}`,
    );
    console.log(`      (${byKind('gzip')} KB; then ${kb(sum((f) => !first(f)))} KB gzip within 3 s after it, without interaction)`);
    console.log(
      `  load → first simulated frame (median of ${loads.length})   ${ff.toFixed(0).padStart(6)} ms               ≤ ${GOALS.firstFrameMs} ms  ${mark(ff <= GOALS.firstFrameMs)}`,
    );
    console.log(
      `      (cold loads, fresh profile each: range ${Math.min(...loads).toFixed(0)}–${Math.max(...loads).toFixed(0)} ms; ${loads.map((x) => x.toFixed(0)).join(', ')} ms;`,
    );
    console.log(`      load average ${loadBefore} before them, ${loadAfter} after, on ${cpus().length} cores)`);
    console.log(
      `  main-thread ms per frame, plots live (median)   ${f2(worstMedian).padStart(6)} ms (worst scenario) ≤ ${GOALS.frameMs} ms    ${mark(worstMedian <= GOALS.frameMs)}`,
    );
    console.log(
      `      p95 ${f2(worstP95)} ms wall clock, ${f2(worstCpuP95)} ms CPU (thread time; worst scenarios). The wall-clock tail is`,
    );
    console.log(
      `      the main thread descheduled (≈ 4 ms scheduler slices) while SwiftShader's GPU process and other load share the cores.`,
    );
    console.log(`  KB = 1024 bytes.`);
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await pageFigures();
