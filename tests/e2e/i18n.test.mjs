// The language switch: in Spanish no English string is left on the main screen (text
// and the accessible names of controls), switching never touches the run, the choice
// persists, ?lang=es opens in Spanish, and every English key has a Spanish text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useBrowser, openPage } from './helpers.mjs';

const browser = useBrowser();
const DESKTOP = { width: 1440, height: 900 };
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Presets as the page builds them (web/sim/presets.js): id, title, explanation. */
function presets() {
  const json = (p) => JSON.parse(readFileSync(root + p, 'utf8'));
  const out = [];
  for (const p of ['scenes/presets.json', 'scenes/rigid_body_presets.json']) {
    try {
      out.push(...json(p).map(({ id, title, explanation }) => ({ id, title, explanation })));
    } catch {
      /* optional file */
    }
  }
  for (const f of readdirSync(root + 'scenes/lagrangian').filter((f) => f.endsWith('.json'))) {
    const about = json(`scenes/lagrangian/${f}`).about;
    if (about?.title) out.push({ id: f.replace(/\.json$/, ''), title: about.title, explanation: about.lesson ?? '' });
  }
  return out;
}

/**
 * In the page: the English strings that must not appear in Spanish (catalogue values and
 * registry/preset strings whose Spanish differs), and every visible text and accessible
 * name on the main screen.
 */
async function screenTexts(page, presetList) {
  return page.evaluate((presetList) => {
    const { i18n, lab } = window.vilabPage;
    const en = i18n.catalogue('en');
    const es = i18n.catalogue('es');
    // ---- what counts as English left behind
    const banned = []; // { text, key, slots: RegExp|null }
    const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const [key, text] of Object.entries(en)) {
      if (es[key] === undefined || es[key] === text) continue; // language-neutral by rule: the same in both
      const trimmed = text.trim();
      if (!trimmed) continue;
      const parts = trimmed.split(/\{\w+\}/);
      const slots = parts.length > 1 ? new RegExp(`^${parts.map(esc).join('.+?')}$`, 's') : null;
      // a template that is mostly slot ('{title} is {nature}.') is too loose to match on
      if (slots && parts.join('').replace(/[^A-Za-z]/g, '').length < 6) continue;
      banned.push({ text: trimmed, key, slots });
    }
    // the registry's Spanish: core/prose/*/*.es.json, flattened into the catalogue (web/i18n/prose.js)
    const reg = (key, english) => {
      if (typeof english !== 'string' || !english.trim()) return;
      const spanish = es[key];
      if (spanish !== undefined && spanish !== english) banned.push({ text: english.trim(), key, slots: null, registry: true });
    };
    for (const i of lab.integrators) {
      for (const f of ['title', 'summary']) reg(`integrator.${i.id}.${f}`, i[f]);
      for (const c of i.claims ?? []) reg(`claim.${c.text}`, c.text);
      for (const o of i.options ?? []) for (const f of ['title', 'description']) reg(`param.${i.id}.${o.name}.${f}`, o[f]);
    }
    for (const s of lab.systems) {
      for (const f of ['title', 'description']) reg(`system.${s.id}.${f}`, s[f]);
      for (const p of [...(s.params ?? []), ...(s.initialFields ?? [])])
        for (const f of ['title', 'description']) reg(`param.${s.id}.${p.name}.${f}`, p[f]);
    }
    for (const p of presetList) for (const f of ['title', 'explanation']) reg(`preset.${p.id}.${f}`, p[f]);

    // ---- what the main screen shows (drawers closed)
    // rendered and not hidden (screen-reader-only text is 1 px and counts: it is what a screen reader says)
    const visible = (node) => {
      if (!node?.checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true })) return false;
      const r = node.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const seen = [];
    const add = (text, where) => {
      const s = String(text ?? '')
        .replace(/\s+/g, ' ')
        .trim();
      if (s) seen.push({ text: s, where });
    };
    const describe = (node) =>
      node.id
        ? `#${node.id}`
        : `${node.tagName.toLowerCase()}${node.className && typeof node.className === 'string' ? '.' + node.className.split(' ')[0] : ''}`;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest('script, style, .katex-mathml')) continue;
      if (!visible(parent)) continue;
      add(n.textContent, describe(parent));
    }
    for (const node of document.querySelectorAll('[aria-label], [title], [placeholder], select, label, legend, summary, img[alt]')) {
      if (!visible(node)) continue;
      add(node.getAttribute('aria-label'), `${describe(node)}[aria-label]`);
      add(node.getAttribute('title'), `${describe(node)}[title]`);
      add(node.getAttribute('placeholder'), `${describe(node)}[placeholder]`);
      add(node.getAttribute('alt'), `${describe(node)}[alt]`);
      if (node.tagName === 'SELECT') {
        for (const o of node.querySelectorAll('option')) add(o.textContent, `${describe(node)} option`);
        for (const g of node.querySelectorAll('optgroup')) add(g.label, `${describe(node)} optgroup`);
      }
    }
    for (const node of document.querySelectorAll('[aria-labelledby]')) {
      if (!visible(node)) continue;
      const name = node
        .getAttribute('aria-labelledby')
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
      add(name, `${describe(node)}[aria-labelledby]`);
    }

    // ---- English found
    const found = [];
    const englishWords =
      /\b(the|of|and|with|from|is|are|its|this|that|by|to|at|not|run|step|steps|shows?|stays?|watch|drift|drifts|energy|error)\b/gi;
    for (const { text, where } of seen) {
      const hit = banned.find((b) =>
        b.slots ? b.slots.test(text) : text === b.text || (b.text.length >= 12 && !/[{}]/.test(b.text) && text.includes(b.text)),
      );
      if (hit) {
        found.push({ text, where, key: hit.key });
        continue;
      }
      // English nobody put in a catalogue: two different English-only words
      const words = new Set((text.match(englishWords) ?? []).map((w) => w.toLowerCase()));
      if (words.size >= 2) found.push({ text, where, key: '(not in a catalogue)' });
    }
    return { found, seen: seen.length, banned: banned.length };
  }, presetList);
}

