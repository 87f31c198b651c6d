// `npx vilab` (scripts/vilab-cli.mjs, the wasm build in Node) prints byte for byte
// what the native CLI prints: CSV, hashes, the registry, messages and exit codes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { root, runNative, runWasmCli, lab } from './helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'vilab-cli-'));
function scenarioFile(name, scenario) {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, typeof scenario === 'string' ? scenario : JSON.stringify(scenario, null, 2));
  return path;
}

const dsp = scenarioFile('dsp', { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
const scenarios = {
  dsp,
  oscillator: scenarioFile('oscillator', {
    system: 'oscillator',
    integrator: 'alpha',
    h: 0.05,
    params: { mass: 2, stiffness: 3 },
    options: {},
  }),
  pendulumRk4: scenarioFile('pendulum', { system: 'pendulum', integrator: 'rk4', initial: { angles: [2.5], rates: [0.5] } }),
  chainTrapezoid: scenarioFile('chain', {
    system: 'chain',
    integrator: 'trapezoid',
    params: { masses: [1, 2, 3], lengths: [0.5, 0.4, 0.3] },
  }),
  dspGeneralized: scenarioFile('generalized', { system: 'double-spherical-pendulum', integrator: 'generalized' }),
  dspPenalty: scenarioFile('penalty', { system: 'double-spherical-pendulum', integrator: 'penalty', h: 0.005 }),
  sphericalAngles: scenarioFile('angles', { system: 'spherical-pendulum', integrator: 'angles-midpoint' }),
  chainDopri5: scenarioFile('dopri5', { system: 'chain', integrator: 'dopri5', options: { tol: 1e-8 } }),
  topEnergyMomentum: scenarioFile('top', { system: 'heavy-top', integrator: 'energy-momentum' }),
  // Refused mid-run: both print the rows before the refused step, then the same message.
  dspRefused: scenarioFile('refused', { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.1 }),
  // Number spellings JSON.stringify would not produce: the CLI passes the file's bytes.
  spelled: scenarioFile('spelled', '{"system":"spherical-pendulum","h":1.0E-2,"params":{"g":9.8100000000000005}}'),
};

// invocations compared, and those refused (exit code not 0): the hardening report's figures
const compared = { all: 0, refused: 0 };
after(() => console.log(`cli pairs: ${compared.all} invocations compared, ${compared.refused} refused`));

function same(args, input) {
  const native = runNative(args, input);
  const wasm = runWasmCli(args, input);
  compared.all++;
  if (native.status !== 0) compared.refused++;
  assert.equal(wasm.stderr, native.stderr, `stderr of vilab ${args.join(' ')}`);
  assert.equal(wasm.status, native.status, `exit code of vilab ${args.join(' ')}`);
  assert.ok(wasm.stdout === native.stdout, `stdout of vilab ${args.join(' ')} differs`);
  return wasm;
}

for (const [name, file] of Object.entries(scenarios)) {
  test(`vilab run = native: ${name}`, () => {
    const r = same(['run', file, '--steps', '2000', '--every', '7']);
    // (A refused step is fine as long as both refuse it alike: exit 1, rows so far.)
    if (r.status === 0) assert.equal(r.stdout.trimEnd().split('\n').length, 2 + Math.floor(2000 / 7));
    else assert.match(r.stderr, /^vilab: step \d+ refused: /);
  });
  test(`vilab hash = native: ${name}`, () => {
    const r = same(['hash', file, '--steps', '20000']);
    if (r.status === 0) assert.match(r.stdout, /^[0-9a-f]{16}\n$/);
    else assert.match(r.stderr, /^vilab: step \d+ refused: /);
  });
}

test('vilab run: every step (default --every 1); a long hash in one advance() call', () => {
  same(['run', scenarios.oscillator, '--steps', '5000']);
  same(['hash', scenarios.oscillator, '--steps', '2500001']);
});

test('vilab run / hash from stdin', () => {
  const text = readFileSync(dsp, 'utf8');
  same(['run', '-', '--steps', '100', '--every', '10'], text);
  same(['hash', '-', '--steps', '100'], text);
});

test('vilab --version = native = package.json', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V']) assert.equal(same([flag]).stdout, `vilab ${pkg.version}\n`);
});

test('vilab registry = native', () => {
  const r = same(['registry']);
  assert.ok(JSON.parse(r.stdout).systems.length > 0);
});

test('the same usage, messages and exit codes on bad input', () => {
  const bad = scenarioFile('bad', { system: 'double-spherical-pendulum', params: { masses: [1, -2] } });
  const cases = [
    [],
    ['--help'],
    ['-h'],
    ['frobnicate'],
    ['run'],
    ['run', dsp],
    ['run', dsp, '--steps'],
    ['run', dsp, '--steps', '-1'],
    ['run', dsp, '--steps', '1e5'],
    ['run', dsp, '--steps', 'ten'],
    ['run', dsp, '--steps', '10', '--every', '0'],
    ['run', dsp, '--steps', '10', '--frames', '3'],
    ['run', join(dir, 'missing.json'), '--steps', '10'],
    ['run', bad, '--steps', '10'],
    ['hash', scenarioFile('nan', '{"system":"oscillator","h":NaN}'), '--steps', '1'],
    ['hash', scenarioFile('empty', ''), '--steps', '1'],
    ['hash', scenarioFile('deep', `{"system":"chain","params":{"masses":${'['.repeat(5e4)}${']'.repeat(5e4)}}}`), '--steps', '1'],
    ['hash', scenarioFile('huge', `{"system":"${'x'.repeat(5 << 20)}"}`), '--steps', '1'],
  ];
  for (const args of cases) {
    const r = same(args);
    if (args[0] !== '--help' && args[0] !== '-h') assert.equal(r.status, 2, args.join(' '));
    else assert.equal(r.status, 0);
  }
});

test('npx vilab runs the CLI (package.json "bin")', () => {
  const r = spawnSync('npx', ['--no-install', 'vilab', 'hash', dsp, '--steps', '1000'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, runNative(['hash', dsp, '--steps', '1000']).stdout);
});

test('bad input is refused before it is read whole, with the same message and exit 2 in both CLIs', () => {
  const raw = (name, bytes) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const tooLarge = 'vilab: scenario: too large (more than 4194304 bytes; the limit is 4 MiB)\n';
  const cases = [
    // an endless file: at most 4 MiB + 1 bytes are read
    [['hash', '/dev/zero', '--steps', '1'], undefined, tooLarge],
    [['hash', '-', '--steps', '1'], 'x'.repeat(5 << 20), tooLarge],
    // counts beyond the documented limit (2^53 − 1, lab.limits.maxSteps)
    [
      ['hash', dsp, '--steps', '99999999999999999999'],
      undefined,
      'vilab: --steps: must be at most 9007199254740991, got 99999999999999999999\n',
    ],
    [['hash', dsp, '--steps', '9007199254740992'], undefined, /must be at most 9007199254740991/],
    [['run', dsp, '--steps', '1', '--every', '18446744073709551616'], undefined, /--every: must be at most/],
    // bytes that are not UTF-8, and text cut inside a character
    [
      ['hash', raw('latin1.json', Buffer.from('{"system":"caf\xe9"}', 'latin1')), '--steps', '1'],
      undefined,
      'vilab: scenario: is not UTF-8 text (byte 14)\n',
    ],
    [['hash', raw('ff.json', Buffer.from('[42\u00ff', 'utf8')), '--steps', '1'], undefined, /^vilab: scenario: invalid JSON \(/],
    [
      ['hash', raw('ff-after.json', Buffer.from('42\u00ff', 'utf8')), '--steps', '1'],
      undefined,
      'vilab: scenario: unexpected text after the scenario at byte 3\n',
    ],
    [
      ['hash', scenarioFile('accented', { system: 'a' + 'é'.repeat(20) }), '--steps', '1'],
      undefined,
      `vilab: system: unknown id "a${'é'.repeat(15)}…" (41 bytes) (known: `,
    ],
    [
      ['hash', scenarioFile('overflow', '{"system":"oscillator","h":1e999}'), '--steps', '1'],
      undefined,
      'vilab: h: must be a finite number, got 1e999 (beyond the range of a double)\n',
    ],
  ];
  assert.equal(lab.limits.maxSteps, 2 ** 53 - 1);
  for (const [args, input, expected] of cases) {
    const t0 = Date.now();
    const r = same(args, input);
    assert.ok(Date.now() - t0 < 20000, `${args.join(' ')} took ${Date.now() - t0} ms`);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    if (typeof expected === 'string' && expected.endsWith('\n')) assert.equal(r.stderr, expected);
    else if (typeof expected === 'string') assert.ok(r.stderr.startsWith(expected), r.stderr);
    else assert.match(r.stderr, expected);
    assert.ok(r.stderr.length <= 301, `${r.stderr.length} characters`);
  }
});

test('a run that overflows is refused (exit 1), never printed as inf', () => {
  const file = scenarioFile('overflowing', { system: 'oscillator', integrator: 'rk4', h: 0.1, params: { stiffness: 1000 } });
  const r = same(['run', file, '--steps', '2000', '--every', '1']);
  assert.equal(r.status, 1);
  assert.doesNotMatch(r.stdout, /inf|nan/i);
  assert.match(r.stderr, /^vilab: step \d+ refused: the new state overflows \(/);
  const euler = same(['run', scenarioFile('euler', { system: 'oscillator', integrator: 'euler', h: 1 }), '--steps', '2000']);
  assert.equal(euler.status, 1);
  assert.doesNotMatch(euler.stdout, /inf|nan/i);
});
