#!/usr/bin/env node
// vilab command-line interface on the WebAssembly build (package.json "bin": vilab).
// Same commands, CSV bytes, hashes, messages and exit codes as the native CLI
// (core/cli/main.cpp, build/native/vilab):
//   npx vilab run  scenario.json --steps N [--every K]   CSV trajectory on stdout
//   npx vilab hash scenario.json --steps N               FNV-1a 64 state hash
//   npx vilab integrate scenario.json --steps N [--every K] [--include a,b]   lab.integrate as CSV
//   npx vilab import model.xml                           a MuJoCo model (MJCF) as a scenario
//   npx vilab registry                                   systems and integrators as JSON
//   npx vilab schema                                     the scenarios' JSON Schema (this CLI only;
//                                                        the usage text stays the native one's)
//   npx vilab --version
// Exit codes: 0 ok, 1 a step was refused (the rows before it are printed), 2 bad input.
import { fstatSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createLab, MAX_SCENARIO_BYTES } from '../web/sim/vilab.js';
import { scenarioSchemaText } from '../web/sim/schema.js';

const USAGE =
  'usage:\n' +
  '  vilab run  <scenario.json|-> --steps N [--every K]   write CSV to stdout\n' +
  '  vilab hash <scenario.json|-> --steps N               print the FNV-1a 64 state hash\n' +
  '  vilab integrate <scenario.json|-> --steps N [--every K] [--include a,b]\n' +
  '                                                      write the trajectory as CSV\n' +
  '  vilab import <model.xml|->                          print a MuJoCo model (MJCF) as a scenario\n' +
  '  vilab registry                                      print the registries as JSON\n' +
  '  vilab --version                                     print the version\n';

class UsageExit extends Error {
  constructor(code) {
    super('usage');
    this.code = code;
  }
}

class CliError extends Error {}

// Node replaces a standard descriptor that is closed at start (>&-, <&-) by /dev/null
// opened read-write, where a shell's redirection opens it read-only or write-only: that
// is how a closed one is told apart (Linux: /proc/self/fdinfo), so both CLIs say so.
function closedAtStart(fd) {
  try {
    const nul = statSync('/dev/null');
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || st.rdev !== nul.rdev) return false;
    const flags = /flags:\s*([0-7]+)/.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return flags !== null && (Number.parseInt(flags[1], 8) & 3) === 2;
  } catch {
    return false;
  }
}

// stdout could not be written: EPIPE (the reader has gone, as under | head) ends the
// run quietly with exit 0; any other error says so and exits 2, as the native CLI.
function outputFailed(e) {
  if (e?.code === 'EPIPE') process.exit(0);
  process.stderr.write(`vilab: stdout: cannot write (${e?.code ?? 'error'})\n`);
  process.exit(2);
}

// Buffered stdout that respects back-pressure; a write error ends the run (outputFailed).
const out = {
  chunks: [],
  size: 0,
  push(text) {
    this.chunks.push(text);
    this.size += text.length;
    return this.size >= 1 << 20 ? this.flush() : null;
  },
  flush() {
    if (this.chunks.length === 0) return Promise.resolve();
    const text = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    return new Promise((resolve) => {
      process.stdout.write(text, (e) => (e ? outputFailed(e) : resolve()));
    });
  },
};
process.stdout.on('error', outputFailed);

// As the native parseCount: decimal digits only, given in full, in [0, maxSteps].
const MAX_COUNT = (1n << 53n) - 1n;
function parseCount(flag, text) {
  const shown = text === '' ? '"" (nothing)' : cut(text);
  if (!/^[0-9]+$/.test(text)) throw new CliError(`vilab: ${flag}: must be a non-negative integer, got ${shown}`);
  if (BigInt(text) > MAX_COUNT) throw new CliError(`vilab: ${flag}: must be at most ${MAX_COUNT}, got ${shown}`);
  return Number(text);
}

/** Control characters (C0, DEL, C1) as \u00XX, as the core's escapeControl: seen, never acted on. */
function escapeControl(text) {
  return text.replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// As the native cutForMessage: control characters escaped, then at most 32 bytes of
// UTF-8, then "…".
function cut(raw, max = 32) {
  const text = escapeControl(raw);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  // …and never inside an escape (as the core's cutForMessage)
  let head = bytes.subarray(0, end).toString('utf8');
  const slash = head.lastIndexOf('\\');
  if (slash >= 0 && head.length - slash < 6 && text.startsWith('\\u0', slash)) head = head.slice(0, slash);
  return `${head}…`;
}

// The offset of the first byte that is not well-formed UTF-8, or -1 (as the core's
// invalidUtf8Offset).
function invalidUtf8Offset(bytes) {
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i];
    let len = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (c < 0x80) len = 1;
    else if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    }
    let valid = len > 0 && i + len <= bytes.length;
    for (let k = 1; valid && k < len; k++) {
      const b = bytes[i + k];
      valid = k === 1 ? b >= lo && b <= hi : b >= 0x80 && b <= 0xbf;
    }
    if (!valid) return i;
    i += len;
  }
  return -1;
}

