// "Any Lagrangian": a system defined by data (its registry entry has `definition`).
// The editor appears from the registry metadata; a typo shows the API's message with a
// caret under its column while the previous run goes on; the KaTeX preview renders the
// C++ parser's LaTeX; constants restart the run; share links carry the definition (def=)
// and round-trip; hostile and oversized links are refused as text; every
// scenes/lagrangian preset loads and runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useBrowser, openPage, pixelStats, sleep, injectAxe } from './helpers.mjs';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);
const SCENES = fileURLToPath(new URL('../../scenes/lagrangian/', import.meta.url));

/** The id of the system defined by data, and its normalized default scenario. */
async function definedSystem(page) {
  return hook(page, async () => {
    const lab = window.vilabPage.lab;
    const sys = lab.systems.find((s) => s.definition);
    // the full build compiles definitions (the page starts on the lean one)
    return sys ? { id: sys.id, defaults: await lab.withFull(() => lab.normalize({ system: sys.id })) } : null;
  });
}

/** Opens the page on the system defined by data (paused); skips when this build has none. */
async function openDefined(t, path = '') {
  const opened = await openPage(browser.context, path, { reducedMotion: 'reduce' });
  const sys = await definedSystem(opened.page);
  if (!sys) {
    t.skip('this build has no system defined by data');
    await opened.page.close();
    return null;
  }
  if (!path) await opened.page.selectOption('#system', sys.id);
  await opened.page.locator('#definition-section').waitFor({ state: 'visible' });
  return { ...opened, sys };
}

/** The caption shown for a template with {slots}: the slots filled, then perhaps a note of what is not yet measured. */
function captionFits(template, shown) {
  const pattern = template
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+?');
  return new RegExp(`^${pattern}( .*)?$`, 's').test(shown);
}

