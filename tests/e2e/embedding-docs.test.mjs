// docs/embedding.md's examples run as written: each ```html block is served as a course
// page on its own origin (the docs' https://course.example), its iframe pointing at the
// page under test (the docs' https://lab.example/vilab/), and does what the text says.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { useBrowser, BASE } from './helpers.mjs';

const browser = useBrowser();
const DOC = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
const CLIENT = readFileSync(new URL('../../web/sim/embed-client.js', import.meta.url));
const BLOCKS = [...DOC.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]);
let host;

/** A block with the docs' addresses replaced by the test's. */
function served(block) {
  return block
    .replaceAll('https://lab.example/vilab/', BASE)
    .replaceAll('https://lab.example', new URL(BASE).origin)
    .replaceAll('https://course.example', host.origin);
}

before(async () => {
  await new Promise((resolve) => {
    const server = createServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname.endsWith('/embed-client.js')) {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return res.end(CLIENT);
      }
      const block = BLOCKS[Number(url.searchParams.get('block'))];
      res.writeHead(block ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(block ? `<!doctype html><meta charset="utf-8"><title>course page</title>\n${served(block)}` : 'no such block');
    });
    server.listen(0, '127.0.0.1', () => {
      host = { server, origin: `http://127.0.0.1:${server.address().port}` };
      resolve();
    });
  });
});
after(() => host?.server.close());

/** The course page of block i, its vilab frame up; errors (console and page) collected. */
async function openBlock(i) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${host.origin}/?block=${i}`);
  await page.waitForFunction((base) => [...document.querySelectorAll('iframe')].some((f) => f.src.startsWith(base)), BASE);
  let frame;
  for (let k = 0; k < 200 && !frame; k++) {
    frame = page.frames().find((f) => f.url().startsWith(BASE));
    if (!frame) await page.waitForTimeout(50);
  }
  await frame.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 20000 });
  await frame.evaluate(() => window.vilabPage.ready);
  return { page, frame, errors };
}

const blockWith = (text) => {
  const i = BLOCKS.findIndex((b) => b.includes(text));
  assert.ok(i >= 0, `docs/embedding.md has an html example with ${text}`);
  return i;
};

test('the docs have their three html examples and no field the protocol lacks', () => {
  assert.equal(BLOCKS.length, 3, 'the embed code, a host page, the client helper');
  assert.doesNotMatch(DOC, /energyDrift/);
});

test('the embed code: the iframe opens paused on the step its link names', async () => {
  const { page, frame, errors } = await openBlock(blockWith('at=500'));
  await frame.waitForFunction(() => window.vilabPage.sim()?.step === 500, null, { timeout: 20000 });
  assert.equal(await frame.evaluate(() => window.vilabPage.playing()), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a host page: each click steps 10, the reply with its id asks for the state, the output shows it', async () => {
  const { page, frame, errors } = await openBlock(blockWith('steps: 10, id: ++next'));
  await page.click('#step');
  await page.waitForFunction(() => /^step 10,/.test(document.getElementById('out').textContent), null, { timeout: 10000 });
  await page.click('#step');
  await page.waitForFunction(() => /^step 20,/.test(document.getElementById('out').textContent), null, { timeout: 10000 });
  const text = await page.textContent('#out');
  const m = /^step 20, t = 0\.20 s, energy error (-?\d\.\de[-+]\d+)$/.exec(text);
  assert.ok(m, text);
  // the number shown is the run's: (E − E₀)/|E₀| of the frame's own simulation
  const error = await frame.evaluate(() => {
    const sim = window.vilabPage.sim();
    const fresh = window.vilabPage.lab.simulate(sim.scenario());
    const E0 = fresh.diagnostics().energy;
    fresh.dispose();
    return (sim.diagnostics().energy - E0) / Math.abs(E0);
  });
  assert.equal(m[1], error.toExponential(1));
  assert.equal(await frame.evaluate(() => window.vilabPage.sim().step), 20);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the client helper: 1000 steps, the energy error and the share link shown; the log lists what the student does', async () => {
  const { page, frame, errors } = await openBlock(blockWith("from 'vilab/embed-client'"));
  await page.waitForFunction(() => document.getElementById('run').onclick, null, { timeout: 10000 });
  await page.click('#run');
  await page.waitForFunction(() => /^step 1000/.test(document.getElementById('result').textContent), null, { timeout: 20000 });
  const text = await page.textContent('#result');
  const m = /^step 1000: \|ΔE\/E₀\| = (\d\.\d\de-\d+), link (\S+)$/.exec(text);
  assert.ok(m, text);
  const error = await frame.evaluate(() => {
    const sim = window.vilabPage.sim();
    const fresh = window.vilabPage.lab.simulate(sim.scenario());
    const E0 = fresh.diagnostics().energy;
    fresh.dispose();
    return Math.abs((sim.diagnostics().energy - E0) / E0);
  });
  assert.equal(m[1], error.toExponential(2), "the number shown is the run's");
  const link = new URL(m[2]);
  assert.equal(link.origin, new URL(BASE).origin);
  assert.match(link.hash, /at=1000/);
  // what the student does in the iframe is listed
  await frame.click('#play');
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => /^play .*\(reader\)$/.test(li.textContent)));
  await frame.click('#play');
  await frame.click('#reset');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('#log li')].some((li) => /^reset .*at step 0 \(reader\)$/.test(li.textContent)),
  );
  const log = await page.locator('#log li').allTextContents();
  // the host's own 1000 steps changed nothing the student chose: only the student's three actions
  assert.deepEqual(
    log.map((l) => l.split(' ')[0]),
    ['play', 'pause', 'reset'],
    log.join(' | '),
  );
  assert.deepEqual(errors, []);
  await page.close();
});
