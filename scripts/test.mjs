// Runs every test layer and ends with a one-line summary of passed/failed counts:
//   native  Catch2 through CTest            (build/native)
//   wasm    node:test on the built module    (tests/wasm)
//   types   tsc --noEmit on a usage file     (tests/types)
//   e2e     Chromium via playwright-core     (tests/e2e), against `vite preview`
// VILAB_TEST_LAYERS=native,wasm limits the layers.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { preview } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const layers = (process.env.VILAB_TEST_LAYERS ?? 'native,wasm,types,e2e').split(',');
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
  const { code, output } = await run(
    process.execPath,
    ['--test', '--test-reporter=tap', '--test-concurrency=1', `${dir}/`],
    env,
  );
  const passed = count(output, /^# pass (\d+)/m);
  const failed = count(output, /^# fail (\d+)/m) + count(output, /^# cancelled (\d+)/m);
  results.push({ name, passed, failed: failed || (code !== 0 && passed === 0 ? 1 : failed) });
}

const started = Date.now();
if (layers.includes('native')) {
  const { code, output } = await run('ctest', [
    '--test-dir', 'build/native', '--output-on-failure', '-j', String(os.availableParallelism?.() ?? 2),
  ]);
  const total = count(output, /tests passed, \d+ tests failed out of (\d+)/);
  const failed = count(output, /tests passed, (\d+) tests failed/);
  results.push({ name: 'native', passed: total - failed, failed: failed || (code !== 0 && total === 0 ? 1 : failed) });
}
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

const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
const detail = results.map((r) => `${r.name} ${r.passed}/${r.passed + r.failed}`).join(', ');
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nvilab tests: ${passed} passed, ${failed} failed (${detail}) in ${minutes} min`);
process.exit(failed === 0 && results.length > 0 ? 0 : 1);
