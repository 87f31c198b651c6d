// The teacher layer (web/sim/activities.js, web/ui/activity.js, web/page/activity.js): a
// preset or lesson asks its prediction and the run waits at t = 0; play runs it, the reveal
// shows the registry's answer; the printable activity of three presets renders under print
// media in English and Spanish, on one A4 and one Letter page, with set-up, prediction,
// measure and answer; no English left in Spanish; off in an embed unless asked. And the
// wide editor: L, its error with the caret and the KaTeX preview inside a 1366×768 screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, sleep, injectAxe } from './helpers.mjs';
import en from '../../web/i18n/en/activities.js';

const browser = useBrowser();
const LAPTOP = { width: 1366, height: 768 };
const hook = (page, fn, arg) => page.evaluate(fn, arg);

/** Chooses a preset from the menu (waiting for the full build when it needs it). */
async function choose(page, id) {
  await page.selectOption('#preset', id);
  await hook(page, () => window.vilabPage.loadFull());
  await page.locator(`#predict[data-activity="preset:${id}"]`).waitFor({ state: 'visible', timeout: 20000 });
}

/** Serious or critical WCAG 2.1 AA violations inside one element (axe-core). */
async function axe(page, selector) {
  await injectAxe(page);
  return page.evaluate(async (sel) => {
    const r = await window.axe.run(document.querySelector(sel), {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
  }, selector);
}

/** Pages of a PDF: its page objects (/Type /Page, not /Pages). */
const pdfPages = (pdf) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? []).length;

test('a preset asks its prediction, waits at t = 0, plays on demand and reveals the answer', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: LAPTOP });
  assert.equal(await page.locator('#predict').isVisible(), false, 'no card before a preset is chosen');
  await choose(page, 'newmark-vs-rk4');
  assert.equal(await page.locator('#predict .predict-question').textContent(), en['activity.preset.newmark-vs-rk4.question']);
  const choices = await page.locator('#predict .predict-choice').allTextContents();
  // A and B are named by the integrators the preset sets up (their registry titles)
  const titles = await hook(page, () => {
    const { lab, state } = window.vilabPage;
    const s = state();
    return [lab.integrator(s.scenario.integrator).title, lab.integrator(s.compare).title];
  });
  assert.equal(choices.length, 4);
  assert.ok(choices[0].startsWith(titles[0].replace(/\s*\(.*$/, '')) && /\(A, blue\)$/.test(choices[0]), choices[0]);
  // this Lagrangian has no constraints: RK4 is named without its projection (web/ui/run-title.js)
  const plain = titles[1].replace(/\s*\(.*$/, '').replace(/,? with projection$/, '');
  assert.ok(choices[1].startsWith(plain) && !/projection/.test(choices[1]) && /\(B, orange\)$/.test(choices[1]), choices[1]);
  // held at its start while the class predicts
  await sleep(600);
  assert.equal(await hook(page, () => window.vilabPage.playing()), false, 'the run waits');
  assert.equal(await hook(page, () => window.vilabPage.sim().step), 0, 'at t = 0');
  assert.equal(await page.locator('#predict .predict-answer').count(), 0, 'the answer is hidden before the reveal');
  await page.click('#predict .predict-choice[data-choice="A"]');
  assert.equal(await page.locator('#predict .predict-choice[data-choice="A"]').getAttribute('aria-pressed'), 'true');
  await page.click('#predict .predict-play');
  await sleep(500);
  assert.equal(await hook(page, () => window.vilabPage.playing()), true, 'play runs it');
  assert.ok((await hook(page, () => window.vilabPage.sim().step)) > 0);
  assert.equal(await page.locator('#predict .predict-play').count(), 0, 'once playing, no play button in the card');
  await page.click('#predict .predict-reveal');
  const answer = page.locator('#predict .predict-answer');
  await answer.waitFor();
  assert.match(await answer.textContent(), new RegExp(en['activity.wrong'].replace(/[.]/g, '\\.')), 'A was the wrong prediction');
  assert.ok((await answer.textContent()).includes(en['activity.preset.newmark-vs-rk4.answer']), 'the registry answer');
  assert.match(await page.locator('#predict .predict-correct').textContent(), /\(B, orange\)/);
  assert.equal(await page.locator('#predict .predict-choice.correct').getAttribute('data-choice'), 'B', 'the right choice is marked');
  assert.deepEqual(await axe(page, '#predict'), [], 'axe on the card with its answer');
  // the card lies inside the screen and covers none of the transport
  const card = await page.locator('#predict').boundingBox();
  const bar = await page.locator('#transport').boundingBox();
  assert.ok(card.y >= 0 && card.y + card.height <= bar.y + 1, `card ${JSON.stringify(card)} above the transport ${bar.y}`);
  // closing it leaves the run alone; it comes back, answer and all, from its button
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#predict').isVisible(), false);
  assert.equal(await hook(page, () => window.vilabPage.playing()), true);
  await page.click('.predict-reopen');
  assert.equal(await page.locator('#predict .predict-choice.correct').getAttribute('data-choice'), 'B', 'reopened with its reveal');
  assert.equal(await page.locator('.predict-reopen').isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('closing an unanswered card plays the lesson; a different system closes it; a lesson asks its own question', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: LAPTOP });
  await choose(page, 'pendulum-euler');
  assert.equal(await hook(page, () => window.vilabPage.playing()), false);
  await page.click('#predict .predict-close');
  await sleep(300);
  assert.equal(await hook(page, () => window.vilabPage.playing()), true, 'closed without a prediction: the run plays');
  await choose(page, 'oscillator-phase');
  await page.click('#predict .predict-close');
  assert.equal(await page.locator('.predict-reopen').isVisible(), true, 'a closed card can come back');
  await page.selectOption('#system', 'pendulum');
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'pendulum');
  assert.equal(await page.locator('#predict').isVisible(), false, 'the question was about the preset, not this run');
  assert.equal(await page.locator('.predict-reopen').isVisible(), false, 'nor can it come back');
  // a lesson from the Studies drawer: its own activity
  await page.click('#studies-button');
  await page.click('#study-lessons button[data-lesson="lu-clock"]');
  await page.locator('#predict[data-activity="lesson:lu-clock"]').waitFor({ state: 'visible', timeout: 20000 });
  assert.equal(await page.locator('#predict .predict-question').textContent(), en['activity.lesson.lu-clock.question']);
  assert.deepEqual(await page.locator('#predict .predict-choice').allTextContents(), [
    en['activity.lesson.lu-clock.choice.nh'],
    en['activity.lesson.lu-clock.choice.ndt'],
  ]);
  // its printable activity names the lesson and its source
  const sheet = await printed(page);
  assert.equal(sheet.pages.a4, 1);
  const title = await page.locator('#study-lessons button[data-lesson="lu-clock"]').textContent();
  assert.equal(sheet.title, title);
  assert.ok(sheet.setup.includes(en['activity.sheet.source']), sheet.setup);
  assert.ok(sheet.answer.includes(en['activity.lesson.lu-clock.answer']));
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embed asks no prediction unless its page asks for it (predict=1)', async () => {
  for (const [query, shown] of [
    ['?nosw=1&embed=1', false],
    ['?nosw=1&embed=1&predict=1', true],
    ['?nosw=1&predict=0', false],
  ]) {
    const { page, errors } = await openPage(browser.context, query, { viewport: LAPTOP });
    await hook(
      page,
      (id) => {
        // the embed's compact page has no preset menu: the menu element is still there, hidden
        const s = document.querySelector('#preset');
        s.value = id;
        s.dispatchEvent(new Event('change', { bubbles: true }));
      },
      'newmark-vs-rk4',
    );
    await hook(page, () => window.vilabPage.loadFull());
    await sleep(800);
    assert.equal(await page.locator('#predict').isVisible(), shown, `${query}: card ${shown ? 'shown' : 'not shown'}`);
    assert.equal(await hook(page, () => window.vilabPage.playing()), !shown, `${query}: ${shown ? 'held' : 'playing'}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // the Embed dialog asks for it by a choice of its own
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: LAPTOP });
  await page.click('#embed-code');
  assert.doesNotMatch(await page.locator('#embed-text').inputValue(), /predict=/);
  await page.check('#embed-predict');
  const src = new URL((await page.locator('#embed-text').inputValue()).match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&'));
  assert.equal(src.searchParams.get('embed'), '1');
  assert.equal(src.searchParams.get('predict'), '1');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Prints the current activity (window.print stubbed: no dialog in a test); returns its PDF. */
async function printPDF(page, format) {
  await hook(page, () => {
    window.__printed = 0;
    window.print = () => window.__printed++;
  });
  await page.click('#predict .predict-print');
  assert.equal(await hook(page, () => window.__printed), 1, 'the browser is asked to print');
  console.log(
    'before pdf',
    format,
    await hook(page, () => [
      document.documentElement.className,
      document.querySelector('#activity-sheet h1')?.textContent,
      document.querySelector('#activity-sheet').getBoundingClientRect().height,
    ]),
  );
  return page.pdf({ format }); // the browser's print, which ends with afterprint
}

/** The sheet as printed (print media) and its page counts on A4 and Letter. */
async function printed(page) {
  const a4 = pdfPages(await printPDF(page, 'A4'));
  const letter = pdfPages(await printPDF(page, 'Letter'));
  // after printing the page prints as itself again; asked again, the sheet is what print media shows
  assert.equal(await hook(page, () => document.documentElement.classList.contains('print-activity')), false, 'afterprint');
  await hook(page, () => document.querySelector('#predict .predict-print').click());
  await page.emulateMedia({ media: 'print' });
  const sheet = await hook(page, () => {
    const s = document.querySelector('#activity-sheet');
    const part = (name) => s.querySelector(`[data-part="${name}"]`)?.innerText ?? '';
    const others = [...document.body.children]
      .filter((n) => n !== s && getComputedStyle(n).display !== 'none')
      .map((n) => n.id || n.tagName);
    return {
      visible: getComputedStyle(s).display !== 'none',
      title: s.querySelector('h1')?.textContent,
      setup: part('setup'),
      predict: part('predict'),
      measure: part('measure'),
      answer: part('answer'),
      text: s.innerText,
      others,
    };
  });
  await page.emulateMedia({ media: null }); // (media 'screen' would make page.pdf print the screen)
  return { ...sheet, pages: { a4, letter } };
}

test('the printable activity of three presets: set-up, prediction, measure and answer on one page, in English and Spanish', async () => {
  for (const lang of ['en', 'es']) {
    const { page, errors } = await openPage(browser.context, `?nosw=1&lang=${lang}`, { viewport: LAPTOP });
    const words = await hook(page, () => window.vilabPage.i18n.catalogue(document.documentElement.lang));
    for (const id of ['dsp-energy', 'dzhanibekov', 'fput']) {
      await choose(page, id);
      const s = await printed(page);
      assert.ok(s.visible, `${lang} ${id}: the sheet is printed`);
      assert.deepEqual(s.others, [], `${lang} ${id}: nothing else is printed`);
      assert.equal(s.pages.a4, 1, `${lang} ${id}: one A4 page`);
      assert.equal(s.pages.letter, 1, `${lang} ${id}: one Letter page`);
      const st = await hook(page, () => window.vilabPage.state());
      const system =
        words[`system.${st.scenario.system}.title`] ??
        (await hook(page, (sys) => window.vilabPage.lab.system(sys).title, st.scenario.system));
      // the set-up read from the preset's run: system, integrators, h, speed, and how to open it
      assert.ok(s.setup.includes(words['activity.sheet.setup']) && s.setup.includes(system), `${lang} ${id}: set-up names ${system}`);
      assert.ok(s.setup.includes(`${st.scenario.h} s`), `${lang} ${id}: h = ${st.scenario.h}`);
      assert.ok(s.setup.includes(`${st.speed}×`), `${lang} ${id}: speed`);
      assert.ok(
        /https?:\/\/\S+#/.test(s.setup) || s.setup.includes(words['activity.sheet.menu.preset'].split('{')[0].trim()),
        `${lang} ${id}: a way to open it`,
      );
      assert.ok(s.predict.includes(words[`activity.preset.${id}.question`]), `${lang} ${id}: the prediction`);
      assert.ok(s.measure.includes(words[`activity.preset.${id}.measure`]), `${lang} ${id}: what to measure`);
      assert.ok(s.answer.includes(words[`activity.preset.${id}.answer`]), `${lang} ${id}: the answer`);
      // no English left in the Spanish sheet (tests/e2e/i18n.test.mjs's rule: no English catalogue text, no two English words)
      if (lang === 'es') {
        const english = Object.entries(en).filter(([k, v]) => words[k] !== v && v.length >= 12 && !/[{}]/.test(v));
        const left = english.filter(([, v]) => s.text.includes(v)).map(([k]) => k);
        assert.deepEqual(left, [], `${id}: English left in the Spanish sheet`);
        const lines = s.text.split('\n').filter((l) => !/https?:/.test(l));
        const englishWords =
          /\b(the|of|and|with|from|is|are|its|this|that|by|to|at|not|run|step|steps|shows?|stays?|watch|drift|drifts|energy|error)\b/gi;
        const mixed = lines.filter((l) => new Set((l.match(englishWords) ?? []).map((w) => w.toLowerCase())).size >= 2);
        assert.deepEqual(mixed, [], `${id}: English words in the Spanish sheet`);
      }
      await page.click('#predict .predict-close');
    }
    // negative control: the page count sees a sheet that does not fit
    await hook(page, () => {
      document.documentElement.classList.add('print-activity');
      const s = document.querySelector('#activity-sheet');
      for (let i = 0; i < 60; i++) s.append(Object.assign(document.createElement('p'), { textContent: `line ${i}` }));
    });
    assert.ok(pdfPages(await page.pdf({ format: 'A4' })) >= 2, 'a sheet of 60 more lines takes two pages');
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('in Spanish the card has no English: question, choices, buttons and the revealed answer', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1&lang=es', { viewport: LAPTOP });
  const es = await hook(page, () => window.vilabPage.i18n.catalogue('es'));
  for (const id of ['chain-whip', 'kepler', 'tennis-racket']) {
    await choose(page, id);
    await page.click('#predict .predict-choice >> nth=0');
    await page.click('#predict .predict-reveal');
    await page.locator('#predict .predict-answer').waitFor();
    const texts = await hook(page, () => {
      const card = document.querySelector('#predict');
      const out = [...card.querySelectorAll('h2, p, button')].map((n) => n.textContent.trim());
      for (const n of card.querySelectorAll('[aria-label], [title]'))
        out.push(n.getAttribute('aria-label') ?? '', n.getAttribute('title') ?? '');
      return out.filter(Boolean);
    });
    assert.ok(texts.includes(es[`activity.preset.${id}.question`]), `${id}: the Spanish question`);
    const english = Object.entries(en).filter(([k, v]) => es[k] !== v && !/[{}]/.test(v));
    const left = texts.filter((x) => english.some(([, v]) => x === v || (v.length >= 12 && x.includes(v))));
    assert.deepEqual(left, [], `${id}: English left in the card`);
    const englishWords =
      /\b(the|of|and|with|from|is|are|its|this|that|by|to|at|not|run|step|steps|shows?|stays?|watch|drift|drifts|energy|error)\b/gi;
    const mixed = texts.filter((x) => new Set((x.match(englishWords) ?? []).map((w) => w.toLowerCase())).size >= 2);
    assert.deepEqual(mixed, [], `${id}: English words in the card`);
    await page.keyboard.press('Escape');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

/** Opens the system defined by data (paused) at a viewport; null when this build has none. */
async function openEditor(viewport) {
  const opened = await openPage(browser.context, '?nosw=1', { viewport, reducedMotion: 'reduce' });
  const sys = await hook(opened.page, async () => {
    const lab = window.vilabPage.lab;
    const s = lab.systems.find((x) => x.definition);
    return s ? { id: s.id, defaults: await lab.withFull(() => lab.normalize({ system: s.id })) } : null;
  });
  if (!sys) return { ...opened, sys };
  await hook(opened.page, async (id) => window.vilabPage.setState({ scenario: { system: id } }), sys.id);
  await opened.page.locator('#definition-section').waitFor({ state: 'attached' });
  await opened.page.waitForFunction(() => document.querySelector('#editor-open'));
  return { ...opened, sys };
}

/** A box inside the viewport (every edge). */
const inside = (box, { width, height }) =>
  box && box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;

/** Types an L with a typo (a coordinate misspelt) and applies it; returns the error's locator and the bad text. */
async function applyTypo(page, sys) {
  const L = sys.defaults.params.lagrangian;
  const coord = sys.defaults.params.coordinates.find((c) => new RegExp(`\\b${c}\\b`).test(L));
  const bad = L.replace(new RegExp(`\\b${coord}\\b`), `${coord}ta`);
  await page.locator('#editor-dialog [data-key="lagrangian"]').fill(bad);
  await page.click('#editor-dialog .def-apply');
  const err = page.locator('#editor-dialog .def-lagrangian .expr-error');
  await err.locator('pre.caret').waitFor();
  return { err, bad, coord };
}

test('the wide editor at 1366×768: the L box, its error with the caret and the KaTeX preview are on screen together', async (t) => {
  const { page, errors, sys } = await openEditor(LAPTOP);
  if (!sys) return t.skip('this build has no system defined by data');
  // in the settings panel the editor is narrow (about 45 characters a line)
  const narrow = await page.locator('#definition [data-key="lagrangian"]').boundingBox();
  await page.click('#editor-open');
  const dialog = page.locator('#editor-dialog');
  await dialog.waitFor({ state: 'visible' });
  assert.equal(await hook(page, () => document.activeElement?.dataset.key), 'lagrangian', 'the L box has the focus');
  await page.locator('#editor-dialog .def-preview-math .katex').first().waitFor({ timeout: 10000 });
  const { err, bad, coord } = await applyTypo(page, sys);
  const boxes = {
    L: await page.locator('#editor-dialog [data-key="lagrangian"]').boundingBox(),
    error: await err.boundingBox(),
    caret: await err.locator('pre.caret').boundingBox(),
    preview: await page.locator('#editor-dialog .def-preview').boundingBox(),
    apply: await page.locator('#editor-dialog .def-apply').boundingBox(),
  };
  for (const [name, box] of Object.entries(boxes)) assert.ok(inside(box, LAPTOP), `${name} inside 1366×768: ${JSON.stringify(box)}`);
  assert.ok(boxes.error.y >= boxes.L.y + boxes.L.height - 1, 'the error is under the L box');
  assert.ok(boxes.L.width >= 1.8 * narrow.width, `the L box is wide (${boxes.L.width} px against ${narrow.width} px in the panel)`);
  // the caret under the column, in a window wider than the panel's
  const [copy, mark] = (await err.locator('pre.caret').textContent()).split('\n');
  assert.equal(copy.slice(mark.indexOf('^'), mark.indexOf('^') + coord.length + 2), `${coord}ta`);
  assert.ok(bad.includes(copy.replace(/^…|…$/g, '')), 'a copy of the expression');
  // nothing is covered: the centre of each is the element itself (elementFromPoint)
  const covered = await hook(page, () =>
    ['[data-key="lagrangian"]', '.def-lagrangian .expr-error pre.caret', '.def-preview'].filter((sel) => {
      const node = document.querySelector(`#editor-dialog ${sel}`);
      const r = node.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return !(hit && (node === hit || node.contains(hit)));
    }),
  );
  assert.deepEqual(covered, []);
  assert.deepEqual(await axe(page, '#editor-dialog'), [], 'axe on the wide editor with an error');
  // Escape closes it: the same form, with its text and its error, back in the panel
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#definition-section #definition [data-key="lagrangian"]').inputValue(), bad);
  assert.equal(await page.locator('#definition .def-lagrangian pre.caret').count(), 1);
  assert.equal(await hook(page, () => document.activeElement?.id), 'editor-open');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the wide editor on a phone (390×844): full screen, L and its error on screen, Apply and Close reachable', async (t) => {
  const PHONE = { width: 390, height: 844 };
  const { page, errors, sys } = await openEditor(PHONE);
  if (!sys) return t.skip('this build has no system defined by data');
  await page.click('#sheet-toggle');
  await page.locator('#editor-open').scrollIntoViewIfNeeded();
  await page.click('#editor-open');
  await page.locator('#editor-dialog').waitFor({ state: 'visible' });
  const d = await page.locator('#editor-dialog').boundingBox();
  assert.ok(d.width >= PHONE.width - 1 && d.height >= PHONE.height - 1, `full screen (${d.width}×${d.height})`);
  const { err } = await applyTypo(page, sys);
  for (const [name, loc] of [
    ['L', page.locator('#editor-dialog [data-key="lagrangian"]')],
    ['error', err],
    ['close', page.locator('#editor-dialog .editor-dialog-head .btn')],
  ])
    assert.ok(inside(await loc.boundingBox(), PHONE), `${name} on screen`);
  await page.click('#editor-dialog .editor-dialog-head .btn');
  await page.locator('#editor-dialog').waitFor({ state: 'hidden' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching the language re-words an open card, keeping the choice, the reveal and the held run', async () => {
  const { page, errors } = await openPage(browser.context, '?nosw=1', { viewport: LAPTOP });
  await choose(page, 'kapitza');
  await page.click('#predict .predict-choice[data-choice="stays"]');
  await page.click('#predict .predict-reveal');
  await page.selectOption('#language', 'es');
  await page.waitForFunction(() => document.documentElement.lang === 'es');
  const es = await hook(page, () => window.vilabPage.i18n.catalogue('es'));
  assert.equal(await page.locator('#predict .predict-question').textContent(), es['activity.preset.kapitza.question']);
  assert.equal(await page.locator('#predict .predict-choice[data-choice="stays"]').getAttribute('aria-pressed'), 'true');
  assert.ok((await page.locator('#predict .predict-answer').textContent()).includes(es['activity.right']));
  assert.equal(await hook(page, () => window.vilabPage.playing()), false, 'still waiting for play');
  assert.equal(await page.locator('#predict .predict-play').textContent(), es['activity.play']);
  assert.deepEqual(errors, []);
  await page.close();
});
