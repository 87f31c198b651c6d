// The npm package as a user receives it: `npm pack`, installed into an empty project
// with nothing but the tarball (no registry), then the README's example, the CLI
// (`npx vilab hash` = the native hash, `--version`) and a strict TypeScript consumer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, runNative, REF } from './helpers.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'vilab-package-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function sh(cmd, args, cwd, input) {
  // offline: the tarball is the only thing to install
  const env = {
    ...process.env,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env, input, maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r;
}

// The build is done by `npm test` before this layer: pack without running prepack again.
const packed = JSON.parse(sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root).stdout)[0];
const files = packed.files.map((f) => f.path).sort();
const project = join(work, 'consumer');

test('the tarball holds the API, its types, the built wasm, the CLI, LICENSE and CHANGELOG, and nothing else', () => {
  for (const f of [
    'package.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    'web/sim/vilab.js',
    'web/sim/vilab.d.ts',
    'web/sim/ids.d.ts',
    'build/wasm/vilab.mjs',
    'build/wasm/vilab.wasm',
    'build/wasm/vilab-lean.wasm',
    'build/wasm/vilab-lean.deferred.wasm',
    'scripts/vilab-cli.mjs',
    'web/sim/embed-client.js',
    'web/sim/embed-client.d.ts',
    'web/sim/schema.js',
    'web/sim/scenario.schema.json',
    'web/sim/program-compiler.js',
  ]) {
    assert.ok(files.includes(f), `${f} is in the package`);
  }
  const stray = files.filter((f) => /^(tests|bench|core|bindings|scenes|web\/(ui|plots|scene|state|i18n))\//.test(f) || f.endsWith('.cpp'));
  assert.deepEqual(stray, [], 'no tests, sources or page code');
  // the API, its types, the embed client and the schema (4 files each with their types), the expression
  // programs' compiler, the wasm (the lean build in two parts), the CLI, docs/
  assert.ok(files.length <= 31, `${files.length} files`);
  assert.equal(pkg.private, undefined, 'publishable');
  assert.ok(pkg.scripts.prepack, 'prepack builds the wasm');
});

test('package metadata: repository, homepage, bugs, author; exports for the embed client and the schema; no machine paths', () => {
  assert.match(pkg.repository.url, /^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
  assert.match(pkg.homepage, /^https:\/\//);
  assert.match(pkg.bugs.url, /^https:\/\/github\.com\/.+\/issues$/);
  assert.equal(typeof pkg.author, 'string');
  assert.deepEqual(pkg.exports['./embed-client'], { types: './web/sim/embed-client.d.ts', default: './web/sim/embed-client.js' });
  assert.equal(pkg.exports['./scenario.schema.json'], './web/sim/scenario.schema.json');
  assert.doesNotMatch(JSON.stringify(pkg), /file:|\/home\/|\/work\/|\/tmp\/|[A-Z]:\\\\/, 'no machine path');
});

test('installed into an empty project with no network, the README example runs', () => {
  sh('mkdir', ['-p', project], work);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  sh('npm', ['install', '--no-package-lock', join(work, packed.filename)], project);
  const doc = readFileSync(join(root, 'README.md'), 'utf8');
  const example = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((code) => code.includes("from 'vilab'"));
  assert.ok(example, "the README has a js example importing 'vilab'");
  writeFileSync(join(project, 'example.mjs'), example);
  const r = sh(process.execPath, ['example.mjs'], project);
  assert.ok(r.stdout.trim().length > 0, 'the example prints something');
});

test('npx vilab in the consumer: hash = the native hash, --version = package.json', () => {
  const scenario = JSON.stringify(REF);
  const hash = sh('npx', ['--no-install', 'vilab', 'hash', '-', '--steps', '1000'], project, scenario).stdout;
  assert.equal(hash, runNative(['hash', '-', '--steps', '1000'], scenario).stdout);
  assert.equal(sh('npx', ['--no-install', 'vilab', '--version'], project).stdout, `vilab ${pkg.version}\n`);
});

test('the wasm is exported for bundlers (vilab/vilab.wasm) and lab.version is the package version', () => {
  const code = `
    import { createRequire } from 'node:module';
    import { readFileSync } from 'node:fs';
    import { createLab } from 'vilab';
    const wasmPath = createRequire(import.meta.url).resolve('vilab/vilab.wasm');
    const lab = await createLab({ wasmBinary: readFileSync(wasmPath) });
    console.log(lab.version);`;
  writeFileSync(join(project, 'wasm.mjs'), code);
  assert.equal(sh(process.execPath, ['wasm.mjs'], project).stdout, `${pkg.version}\n`);
});

test('a strict TypeScript consumer compiles against the installed types (typed arrays, id unions)', () => {
  writeFileSync(
    join(project, 'consumer.ts'),
    `import { createLab, VilabError, type Scenario, type SystemId, type IntegratorId } from 'vilab';
const lab = await createLab();
const system: SystemId = 'double-spherical-pendulum';
const integrator: IntegratorId = lab.system(system).defaultIntegrator;
const scenario: Scenario = { system, integrator, h: 0.01, params: { masses: new Float64Array([1, 2]) } };
const sim = lab.simulate(scenario);
sim.advance(10);
sim.setState({ q: new Float64Array(sim.q), p: Array.from(sim.p) });
const drift: number = sim.diagnostics().energy;
sim.dispose();
try { lab.normalize({ system: 'oscillator', h: -1 }); } catch (e) { if (e instanceof VilabError) console.log(e.field, drift); }
// @ts-expect-error: not a system id
const wrong: Scenario = { system: 'pendulum-typo' };
void wrong;
`,
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        types: [],
        lib: ['es2022', 'dom'],
      },
      files: ['consumer.ts'],
    }),
  );
  sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
  assert.ok(readdirSync(join(project, 'node_modules', 'vilab')).includes('LICENSE'));
});

