// Runs the libFuzzer targets of tests/fuzz (built by scripts/build-sanitized.sh into
// build/sanitize) and prints, per target: executions, executions per second, coverage
// (edges and features), corpus size and findings (crash, leak, timeout, out-of-memory).
//   node scripts/fuzz.mjs            each target for VILAB_FUZZ_SECONDS (default 600)
//   VILAB_FUZZ_TARGETS=scenario      only some targets
// Exits 1 on any finding; the inputs are kept in build/sanitize/fuzz-findings/<target>/
// and reproduce with `build/sanitize/tests/fuzz/fuzz_<target> <file>`.
// New corpus entries go to build/sanitize/fuzz-corpus/<target>/ (the committed seeds in
// tests/fuzz/corpus/ are only read).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const TARGETS = {
  scenario: { dict: 'tests/fuzz/scenario.dict', maxLen: 8192 },
  expression: { dict: 'tests/fuzz/expression.dict', maxLen: 4200 },
  simulation: { dict: 'tests/fuzz/scenario.dict', maxLen: 8192 },
  mjcf: { dict: 'tests/fuzz/mjcf.dict', maxLen: 8192 },
};

// libFuzzer's per-input timeout counts wall-clock time. At nice 10 beside the browser
// tests a target gets a fraction of a core: a seed that takes 1-2 s alone (sem's 2000
// steps at load under ASan) ran past 10 s in a CI run. A hang still runs past 30 s.
const timeoutSeconds = (nice) => (nice > 0 ? 30 : 10);

// One target for `seconds`; resolves to its figures. `nice` lowers its priority; `smoke`
// starts from the committed seeds alone (a grown corpus would take longer to reload).
export function fuzzTarget(target, seconds, { nice = 0, quiet = false, smoke = false } = {}) {
  const work = `build/sanitize/${smoke ? 'fuzz-smoke' : 'fuzz-corpus'}/${target}`;
  const findings = `build/sanitize/fuzz-findings/${target}/`;
  if (smoke) rmSync(`${root}${work}`, { recursive: true, force: true });
  mkdirSync(`${root}${work}`, { recursive: true });
  mkdirSync(`${root}${findings}`, { recursive: true });
  const before = new Set(readdirSync(`${root}${findings}`));
  const args = [
    `build/sanitize/tests/fuzz/fuzz_${target}`,
    work,
    `tests/fuzz/corpus/${target}`,
    `-dict=${TARGETS[target].dict}`,
    `-max_len=${TARGETS[target].maxLen}`,
    `-max_total_time=${seconds}`,
    `-timeout=${timeoutSeconds(nice)}`,
    '-rss_limit_mb=2048',
    '-print_final_stats=1',
    `-artifact_prefix=${findings}`,
  ];
  const [cmd, ...rest] = nice ? ['nice', '-n', String(nice), ...args] : args;
  return new Promise((resolve) => {
    let log = '';
    const child = spawn(cmd, rest, {
      cwd: root,
      env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1', UBSAN_OPTIONS: 'print_stacktrace=1' },
    });
    child.stdout.on('data', (c) => {
      log += c;
    });
    child.stderr.on('data', (c) => {
      log += c;
      if (!quiet) process.stderr.write(c);
    });
    child.on('close', (code) => {
      const stat = (name) => Number(log.match(new RegExp(`stat::${name}:\\s+(\\d+)`))?.[1] ?? NaN);
      const last = [...log.matchAll(/cov: (\d+) ft: (\d+) corp: (\d+)/g)].at(-1);
      const found = readdirSync(`${root}${findings}`).filter((f) => !before.has(f));
      resolve({
        target,
        code,
        execs: stat('number_of_executed_units'),
        perSecond: stat('average_exec_per_sec'),
        edges: last ? Number(last[1]) : NaN,
        features: last ? Number(last[2]) : NaN,
        corpus: last ? Number(last[3]) : NaN,
        peakRssMb: stat('peak_rss_mb'),
        findings: found.map((f) => `${findings}${f}`),
        ok: code === 0 && found.length === 0,
        log,
      });
    });
  });
}

export function describeRun(r) {
  const found = r.findings.length ? r.findings.join(' ') : r.ok ? '0' : `exit ${r.code}`;
  return (
    `${r.target.padEnd(10)} ${String(r.execs).padStart(10)} execs  ${String(r.perSecond).padStart(6)}/s  ` +
    `cov ${r.edges} ft ${r.features} corpus ${r.corpus}  rss ${r.peakRssMb} MB  findings ${found}`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const seconds = Number(process.env.VILAB_FUZZ_SECONDS ?? 600);
  const targets = (process.env.VILAB_FUZZ_TARGETS ?? Object.keys(TARGETS).join(',')).split(',');
  const results = [];
  for (const target of targets) {
    console.log(`fuzz ${target}: ${seconds} s`);
    const r = await fuzzTarget(target, seconds, { nice: Number(process.env.VILAB_FUZZ_NICE ?? 0), quiet: true });
    if (!r.ok) process.stderr.write(r.log.split('\n').slice(-60).join('\n'));
    console.log(describeRun(r));
    results.push(r);
  }
  console.log('\nvilab fuzz:');
  results.forEach((r) => console.log(`  ${describeRun(r)}`));
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
