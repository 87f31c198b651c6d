// The page's words where they make claims: the Explain drawer names only what the run has
// (on the oscillator no J_z, constraint or momentum map; on the double spherical pendulum
// both), every formula typeset by KaTeX (no raw q_{k+1}); axis labels that fit; the
// Poincaré section's tick values; drawer titles that keep the case of their symbols; the
// Newton card's note true of explicit Newmark; numbers written per language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './helpers.mjs';

const browser = useBrowser();
const DESKTOP = { width: 1366, height: 768 };

/** The Explain drawer's words: what a reader sees (folded parts left out), all text outside KaTeX, the visible LaTeX. */
async function explainWords(page, selector) {
  return page.evaluate((selector) => {
    const shown = [];
    const outside = [];
    const tex = [];
    for (const root of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const p = n.parentElement;
        if (p.closest('.katex')) continue;
        outside.push(n.textContent);
        const folded = p.closest('details:not([open])');
        if (!folded || (p.closest('summary') && p.closest('summary').parentElement === folded)) shown.push(n.textContent);
      }
      for (const a of root.querySelectorAll('.katex annotation')) if (!a.closest('details:not([open])')) tex.push(a.textContent);
    }
    return { shown: shown.join(' '), outside: outside.join(' '), tex, katex: document.querySelectorAll(`${selector} .katex`).length };
  }, selector);
}

