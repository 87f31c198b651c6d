// Runs every test layer and ends with a one-line summary of passed/failed counts:
//   lint    style and house rules (tests/lint): Biome (JS, JSON, CSS), clang-format (C++), no id switches
//   native  Catch2 through CTest            (build/native)
//   wasm    node:test on the built module    (tests/wasm)
//   types   tsc --noEmit on a usage file     (tests/types)
//   e2e     Chromium via playwright-core     (tests/e2e), against `vite preview`
//   asan    the native tests' sanitized subset under ASan + UBSan, through CTest (build/sanitize)
//   fuzz    a smoke of every libFuzzer target (tests/fuzz), VILAB_FUZZ_SMOKE_SECONDS each (default 15)
// VILAB_TEST_LAYERS=native,wasm limits the layers; VILAB_SKIP_FUZZ=1 (no clang) drops asan and fuzz.
// The browser leaves about a fifth of the machine idle, so the other layers run beside e2e
// (niced, their output printed when each ends), all but the e2e files that time frames, which
// run alone at the end; the e2e files that mostly wait on the browser's timers run beside the
// other e2e files, and once the other layers have ended their lane takes e2e files too (unniced).
// VILAB_TEST_SERIAL=1 runs one layer and one file at a time.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { preview } from 'vite';
import { TARGETS, fuzzTarget, describeRun } from './fuzz.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const sanitized = process.env.VILAB_SKIP_FUZZ === '1' ? '' : ',asan,fuzz';
const layers = (process.env.VILAB_TEST_LAYERS ?? `lint,native,wasm,types,e2e${sanitized}`).split(',');

// A layer beside the browser's (`beside`) writes its output when it ends (TAP streams never
// interleave) and runs at a lower priority, so the e2e tests keep their pace; a `quiet` run
// only writes its output when it ends.
function run(cmd, args, env = {}, beside = false, quiet = beside) {
  const start = Date.now();
  return new Promise((resolve) => {
    let output = '';
    const [file, ...rest] = beside ? ['nice', '-n', '10', cmd, ...args] : [cmd, ...args];
    const child = spawn(file, rest, { cwd: root, env: { ...process.env, ...env } });
    const forward = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk;
        if (!quiet) sink.write(chunk);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('close', (code) => {
      if (quiet) process.stdout.write(output);
      timeline.push({ start, end: Date.now(), what: args.filter((a) => a.includes('/')).join(' ') });
      resolve({ code, output });
    });
  });
}

function count(output, re) {
  const m = output.match(re);
  return m ? Number(m[1]) : 0;
}

const results = {};
// When each job ran (from the suite's start), printed at the end: what the CI minutes went to.
const timeline = [];
const started = Date.now();

