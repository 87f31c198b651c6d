// The LMS package: npm run build:scorm writes a SCORM 1.2 zip whose manifest is well-formed
// (xmllint) with the structure an LMS reads (organization → item → SCO resource → launch
// file in the zip); bad options are refused by name with nothing written; the launch file
// opens offline from file:// on the chosen preset; and inside a course frame with a SCORM 1.2
// API it reports "incomplete", then "completed" only once the run reaches the stated time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { useBrowser } from './helpers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'vilab-scorm-'));
const browser = useBrowser();
const PRESET = 'oscillator-phase';

function buildScorm(...args) {
  return spawnSync('npm', ['run', '--silent', 'build:scorm', '--', ...args], { cwd: root, encoding: 'utf8' });
}

function unpack(zipFile, dir) {
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('unzip', ['-o', '-q', zipFile, '-d', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return dir;
}

const xpath = (file, expr) => spawnSync('xmllint', ['--xpath', expr, file], { encoding: 'utf8' }).stdout.trim();

before(() => {
  const preset = buildScorm('--preset', PRESET, '--out', join(work, 'preset.zip'));
  assert.equal(preset.status, 0, preset.stderr);
  const link = buildScorm(
    '--link',
    'https://vilab.example.org/#system=oscillator&integrator=midpoint&h=0.05',
    '--complete-at',
    '3',
    '--out',
    join(work, 'link.zip'),
  );
  assert.equal(link.status, 0, link.stderr);
  unpack(join(work, 'preset.zip'), join(work, 'preset'));
  unpack(join(work, 'link.zip'), join(work, 'link'));
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the zip holds a well-formed SCORM 1.2 manifest: organization, item, SCO resource, launch file present', () => {
  const manifest = join(work, 'preset', 'imsmanifest.xml');
  const lint = spawnSync('xmllint', ['--noout', manifest], { encoding: 'utf8' });
  assert.equal(lint.status, 0, lint.stderr);
  const ns = (expr) => expr.replace(/\/(\w+)/g, "/*[local-name()='$1']");
  assert.equal(xpath(manifest, `string(${ns('/manifest/metadata/schemaversion')})`), '1.2');
  assert.equal(xpath(manifest, `string(${ns('/manifest/metadata/schema')})`), 'ADL SCORM');
  const org = xpath(manifest, `string(${ns('/manifest/organizations')}/@default)`);
  assert.equal(
    xpath(manifest, `string(${ns('/manifest/organizations/organization')}/@identifier)`),
    org,
    'the default organization exists',
  );
  const ref = xpath(manifest, `string(${ns('/manifest/organizations/organization/item')}/@identifierref)`);
  assert.match(xpath(manifest, `string(${ns('/manifest/organizations/organization/item/title')})`), /Oscillator/);
  const resource = `${ns('/manifest/resources/resource')}[@identifier='${ref}']`;
  assert.equal(xpath(manifest, `string(${resource}/@*[local-name()='scormtype'])`), 'sco');
  const href = xpath(manifest, `string(${resource}/@href)`);
  assert.equal(href, 'vilab.html');
  assert.equal(xpath(manifest, `string(${resource}/*[local-name()='file']/@href)`), href);
  assert.ok(existsSync(join(work, 'preset', href)), 'the launch file is in the zip');
  // the namespaces SCORM 1.2 LMSs look for
  const text = readFileSync(manifest, 'utf8');
  assert.match(text, /xmlns="http:\/\/www\.imsproject\.org\/xsd\/imscp_rootv1p1p2"/);
  assert.match(text, /xmlns:adlcp="http:\/\/www\.adlnet\.org\/xsd\/adlcp_rootv1p2"/);
});

test('bad options are refused by name, and no zip is written', () => {
  const cases = [
    [['--preset', 'no-such-preset'], /--preset: no preset "no-such-preset"; the presets are .*dsp-energy/],
    [['--preset', PRESET, '--link', '#system=oscillator'], /--preset\/--link: give one, not both/],
    [[], /--preset\/--link: give a preset id or a link/],
    [['--link', 'https://vilab.example.org/'], /--link: must be a vilab link with its # part/],
    [['--preset', PRESET, '--complete-at', '0'], /--complete-at: must be a positive number of seconds, got "0"/],
    [['--preset', PRESET, '--complete-at', 'soon'], /--complete-at: must be a positive number/],
  ];
  for (const [args, message] of cases) {
    const out = join(work, 'refused.zip');
    const r = buildScorm(...args, '--out', out);
    assert.equal(r.status, 2, `${args.join(' ')}: exit ${r.status}`);
    assert.match(r.stderr, message);
    assert.ok(!existsSync(out), `${args.join(' ')} wrote nothing`);
  }
});

async function open(url) {
  const page = await browser.context.newPage();
  const errors = [];
  const requests = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('request', (r) => !/^(data|blob|file):/.test(r.url()) && requests.push(r.url()));
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url);
  return { page, errors, requests };
}

test('the launch file opens from file:// with the network off, on the chosen preset', async () => {
  const presetData = JSON.parse(readFileSync(join(root, 'scenes/presets.json'), 'utf8')).find((p) => p.id === PRESET);
  await browser.context.setOffline(true);
  try {
    const { page, errors, requests } = await open(pathToFileURL(join(work, 'preset', 'vilab.html')).toString());
    await page.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 30000 });
    await page.evaluate(() => window.vilabPage.ready);
    await page.waitForFunction((system) => window.vilabPage.state().scenario.system === system, presetData.scenario.system);
    const state = await page.evaluate(() => window.vilabPage.state());
    assert.equal(state.scenario.integrator, presetData.scenario.integrator);
    assert.equal(state.compare, presetData.compare ?? null);
    assert.equal(await page.locator('#preset').inputValue(), PRESET, 'the Preset menu names it');
    assert.deepEqual(await page.evaluate(() => window.__csp), [], 'the launch block breaks no policy');
    assert.deepEqual(requests, []);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await browser.context.setOffline(false);
  }
});