test('the installed package: vilab/embed-client and vilab/scenario.schema.json resolve, npx vilab schema prints the shipped schema', () => {
  const code = `
    import { connect, EmbedError } from 'vilab/embed-client';
    import schema from 'vilab/scenario.schema.json' with { type: 'json' };
    console.log(typeof connect, new EmbedError('vilab: x', { field: 'steps' }).field, schema.title);`;
  writeFileSync(join(project, 'embed.mjs'), code);
  assert.equal(sh(process.execPath, ['embed.mjs'], project).stdout, 'function steps vilab scenario\n');
  const shipped = readFileSync(join(project, 'node_modules', 'vilab', 'web', 'sim', 'scenario.schema.json'), 'utf8');
  assert.equal(sh('npx', ['--no-install', 'vilab', 'schema'], project).stdout, shipped);
  assert.equal(shipped, readFileSync(join(root, 'web', 'sim', 'scenario.schema.json'), 'utf8'));
});

test('a strict TypeScript host page compiles against vilab/embed-client', () => {
  writeFileSync(
    join(project, 'host.ts'),
    `import { connect, EmbedError, type ChangeEvent, type StateReply } from 'vilab/embed-client';
const frame = document.createElement('iframe');
const lab = connect(frame, { timeout: 2000 });
const off = lab.on('change', (e: ChangeEvent) => console.log(e.change, e.fields.join(','), e.scenario.system));
const state: StateReply = await lab.get();
const error: number | null = state.energyError;
const done = await lab.step(10);
console.log(state.shareURL, error, done.step);
try { await lab.load({ system: 'oscillator', h: -1 }); } catch (e) { if (e instanceof EmbedError) console.log(e.field); }
// @ts-expect-error: not an event kind
lab.on('explode', () => {});
off();
`,
  );
  writeFileSync(
    join(project, 'tsconfig.host.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        types: [],
        lib: ['es2022', 'dom'],
      },
      files: ['host.ts'],
    }),
  );
  sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.host.json'], project);
});
