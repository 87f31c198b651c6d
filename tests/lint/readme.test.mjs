// The README's first screen: the page's picture (docs/screenshot.png, npm run screenshot)
// linked to the hosted page, then "For teachers", then the commands; the developer part
// says how to install the package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';

const at = (path) => new URL(`../../${path}`, import.meta.url);
const readme = readFileSync(at('README.md'), 'utf8');
const HOSTED = JSON.parse(readFileSync(at('package.json'), 'utf8')).homepage ?? 'https://vilab.github.io/vilab/';

test('the README opens with the screenshot and the hosted link, then For teachers, then the commands', () => {
  const lines = readme.split('\n').filter((l) => l.trim());
  assert.match(lines[0], /^# vilab/);
  assert.match(lines[1], /^\[!\[[^\]]+\]\(docs\/screenshot\.png\)\]\(https:\/\/[^)]+\)$/, 'the picture comes first, linked to the page');
  assert.ok(lines.slice(1, 4).join(' ').includes(HOSTED), `the hosted page ${HOSTED} on the first screen`);
  const teachers = readme.indexOf('## For teachers');
  const commands = readme.indexOf('```sh\nnpm start');
  assert.ok(teachers > 0 && commands > teachers, 'For teachers before the commands');
  assert.equal(readme.slice(0, teachers).match(/```/g), null, 'no command block before For teachers');
});

test('the screenshot is a PNG under 200 KB', () => {
  const png = readFileSync(at('docs/screenshot.png'));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(statSync(at('docs/screenshot.png')).size < 200 * 1024);
  assert.ok(png.readUInt32BE(16) >= 1000, 'at least 1000 px wide');
});

test('the developer part installs the package', () => {
  const dev = readme.slice(readme.indexOf('## For developers'));
  assert.match(dev.slice(0, 200), /npm install vilab/);
});
