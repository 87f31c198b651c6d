// Lifetime: returned arrays are copies that survive heap growth; create/dispose
// (or [Symbol.dispose]) leaves the heap flat (1e4 cycles); errors leak nothing;
// forgotten simulations are freed by the garbage collector.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lab, REF, assertHealthy } from './helpers.mjs';

test('q, p, visualState() and history samples do not go stale when the heap grows', () => {
  const sim = lab.simulate(REF);
  sim.advance(100);
  const q = sim.q;
  const p = sim.p;
  const v = sim.visualState();
  const h = sim.history.read(0);
  const d = sim.diagnostics();
  const saved = [q, p, v, h.energy, h.t].map((a) => Float64Array.from(a));
  const heapBefore = lab.heapBytes();
  // Grow linear memory: history rings grow as samples arrive, so fill one of
  // 2e5 samples (≈ 8 MB), and hold a few thousand small simulations.
  const big = lab.simulate({ system: 'oscillator' }, { historyCapacity: 1 << 20 });
  big.advance(200000);
  const many = Array.from({ length: 3000 }, () => lab.simulate(REF));
  assert.ok(lab.heapBytes() > heapBefore, 'the heap did not grow: the test proves nothing');
  [q, p, v, h.energy, h.t].forEach((a, i) => {
    assert.ok(a.byteLength > 0, 'detached');
    assert.deepEqual(a, saved[i]);
  });
  assert.deepEqual(sim.q, q, 'reading again after growth gives the same values');
  assert.deepEqual(sim.p, p);
  assert.deepEqual(sim.diagnostics(), d);
  assert.deepEqual(sim.history.read(0).energy, h.energy);
  big.dispose();
  many.forEach((m) => m.dispose());
  sim.dispose();
  assertHealthy();
});

test('heap flat over 1e4 create/advance/read/dispose cycles', () => {
  const systems = lab.systems.map((s) => s.id);
  // Warm up: the first cycles may grow the heap once (history rings, caches, the scratch
  // of a system's first step): REF, then every system through the cycle below twice (the
  // oscillator's second cycle still takes 4 bytes once; 4000 more take none).
  for (let i = 0; i < 50; i++) lab.simulate(REF).dispose();
  for (let i = 0; i < 2 * systems.length; i++) cycle(i);
  const used = lab.heapUsed();
  const bytes = lab.heapBytes();
  for (let i = 0; i < 1e4; i++) cycle(i);
  assert.equal(lab.heapUsed(), used, 'bytes held by malloc after 1e4 cycles');
  assert.equal(lab.heapBytes(), bytes, 'wasm memory grew over 1e4 cycles');

  function cycle(i) {
    const sim = lab.simulate({ system: systems[i % systems.length] });
    sim.advance(3);
    sim.q;
    sim.diagnostics();
    sim.history.read(0);
    sim.hash();
    sim.scenario();
    sim.advanceFor({ maxSteps: 2, budgetMs: 10 });
    if (i % 2) sim.dispose();
    else sim[Symbol.dispose]();
  }
});

test('errors leak nothing: bad scenarios, refused steps, bad setState', () => {
  const scenario = { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.1 };
  // Warm up with three passes of every error path below: the first passes may settle
  // the allocator's layout once (with emmalloc a block can come out 8 bytes larger, and
  // after the heap growth of the tests above one pass was not always enough: +8 bytes
  // after 1000 and after 3000 passes alike, so a layout shift, not a leak). A leak grows
  // with the passes: the second thousand must add nothing, and the first less than a
  // byte per pass (every allocation is at least 8 bytes).
  let used = 0;
  let afterFirst = 0;
  for (let i = -3; i < 2000; i++) {
    if (i === 0) used = lab.heapUsed();
    if (i === 1000) afterFirst = lab.heapUsed();
    assert.throws(() => lab.simulate({ system: 'double-spherical-pendulum', params: { masses: [1, -1] } }));
    assert.throws(() => lab.simulate('{"system":'));
    assert.throws(() => lab.normalize({ system: 'x'.repeat(1000) }));
    const sim = lab.simulate(scenario);
    assert.throws(() => sim.advance(100), { name: 'VilabError', message: /refused/ });
    assert.throws(() => sim.advanceFor({ maxSteps: 100, budgetMs: 100 }), { name: 'VilabError', message: /refused/ });
    assert.throws(() => sim.advanceFor({ maxSteps: 1, budgetMs: 0 }), { name: 'VilabError', field: 'budgetMs' });
    assert.throws(() => sim.setState({ q: [1, 2, 3, 4, 5, 6], p: [0, 0, 0, 0, 0, 0] }), /off the constraint manifold/);
    sim.dispose();
  }
  assert.equal(lab.heapUsed(), afterFirst, 'bytes held after 2000 passes against 1000');
  assert.ok(afterFirst - used < 1000, `${afterFirst - used} bytes more after the first 1000 passes`);
  assertHealthy();
});

test('a simulation dropped without dispose() is freed by the garbage collector', () => {
  const script = `
    import { createLab } from ${JSON.stringify(new URL('../../web/sim/vilab.js', import.meta.url).href)};
    const lab = await createLab();
    lab.simulate({ system: 'oscillator' }).dispose();
    // the first collection of dropped simulations allocates once (8 bytes, then never
    // again): one cycle warms that path up, the second is counted
    (() => { for (let i = 0; i < 50; i++) lab.simulate({ system: 'double-spherical-pendulum' }); })();
    for (let round = 0; round < 50; round++) {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    const used = lab.heapUsed();
    (() => { for (let i = 0; i < 50; i++) lab.simulate({ system: 'double-spherical-pendulum' }); })();
    const held = lab.heapUsed();
    for (let round = 0; round < 50 && lab.heapUsed() > used; round++) {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    console.log(JSON.stringify({ used, held, after: lab.heapUsed() }));
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { used, held, after } = JSON.parse(r.stdout);
  assert.ok(held > used + 50 * 8e3, 'the 50 simulations were not allocated?');
  assert.equal(after, used, 'the collected simulations were not freed');
});
