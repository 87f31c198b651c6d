// Writes the fuzz targets' seed corpus (tests/fuzz/corpus/<target>/) from the shipped
// scenes, every system × integrator default of the registry, and hand-written edge
// cases. Run once after changing scenes or the registry: `node tests/fuzz/corpus.mjs`.
// The files are committed; libFuzzer mutates from them.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createLab } from '../../web/sim/vilab.js';

const root = new URL('../../', import.meta.url);
const here = new URL('./corpus/', import.meta.url);
const lab = await createLab();
const readJson = (path) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

function writeAll(target, seeds) {
  // Inputs that once found a defect (finding-*) stay as regression seeds.
  const dir = new URL(`${target}/`, here);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (!f.startsWith('finding-')) rmSync(new URL(f, dir));
  const names = new Set();
  for (const seed of seeds) {
    const bytes = Buffer.isBuffer(seed) ? seed : Buffer.from(seed, 'utf8');
    const name = createHash('sha1').update(bytes).digest('hex').slice(0, 16);
    if (names.has(name)) continue;
    names.add(name);
    writeFileSync(new URL(name, dir), bytes);
  }
  console.log(`${target}: ${names.size} seeds`);
}

// Scenarios: presets, scenes defined by data, each system's defaults with each integrator.
const scenes = [
  ...readJson('scenes/presets.json').map((p) => p.scenario),
  ...readJson('scenes/rigid_body_presets.json').map((p) => p.scenario),
  ...readdirSync(new URL('scenes/lagrangian/', root)).map((f) => readJson(`scenes/lagrangian/${f}`)),
].map(({ about, ...scenario }) => scenario);
const defaults = [];
for (const system of lab.systems) {
  for (const integrator of system.integrators) {
    const h = Math.min(system.defaults.h, system.h.maxByIntegrator[integrator] ?? system.h.max);
    defaults.push({ ...system.defaults, integrator, h });
  }
}
const scenarios = [...scenes, ...defaults].map((s) => JSON.stringify(s));

const edgeScenarios = [
  '',
  '{}',
  '[]',
  'null',
  '{"system":"oscillator"}',
  '{"system":"oscillator","h":1e999}',
  '{"system":"oscillator","h":"NaN"}',
  '{"system":"oscillator","h":-0.1}',
  '{"system":"oscillator","h":0}',
  '{"system":"chain","params":{"masses":[1,1,1],"lengths":[1,1]}}',
  '{"system":"pendulum","initial":{"angles":[1e308]}}',
  '{"system":"oscillator","params":{"mass":5e-324}}',
  '{"system":"oscillator","unknown":1}',
  '{"system":"a\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"}',
  '42\u00ff',
  '{"system":"oscillator","options":{"constructor":1,"__proto__":{}}}',
  `${'['.repeat(40)}${']'.repeat(40)}`,
  '{"system":"lagrangian","params":{"coordinates":["x"],"lagrangian":"x\'^2/2 - 1/x"},"initial":{"q":[0],"qdot":[0]}}',
  '{"system":"lagrangian","params":{"coordinates":["x"],"lagrangian":"exp(exp(exp(x\')))"}}',
  '{"system":"lagrangian","params":{"coordinates":["x","y"],"lagrangian":"x\'*y\'","constraints":["x^2+y^2-1"]}}',
  // a NUL in a key and after the document; body positions outside their domain; a literal
  // beyond ±1e300; an h too small to step
  '{"system":"pendulum","ab\\u0000cd":1}',
  '{"system":"pendulum"}\u0000 garbage {{{',
  '{"system":"lagrangian","params":{"coordinates":["x"],"lagrangian":"x\'^2/2","bodies":[{"position":["log(x)","0","0"]}]},"initial":{"q":[-0.5],"qdot":[0]}}',
  '{"system":"lagrangian","params":{"coordinates":["x"],"lagrangian":"x\'^2/2","bodies":[{"position":["1/x","1.7e308","0"]}]},"initial":{"q":[0.1],"qdot":[-1]}}',
  '{"system":"pendulum","h":4.9e-324}',
];

writeAll('scenario', [...scenarios, ...edgeScenarios]);

// Simulations: the same scenarios, some followed by a NUL and control bytes.
let state = 1;
const random = () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
const tails = scenarios.map((s, i) =>
  Buffer.concat([Buffer.from(s), Buffer.from([0]), Buffer.from(Array.from({ length: 8 + (i % 24) }, random))]),
);
writeAll('simulation', [...scenarios, ...tails, ...edgeScenarios.slice(17)]);