// As the native readScenario: at most one byte past the limit is read (so /dev/zero or
// an endless pipe is refused at once), and the bytes must be UTF-8 text.
async function readScenario(path) {
  const limit = MAX_SCENARIO_BYTES;
  const chunks = [];
  let size = 0;
  if (path === '-' && closedAtStart(0)) throw new CliError('vilab: cannot read - (standard input is closed)');
  try {
    if (path === '-') {
      for await (const chunk of process.stdin) {
        chunks.push(chunk);
        size += chunk.length;
        if (size > limit) break;
      }
    } else {
      const file = await open(path, 'r');
      try {
        for (;;) {
          const buffer = Buffer.alloc(Math.min(1 << 16, limit + 1 - size));
          const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
          if (bytesRead === 0) break;
          chunks.push(buffer.subarray(0, bytesRead));
          size += bytesRead;
          if (size > limit) break;
        }
      } finally {
        await file.close();
      }
    }
  } catch {
    throw new CliError(`vilab: cannot read ${cut(path, 200)}`);
  }
  if (size > limit) throw new CliError(`vilab: scenario: too large (more than ${limit} bytes; the limit is 4 MiB)`);
  const bytes = Buffer.concat(chunks, size);
  const bad = invalidUtf8Offset(bytes);
  if (bad >= 0) throw new CliError(`vilab: scenario: is not UTF-8 text (byte ${bad})`);
  return bytes.toString('utf8');
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

// C's %.17g: 17 significant digits of the exact binary value, ties to even, printf's layout.
function exactDigits(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased) m |= 1n << 52n;
  const e2 = (biased || 1) - 1075;
  const digits = e2 >= 0 ? (m << BigInt(e2)).toString() : (m * 5n ** BigInt(-e2)).toString();
  return { digits, point: digits.length + Math.min(e2, 0) };
}

function g17(x) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (x === 0) return `${sign}0`;
  let { digits, point } = exactDigits(x);
  const z = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(z);
  point -= z;
  let head = digits.slice(0, 17).padEnd(17, '0');
  const rest = digits.slice(17);
  const half = /^50*$/.test(rest);
  const aboveHalf = rest[0] > '5' || (rest[0] === '5' && !half);
  if (aboveHalf || (half && Number(head[16]) % 2 === 1)) {
    head = (BigInt(head) + 1n).toString();
    if (head.length > 17) {
      head = head.slice(0, 17);
      point += 1;
    }
  }
  const e = point - 1;
  const trim = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  if (e < -4 || e >= 17) return `${sign}${trim(`${head[0]}.${head.slice(1)}`)}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  if (e < 0) return `${sign}${trim(`0.${'0'.repeat(-e - 1)}${head}`)}`;
  return `${sign}${trim(`${head.slice(0, e + 1)}.${head.slice(e + 1)}`)}`;
}

// As the native integrateCommand: the column names, one row per sample; a refused step
// throws after the rows before it.
async function integrateCsv(lab, text, steps, every, include) {
  const traj = lab.integrate(text, { steps, every, include });
  const names = Object.keys(traj.columns);
  await out.push(names.join(',') + '\n');
  const columns = names.map((n) => traj.columns[n]);
  for (let k = 0; k < traj.samples; k++) await out.push(columns.map((c) => g17(c[k])).join(',') + '\n');
  if (traj.refusal) throw traj.refusal;
  return 0;
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
  if (cmd === 'schema' && argv.length === 1) {
    await out.push(scenarioSchemaText(await createLab()));
    return 0;
  }
  if (cmd === 'import') {
    if (argv.length !== 2) throw new UsageExit(2);
    const text = await readScenario(argv[1]);
    await out.push((await createLab()).importMjcfText(text) + '\n');
    return 0;
  }
  if (cmd !== 'run' && cmd !== 'hash' && cmd !== 'integrate') throw new UsageExit(2);
  if (argv.length < 2) throw new UsageExit(2);
  let steps = -1;
  let every = 1;
  let include = [];
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--steps' && i + 1 < argv.length) {
      steps = parseCount('--steps', argv[++i]);
    } else if (a === '--every' && i + 1 < argv.length) {
      every = parseCount('--every', argv[++i]);
      if (every === 0) throw new CliError('vilab: --every: must be at least 1');
    } else if (a === '--include' && i + 1 < argv.length && cmd === 'integrate') {
      include = argv[++i] === '' ? [] : argv[i].split(',');
    } else {
      throw new UsageExit(2);
    }
  }
  if (steps < 0) throw new CliError('vilab: --steps: is required');
  const text = await readScenario(argv[1]);
  const lab = await createLab();
  if (cmd === 'integrate') return integrateCsv(lab, text, steps, every, include);
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

// Whatever escapes (a defect) is still one line, never a stack trace.
const internal = (e) => {
  process.stderr.write(`vilab: internal error (${String(e?.message ?? e).slice(0, 200)})\n`);
  process.exit(2);
};
process.on('uncaughtException', internal);
process.on('unhandledRejection', internal);

let code;
try {
  if (closedAtStart(1)) outputFailed({ code: 'EBADF' });
  code = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageExit) {
    (e.code ? process.stderr : process.stdout).write(USAGE);
    code = e.code;
  } else {
    // A refused step exits 1 after the rows before it; any other error exits 2.
    const message = e instanceof Error && typeof e.message === 'string' ? e.message : `internal error (${String(e)})`;
    process.stderr.write(`${message.startsWith('vilab: ') ? message : `vilab: ${message}`}\n`);
    code = e instanceof Error && e.step !== undefined ? 1 : 2;
  }
}
await out.flush();
process.exitCode = code;
