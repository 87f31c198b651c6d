// The "before" of the benchmarks: the native step benchmark of an earlier commit, built
// from git into build/baseline/<commit>/ (once; later runs reuse it), so that `npm run
// bench` can time the old and the new engine in one run, interleaved.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Path of the baseline's vilab_bench, building it first if needed; null when git cannot provide the commit. */
export function baselineBench(commit) {
  const dir = `${root}build/baseline/${commit}`;
  const bin = `${dir}/build/vilab_bench`;
  if (existsSync(bin)) return bin;
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: root, stdio: 'ignore' });
  } catch {
    return null;
  }
  console.log(`bench: building the baseline ${commit.slice(0, 10)} (once) in build/baseline/…`);
  mkdirSync(`${dir}/src`, { recursive: true });
  // git archive | tar: the commit's tree, without touching the working tree or the worktree list.
  execFileSync('bash', ['-c', `git archive ${commit} | tar -x -C "${dir}/src"`], { cwd: root, stdio: 'inherit' });
  execFileSync('cmake', ['-S', `${dir}/src`, '-B', `${dir}/build`, '-DCMAKE_BUILD_TYPE=Release', '-DVILAB_TESTS=OFF'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const jobs = String(Math.max(1, Math.min(2, cpus().length)));
  execFileSync('cmake', ['--build', `${dir}/build`, '--target', 'vilab_bench', '-j', jobs], { stdio: ['ignore', 'ignore', 'inherit'] });
  return bin;
}