// Expressions: the first byte chooses the scope (tests/fuzz/fuzz_expression.cpp: the
// coordinates x th phi q1 r z psi y, constants m g l k), then the text. Expressions of
// the scenes with at most 8 coordinates, renamed into that scope.
const names = ['x', 'th', 'phi', 'q1', 'r', 'z', 'psi', 'y'];
const expressions = [];
for (const s of scenes.filter((x) => x.system === 'lagrangian' && x.params.coordinates.length <= 8)) {
  const { coordinates, constants = {} } = s.params;
  const texts = [
    s.params.lagrangian,
    ...(s.params.constraints ?? []),
    ...Object.values(s.params.conserved ?? {}),
    ...Object.values(s.params.symmetries ?? {}).flat(),
    ...(s.params.bodies ?? []).flatMap((b) => b.position),
  ];
  const rename = (text) =>
    text
      .replace(/[A-Za-z_][A-Za-z0-9_]*/g, (w) => {
        const i = coordinates.indexOf(w);
        if (i >= 0) return `__${i}`;
        return w in constants ? `(${constants[w]})` : w;
      })
      .replace(/__(\d)/g, (_, i) => names[i]);
  for (const t of texts) expressions.push(Buffer.concat([Buffer.from([coordinates.length - 1 + 16]), Buffer.from(rename(t))]));
}
const edgeExpressions = [
  "x'^2/2 - cos(x)",
  'm*g*l*cos(th)',
  '1/0',
  '0/0',
  'sqrt(-1)',
  'log(0)',
  'exp(1000)',
  '2^1000',
  'x^-3',
  'x^0.5',
  'x^x^x^x',
  'atan2(0, 0)',
  'atan2(x, th)',
  'abs(x)',
  "abs(x')*x'",
  't*x',
  'tan(pi/2)',
  "sin(cos(tan(exp(log(sqrt(x'))))))",
  `${'('.repeat(63)}x${')'.repeat(63)}`,
  `${'('.repeat(70)}x${')'.repeat(70)}`,
  '1e400',
  '1e-400',
  '-x^2',
  '--x',
  'x+',
  "x''",
  'qdot',
  'xdot^2',
  'x\u00e9',
  'pi',
  'sqrt(x, th)',
  'sin()',
  'x'.repeat(5000),
].map((t, i) => Buffer.concat([Buffer.from([i % 32]), Buffer.from(t)]));
writeAll('expression', [...expressions, ...edgeExpressions]);

// MJCF: the importer's test files, imported and refused (tests/native/mjcf/); its
// dictionary (tests/fuzz/mjcf.dict) is written by hand.
const mjcfDir = new URL('tests/native/mjcf/', root);
writeAll('mjcf', [
  ...readdirSync(mjcfDir)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => readFileSync(new URL(f, mjcfDir))),
  ...readdirSync(new URL('bad/', mjcfDir)).map((f) => readFileSync(new URL(`bad/${f}`, mjcfDir))),
]);

// Dictionaries: the registry's ids and field names, JSON and expression tokens.
const quote = (t) => `"${t.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const words = new Set([
  'system',
  'integrator',
  'h',
  'params',
  'initial',
  'options',
  'about',
  'coordinates',
  'constants',
  'lagrangian',
  'constraints',
  'conserved',
  'symmetries',
  'bodies',
  'position',
  'anchor',
  'link',
  'radius',
  'damping',
  'forces',
  'q',
  'qdot',
  'NaN',
  'Infinity',
  '-Infinity',
  'true',
  'false',
  'null',
  '1e308',
  '-0',
  '5e-324',
  '1e999',
]);
for (const s of lab.systems) {
  words.add(s.id);
  s.params.forEach((p) => words.add(p.name));
  s.initialFields.forEach((f) => words.add(f.name));
}
for (const i of lab.integrators) {
  words.add(i.id);
  (i.options ?? []).forEach((o) => words.add(o.name));
}
const tokens = [...words].map((w) => quote(`"${w}"`));
// NUL and control characters, raw (libFuzzer's \xNN) and as JSON escapes: a NUL once cut
// messages and ended documents early.
const controls = ['"\\x00"', '"\\x01"', '"\\x0a"', '"\\x1b"', '"\\x7f"', '"\\xc2\\x85"', '"\\\\u0000"', '"\\\\u001b"'];
writeFileSync(
  new URL('scenario.dict', here.href.replace(/corpus\/$/, '')),
  `${[...tokens, '"{"', '"}"', '"["', '"]"', '":"', '","', ...controls].join('\n')}\n`,
);
const exprTokens = [
  'sqrt(',
  'sin(',
  'cos(',
  'tan(',
  'exp(',
  'log(',
  'atan2(',
  'abs(',
  'pi',
  't',
  "'",
  'dot',
  '^',
  '*',
  '/',
  '+',
  '-',
  '(',
  ')',
  ',',
  'e+308',
  '1e-300',
  ...names,
  'm',
  'g',
  'l',
  'k',
];
writeFileSync(new URL('expression.dict', here.href.replace(/corpus\/$/, '')), `${[...exprTokens.map(quote), ...controls].join('\n')}\n`);
