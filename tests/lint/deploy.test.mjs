// The Pages workflow installs only what the web build needs, caches npm, tests the wasm
// layer before it deploys, and builds the site with the same `npm run build:site` a
// developer runs (tests/e2e/site.test.mjs runs that), which reuses build/wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
// the steps without their comments
const workflow = read('.github/workflows/pages.yml').replace(/^\s*#.*$/gm, '');
const NEEDED = ['emscripten', 'cmake', 'libeigen3-dev', 'nlohmann-json3-dev', 'tao-pegtl-dev'];
// make and g++-12 build the native CLI that the wasm tests compare with
const ALLOWED = new Set([...NEEDED, 'make', 'g++-12']);

test('the workflow installs the web build’s packages and nothing else', () => {
  const installs = [...workflow.matchAll(/apt-get install ([^\n]+)/g)].map((m) => m[1]);
  assert.equal(installs.length, 1, 'one apt-get install');
  const packages = installs[0].split(/\s+/).filter((w) => w && !w.startsWith('-'));
  for (const p of NEEDED) assert.ok(packages.includes(p), `installs ${p}`);
  for (const p of packages) assert.ok(ALLOWED.has(p), `installs ${p}, which the web build does not need`);
  assert.doesNotMatch(workflow, /setup\.sh|chromium|clang|boost|catch2 |npm test|npm run build\b(?!:)/);
  assert.match(workflow, /runs-on: ubuntu-/);
});

test('npm is cached; the wasm layer is tested before the site is built and uploaded with vilab.html', () => {
  assert.match(workflow, /uses: actions\/setup-node@v\d+\s+with:[\s\S]*?cache: npm/);
  const at = (re) => {
    const i = workflow.search(re);
    assert.ok(i >= 0, String(re));
    return i;
  };
  const tests = at(/VILAB_TEST_LAYERS=wasm node scripts\/test\.mjs/);
  const site = at(/run: npm run build:site/);
  const upload = at(/actions\/upload-pages-artifact/);
  assert.ok(at(/emcmake cmake/) < tests && tests < site && site < upload, 'build wasm → test → build:site → upload');
  assert.match(workflow.slice(upload), /path: dist\n/);
  assert.match(workflow, /VILAB_SITE_URL: \$\{\{ steps\.pages\.outputs\.base_url \}\}\//);
});

test('build:site copies vilab.html into dist/ and never rebuilds the wasm', () => {
  const pkg = JSON.parse(read('package.json'));
  assert.equal(pkg.scripts['build:site'], 'bash scripts/build-site.sh');
  const script = read('scripts/build-site.sh');
  assert.doesNotMatch(script, /cmake|emcc|build\.sh"?\s*$|setup\.sh/m);
  assert.match(script, /cp "\$single\/vilab\.html" "\$out\/vilab\.html"/);
  assert.match(script, /precompress\.mjs/);
});
