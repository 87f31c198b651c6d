// A preset's lesson block as the page reads it (web/sim/lesson-view.js): every shipped
// preset's block reads without a problem (its plot, cards, speed, window, energy view,
// camera and jumpTo are ones the page has), and a wrong field is named while the rest of
// the block still applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLessonView, jumpStep, PLOT_CARDS } from '../../web/sim/lesson-view.js';
import { SPEEDS, WINDOWS } from '../../web/state/store.js';

const root = fileURLToPath(new URL('../..', import.meta.url)); // no wasm needed: the page's own reader
const json = (...p) => JSON.parse(readFileSync(join(root, ...p), 'utf8'));

/** [id, lesson block] of every shipped preset (a data-defined system's block is about.view). */
function shippedLessons() {
  const out = [];
  for (const file of ['presets.json', 'rigid_body_presets.json']) for (const p of json('scenes', file)) out.push([p.id, p.lesson]);
  const dir = join(root, 'scenes', 'lagrangian');
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort())
    out.push([f.replace(/\.json$/, ''), json('scenes', 'lagrangian', f).about?.view]);
  return out;
}

test("every shipped preset's lesson block reads without a problem", () => {
  const lessons = shippedLessons();
  assert.ok(lessons.length >= 25, `${lessons.length} presets`);
  for (const [id, lesson] of lessons) {
    const { view, problems } = readLessonView(lesson);
    assert.deepEqual(problems, [], `${id}: ${JSON.stringify(problems)}`);
    assert.ok(SPEEDS.includes(view.speed) && WINDOWS.includes(view.window), id);
    assert.ok(view.plot === null || PLOT_CARDS.includes(view.plot), id);
    // the block no longer says `large` (replaced by `plot`)
    assert.equal(lesson?.large, undefined, `${id}: lesson.large is now lesson.plot`);
  }
});

test('a full lesson block is read as written; absent fields take the defaults', () => {
  const camera = { position: [1, -2, 0.5], target: [0, 0, 0] };
  const { view, problems } = readLessonView({
    plot: 'phase',
    speed: 25,
    window: 60,
    energy: 'envelope',
    cards: ['energy'],
    camera,
    jumpTo: 12.5,
    frame: { axis: [0, 0, 1], rate: 1, toward: [1, 0, 0] },
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(view, {
    plot: 'phase',
    speed: 25,
    window: 60,
    energy: 'envelope',
    cards: ['phase', 'energy'],
    camera,
    jumpTo: 12.5,
    frame: { axis: [0, 0, 1], rate: 1, toward: [1, 0, 0] },
  });
  assert.deepEqual(readLessonView(undefined), {
    view: { plot: null, speed: 1, window: 0, energy: 'signed', cards: null, camera: null, jumpTo: null, frame: null },
    problems: [],
  });
});

test('each wrong field is named, and the rest of the block applies', () => {
  const { view, problems } = readLessonView({
    plot: 'nope',
    speed: 3,
    window: 60,
    energy: 'log',
    cards: ['energy', 'bogus'],
    camera: { position: [0, Number.NaN, 1], target: [0, 0] },
    jumpTo: -2,
    frame: { axis: [0, 0, 0], rate: 1 },
  });
  assert.deepEqual(
    problems.map((p) => p.field),
    [
      'lesson.plot',
      'lesson.speed',
      'lesson.energy',
      'lesson.cards[1]',
      'lesson.camera.position',
      'lesson.camera.target',
      'lesson.frame.axis',
      'lesson.jumpTo',
    ],
  );
  assert.deepEqual(view, {
    plot: null,
    speed: 1,
    window: 60,
    energy: 'signed',
    cards: ['energy'],
    camera: null,
    jumpTo: null,
    frame: null,
  });
  assert.deepEqual(
    readLessonView([1]).problems.map((p) => p.field),
    ['lesson'],
  );
  assert.deepEqual(
    readLessonView({ cards: [] }).problems.map((p) => p.field),
    ['lesson.cards'],
  );
});

test('jumpTo lands on the first step at or after its time', () => {
  assert.equal(jumpStep(3.005, 0.01), 301);
  assert.equal(jumpStep(3, 0.01), 300); // 3 / 0.01 = 300.00000000000006 in binary: still step 300
  assert.equal(jumpStep(1880, 0.05), 37600);
});
