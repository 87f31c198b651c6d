// The history ring in wasm holds what the native CLI writes from diagnostics() after each
// step (`vilab run --every 1`, %.17g: exact), column by column, through the ring's growth
// and a refused step: the in-place samples are the same bits on both builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lab, nativeCli, refusalOf } from './helpers.mjs';

function nativeRows(scenario, steps) {
  const r = spawnSync(nativeCli, ['run', '-', '--steps', String(steps), '--every', '1'], {
    input: JSON.stringify(scenario),
    encoding: 'utf8',
  });
  const [head, ...lines] = r.stdout.trim().split('\n');
  const names = head.split(',');
  return { status: r.status, columns: Object.fromEntries(names.map((n, c) => [n, lines.map((l) => Number(l.split(',')[c]))])) };
}

for (const [scenario, steps, refusedAt] of [
  [{ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 }, 600, null],
  [{ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.1 }, 100, 24],
  [{ system: 'chain', integrator: 'rattle' }, 300, null],
  [{ system: 'pendulum', integrator: 'trapezoid' }, 300, null],
  [{ system: 'rigid-body', integrator: 'lie-group' }, 300, null],
]) {
  test(`history in wasm = native diagnostics after every step: ${JSON.stringify(scenario)}`, () => {
    const sim = lab.simulate(scenario, { historyStride: 1 });
    try {
      const failure = refusalOf(() => sim.advance(steps));
      assert.equal(failure?.step ?? null, refusedAt);
      const taken = refusedAt ? refusedAt - 1 : steps;
      const native = nativeRows(scenario, taken);
      assert.equal(native.status, 0);
      const h = sim.history.read();
      assert.equal(h.count, taken + 1);
      const same = (name, wasm) => {
        const want = native.columns[name];
        assert.ok(want, `native column ${name}`);
        assert.equal(want.length, wasm.length, name);
        for (let k = 0; k < wasm.length; k++) assert.ok(Object.is(wasm[k], want[k]), `${name}[${k}]: wasm ${wasm[k]}, native ${want[k]}`);
      };
      same('t', h.t);
      same('energy', h.energy);
      same('constraint', h.constraint);
      same('iterations', h.iterations);
      if (h.momentum.length === 1) same('momentum', h.momentum[0]);
    } finally {
      sim.dispose();
    }
  });
}
