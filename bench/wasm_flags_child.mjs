// One round of one wasm variant (bench/wasm_flags.mjs): loads the variant's copy of the
// API, which imports its own glue and wasm, and prints { case: { ns, hash } } as JSON:
// wasm ns per step in CPU time (best of 3) and the hash after the measured steps. The
// wasm/native cases, and the other two automatic-differentiation paths on the DSP.
import { pathToFileURL } from 'node:url';
import { dsp, wasmCases, wasmRun } from './common.mjs';

const { createLab } = await import(pathToFileURL(`${process.argv[2]}/web/sim/vilab.js`).href);
const lab = await createLab();
const cases = [
  ...wasmCases(),
  ['DSP generalized (AD)', { ...dsp, integrator: 'generalized' }, 5000],
  ['DSP penalty (AD), h = 0.001', { ...dsp, integrator: 'penalty', h: 0.001 }, 5000],
];
const out = {};
for (const [name, scenario, steps] of cases) out[name] = wasmRun(lab, scenario, steps, 3);
console.log(JSON.stringify(out));
