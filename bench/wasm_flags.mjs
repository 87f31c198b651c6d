// The `flags` section of `npm run bench` (not run by default: it builds three more wasm
// variants, ≈ 5 min each on two cores): what compiler flags do to the wasm's speed, size
// and bits, against the build the page ships.
//
//   shipped   -O3 on the hot paths, -Oz on the cold ones, no SIMD (CMakeLists.txt)
//   simd-ad   -msimd128 on the automatic-differentiation sources (VILAB_WASM_AD_FLAGS);
//             link-time optimization then gives the feature to the whole module
//   simd      -msimd128 on every C++ translation unit and the link
//   oz        -Oz everywhere, the hot paths and the link included
//
// Each variant is configured from this tree into build/wasm-flags/<name>/build/wasm, next
// to a copy of web/sim, so that its own glue and wasm load through the same API; the
// shipped one links build/wasm itself. Speed: every round runs each variant in its own
// Node process (the module loads once per process), in CPU time, best of 3 per case,
// and forms the ratio to the shipped build in that round. Size: raw and gzip -9 of the
// full and the lean wasm. Bits: every case's hash after its steps must equal the
// shipped build's (the determinism contract).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { fmt, ROUNDS, stats } from './common.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const VARIANTS = [
  { name: 'shipped', cmake: null },
  { name: 'simd-ad', cmake: ['-DVILAB_WASM_AD_FLAGS=-msimd128'] },
  { name: 'simd', cmake: ['-DCMAKE_CXX_FLAGS=-msimd128', '-DVILAB_WASM_AD_FLAGS='] },
  { name: 'oz', cmake: ['-DCMAKE_CXX_FLAGS_RELEASE=-Oz -DNDEBUG', '-DVILAB_WASM_AD_FLAGS='] },
];

/** The variant's tree (web/sim and build/wasm), configured and built once; later runs rebuild what changed. */
function variantTree({ name, cmake }) {
  const dir = `${root}build/wasm-flags/${name}`;
  rmSync(`${dir}/web`, { recursive: true, force: true });
  mkdirSync(`${dir}/web`, { recursive: true });
  cpSync(`${root}web/sim`, `${dir}/web/sim`, { recursive: true });
  cpSync(`${root}package.json`, `${dir}/package.json`);
  if (!cmake) {
    mkdirSync(`${dir}/build`, { recursive: true });
    if (!existsSync(`${dir}/build/wasm`)) symlinkSync(`${root}build/wasm`, `${dir}/build/wasm`);
    return dir;
  }
  const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };
  const bin = `${dir}/build/wasm`;
  // Configured every run (seconds), so that the cache holds exactly these options.
  execFileSync('emcmake', ['cmake', '-S', root, '-B', bin, '-DCMAKE_BUILD_TYPE=Release', ...cmake], { env, stdio: 'ignore' });
  console.log(`  building the ${name} variant in build/wasm-flags/${name}/ (full and lean wasm)`);
  const jobs = String(Math.max(1, Math.min(2, cpus().length)));
  execFileSync('cmake', ['--build', bin, '--target', 'vilab_wasm', 'vilab_lean_wasm', '-j', jobs], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}

const sizes = (dir) => {
  const of = (file) => {
    const buf = readFileSync(`${dir}/build/wasm/${file}`);
    return { raw: buf.length / 1024, gzip: gzipSync(buf, { level: 9 }).length / 1024 };
  };
  return { full: of('vilab.wasm'), lean: of('vilab-lean-whole.wasm') }; // the lean module as linked, both parts
};

/** One round of one variant: { case: { ns, hash } } from a fresh Node process. */
const measure = (dir) =>
  JSON.parse(
    execFileSync(process.execPath, [fileURLToPath(new URL('wasm_flags_child.mjs', import.meta.url)), dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );

export async function wasmFlagsSection(table) {
  const trees = VARIANTS.map((v) => ({ ...v, dir: variantTree(v) }));
  const runs = new Map(trees.map((v) => [v.name, []]));
  for (let r = 0; r < ROUNDS; r++) for (const v of trees) runs.get(v.name).push(measure(v.dir));
  const shipped = runs.get('shipped');
  const cases = Object.keys(shipped[0]);
  const size0 = sizes(trees[0].dir);
  const md = [
    `| variant | full wasm KB (gzip) | lean wasm KB (gzip) | ${cases.join(' | ')} | same bits |`,
    `|---|---:|---:|${cases.map(() => '---:').join('|')}|---|`,
  ];
  const kb = (s) => `${fmt(s.raw, 4)} (${fmt(s.gzip, 3)})`;
  md.push(
    `| shipped | ${kb(size0.full)} | ${kb(size0.lean)} | ${cases.map((c) => `${fmt(stats(shipped.map((x) => x[c].ns)).median, 3)} ns`).join(' | ')} | – |`,
  );
  for (const v of trees.slice(1)) {
    const mine = runs.get(v.name);
    const s = sizes(v.dir);
    const differ = cases.filter((c) => mine.some((x) => x[c].hash !== shipped[0][c].hash));
    // per case, the per-round ratios to the shipped build
    const ratios = cases.map((c) => stats(mine.map((x, r) => x[c].ns / shipped[r][c].ns)));
    const cells = ratios.map((q) => `${fmt(q.median)} (${fmt(q.min)}–${fmt(q.max)})`);
    md.push(`| ${v.name} | ${kb(s.full)} | ${kb(s.lean)} | ${cells.join(' | ')} | ${differ.length ? `no: ${differ.join(', ')}` : 'yes'} |`);
    const all = stats(ratios.map((q) => q.median));
    table.add(
      'flags',
      `${v.name}: step time ÷ shipped, median over cases (lean wasm ${fmt(s.lean.gzip)} KB gzip, shipped ${fmt(size0.lean.gzip)})`,
      all,
    );
  }
  table.detail(
    'Compiler flags: wasm step time relative to the shipped build (per-round ratios, median and range) and size',
    [
      `The shipped row gives ns per step; the others the ratio to it. ${ROUNDS} rounds, each variant in its own Node process.`,
      '',
      ...md,
    ].join('\n'),
  );
  console.log(md.join('\n'));
}
