// Runs every test layer and ends with a one-line summary of passed/failed counts:
//   lint    style and house rules (tests/lint): Biome (JS, JSON, CSS), clang-format (C++), no id switches
//   native  Catch2 through CTest            (build/native)
//   wasm    node:test on the built module    (tests/wasm)
//   types   tsc --noEmit on a usage file     (tests/types)
//   e2e     Chromium via playwright-core     (tests/e2e), against `vite preview`
//   asan    the native tests' sanitized subset under ASan + UBSan, through CTest (build/sanitize)
//   fuzz    a smoke of every libFuzzer target (tests/fuzz), VILAB_FUZZ_SMOKE_SECONDS each (default 15)
// VILAB_TEST_LAYERS=native,wasm limits the layers; VILAB_SKIP_FUZZ=1 (no clang) drops asan and fuzz.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { preview } from 'vite';
import { TARGETS, fuzzTarget, describeRun } from './fuzz.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const sanitized = process.env.VILAB_SKIP_FUZZ === '1' ? '' : ',asan,fuzz';
const layers = (process.env.VILAB_TEST_LAYERS ?? `lint,native,wasm,types,e2e${sanitized}`).split(',');
const results = [];

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env } });
    const forward = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk;
        sink.write(chunk);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function count(output, re) {
  const m = output.match(re);
  return m ? Number(m[1]) : 0;
}

async function nodeTests(name, dir, env = {}) {
  const { code, output } = await run(process.execPath, ['--test', '--test-reporter=tap', '--test-concurrency=1', `${dir}/`], env);
  const passed = count(output, /^# pass (\d+)/m);
  const failed = count(output, /^# fail (\d+)/m) + count(output, /^# cancelled (\d+)/m);
  results.push({ name, passed, failed: failed || (code !== 0 && passed === 0 ? 1 : failed) });
}

async function ctest(name, dir, env = {}) {
  const { code, output } = await run(
    'ctest',
    ['--test-dir', dir, '--output-on-failure', '-j', String(os.availableParallelism?.() ?? 2)],
    env,
  );
  const total = count(output, /tests passed, \d+ tests failed out of (\d+)/);
  const failed = count(output, /tests passed, (\d+) tests failed/);
  results.push({ name, passed: total - failed, failed: failed || (code !== 0 && total === 0 ? 1 : failed) });
}

const started = Date.now();
if (layers.includes('lint')) await nodeTests('lint', 'tests/lint');
if (layers.includes('native')) await ctest('native', 'build/native');
if (layers.includes('wasm')) await nodeTests('wasm', 'tests/wasm');
if (layers.includes('types')) {
  const { code } = await run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tests/types']);
  results.push({ name: 'types', passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 });
}
if (layers.includes('e2e')) {
  const server = await preview({
    configFile: fileURLToPath(new URL('../web/vite.config.js', import.meta.url)),
    preview: { port: 0, host: '127.0.0.1' },
    logLevel: 'warn',
  });
  const url = server.resolvedUrls.local[0];
  await nodeTests('e2e', 'tests/e2e', { VILAB_URL: url });
  await server.close();
}

if (layers.includes('asan')) {
  await ctest('asan', 'build/sanitize', {
    ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1',
    UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
  });
}
if (layers.includes('fuzz')) {
  // One pass per target, each failing on any finding (crash, UB, leak, timeout, OOM).
  const seconds = Number(process.env.VILAB_FUZZ_SMOKE_SECONDS ?? 15);
  let passed = 0;
  let failed = 0;
  for (const target of Object.keys(TARGETS)) {
    const r = await fuzzTarget(target, seconds, { quiet: true, smoke: true });
    console.log(`fuzz smoke: ${describeRun(r)}`);
    if (r.ok) passed++;
    else {
      failed++;
      process.stderr.write(r.log.split('\n').slice(-60).join('\n'));
    }
  }
  results.push({ name: 'fuzz', passed, failed });
}

const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
const detail = results.map((r) => `${r.name} ${r.passed}/${r.passed + r.failed}`).join(', ');
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nvilab tests: ${passed} passed, ${failed} failed (${detail}) in ${minutes} min`);
process.exit(failed === 0 && results.length > 0 ? 0 : 1);