// A course page as an LMS serves it: the SCORM 1.2 API on the top window, the SCO in a frame
// one level down (the search walks up to it), all from one origin.
const COURSE = `<!doctype html><meta charset="utf-8"><title>course</title>
<script>
  window.calls = [];
  const data = { 'cmi.core.lesson_status': 'not attempted' };
  window.API = {
    LMSInitialize: (a) => (calls.push(['LMSInitialize', a]), 'true'),
    LMSGetValue: (k) => (calls.push(['LMSGetValue', k]), data[k] ?? ''),
    LMSSetValue: (k, v) => (calls.push(['LMSSetValue', k, v]), (data[k] = v), 'true'),
    LMSCommit: (a) => (calls.push(['LMSCommit', a]), 'true'),
    LMSFinish: (a) => (calls.push(['LMSFinish', a]), 'true'),
    LMSGetLastError: () => '0', LMSGetErrorString: () => '', LMSGetDiagnostic: () => '',
  };
</script>
<iframe id="sco" src="content/vilab.html" style="width:1200px;height:760px"></iframe>`;

test('inside a course frame it reports incomplete, then completed once the run reaches --complete-at', async () => {
  const dir = join(work, 'link');
  writeFileSync(join(work, 'course.html'), COURSE);
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://h').pathname;
    const file = path === '/course.html' ? join(work, 'course.html') : path === '/content/vilab.html' ? join(dir, 'vilab.html') : null;
    if (path === '/favicon.ico') return res.writeHead(204).end();
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { page, errors } = await open(`http://127.0.0.1:${server.address().port}/course.html`);
    const frame = page.frameLocator('#sco');
    const sco = page.frames().find((f) => f.url().includes('/content/'));
    await sco.waitForFunction(() => window.vilabPage?.ready, null, { timeout: 30000 });
    await sco.evaluate(() => window.vilabPage.ready);
    // the link's run (its # part), not the file's default
    const state = await sco.evaluate(() => window.vilabPage.state());
    assert.equal(state.scenario.system, 'oscillator');
    assert.equal(state.scenario.h, 0.05);
    const calls = () => page.evaluate(() => window.calls);
    await page.waitForFunction(() => window.calls.some((c) => c[2] === 'incomplete'));
    const early = await calls();
    assert.deepEqual(early[0], ['LMSInitialize', '']);
    assert.ok(!early.some((c) => c[2] === 'completed'), 'not completed before t = 3 s');
    const before = await sco.evaluate(() => window.vilabPage.sim().time);
    assert.ok(before < 3, `t = ${before}`);
    await sco.evaluate(() => window.vilabPage.play?.());
    await page.waitForFunction(() => window.calls.some((c) => c[2] === 'completed'), null, { timeout: 30000 });
    const t = await sco.evaluate(() => window.vilabPage.sim().time);
    assert.ok(t >= 3, `completed at t = ${t}`);
    const done = await calls();
    const at = done.findIndex((c) => c[2] === 'completed');
    assert.deepEqual(done[at], ['LMSSetValue', 'cmi.core.lesson_status', 'completed']);
    assert.deepEqual(done[at + 1], ['LMSCommit', '']);
    await frame.locator('.banner[data-key="lms"]').waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.close();
  }
});
