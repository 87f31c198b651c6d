// The lean module in two parts (binaryen's wasm-split): vilab-lean.wasm holds the functions
// the page's first frame runs (scripts/lean-profile.mjs, run on an instrumented copy), and
// vilab-lean.deferred.wasm the rest of the same code, which the page fetches after its
// first frame (web/sim/vilab.js, deferredPart). Run by the wasm build after the link:
//   node scripts/split-lean.mjs <build/wasm>   (reads vilab-lean-whole.{mjs,wasm})
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = process.argv[2];
const whole = join(dir, 'vilab-lean-whole.wasm');
// What emscripten's output uses; wasm-split validates against these.
const FEATURES = ['exception-handling', 'bulk-memory', 'sign-ext', 'mutable-globals'].map((f) => `--enable-${f}`);
const work = mkdtempSync(join(tmpdir(), 'vilab-split-'));
try {
  // The loader, named for the module it loads (vilab.js passes the module itself anyway).
  const loader = readFileSync(join(dir, 'vilab-lean-whole.mjs'), 'utf8').replaceAll('vilab-lean-whole.wasm', 'vilab-lean.wasm');
  writeFileSync(join(dir, 'vilab-lean.mjs'), loader);
  const instrumented = join(work, 'instrumented.wasm');
  const profile = join(work, 'first-frame.profile');
  execFileSync('wasm-split', [...FEATURES, '--instrument', whole, '-o', instrumented], { stdio: 'inherit' });
  execFileSync(process.execPath, [new URL('./lean-profile.mjs', import.meta.url).pathname, instrumented, profile], { stdio: 'inherit' });
  execFileSync(
    'wasm-split',
    [...FEATURES, whole, '--profile', profile, '-o1', join(dir, 'vilab-lean.wasm'), '-o2', join(dir, 'vilab-lean.deferred.wasm')],
    { stdio: 'inherit' },
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