const RAW_TEX = /[A-Za-zΠ]_\{|[A-Za-z]_[A-Za-z0-9]\b|\^\{|\\[a-z]+/;

test('Explain on the oscillator names no J_z, constraint or momentum map; on the DSP it does; every formula is KaTeX', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=en#system=oscillator&compare=rk4', { viewport: DESKTOP });
  await page.evaluate(() => window.vilabPage.pause());
  await page.click('#explain-button');
  await page.waitForSelector('#explain .explain-here .katex', { timeout: 15000 });
  const osc = await explainWords(page, '#explain .explain-system, #explain .explain-integrator');
  assert.doesNotMatch(osc.shown, /J_z|\bJz\b|constraint|momentum map|Noether|multiplier/i, osc.shown);
  assert.ok(!osc.tex.some((x) => /J_z|g\(q|\\lambda|Dg/.test(x)), osc.tex.join(' | '));
  assert.match(osc.shown, /What it keeps on this system/);
  assert.match(osc.shown, /What it does not keep here/, 'RK4 loses the symplectic form and the energy');
  // no raw LaTeX anywhere in the drawer, folded parts included: q_{k+1} is typeset
  const all = await explainWords(page, '#explain');
  assert.doesNotMatch(all.outside, RAW_TEX, all.outside.match(new RegExp(`.{0,30}${RAW_TEX.source}.{0,30}`))?.[0]);
  assert.ok(all.katex >= 12, `${all.katex} formulas typeset`);
  const inline = await page.locator('#explain .math-inline .katex').count();
  assert.ok(inline >= 8, `${inline} formulas of the prose and of what is kept typeset inline`);
  assert.ok(
    all.tex.some((x) => x.includes('q_{k+1}')),
    'the update is typeset',
  );

  await page.click('#explain .drawer-close');
  await page.evaluate(() => window.vilabPage.setState({ scenario: { system: 'double-spherical-pendulum' }, compare: 'rk4' }));
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'double-spherical-pendulum');
  await page.click('#explain-button');
  await page.waitForFunction(
    () => /J_z/.test([...document.querySelectorAll('#explain-here-A annotation')].map((a) => a.textContent).join(' ')),
    null,
    {
      timeout: 15000,
    },
  );
  const dsp = await explainWords(page, '#explain .explain-integrator');
  assert.match(dsp.shown, /momentum map/);
  assert.match(dsp.shown, /constraints/);
  assert.ok(
    dsp.tex.some((x) => x.includes('g(q_{k+1}) = 0')),
    'the constraint kept, as a formula',
  );
  const dspAll = await explainWords(page, '#explain');
  assert.doesNotMatch(dspAll.outside, RAW_TEX, dspAll.outside.match(new RegExp(`.{0,30}${RAW_TEX.source}.{0,30}`))?.[0]);
  // RK4 does not keep J_z: said under B
  assert.match(await page.locator('#explain-here-B').textContent(), /momentum map \(Jz\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Explain in Spanish leaves no raw LaTeX either (the Spanish prose, the lessons, the studies)', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=es#system=double-spherical-pendulum&compare=rk4', {
    viewport: DESKTOP,
  });
  await page.evaluate(() => window.vilabPage.pause());
  await page.click('#explain-button');
  await page.waitForSelector('#explain .explain-here .katex', { timeout: 15000 });
  await page.evaluate(() => {
    for (const d of document.querySelectorAll('#explain details')) d.open = true;
  });
  const all = await explainWords(page, '#explain');
  assert.doesNotMatch(all.outside, RAW_TEX, all.outside.match(new RegExp(`.{0,30}${RAW_TEX.source}.{0,30}`))?.[0]);
  assert.match(all.shown, /Lo que conserva en este sistema/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('axis labels fit: the lessons’ y labels are not clipped, nor the plot cards’ in either language', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=en', { viewport: DESKTOP });
  await page.evaluate(() => window.vilabPage.pause());
  await page.click('#studies-button');
  await page.locator('#study-lessons button[data-lesson="wm-amplitude"]').waitFor({ timeout: 20000 });
  await page.click('#study-lessons button[data-lesson="wm-amplitude"]');
  await page.waitForFunction(() => document.querySelector('#lesson-figure')?.dataset.status === 'done', null, { timeout: 90000 });
  const label = await page.locator('#lesson-plot .plot-ylabel').evaluate((e) => ({
    text: e.textContent,
    scroll: e.scrollWidth,
    client: e.clientWidth,
    height: e.getBoundingClientRect().height,
  }));
  assert.equal(label.text, 'half-width of the energy band (J)');
  assert.ok(label.scroll <= label.client && label.height > 0, JSON.stringify(label));
  await page.click('#studies .drawer-close');
  // every card, in both languages, at the desk and in projector mode (larger type)
  for (const projector of [false, true]) {
    if (projector) await page.click('#projector');
    for (const lang of ['en', 'es']) {
      await page.selectOption('#language', lang);
      await page.evaluate(() => window.vilabPage.drawPlots());
      const fits = await page
        .locator('#plots .uplot[data-ylabel]')
        .evaluateAll((us) => us.map((u) => [u.dataset.ylabel, u.dataset.ylabelFits]));
      assert.ok(fits.length >= 3, `${lang}: ${fits.length} labelled plots`);
      for (const [text, ok] of fits) assert.equal(ok, 'true', `${lang}${projector ? ', projector' : ''}: "${text}" fits along its plot`);
    }
    if (projector) await page.click('#projector'); // the mode is remembered by the browser: leave it off
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Poincaré section has tick values on both axes', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=en', { viewport: DESKTOP, reducedMotion: 'reduce' });
  await page.selectOption('#preset', 'henon-heiles');
  await page.evaluate(() => window.vilabPage.loadFull()); // the preset applies once the full build is in
  await page.click('#studies-button');
  await page.locator('#study-poincare').waitFor({ timeout: 30000 });
  await page.click('#studies button[data-study="poincare"]');
  await page.waitForFunction(() => Number(document.querySelector('#poincare-canvas')?.dataset.points) > 100, null, { timeout: 120000 });
  const ticks = await page
    .locator('#poincare-canvas')
    .evaluate((c) => ({ x: JSON.parse(c.dataset.xticks), y: JSON.parse(c.dataset.yticks) }));
  assert.ok(ticks.x.length >= 4 && ticks.y.length >= 4, JSON.stringify(ticks));
  for (const v of [...ticks.x, ...ticks.y]) assert.ok(Number.isFinite(Number(v.replace('−', '-'))), v);
  assert.deepEqual(errors, []);
  await page.close();
});

test('drawer titles keep the case of their symbols (μ, h) in every language', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=en', { viewport: DESKTOP });
  await page.click('#studies-button');
  await page.locator('#study-lessons button[data-lesson]').first().waitFor({ timeout: 20000 });
  await page.click('#study-lessons button[data-lesson="dsp-penalty"]');
  await page.waitForFunction(() => document.querySelector('#lesson-figure')?.dataset.lesson === 'dsp-penalty');
  for (const lang of ['en', 'es']) {
    await page.selectOption('#language', lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    const titles = await page.evaluate(() =>
      [...document.querySelectorAll('.drawer-body h4')].map((h) => ({
        text: h.textContent,
        shown: h.innerText,
        transform: getComputedStyle(h).textTransform,
      })),
    );
    assert.ok(
      titles.some((x) => /μ/.test(x.text)),
      `${lang}: the lesson's title with μ (${titles.map((x) => x.text).join(' | ')})`,
    );
    for (const x of titles) {
      assert.equal(x.transform, 'none', x.text);
      assert.equal(x.shown, x.text, `${lang}: shown as written`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Newton card's note is true of explicit Newmark (which counts 2 iterations per step)", async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=en#system=oscillator&integrator=newmark&options.beta=0', {
    viewport: DESKTOP,
  });
  await page.evaluate(() => window.vilabPage.pause());
  await page.evaluate(() => window.vilabPage.step(50));
  const iterations = await page.evaluate(() => window.vilabPage.sim().diagnostics().iterations);
  const note = await page
    .locator('#plots .plot-card')
    .filter({ has: page.locator('#plot-iterations-title') })
    .locator('.plot-note')
    .textContent();
  assert.ok(iterations > 0, `explicit Newmark counts ${iterations}`);
  assert.doesNotMatch(note, /0 for explicit/);
  assert.match(note, /0 where a step solves no equation/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('numbers per language: a lesson’s measured numbers with a decimal comma in Spanish', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=es', { viewport: DESKTOP });
  await page.click('#studies-button');
  await page.locator('#study-lessons button[data-lesson="wm-amplitude"]').waitFor({ timeout: 20000 });
  await page.click('#study-lessons button[data-lesson="wm-amplitude"]');
  await page.waitForFunction(() => document.querySelector('#lesson-figure')?.dataset.status === 'done', null, { timeout: 90000 });
  const text = await page.locator('#lesson-figure .lesson-measured').textContent();
  assert.match(text, /\d,\d/, text);
  assert.doesNotMatch(text, /\d\.\d/, text);
  // relative energies as percentages: Newmark's band and both ends, in Spanish with a spaced sign
  await page.click('#study-lessons button[data-lesson="mw-newmark-rk4"]');
  await page.waitForFunction(
    () =>
      document.querySelector('#lesson-figure')?.dataset.lesson === 'mw-newmark-rk4' &&
      document.querySelector('#lesson-figure').dataset.status === 'done',
    null,
    { timeout: 90000 },
  );
  const mw = await page.locator('#lesson-figure .lesson-measured').textContent();
  const measured = JSON.parse(await page.locator('#lesson-figure .lesson-measured').getAttribute('data-measured'));
  assert.equal((mw.match(/\d\u00a0%/g) ?? []).length, 3, mw);
  const rk4 = `${Math.round(measured.finalB * 100)}`.replace('-', '−');
  assert.ok(mw.includes(`${rk4}\u00a0%`), `RK4's end ${measured.finalB} as ${rk4} % in: ${mw}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Copy link on the hosted page gives an http(s) link and no file:// warning', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=en#system=oscillator', { viewport: DESKTOP });
  await page.evaluate(() => window.vilabPage.pause());
  await page.click('#copy-link');
  const banner = page.locator('.banner[data-key="share"]');
  await banner.waitFor();
  assert.equal(await banner.getAttribute('data-local'), 'false');
  assert.match(await banner.locator('code').textContent(), /^https?:\/\//);
  assert.doesNotMatch(await banner.textContent(), /file:\/\//);
  assert.deepEqual(errors, []);
  await page.close();
});
