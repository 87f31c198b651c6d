#!/usr/bin/env node
// npm run screenshot: docs/screenshot.png, the README's picture of the page, taken from the
// built site (dist/, npm run build) with the system Chromium through playwright-core: the
// double spherical pendulum, the midpoint rule against RK4, opened paused on a step by its
// link. Kept under 200 KB (a PNG of a smaller viewport is tried when one is larger).
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUT = fileURLToPath(new URL('../docs/screenshot.png', import.meta.url));
const LINK = '?nosw=1&lang=en#system=double-spherical-pendulum&integrator=midpoint&h=0.01&compare=rk4&speed=10&at=4000';
const LIMIT = 200 * 1024;
const SIZES = [
  { width: 1280, height: 760 },
  { width: 1200, height: 720 },
  { width: 1100, height: 660 },
  { width: 1000, height: 600 },
];

const server = await preview({
  configFile: fileURLToPath(new URL('../web/vite.config.js', import.meta.url)),
  preview: { port: Number(process.env.PORT ?? 0), host: '127.0.0.1' },
  logLevel: 'warn',
});
const browser = await chromium.launch({
  executablePath: process.env.VILAB_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
});
try {
  for (const viewport of SIZES) {
    const page = await browser.newPage({ viewport, colorScheme: 'light', reducedMotion: 'reduce' });
    await page.goto(new URL(LINK, server.resolvedUrls.local[0]).toString());
    await page.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 60000 });
    await page.evaluate(() => window.vilabPage.ready);
    await page.waitForFunction(() => window.vilabPage.sim()?.step >= 4000, null, { timeout: 60000 });
    await page.evaluate(() => window.vilabPage.drawPlots());
    await page.waitForTimeout(500);
    await page.screenshot({ path: OUT });
    await page.close();
    const size = statSync(OUT).size;
    console.log(`screenshot: ${OUT} ${viewport.width}×${viewport.height}, ${(size / 1024).toFixed(0)} KB`);
    if (size < LIMIT) break;
  }
} finally {
  await browser.close();
  await server.close();
}
if (statSync(OUT).size >= LIMIT) {
  console.error('screenshot: still 200 KB or more');
  process.exit(1);
}
