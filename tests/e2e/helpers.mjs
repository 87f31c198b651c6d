// Shared helpers for the e2e tests: launch the system Chromium (never a
// downloaded browser) with a fresh profile, open the page, collect console
// errors and off-origin requests, measure screenshots.
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';

export const BASE = process.env.VILAB_URL ?? 'http://127.0.0.1:4173/';
export const CHROMIUM = process.env.VILAB_CHROMIUM ?? '/usr/bin/chromium';
export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Chromium 156's headless mode loads its address bar's popup (a WebUI page, chrome://
  // omnibox-popup.top-chrome/) in a renderer of its own at every launch: ≈ 2 s more CPU on
  // the 2 cores a first load shares. bench/page.mjs's cold load to the first frame,
  // median of 9: 1449 ms with it, 878 ms without. Unknown feature names are ignored.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
];

/** A browser with a fresh user-data dir; close() removes it. */
export async function launch() {
  const dir = mkdtempSync(join(tmpdir(), 'vilab-e2e-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  return {
    context,
    async newContext(options = {}) {
      // persistent contexts cannot create more; tests that need isolation launch again
      return context;
    },
    async close() {
      await context.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One browser for a test file: launched before its tests, closed after them. */
export function useBrowser() {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });
  return {
    get context() {
      return browser.context;
    },
  };
}

/** Opens a page that records console errors, page errors and third-party requests. */
export async function openPage(context, path = '', { viewport, waitReady = true, reducedMotion } = {}) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  if (reducedMotion) await page.emulateMedia({ reducedMotion });
  const errors = [];
  const foreign = [];
  const origin = new URL(BASE).origin;
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('request', (req) => {
    const u = req.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) foreign.push(u);
  });
  await page.goto(new URL(path, BASE).toString());
  if (waitReady)
    await page
      .waitForFunction(() => window.vilabPage && window.vilabPage.ready, null, { timeout: 15000 })
      .then(() => page.evaluate(() => window.vilabPage.ready));
  return { page, errors, foreign };
}

/** A page on a preset of the full module (mechanisms, fields, …), paused: openPage's { page, errors, foreign }. */
export async function openPresetPaused(context, id) {
  const opened = await openPage(context, '?nosw=1', { reducedMotion: 'reduce' });
  await opened.page.selectOption('#preset', id);
  await opened.page.evaluate(() => window.vilabPage.loadFull());
  await opened.page.evaluate(() => window.vilabPage.pause());
  return opened;
}

/** Decodes a PNG (8-bit RGB/RGBA, non-interlaced) into { width, height, channels, pixels }. */
export function decodePNG(buf) {
  let pos = 8;
  let width = 0;
  let height = 0;
  let colorType = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      colorType = data[9];
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : colorType === 0 ? 1 : 4;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels] : 0;
      const b = prev[x];
      const c = x >= channels ? prev[x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[x] = v & 255;
    }
    prev = out;
  }
  return { width, height, channels, pixels };
}

/** Luminance variance of a PNG screenshot (0 for a blank image). */
export function pixelStats(png) {
  const { width, height, channels, pixels } = decodePNG(png);
  let sum = 0;
  let sum2 = 0;
  const n = width * height;
  const colors = new Set();
  for (let i = 0; i < n; i++) {
    const r = pixels[i * channels];
    const g = pixels[i * channels + 1] ?? r;
    const b = pixels[i * channels + 2] ?? r;
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += y;
    sum2 += y * y;
    if (i % 7 === 0) colors.add((r >> 3) * 1024 + (g >> 3) * 32 + (b >> 3));
  }
  const mean = sum / n;
  return { mean, variance: sum2 / n - mean * mean, colors: colors.size, width, height };
}

/** A's pixels: blue-dominant (A is Okabe–Ito blue, B orange, the furniture and rods grey). */
export function bluePixels(png) {
  const { width, height, channels, pixels } = decodePNG(png);
  let n = 0;
  for (let i = 0; i < width * height; i++) {
    const r = pixels[i * channels];
    const g = pixels[i * channels + 1];
    const b = pixels[i * channels + 2];
    if (b - r >= 60 && b >= g) n++;
  }
  return n;
}

/** Count of pixels near an RGB colour (tolerance per channel). */
export function countColor(png, [r0, g0, b0], tol = 40) {
  const { width, height, channels, pixels } = decodePNG(png);
  let count = 0;
  for (let i = 0; i < width * height; i++) {
    const r = pixels[i * channels];
    const g = pixels[i * channels + 1];
    const b = pixels[i * channels + 2];
    if (Math.abs(r - r0) <= tol && Math.abs(g - g0) <= tol && Math.abs(b - b0) <= tol) count++;
  }
  return count;
}

/** Fraction of pixels that differ between two same-size screenshots. */
export function diffFraction(a, b) {
  const A = decodePNG(a);
  const B = decodePNG(b);
  if (A.width !== B.width || A.height !== B.height) return 1;
  let diff = 0;
  const n = A.width * A.height;
  for (let i = 0; i < n; i++) {
    let d = 0;
    for (let c = 0; c < 3; c++) d += Math.abs(A.pixels[i * A.channels + c] - B.pixels[i * B.channels + c]);
    if (d > 30) diff++;
  }
  return diff / n;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Loads axe-core into the page. Not with addScriptTag: the page's Content-Security-Policy
 * refuses inline scripts, as it should; evaluation through the DevTools protocol is not
 * page script and is not subject to it.
 */
export async function injectAxe(page) {
  const { createRequire } = await import('node:module');
  const { readFileSync } = await import('node:fs');
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(`${source}\n;void 0`);
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) throw new Error('axe-core did not load');
}

/**
 * Every control whose centre can be seen (inside the viewport and every clipping ancestor)
 * but where elementFromPoint finds something else on top: [] when nothing is covered.
 */
export function coveredControls(page) {
  return page.evaluate(() => {
    const found = [];
    let checked = 0;
    for (const c of document.querySelectorAll('button, select, input, textarea, summary, a[href], [tabindex="0"]')) {
      if (!c.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const r = c.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      let clipped = false;
      for (let n = c; n && n !== document.body; n = n.parentElement) {
        if (getComputedStyle(n).position === 'fixed') break; // the viewport clips it, nothing else
        const a = n.parentElement;
        if (!a) break;
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const ar = a.getBoundingClientRect();
        if (x < ar.left || x > ar.right || y < ar.top || y > ar.bottom) {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      checked++;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === c || c.contains(hit))) continue;
      const name = (e) =>
        e
          ? `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : ''}`
          : 'nothing';
      found.push(`${name(c)} "${(c.textContent || c.getAttribute('aria-label') || '').trim().slice(0, 24)}" under ${name(hit)}`);
    }
    return { found, checked };
  });
}