test('the editor appears for a system with a definition (and only then), filled from the registry default', async (t) => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  assert.equal(await page.locator('#definition-section').isVisible(), false, 'hidden for the double pendulum');
  const sys = await definedSystem(page);
  if (!sys) return t.skip('this build has no system defined by data');
  await page.selectOption('#system', sys.id);
  const section = page.locator('#definition-section');
  await section.waitFor({ state: 'visible' });
  const p = sys.defaults.params;
  assert.equal(await page.locator('#definition [data-key="coordinates"]').inputValue(), p.coordinates.join(', '));
  assert.equal((await page.locator('#definition [data-key="lagrangian"]').inputValue()).trim(), p.lagrangian);
  assert.equal(await page.locator('#definition .def-constant').count(), Object.keys(p.constants).length);
  assert.equal(await page.locator('#definition .def-body').count(), p.bodies.length);
  assert.equal(await page.locator('#params-section').isVisible(), false, 'no registry parameters: the editor takes their place');
  // the initial data is labelled with the coordinates
  // the editor owns the initial values: one row per coordinate
  assert.equal(await page.locator('#initial-section').isVisible(), false);
  for (const [i, c] of p.coordinates.entries()) {
    assert.equal(Number(await page.getByLabel(`Initial ${c}`, { exact: true }).inputValue()), sys.defaults.initial.q[i], `initial ${c}`);
    assert.equal(
      Number(await page.getByLabel(`Initial ${c}'`, { exact: true }).inputValue()),
      sys.defaults.initial.qdot[i],
      `initial ${c}'`,
    );
  }
  // bodies are drawn, and move
  await hook(page, () => window.vilabPage.step(1));
  await sleep(150);
  const shot = await page.locator('#view canvas').screenshot();
  assert.ok(pixelStats(shot).variance > 30, 'canvas not blank');
  const v0 = await hook(page, () => Array.from(window.vilabPage.sim().visualState()));
  assert.equal(v0.length, 3 * p.bodies.length);
  await hook(page, () => window.vilabPage.step(100));
  const v1 = await hook(page, () => Array.from(window.vilabPage.sim().visualState()));
  assert.ok(v1.every(Number.isFinite) && v0.some((x, i) => Math.abs(x - v1[i]) > 1e-6), 'the bodies move');
  // plots: the symmetries as the momentum plot (named), the conserved quantities card
  await hook(page, () => window.vilabPage.drawPlots());
  const series = await hook(page, () => window.vilabPage.plotSeries());
  for (const name of Object.keys(p.symmetries)) {
    assert.match(await page.locator('#plot-momentum .plot-title').textContent(), new RegExp(name));
    assert.ok(Number.isFinite(series[`J_${name}_A`]), `momentum ${name} plotted`);
  }
  if (Object.keys(p.conserved).length) {
    await page.locator('#plot-conserved').waitFor();
    for (const name of Object.keys(p.conserved)) {
      assert.ok(Number.isFinite(series[`conserved.${name}_A`]), `conserved ${name} plotted (${series[`conserved.${name}_A`]})`);
      assert.match(await page.locator('#plot-conserved .plot-values').textContent(), new RegExp(`${name}: A`));
    }
  }
  // and it goes away for a system without a definition
  await page.selectOption('#system', 'double-spherical-pendulum');
  await section.waitFor({ state: 'hidden' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a typo in L shows the API message with a caret under its column; the previous run goes on', async (t) => {
  const opened = await openDefined(t);
  if (!opened) return;
  const { page, errors, sys } = opened;
  const L = sys.defaults.params.lagrangian;
  const coord = sys.defaults.params.coordinates.find((c) => new RegExp(`\\b${c}\\b`).test(L));
  assert.ok(coord, 'the default L uses a coordinate');
  const bad = L.replace(new RegExp(`\\b${coord}\\b`), `${coord}ta`);
  // what the API itself says about it
  const api = await hook(
    page,
    ([id, badL]) => {
      const lab = window.vilabPage.lab;
      const sc = lab.normalize({ system: id });
      try {
        lab.normalize({ ...sc, params: { ...sc.params, lagrangian: badL } });
        return null;
      } catch (e) {
        return { field: e.field, column: e.column, message: e.message };
      }
    },
    [sys.id, bad],
  );
  assert.equal(api.field, 'params.lagrangian');
  assert.ok(Number.isInteger(api.column) && api.column > 0, `a column (${api.column})`);
  await hook(page, () => window.vilabPage.play());
  const before = await hook(page, () => window.vilabPage.state().scenario);
  await page.locator('#definition [data-key="lagrangian"]').fill(bad);
  await page.click('#definition .def-apply');
  const err = page.locator('#definition .def-field .expr-error').filter({ hasText: 'params.lagrangian' });
  await err.waitFor();
  const text = await err.locator('.expr-message').textContent();
  assert.ok(text.includes(api.message.replace(/^vilab:\s*/, '')), text);
  assert.match(text, /params\.lagrangian/);
  assert.match(text, new RegExp(`column ${api.column}`));
  const caret = (await err.locator('pre.caret').textContent()).split('\n');
  assert.equal(caret.length, 2);
  // a monospace copy (windowed around the caret when long) with the caret under the column
  const at = caret[1].indexOf('^');
  assert.equal(caret[1].trim(), '^');
  assert.equal(caret[0].slice(at, at + 6), bad.slice(api.column - 1, api.column + 5), 'the caret sits under the column');
  assert.ok(bad.includes(caret[0].replace(/^…|…$/g, '')), 'a copy of the expression');
  assert.equal(await page.locator('#definition [data-key="lagrangian"]').getAttribute('aria-invalid'), 'true');
  // the last good simulation keeps running
  assert.deepEqual(await hook(page, () => window.vilabPage.state().scenario), before, 'the store keeps the applied scenario');
  const s0 = await hook(page, () => window.vilabPage.sim().step);
  await sleep(500);
  const s1 = await hook(page, () => window.vilabPage.sim().step);
  assert.ok(s1 > s0, `the previous run continues (${s0} → ${s1})`);
  assert.equal(await hook(page, () => window.vilabPage.failure().A), null);
  // Ctrl+Enter applies the fixed text
  await page.locator('#definition [data-key="lagrangian"]').fill(L);
  await page.locator('#definition [data-key="lagrangian"]').press('Control+Enter');
  await sleep(100);
  assert.equal(await err.count(), 0, 'the error goes with the fix');
  assert.ok((await hook(page, () => window.vilabPage.sim().step)) < s1, 'applying restarts the run');
  // a long expression: the copy is a window around the column, the caret still under it
  const long = `${L} + ${`0*${coord} + `.repeat(25)}${coord}ta*0`;
  await page.locator('#definition [data-key="lagrangian"]').fill(long);
  await page.click('#definition .def-apply');
  await err.waitFor();
  const col = Number((await err.locator('.expr-message').textContent()).match(/column (\d+)/)[1]);
  assert.equal(col, long.lastIndexOf(`${coord}ta`) + 1);
  const [copy, mark] = (await err.locator('pre.caret').textContent()).split('\n');
  assert.ok(copy.startsWith('…') && copy.length < 50, copy);
  assert.equal(copy.slice(mark.indexOf('^'), mark.indexOf('^') + coord.length + 2), `${coord}ta`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the KaTeX preview renders the default L, follows typing, and dims on an error', async (t) => {
  const opened = await openDefined(t);
  if (!opened) return;
  const { page, errors, sys } = opened;
  const math = page.locator('#definition .def-preview-math');
  await math.locator('.katex').first().waitFor({ timeout: 10000 });
  assert.ok((await math.locator('.katex').count()) >= 1 + sys.defaults.params.constraints.length);
  const first = await math.textContent();
  const L = sys.defaults.params.lagrangian;
  const c = sys.defaults.params.coordinates[0];
  await page.locator('#definition [data-key="lagrangian"]').fill(`${L} + 3*${c}`);
  await page.waitForFunction((prev) => document.querySelector('#definition .def-preview-math').textContent !== prev, first, {
    timeout: 5000,
  });
  assert.equal(await math.evaluate((n) => n.classList.contains('stale')), false);
  await page.locator('#definition [data-key="lagrangian"]').fill(`${L} + 3*${c}zz`);
  await page.waitForFunction(() => document.querySelector('#definition .def-preview-math').classList.contains('stale'), null, {
    timeout: 5000,
  });
  const msg = page.locator('#definition .def-preview .expr-error');
  assert.match(await msg.textContent(), /params\.lagrangian.*column \d+/);
  assert.equal(await msg.locator('pre.caret').count(), 1);
  assert.ok((await math.locator('.katex').count()) >= 1, 'the last good rendering stays');
  assert.equal(await page.locator('#definition .def-stale-note').isVisible(), true, 'and says so');
  await page.locator('#definition [data-key="lagrangian"]').fill(L);
  await page.waitForFunction(() => !document.querySelector('#definition .def-preview-math').classList.contains('stale'), null, {
    timeout: 5000,
  });
  assert.equal(await page.locator('#definition .def-stale-note').isVisible(), false);
  assert.equal(await msg.textContent(), '', 'the message goes with the fix');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a new coordinate gets an initial-value row and applies together with its L', async (t) => {
  const opened = await openDefined(t);
  if (!opened) return;
  const { page, errors, sys } = opened;
  const p = sys.defaults.params;
  await page.locator('#definition [data-key="coordinates"]').fill([...p.coordinates, 'zz9'].join(', '));
  await page.locator('#definition [data-key="coordinates"]').press('Tab');
  await page.getByLabel('Initial zz9', { exact: true }).fill('0.3');
  await page.getByLabel("Initial zz9'", { exact: true }).fill('-0.1');
  await page.locator('#definition [data-key="lagrangian"]').fill(`${p.lagrangian} + 1/2*zz9'^2 - 1/2*zz9^2`);
  await page.click('#definition .def-apply');
  await sleep(100);
  const st = await hook(page, () => window.vilabPage.state());
  assert.deepEqual(st.scenario.params.coordinates, [...p.coordinates, 'zz9']);
  assert.deepEqual(st.scenario.initial.q, [...sys.defaults.initial.q, 0.3]);
  assert.deepEqual(st.scenario.initial.qdot, [...sys.defaults.initial.qdot, -0.1]);
  assert.equal(await hook(page, () => window.vilabPage.sim().q.length), p.coordinates.length + 1);
  // a bad initial value is named under the initial values
  await page.getByLabel('Initial zz9', { exact: true }).fill('');
  await page.click('#definition .def-apply');
  const err = page.locator('#definition .def-group .expr-error').filter({ hasText: 'initial.q' });
  await err.waitFor();
  assert.equal(
    await hook(page, () => window.vilabPage.state().scenario.initial.q.length),
    p.coordinates.length + 1,
    'the applied run stays',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a changed constant (number or slider release) restarts the run with it', async (t) => {
  const opened = await openDefined(t);
  if (!opened) return;
  const { page, errors, sys } = opened;
  const [name, value] = Object.entries(sys.defaults.params.constants)[0];
  await hook(page, () => window.vilabPage.runTo(150));
  const fpDefault = await hook(page, () => window.vilabPage.fingerprint());
  const row = page.locator('#definition .def-constant').first();
  assert.equal(await row.locator('.const-name').inputValue(), name);
  const next = Number((value * 0.8 || 0.5).toPrecision(6));
  await row.locator('input[type=number]').fill(String(next));
  await row.locator('input[type=number]').press('Enter');
  await sleep(100);
  let st = await hook(page, () => window.vilabPage.state());
  assert.equal(st.scenario.params.constants[name], next);
  assert.ok((await hook(page, () => window.vilabPage.sim().step)) < 150, 'restarted');
  await hook(page, () => window.vilabPage.runTo(150));
  assert.notEqual(await hook(page, () => window.vilabPage.fingerprint()), fpDefault, 'another run');
  // the slider applies when released (change), not while dragged (input)
  const range = page.locator('#definition .def-constant').first().locator('input[type=range]');
  const target = await range.evaluate((r) => {
    const v = (Number(r.min) + Number(r.max)) / 2;
    r.value = String(v);
    r.dispatchEvent(new Event('input', { bubbles: true }));
    return Number(r.value);
  });
  assert.deepEqual(
    await hook(page, () => window.vilabPage.state().scenario.params.constants),
    st.scenario.params.constants,
    'not applied while dragging',
  );
  await page
    .locator('#definition .def-constant')
    .first()
    .locator('input[type=range]')
    .evaluate((r) => r.dispatchEvent(new Event('change', { bubbles: true })));
  await sleep(100);
  st = await hook(page, () => window.vilabPage.state());
  assert.ok(
    Math.abs(st.scenario.params.constants[name] - target) < 1e-9,
    `slider applied (${st.scenario.params.constants[name]} vs ${target})`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a share link carries the definition (def=) and round-trips to the same fingerprint', async (t) => {
  const opened = await openDefined(t);
  if (!opened) return;
  const { page, errors, sys } = opened;
  const p = sys.defaults.params;
  const [name, value] = Object.entries(p.constants)[0];
  const err = await hook(
    page,
    ([n, v]) => {
      const sc = window.vilabPage.state().scenario;
      return (
        window.vilabPage.setState({ scenario: { ...sc, params: { ...sc.params, constants: { ...sc.params.constants, [n]: v } } } })
          ?.message ?? null
      );
    },
    [name, Number((value * 1.1 || 0.3).toPrecision(6))],
  );
  assert.equal(err, null);
  await hook(page, () => window.vilabPage.runTo(321));
  const fp = await hook(page, () => window.vilabPage.fingerprint());
  const st = await hook(page, () => window.vilabPage.state());
  const url = await hook(page, () => window.vilabPage.shareURL());
  const hash = new URL(url).hash;
  assert.match(hash, /(^#|&)def=/);
  assert.doesNotMatch(hash, /params\./, 'no params.* keys for a definition');
  assert.deepEqual(JSON.parse(decodeURIComponent(hash.match(/def=([^&]*)/)[1])), st.scenario.params);
  await page.close();
  const fresh = await openPage(browser.context, url, { reducedMotion: 'reduce' });
  const p2 = fresh.page;
  assert.deepEqual(await hook(p2, () => window.vilabPage.state().scenario), st.scenario);
  await hook(p2, () => window.vilabPage.runTo(321));
  assert.equal(await hook(p2, () => window.vilabPage.fingerprint()), fp, 'same fingerprint at step 321');
  const check = p2.locator('#fp-check');
  await check.waitFor({ state: 'visible' });
  assert.match(await check.textContent(), /✓ same run as the link \(step 321\)/);
  assert.equal(await p2.locator('#definition-section').isVisible(), true);
  // an unchanged definition writes no def=
  await hook(p2, (id) => window.vilabPage.setState({ scenario: { system: id } }), sys.id);
  assert.doesNotMatch(await hook(p2, () => window.vilabPage.shareURL()), /def=/);
  assert.deepEqual(errors, []);
  assert.deepEqual(fresh.errors, []);
  await p2.close();
});

test('a hostile definition in a link is shown as text only (no element is created), with a banner', async (t) => {
  const probe = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  const sys = await definedSystem(probe.page);
  await probe.page.close();
  if (!sys) return t.skip('this build has no system defined by data');
  const evil = '<img src=x onerror=alert(1)>';
  const params = { ...sys.defaults.params, lagrangian: evil };
  const hash = `#system=${sys.id}&def=${encodeURIComponent(JSON.stringify(params))}`;
  const context = browser.context;
  const page = await context.newPage();
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(new URL(hash, process.env.VILAB_URL ?? 'http://127.0.0.1:4173/').toString());
  await page.waitForFunction(() => window.vilabPage && window.vilabPage.ready).then(() => page.evaluate(() => window.vilabPage.ready));
  const banner = page.locator('.banner.error');
  await banner.waitFor();
  const text = await banner.textContent();
  assert.match(text, /params\.lagrangian/, text);
  assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0, 'no img element anywhere');
  assert.equal(dialogs.length, 0);
  assert.equal(await banner.locator('code').first().textContent(), 'params.lagrangian');
  // the rest of the page is usable, with the default scenario
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.system), 'double-spherical-pendulum');
  await hook(page, () => window.vilabPage.pause());
  const k0 = await hook(page, () => window.vilabPage.sim().step);
  assert.equal(await hook(page, () => window.vilabPage.step(20)), k0 + 20);
  // the same text typed into the editor stays text too
  await page.selectOption('#system', sys.id);
  await page.locator('#definition [data-key="lagrangian"]').fill(evil);
  await page.click('#definition .def-apply');
  await page.locator('#definition .def-field .expr-error').filter({ hasText: 'params.lagrangian' }).waitFor();
  await sleep(300);
  assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0, 'no img element from the editor or the preview');
  assert.equal(dialogs.length, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an oversized def= link is refused with a banner naming def; the page keeps the default', async (t) => {
  const probe = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  const sys = await definedSystem(probe.page);
  await probe.page.close();
  if (!sys) return t.skip('this build has no system defined by data');
  const c = sys.defaults.params.coordinates[0];
  const params = { ...sys.defaults.params, lagrangian: Array.from({ length: 4000 }, () => c).join('+') + '+' + 'x'.repeat(9000) };
  const json = JSON.stringify(params);
  assert.ok(json.length > 16 * 1024);
  const { page, errors } = await openPage(browser.context, `#system=${sys.id}&def=${encodeURIComponent(json)}`, {
    reducedMotion: 'reduce',
  });
  const banner = page.locator('.banner.error');
  await banner.waitFor();
  assert.equal(await banner.locator('code').first().textContent(), 'def');
  assert.match(await banner.textContent(), /too large .*16 KB/);
  assert.equal(await hook(page, () => window.vilabPage.state().scenario.system), 'double-spherical-pendulum');
  assert.equal(await hook(page, () => window.vilabPage.step(10)), 10, 'usable');
  // not JSON: named too
  const bad = await openPage(browser.context, `#system=${sys.id}&def=%7Bnot-json`, { reducedMotion: 'reduce' });
  await bad.page.locator('.banner.error').waitFor();
  assert.equal(await bad.page.locator('.banner.error code').first().textContent(), 'def');
  assert.match(await bad.page.locator('.banner.error').textContent(), /not valid JSON/);
  assert.deepEqual(bad.errors, []);
  await bad.page.close();
  // a valid definition beyond what links carry: Copy link says so at once
  const err = await hook(
    page,
    async ([id, coord]) => {
      const lab = window.vilabPage.lab;
      const sc = await lab.withFull(() => lab.normalize({ system: id })); // this page is still on the lean build
      const big = coord + `+${coord}`.repeat(1990);
      const conserved = Object.fromEntries([1, 2, 3, 4, 5].map((k) => [`c${k}`, big]));
      return window.vilabPage.setState({ scenario: { ...sc, params: { ...sc.params, conserved } } })?.message ?? null;
    },
    [sys.id, c],
  );
  assert.equal(err, null);
  await page.click('#copy-link');
  const warn = page.locator('.banner.warn[data-key="share-size"]');
  await warn.waitFor();
  assert.match(await warn.textContent(), /at most 16 KB, so this link will be refused/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a body position that is not finite is never drawn: a warning, and the run goes on', async (t) => {
  const opened = await openDefined(t);
  if (!opened) return;
  const { page, errors, sys } = opened;
  const c = sys.defaults.params.coordinates[0];
  const err = await hook(
    page,
    (expr) => {
      const sc = window.vilabPage.state().scenario;
      const bodies = sc.params.bodies.map((b, i) => (i === 0 ? { ...b, position: [b.position[0], b.position[1], expr] } : b));
      const e = window.vilabPage.setState({ scenario: { ...sc, params: { ...sc.params, bodies } } });
      return e ? { field: e.field, message: e.message } : null;
    },
    `log(-1 - ${c}*${c})`,
  );
  if (err) {
    // the API may refuse it up front: then it names the expression
    assert.equal(err.field, 'params.bodies[0].position[2]', err.message);
  } else {
    await hook(page, () => window.vilabPage.step(20));
    const warn = page.locator('.banner.warn[data-key="visual"]');
    await warn.waitFor({ timeout: 5000 });
    assert.match(await warn.textContent(), /not a finite number/);
    assert.equal(await hook(page, () => window.vilabPage.failure().A), null, 'not a failure of the run');
    assert.equal(await hook(page, () => window.vilabPage.step(30)), 50, 'the run goes on');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('axe-core: the editor, its preview and an inline error have no serious/critical violations (light, dark)', async (t) => {
  for (const scheme of ['light', 'dark']) {
    const opened = await openDefined(t);
    if (!opened) return;
    const { page, errors, sys } = opened;
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator('#definition .def-preview-math .katex').first().waitFor({ timeout: 10000 });
    await page.locator('#definition [data-key="lagrangian"]').fill(`${sys.defaults.params.lagrangian} + zz`);
    await page.click('#definition .def-apply');
    await page.locator('#definition .def-field .expr-error pre.caret').waitFor();
    await sleep(300);
    await injectAxe(page);
    const violations = await page.evaluate(async () => {
      const r = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id} (${v.impact}): ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(' | ')}`,
        );
    });
    assert.deepEqual(violations, [], scheme);
    // the Explain drawer shows this system's L, typeset
    await page.click('#explain-button');
    await page.locator('#explain .explain-definition .katex').first().waitFor({ timeout: 5000 });
    const withDrawer = await page.evaluate(async () => {
      const r = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id} (${v.impact}): ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(' | ')}`,
        );
    });
    assert.deepEqual(withDrawer, [], `${scheme}: with the Explain drawer`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('every scenes/lagrangian preset is in the menu, loads and runs 200 steps', async (t) => {
  if (!existsSync(SCENES)) return t.skip('scenes/lagrangian does not exist yet');
  const files = readdirSync(SCENES)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (!files.length) return t.skip('scenes/lagrangian has no scenes yet');
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  const ids = await hook(page, () => window.vilabPage.presets());
  for (const f of files) {
    const id = f.replace(/\.json$/, '');
    const { about, ...scenario } = JSON.parse(readFileSync(SCENES + f, 'utf8'));
    assert.ok(ids.includes(id), `${id} is in the preset menu`);
    assert.equal(await page.locator(`#preset option[value="${id}"]`).textContent(), about.title);
    await page.selectOption('#preset', id);
    await hook(page, () => window.vilabPage.loadFull()); // the first one waits for the full build, then applies
    await hook(page, () => window.vilabPage.pause());
    const st = await hook(page, () => window.vilabPage.state());
    const expected = await hook(page, (sc) => window.vilabPage.lab.normalize(sc), scenario);
    assert.deepEqual(st.scenario, expected, `${id}: the scenario without about`);
    assert.equal(st.compare, about.compare ?? null, `${id}: compare`);
    const caption = await page.locator('#caption').textContent();
    assert.ok(captionFits(about.lesson, caption), `${id}: the lesson is the caption, its slots filled: ${caption}`);
    const start = await hook(page, () => window.vilabPage.sim().step);
    assert.equal(await hook(page, (k) => window.vilabPage.runTo(k), start + 200), start + 200, `${id}: 200 steps`);
    const failure = await hook(page, () => window.vilabPage.failure());
    assert.equal(failure.A, null, `${id}: A ran without failure ${JSON.stringify(failure.A)}`);
    assert.equal(failure.B, null, `${id}: B ran without failure ${JSON.stringify(failure.B)}`);
    const v = await hook(page, () => Array.from(window.vilabPage.sim().visualState()));
    assert.ok(v.length > 0 && v.every(Number.isFinite), `${id}: finite bodies`);
    // the plots (and the CSV) name its symmetries and conserved quantities
    await hook(page, () => window.vilabPage.drawPlots());
    const series = await hook(page, () => window.vilabPage.plotSeries());
    const header = (await hook(page, () => window.vilabPage.csv())).split('\n').find((line) => line.startsWith('t_s,'));
    for (const name of Object.keys(scenario.params.symmetries ?? {})) {
      assert.ok(Number.isFinite(series[`J_${name}_A`]), `${id}: momentum ${name} plotted`);
      assert.match(header, new RegExp(`J_${name}_drift_(relative|absolute)_A`));
    }
    // a lesson may show declared quantities its motion does not conserve as values (about.view.notConserved)
    const asValues = about.view?.notConserved ?? [];
    for (const name of Object.keys(scenario.params.conserved ?? {})) {
      const key = asValues.includes(`conserved.${name}`) ? `value.conserved.${name}_A` : `conserved.${name}_A`;
      assert.ok(Number.isFinite(series[key]), `${id}: ${name} plotted (${key})`);
      assert.match(header, new RegExp(`conserved\\.${name}_drift_(relative|absolute)_A`));
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});
