// The lean module's first-frame profile (scripts/split-lean.mjs): runs what the page asks of
// the engine before its first frame, with the page's default document (web/state/store.js),
// on a module instrumented by `wasm-split --instrument`, then writes which functions ran.
//   node scripts/lean-profile.mjs <instrumented.wasm> <profile out>
import { readFileSync, writeFileSync } from 'node:fs';
import { createLab } from '../web/sim/vilab.js';
import { DEFAULT_SYSTEM } from '../web/state/store.js';

const [instrumentedPath, profilePath] = process.argv.slice(2);
let instance = null;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
  const result = await instantiate(...args);
  instance ??= result.instance ?? result;
  return result;
};
const lab = await createLab({ build: 'lean', wasmBinary: readFileSync(instrumentedPath) });

// The page's start (web/state/store.js, web/page/run.js, web/sim/runner.js): the default
// document normalized and checked, its run built and stepped, and what the first frames read.
const scenario = lab.normalize({ system: lab.system(DEFAULT_SYSTEM) ? DEFAULT_SYSTEM : lab.systems[0].id });
lab.simulate(scenario, { historyCapacity: 2 }).dispose();
const sim = lab.simulate(scenario, { historyStride: 1, historyCapacity: 32768 });
sim.describe();
sim.diagnostics();
sim.visualState();
sim.variables();
void sim.history.columns;
sim.history.read(0);
for (let frame = 0; frame < 30; frame++) {
  sim.advanceFor({ maxSteps: 2, budgetMs: 50 });
  sim.advance(1);
  sim.visualState();
  sim.diagnostics();
  sim.variables();
  void [sim.q, sim.p, sim.time, sim.step, sim.history.total, sim.history.oldest];
  sim.history.read(sim.history.total - 1);
}
sim.hash();
sim.dispose();

const exports = instance.exports;
const memory = Object.values(exports).find((v) => v instanceof WebAssembly.Memory);
const at = memory.buffer.byteLength;
memory.grow(1);
const size = exports.__write_profile(at, 65536);
writeFileSync(profilePath, new Uint8Array(memory.buffer, at, size));
