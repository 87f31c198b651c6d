// npm run build:scorm's parts in Node (the package itself is tested in tests/e2e/scorm.test.mjs):
// the stated time a preset's caption names, the launch chosen from the options, the
// manifest escaping its title, the launch block that cannot end its <script> early.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presets, statedTime, launchFrom, manifest, withLaunch } from '../../scripts/build-scorm.mjs';

test("a preset's stated time is the largest time its caption names", () => {
  const list = presets();
  const byId = Object.fromEntries(list.map((p) => [p.id, p]));
  // dsp-energy names 20 s, 1000 s and a crossing expected by 1810 s (docs/deploy.md)
  assert.equal(statedTime(byId['dsp-energy']), 1810);
  assert.equal(byId['dsp-energy'].lesson.speed, 100);
  assert.equal(statedTime(byId['long-run-energy']), 600);
  assert.equal(statedTime({ id: 'x' }), null, 'no claims, no stated time');
  assert.ok(list.length >= 20 && list.every((p) => typeof p.id === 'string'));
});

test('the launch: a preset with its time, a link with 30 s or --complete-at', () => {
  assert.deepEqual(launchFrom({ preset: 'dsp-energy' }).launch, { preset: 'dsp-energy', completeAt: 1810 });
  assert.deepEqual(launchFrom({ preset: 'dsp-energy', 'complete-at': '5' }).launch, { preset: 'dsp-energy', completeAt: 5 });
  assert.deepEqual(launchFrom({ link: 'https://x.org/vilab/?lang=es#system=oscillator' }).launch, {
    link: '#system=oscillator',
    completeAt: 30,
  });
  assert.throws(() => launchFrom({ link: '#system=<b>' }), /--link: holds spaces or angle brackets/);
  assert.throws(() => launchFrom({ preset: 'dsp-energy', 'complete-at': 'Infinity' }), /--complete-at/);
});

test('the manifest escapes its title; the launch block keeps < out of the page', () => {
  const xml = manifest({ id: 'a&b', title: 'Lesson <1> & "2"' });
  assert.match(xml, /<title>Lesson &lt;1&gt; &amp; &quot;2&quot;<\/title>/);
  assert.match(xml, /identifier="vilab-a&amp;b"/);
  const html = withLaunch('<html><body></body></html>', { link: '#a=</script>', completeAt: 1 });
  assert.equal(html.match(/<\/script>/g).length, 1);
  assert.match(html, /\\u003c\/script>/);
});
