// Both CLIs (build/native/vilab and scripts/vilab-cli.mjs) where the process meets its
// surroundings: an output that cannot be written (a full disk, a closed stdout) is an
// error with its message, a reader that goes away (| head) ends the run quietly with
// exit 0, a closed stdin, counts that are not whole numbers written in full, and
// messages carried whole (a NUL cuts nothing). Each line on stderr is one "vilab: …".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { nativeCli, wasmCli, runNative, runWasmCli } from './helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'vilab-cli-hardening-'));
const file = (name, bytes) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const dsp = file('dsp.json', JSON.stringify({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 }));

// Both CLIs under a shell redirection (`tail` is appended to the command line).
const CLIS = {
  native: [nativeCli],
  wasm: [process.execPath, wasmCli],
};
const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
function shell(cli, args, tail) {
  const command = `${[...CLIS[cli], ...args].map(quote).join(' ')} ${tail}`;
  return spawnSync('bash', ['-c', command], { encoding: 'utf8', maxBuffer: 1 << 26 });
}

// One line on stderr, "vilab: …", never a stack trace.
function assertOneLine(stderr) {
  assert.match(stderr, /^vilab: [^\n]*\n$/, JSON.stringify(stderr.slice(0, 400)));
}

test('an output that cannot be written is an error: > /dev/full and a closed stdout, in both CLIs', () => {
  for (const [tail, expected] of [
    ['> /dev/full', 'vilab: stdout: cannot write (ENOSPC)\n'],
    ['>&-', 'vilab: stdout: cannot write (EBADF)\n'],
  ]) {
    for (const args of [['run', dsp, '--steps', '100'], ['hash', dsp, '--steps', '100'], ['--version'], ['registry']]) {
      for (const cli of Object.keys(CLIS)) {
        const r = shell(cli, args, tail);
        const label = `${cli}: vilab ${args.join(' ')} ${tail}`;
        assert.equal(r.status, 2, `${label}: exit ${r.status}, ${r.stderr}`);
        assert.equal(r.stderr, expected, label);
      }
    }
  }
});

test('a reader that goes away (| head) ends the run quietly with exit 0 in both CLIs', () => {
  for (const cli of Object.keys(CLIS)) {
    const r = shell(cli, ['run', dsp, '--steps', '200000'], `| head -n 2; exit "\${PIPESTATUS[0]}"`);
    assert.equal(r.status, 0, `${cli}: exit ${r.status}, ${r.stderr.slice(0, 300)}`);
    assert.equal(r.stderr, '', cli);
    assert.equal(r.stdout.split('\n').length, 3, cli);
  }
});

test('a closed stdin gives the same message in both CLIs', () => {
  const out = {};
  for (const cli of Object.keys(CLIS)) {
    const r = shell(cli, ['hash', '-', '--steps', '1'], '<&-');
    assert.equal(r.status, 2, `${cli}: ${r.stderr}`);
    assert.equal(r.stderr, 'vilab: cannot read - (standard input is closed)\n', cli);
    out[cli] = r.stderr;
  }
  // an empty stdin is not a closed one: it is read, and is not JSON
  for (const cli of Object.keys(CLIS)) {
    const r = shell(cli, ['hash', '-', '--steps', '1'], '< /dev/null');
    assert.match(r.stderr, /^vilab: scenario: invalid JSON \(/, cli);
  }
});

test('--steps and --every must be whole numbers given in full, the same in both CLIs', () => {
  for (const value of ['', ' 5', '5 ', '+5', '-0', '0x10', '1e3', '5\u0000', '٣']) {
    for (const flag of ['--steps', '--every']) {
      const args = flag === '--steps' ? ['hash', dsp, '--steps', value] : ['run', dsp, '--steps', '1', '--every', value];
      if (value.includes('\u0000')) continue; // argv cannot carry a NUL
      const native = runNative(args);
      const wasm = runWasmCli(args);
      const label = `${flag} ${JSON.stringify(value)}`;
      assert.equal(native.status, 2, `${label}: native accepted it`);
      assert.equal(wasm.status, 2, `${label}: wasm accepted it`);
      assert.equal(wasm.stderr, native.stderr, label);
      assert.ok(native.stderr.startsWith(`vilab: ${flag}: must be a non-negative integer, got `), native.stderr);
    }
  }
  assert.equal(runNative(['hash', dsp, '--steps', '']).stderr, 'vilab: --steps: must be a non-negative integer, got "" (nothing)\n');
  // what is whole and in full still runs, in both
  assert.equal(runWasmCli(['hash', dsp, '--steps', '007']).stdout, runNative(['hash', dsp, '--steps', '7']).stdout);
});

test('messages cross whole: a NUL in a key and text after the scenario, the same bytes in both CLIs', () => {
  const cases = [
    [file('nul-key.json', '{"system":"pendulum","ab\\u0000cd":1}'), /^vilab: ab\\u0000cd: unknown field \(known: system, /],
    [
      file('nul-after.json', Buffer.from('{"system":"pendulum"}\u0000 garbage {{{', 'utf8')),
      /^vilab: scenario: unexpected text after the scenario at byte 22\n$/,
    ],
    [file('escape.json', '{"system":"\\u001b[2J"}'), /^vilab: system: unknown id "\\u001b\[2J" \(known: /],
  ];
  for (const [path, pattern] of cases) {
    const native = runNative(['hash', path, '--steps', '1']);
    const wasm = runWasmCli(['hash', path, '--steps', '1']);
    assert.equal(native.status, 2);
    assert.equal(wasm.status, 2);
    assert.equal(wasm.stderr, native.stderr);
    assert.match(native.stderr, pattern);
    assertOneLine(native.stderr);
    assert.doesNotMatch(native.stderr.slice(0, -1), /\p{Cc}/u);
  }
});
