// The wasm build's copies stay in the module (CMakeLists.txt: -mbulk-memory). Without bulk
// memory, emscripten's memcpy hands every copy of 512 bytes or more to JS through the glue's
// emscripten_memcpy_big import (a wasm-to-JS call and copyWithin): the shipped build before
// it made 4.8 such calls per step with lobatto on the DSP, 42 with gauss4 on the chain, 16
// with the chain's energy–momentum step and 6 with the wave's rk4. Here that import is
// wrapped and counted while every pair of each build steps: none may call it.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const calls = { count: 0, bytes: 0 };
let wrapped = 0;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = (source, imports) => {
  for (const functions of Object.values(imports ?? {}))
    for (const [name, f] of Object.entries(functions)) {
      if (typeof f !== 'function' || !/copyWithin/.test(f.toString())) continue;
      wrapped += 1;
      functions[name] = (...args) => {
        calls.count += 1;
        calls.bytes += args[2];
        return f(...args);
      };
    }
  return instantiate(source, imports);
};
const { createLab } = await import('../../web/sim/vilab.js');

for (const build of ['full', 'lean']) {
  test(`${build} build: no step of any pair copies through JS (emscripten_memcpy_big)`, async (t) => {
    const before = wrapped;
    const lab = await createLab({ build });
    assert.equal(wrapped, before + 1, 'the glue imports one copier through copyWithin, and it was wrapped');
    const found = [];
    let pairs = 0;
    for (const system of lab.systems)
      for (const integrator of system.integrators) {
        let sim;
        try {
          sim = lab.simulate({ system: system.id, integrator }, { historyStride: 1 });
        } catch {
          continue; // refused at load (the lean build's full-module pairs): no steps to count
        }
        try {
          sim.advance(5);
          calls.count = calls.bytes = 0;
          sim.advance(50);
        } catch {
          // a refused step (explicit Euler's blow-up) still counts the steps before it
        }
        if (calls.count) found.push(`${system.id}/${integrator}: ${calls.count} copies of ${calls.bytes / calls.count} B in 50 steps`);
        pairs += 1;
        sim.dispose();
      }
    t.diagnostic(`${pairs} pairs stepped`);
    assert.ok(pairs >= 20, `${pairs} pairs`);
    assert.deepEqual(found, []);
  });
}
