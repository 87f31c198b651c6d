#!/usr/bin/env node
// vilab command-line interface on the WebAssembly build (package.json "bin": vilab).
// Same commands, CSV bytes, hashes, messages and exit codes as the native CLI
// (core/cli/main.cpp, build/native/vilab):
//   npx vilab run  scenario.json --steps N [--every K]   CSV trajectory on stdout
//   npx vilab hash scenario.json --steps N               FNV-1a 64 state hash
//   npx vilab registry                                   systems and integrators as JSON
//   npx vilab --version
// Exit codes: 0 ok, 1 a step was refused (the rows before it are printed), 2 bad input.
import { readFile } from 'node:fs/promises';
import { createLab } from '../web/sim/vilab.js';

const USAGE =
  'usage:\n' +
  '  vilab run  <scenario.json|-> --steps N [--every K]   write CSV to stdout\n' +
  '  vilab hash <scenario.json|-> --steps N               print the FNV-1a 64 state hash\n' +
  '  vilab registry                                      print the registries as JSON\n' +
  '  vilab --version                                     print the version\n';

class UsageExit extends Error {
  constructor(code) {
    super('usage');
    this.code = code;
  }
}

class CliError extends Error {}

// Buffered stdout that respects back-pressure and survives a closed pipe (| head).
const out = {
  chunks: [],
  size: 0,
  closed: false,
  push(text) {
    this.chunks.push(text);
    this.size += text.length;
    return this.size >= 1 << 20 ? this.flush() : null;
  },
  flush() {
    if (this.closed || this.chunks.length === 0) return Promise.resolve();
    const text = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    return new Promise((resolve) => {
      process.stdout.write(text, () => resolve());
    });
  },
};
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') {
    out.closed = true;
    process.exit(process.exitCode ?? 0);
  }
  throw e;
});

// As the native parseCount: strtoll base 10, the whole text consumed, not negative.
function parseCount(flag, text) {
  const ok = text === '' || /^[ \t\n\v\f\r]*[+-]?[0-9]+$/.test(text);
  let v = ok && text !== '' ? BigInt(text.trim()) : 0n;
  const max = (1n << 63n) - 1n;
  if (v > max) v = max;
  if (!ok || v < 0n) throw new CliError(`vilab: ${flag}: must be a non-negative integer, got ${text}`);
  return Number(v);
}

async function readAll(path) {
  try {
    if (path === '-') {
      const chunks = [];
      for await (const chunk of process.stdin) chunks.push(chunk);
      return Buffer.concat(chunks).toString('utf8');
    }
    return await readFile(path, 'utf8');
  } catch {
    throw new CliError(`vilab: cannot read ${path}`);
  }
}

// As the native run(): chunks that never cross a multiple of `every`; each() after
// every chunk that ends on such a multiple. advance(n) takes exactly n steps.
async function run(sim, steps, every, each) {
  let done = 0;
  while (done < steps) {
    const chunk = every > 0 ? Math.min(steps - done, every - (done % every)) : steps - done;
    sim.advance(chunk);
    done += chunk;
    if (every > 0 && done % every === 0) await each();
  }
}

async function main(argv) {
  if (argv.length < 1) throw new UsageExit(2);
  const cmd = argv[0];
  if (cmd === '--help' || cmd === '-h') throw new UsageExit(0);
  if (cmd === '--version' || cmd === '-V') {
    const lab = await createLab();
    await out.push(`vilab ${lab.version}\n`);
    return 0;
  }
  if (cmd === 'registry') {
    const lab = await createLab();
    await out.push(lab.registryText() + '\n');
    return 0;
  }
  if (cmd !== 'run' && cmd !== 'hash') throw new UsageExit(2);
  if (argv.length < 2) throw new UsageExit(2);
  let steps = -1;
  let every = 1;
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--steps' && i + 1 < argv.length) {
      steps = parseCount('--steps', argv[++i]);
    } else if (a === '--every' && i + 1 < argv.length) {
      every = parseCount('--every', argv[++i]);
      if (every === 0) throw new CliError('vilab: --every: must be at least 1');
    } else {
      throw new UsageExit(2);
    }
  }
  if (steps < 0) throw new CliError('vilab: --steps: is required');
  const text = await readAll(argv[1]);
  const lab = await createLab();
  const sim = lab.simulate(text);
  try {
    if (cmd === 'hash') {
      await run(sim, steps, 0, () => {});
      await out.push(sim.hash() + '\n');
      return 0;
    }
    await out.push(sim.csvHeader() + '\n');
    await out.push(sim.csvRow() + '\n');
    await run(sim, steps, every, () => out.push(sim.csvRow() + '\n'));
    return 0;
  } finally {
    sim.dispose();
  }
}

let code;
try {
  code = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageExit) {
    (e.code ? process.stderr : process.stdout).write(USAGE);
    code = e.code;
  } else {
    // A refused step exits 1 after the rows before it; any other error exits 2.
    process.stderr.write(`${e.message.startsWith('vilab: ') ? e.message : `vilab: ${e.message}`}\n`);
    code = e.step !== undefined ? 1 : 2;
  }
}
await out.flush();
process.exitCode = code;