/** node:test on a directory or a list of files; a layer run in parts adds up its counts. */
async function nodeTests(name, paths, env = {}, beside = false, quiet = beside) {
  const args = ['--test', '--test-reporter=tap', '--test-concurrency=1', ...(Array.isArray(paths) ? paths : [`${paths}/`])];
  const { code, output } = await run(process.execPath, args, env, beside, quiet);
  const passed = count(output, /^# pass (\d+)/m);
  const failed = count(output, /^# fail (\d+)/m) + count(output, /^# cancelled (\d+)/m);
  const before = results[name] ?? { passed: 0, failed: 0 };
  results[name] = { passed: before.passed + passed, failed: before.failed + (failed || (code !== 0 && passed === 0 ? 1 : failed)) };
}

async function ctest(name, dir, env = {}, beside = false) {
  const jobs = String(os.availableParallelism?.() ?? 2);
  const { code, output } = await run('ctest', ['--test-dir', dir, '--output-on-failure', '-j', jobs], env, beside);
  const total = count(output, /tests passed, \d+ tests failed out of (\d+)/);
  const failed = count(output, /tests passed, (\d+) tests failed/);
  results[name] = { passed: total - failed, failed: failed || (code !== 0 && total === 0 ? 1 : failed) };
}

async function types(beside) {
  const { code } = await run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tests/types'], {}, beside);
  results.types = { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
}

// The e2e files that judge frame gaps, slice lengths and ms per frame: they run after the
// layers beside the browser have ended, so a responsiveness measurement shares the machine
// with none of the suite's own work (their busy-machine checks see an idle page, not the
// CPU left to it). The studies file's frame budget (median ≤ 4 ms while a sweep runs) read
// 6.5 ms in a CI rehearsal where the second e2e lane ran beside it, 0.6–0.9 ms alone.
const TIMED_E2E = ['landing.test.mjs', 'mujoco-compare.test.mjs', 'studies.test.mjs'];
// The e2e files that wait on the browser's own timers (a service worker's update()): they run
// at once with the other untimed files, in their own browser, unniced.
const WAITING_E2E = ['update.test.mjs'];

/** The e2e files of `part` ('untimed', 'timed' or 'all'), as paths. */
function e2eFiles(part) {
  return readdirSync(join(root, 'tests/e2e'))
    .filter((f) => f.endsWith('.test.mjs'))
    .sort()
    .filter((f) => part === 'all' || TIMED_E2E.includes(f) === (part === 'timed'))
    .map((f) => `tests/e2e/${f}`);
}

/** Runs `fn(env)` with `vite preview` serving dist/ (env.VILAB_URL is its address). */
async function withPreview(fn) {
  const server = await preview({
    configFile: fileURLToPath(new URL('../web/vite.config.js', import.meta.url)),
    preview: { port: 0, host: '127.0.0.1' },
    logLevel: 'warn',
  });
  try {
    await fn({ VILAB_URL: server.resolvedUrls.local[0] });
  } finally {
    await server.close();
  }
}

/** The e2e files of `part`, one node:test run for them all. */
const e2e = (part = 'all') => withPreview((env) => nodeTests('e2e', e2eFiles(part), env));

/**
 * The untimed e2e files beside the other layers. The browser's lane takes files from the
 * front of the queue, a file at a time; the waiting files run at once, in a lane of their
 * own; once the other layers have ended, their lane takes files from the back at the same
 * priority, so the browser's pauses (page loads, timers) no longer leave a core idle for
 * the rest of the layer. Each file prints its output when it ends: lanes never interleave.
 */
async function e2eBesideOthers() {
  await withPreview(async (env) => {
    const files = e2eFiles('untimed');
    const waiting = files.filter((f) => WAITING_E2E.some((w) => f.endsWith(`/${w}`)));
    const queue = files.filter((f) => !waiting.includes(f));
    const lane = async (take) => {
      for (let file = take(); file; file = take()) await nodeTests('e2e', [file], env, false, true);
    };
    await Promise.all([
      lane(() => queue.shift()),
      nodeTests('e2e', waiting, env, false, true),
      others(true).then(() => lane(() => queue.pop())),
    ]);
  });
}

const asan = (beside) =>
  ctest(
    'asan',
    'build/sanitize',
    { ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1', UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1' },
    beside,
  );

// One pass per target, each failing on any finding (crash, UB, leak, timeout, OOM); two
// targets at a time (each is one process on one core).
async function fuzz(beside) {
  const seconds = Number(process.env.VILAB_FUZZ_SMOKE_SECONDS ?? 15);
  const runs = [];
  const targets = Object.keys(TARGETS);
  for (let k = 0; k < targets.length; k += 2) {
    const start = Date.now();
    const pair = targets.slice(k, k + 2);
    runs.push(...(await Promise.all(pair.map((t) => fuzzTarget(t, seconds, { quiet: true, smoke: true, nice: beside ? 10 : 0 })))));
    timeline.push({ start, end: Date.now(), what: `fuzz ${pair.join(' ')}` });
  }
  for (const r of runs) {
    console.log(`fuzz smoke: ${describeRun(r)}`);
    if (!r.ok) process.stderr.write(r.log.split('\n').slice(-60).join('\n'));
  }
  results.fuzz = { passed: runs.filter((r) => r.ok).length, failed: runs.filter((r) => !r.ok).length };
}

// The sanitized tree (build/sanitize), brought up to date before the asan and fuzz layers:
// seconds after scripts/build.sh, the whole build when it is missing (`npm run bench` and
// VILAB_SKIP_FUZZ=1 builds skip it). A failed build fails both layers.
async function sanitizedTree(beside) {
  const { code } = await run('bash', ['scripts/build-sanitized.sh'], {}, beside);
  if (code === 0) return true;
  for (const name of ['asan', 'fuzz'].filter((l) => layers.includes(l))) results[name] = { passed: 0, failed: 1 };
  return false;
}

// The layers other than the browser's, in order (one at a time, each using both cores).
async function others(beside) {
  if (layers.includes('native')) await ctest('native', 'build/native', {}, beside);
  if (layers.includes('wasm')) await nodeTests('wasm', 'tests/wasm', {}, beside);
  if (layers.includes('types')) await types(beside);
  if (!layers.includes('asan') && !layers.includes('fuzz')) return;
  if (!(await sanitizedTree(beside))) return;
  if (layers.includes('asan')) await asan(beside);
  if (layers.includes('fuzz')) await fuzz(beside);
}

if (layers.includes('lint')) await nodeTests('lint', 'tests/lint');
if (!layers.includes('e2e')) await others(false);
else if (process.env.VILAB_TEST_SERIAL === '1') {
  await others(false);
  await e2e();
} else {
  await e2eBesideOthers();
  await e2e('timed');
}

const order = ['lint', 'native', 'wasm', 'types', 'e2e', 'asan', 'fuzz'].filter((name) => results[name]);
const passed = order.reduce((a, name) => a + results[name].passed, 0);
const failed = order.reduce((a, name) => a + results[name].failed, 0);
const detail = order.map((name) => `${name} ${results[name].passed}/${results[name].passed + results[name].failed}`).join(', ');
const seconds = (t) => ((t - started) / 1000).toFixed(0).padStart(5);
console.log('\nvilab tests: timeline (s from the start, seconds taken, job)');
for (const j of timeline.sort((a, b) => a.start - b.start))
  console.log(`${seconds(j.start)} ${seconds(j.end)} ${((j.end - j.start) / 1000).toFixed(0).padStart(4)}  ${j.what}`);
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nvilab tests: ${passed} passed, ${failed} failed (${detail}) in ${minutes} min`);
process.exit(failed === 0 && order.length > 0 ? 0 : 1);
