#!/usr/bin/env node
// The project's style, one command each way: `npm run format` rewrites the tree in it,
// `node scripts/style.mjs --check` (the lint layer of npm test, tests/lint) only reports.
//   JS, TS, JSON, CSS: Biome (biome.json: format and lint)
//   C++: clang-format-14 (.clang-format), on the C++ files git tracks
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// One clang-format for every machine: its output differs between versions.
export const CLANG_FORMAT = 'clang-format-14';

/** The C++ sources git tracks (build output and third-party code are not tracked). */
export function cppFiles() {
  const r = spawnSync('git', ['ls-files', '-z', '--', '*.cpp', '*.hpp', '*.h'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  return r.stdout.split('\0').filter(Boolean);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) return { ok: false, output: `${cmd}: ${r.error.message}` };
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** Biome over the tree: `biome ci` checks (format + lint), `biome check --write` fixes what it safely can. */
export function biome({ write = false } = {}) {
  const bin = fileURLToPath(new URL('../node_modules/@biomejs/biome/bin/biome', import.meta.url));
  return run(process.execPath, [bin, write ? 'check' : 'ci', ...(write ? ['--write'] : []), '--colors=off', '.']);
}

/** clang-format over the C++ files: --dry-run -Werror checks, -i rewrites. */
export function clangFormat({ write = false } = {}) {
  return run(CLANG_FORMAT, [...(write ? ['-i'] : ['--dry-run', '-Werror']), ...cppFiles()]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const write = !process.argv.includes('--check');
  let ok = true;
  for (const [name, result] of [
    ['biome', biome({ write })],
    ['clang-format', clangFormat({ write })],
  ]) {
    if (!result.ok || result.output.trim()) console.log(`${name}:\n${result.output.trim()}`);
    ok &&= result.ok;
  }
  process.exit(ok ? 0 : 1);
}