test('in Spanish, no English string is left on the main screen (desktop)', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: DESKTOP });
  await page.evaluate(() => window.vilabPage.pause());
  await page.selectOption('#language', 'es');
  await page.waitForFunction(() => document.documentElement.lang === 'es');
  const list = presets();
  const systems = await page.evaluate(() => window.vilabPage.lab.systems.map((s) => s.id));
  const problems = [];
  let seenTotal = 0;
  // the default system, then a rigid body and a system defined by data (their own panels and overlays)
  for (const system of [null, 'heavy-top', 'lagrangian'].filter((s) => s === null || systems.includes(s))) {
    if (system) {
      await page.selectOption('#system', system);
      await page.waitForFunction((id) => window.vilabPage.state().scenario.system === id, system);
      await page.evaluate(() => window.vilabPage.pause());
    }
    // compare on: B's legend, badges, summary; the settings sections open
    await page.evaluate(async () => {
      const st = window.vilabPage.state();
      const b = window.vilabPage.lab.integrators.find((i) => i.id !== st.scenario.integrator && i.systems.includes(st.scenario.system));
      if (b) await window.vilabPage.setState({ compare: b.id }); // may wait for the full build
      window.vilabPage.pause();
      for (const d of document.querySelectorAll('#panel details')) d.open = true;
    });
    await page.evaluate(() => window.vilabPage.step(20));
    await page.evaluate(() => window.vilabPage.drawPlots());
    await page.waitForTimeout(200);
    const { found, seen, banned } = await screenTexts(page, list);
    assert.ok(banned > 200, `the English to look for (${banned} strings) includes the catalogues and the registry`);
    assert.ok(seen > 60, `the walk saw the screen (${seen} strings)`);
    seenTotal += seen;
    for (const f of found) problems.push(`${system ?? 'default'} ${f.where}: "${f.text.slice(0, 120)}" (${f.key})`);
  }
  const unique = [...new Set(problems)];
  assert.deepEqual(unique, [], `English left on screen in Spanish (${unique.length}, of ${seenTotal} strings):\n${unique.join('\n')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

/** The English found on screen now, as "where: text (key)" lines. */
async function englishOnScreen(page, label) {
  const { found, seen } = await screenTexts(page, presets());
  assert.ok(seen > 60, `${label}: the walk saw the screen (${seen} strings)`);
  return found.map((f) => `${label} ${f.where}: "${f.text.slice(0, 120)}" (${f.key})`);
}

test('in Spanish, no English in the drawers (Explain, Studies), an API error banner or an editor error', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=es#system=double-spherical-pendulum&compare=rk4', {
    viewport: DESKTOP,
  });
  await page.evaluate(() => window.vilabPage.pause());
  const es = await page.evaluate(() => window.vilabPage.i18n.catalogue('es'));
  const problems = [];
  // Explain: the methods, what each keeps here (KaTeX), their folded docs opened too
  await page.click('#explain-button');
  await page.waitForSelector('#explain .explain-here .katex', { timeout: 15000 });
  await page.evaluate(() => {
    for (const d of document.querySelectorAll('#explain details')) d.open = true;
  });
  problems.push(...(await englishOnScreen(page, 'Explain')));
  await page.click('#explain .drawer-close');
  // Studies: its sections, a lesson's figure and caption
  await page.click('#studies-button');
  await page.locator('#study-lessons button[data-lesson]').first().waitFor({ timeout: 20000 });
  await page.locator('#study-lessons button[data-lesson]').first().click();
  await page.waitForFunction(() => document.querySelector('#lesson-figure')?.dataset.status === 'done', null, { timeout: 60000 });
  problems.push(...(await englishOnScreen(page, 'Studies')));
  await page.click('#studies .drawer-close');
  // an API error banner: a pasted link the API refuses (h out of range), and one the page's link reader refuses
  for (const [hash, code] of [
    ['system=oscillator&h=-3', 'range'],
    ['system=oscillator&colour=red', 'unknown-key'],
  ]) {
    await page.evaluate((h) => (location.hash = h), hash);
    await page.waitForSelector('.banner[data-key="link"]');
    const banner = await page.locator('.banner[data-key="link"]').textContent();
    assert.ok(banner.includes(es[`words.error.${code}`]), `${hash}: the problem by its code (${banner})`);
    if (code === 'range')
      assert.match(banner, /[[(][^\])]*; [^\])]*[\])]/, `${hash}: the allowed interval written the Spanish way (${banner})`);
    assert.doesNotMatch(banner, /\b(must|unknown|field|greater|known)\b/, `${hash}: no English (${banner})`);
    problems.push(...(await englishOnScreen(page, `banner ${hash}`)));
    await page.locator('.banner[data-key="link"] .banner-actions button').last().click();
    await page.waitForSelector('.banner[data-key="link"]', { state: 'detached' });
  }
  // an editor error: a Lagrangian that does not parse, applied (the lesson chosen above
  // tucked the settings away: open them as a reader would)
  if ((await page.locator('#sheet-toggle').getAttribute('aria-expanded')) !== 'true') await page.click('#sheet-toggle');
  await page.selectOption('#system', 'lagrangian');
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'lagrangian', null, { timeout: 30000 });
  await page.evaluate(() => {
    window.vilabPage.pause();
    for (const d of document.querySelectorAll('#panel details')) d.open = true;
  });
  await page.locator('#definition [data-key="lagrangian"]').fill('1/2*x^2 +* 3');
  await page.click('#definition .def-apply');
  const message = page.locator('#definition .def-field .expr-error .expr-message').first();
  await message.waitFor();
  const text = await message.textContent();
  assert.ok(text.includes('params.lagrangian') && text.includes(es['words.error.syntax']), text);
  assert.match(text, new RegExp(es['words.error.column'].replace('{column}', '\\d+')), text);
  problems.push(...(await englishOnScreen(page, 'editor error')));
  // the Graph's variables: their tooltips in Spanish
  const tips = await page.locator('#phase-y option').evaluateAll((os) => os.map((o) => o.title));
  assert.ok(tips.length >= 2 && tips.every((s) => s && !/coordinate|momentum conjugate/.test(s)), tips.join(' | '));
  const unique = [...new Set(problems)];
  assert.deepEqual(unique, [], `English left in Spanish (${unique.length}):\n${unique.join('\n')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('in Spanish, a bad embedding key is named in Spanish (its problem by code)', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=es&paused=2', { viewport: DESKTOP });
  const banner = page.locator('.banner[data-key="embed-key-paused"]');
  await banner.waitFor();
  const text = await banner.textContent();
  const es = await page.evaluate(() => window.vilabPage.i18n.catalogue('es'));
  assert.ok(text.includes(es['words.error.range']), text);
  assert.doesNotMatch(text, /must be/, text);
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching the language keeps the run: same step, same fingerprint, still playing', async () => {
  const { page } = await openPage(browser.context, '?nosw=1', { viewport: DESKTOP });
  await page.evaluate(() => {
    window.vilabPage.pause();
    window.vilabPage.i18n.setLanguage('en');
    return window.vilabPage.step(137); // a promise when the steps go on between frames
  });
  const before = await page.evaluate(() => ({
    step: window.vilabPage.sim().step,
    fp: window.vilabPage.fingerprint(),
    t: window.vilabPage.sim().time,
  }));
  assert.ok(before.step >= 137, `stepped (${before.step})`);
  for (const code of ['es', 'en', 'es']) {
    await page.selectOption('#language', code);
    await page.waitForFunction((c) => document.documentElement.lang === c, code);
    const now = await page.evaluate(() => ({
      step: window.vilabPage.sim().step,
      fp: window.vilabPage.fingerprint(),
      t: window.vilabPage.sim().time,
    }));
    assert.deepEqual(now, before, `after switching to ${code}`);
  }
  assert.equal(await page.evaluate(() => window.vilabPage.playing()), false, 'a paused run stays paused');
  // while playing: the run goes on from where it was, never back to t = 0
  await page.evaluate(() => window.vilabPage.play());
  await page.waitForFunction((s) => window.vilabPage.sim().step > s + 5, before.step);
  const playingStep = await page.evaluate(() => window.vilabPage.sim().step);
  await page.selectOption('#language', 'en');
  const after = await page.evaluate(() => ({ step: window.vilabPage.sim().step, playing: window.vilabPage.playing() }));
  assert.ok(after.step >= playingStep, `no restart (step ${after.step} ≥ ${playingStep})`);
  assert.equal(after.playing, true);
  // the play button speaks the language
  const playText = await page.locator('#play').textContent();
  assert.equal(playText, 'Pause');
  await page.selectOption('#language', 'es');
  assert.equal(await page.locator('#play').textContent(), await page.evaluate(() => window.vilabPage.i18n.catalogue('es')['main.pause']));
  await page.close();
});

test('the choice persists across a reload, and ?lang=es opens in Spanish', async () => {
  const { page } = await openPage(browser.context, '?nosw=1', { viewport: DESKTOP });
  await page.selectOption('#language', 'es');
  await page.reload();
  await page.waitForFunction(() => window.vilabPage?.i18n && window.vilabPage.ready);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  assert.equal(await page.inputValue('#language'), 'es');
  const es = await page.evaluate(() => window.vilabPage.i18n.catalogue('es'));
  assert.equal(await page.locator('[data-i18n="page.reset"]').first().textContent(), es['page.reset']);
  // back to English by the select; then the link's ?lang wins over the stored choice
  await page.selectOption('#language', 'en');
  await page.reload();
  await page.waitForFunction(() => window.vilabPage?.i18n);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await page.goto(new URL('?nosw=1&lang=es', page.url()).toString());
  await page.waitForFunction(() => window.vilabPage?.i18n && window.vilabPage.ready);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  assert.equal(await page.locator('[data-i18n="page.reset"]').first().textContent(), es['page.reset']);
  assert.equal(
    await page
      .locator('#readout-step')
      .textContent()
      .then((s) => s.startsWith(es['main.readout.step'].split('{')[0])),
    true,
  );
  await page.close();
});

test('every English key has a Spanish text, and every registry string on screen has one too', async () => {
  const { page } = await openPage(browser.context, '?nosw=1', { viewport: DESKTOP });
  const list = presets();
  const missing = await page.evaluate(async (presetList) => {
    const { i18n, lab } = window.vilabPage;
    const es = await i18n.load('es'); // not fetched by an English page
    const out = i18n
      .keys('en')
      .filter((k) => !(k in es))
      .map((k) => `catalogue ${k}`);
    const need = (key) => {
      if (!(key in es)) out.push(`registry ${key}`);
    };
    for (const i of lab.integrators) for (const f of ['title', 'summary', 'docs']) need(`integrator.${i.id}.${f}`);
    for (const i of lab.integrators) for (const c of i.claims ?? []) need(`claim.${c.text}`);
    for (const s of lab.systems) {
      for (const f of ['title', 'description']) need(`system.${s.id}.${f}`);
      for (const p of [...(s.params ?? []), ...(s.initialFields ?? [])]) need(`param.${s.id}.${p.name}.title`);
    }
    for (const p of presetList) for (const f of ['title', 'explanation']) need(`preset.${p.id}.${f}`);
    return out;
  }, list);
  assert.deepEqual(missing, [], `without Spanish:\n${missing.join('\n')}`);
  await page.close();
});

test('an English page fetches no other catalogue; a Spanish one fetches its own before the first frame', async () => {
  const scripts = async (query) => {
    const page = await browser.context.newPage();
    const names = [];
    page.on('request', (r) => r.resourceType() === 'script' && names.push(new URL(r.url()).pathname.split('/').pop()));
    await page.goto(new URL(query, process.env.VILAB_URL ?? 'http://127.0.0.1:4173/').toString());
    await page.waitForFunction(() => window.vilabPage?.firstFrameAt?.() != null, null, { timeout: 30000 });
    const loaded = await page.evaluate(() => window.vilabPage.i18n.keys('es').length);
    await page.close();
    return { names, loaded };
  };
  const en = await scripts('?nosw=1&lang=en');
  const es = await scripts('?nosw=1&lang=es');
  assert.equal(en.loaded, 0, 'no Spanish keys in an English page');
  assert.ok(es.loaded > 500, `${es.loaded} Spanish keys`);
  const extra = es.names.filter((n) => !en.names.includes(n));
  assert.ok(extra.length >= 1 && extra.some((n) => /^words-es-registry-/.test(n)), `Spanish chunks: ${extra.join(', ')}`);
});
