// The runner's rows for a field run's space–time image (Runner.rows, web/sim/runner.js):
// A's batches end on every `every`-th step among the last `keep` of each advance, and
// onRow() is called there, however the steps are batched; the run's bits are those of
// one plain advance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab } from './helpers.mjs';
import { Runner } from '../../web/sim/runner.js';

const { about, ...kink } = JSON.parse(readFileSync(new URL('../../scenes/fields/sine-gordon-kink.json', import.meta.url), 'utf8'));

/** The steps onRow was called on, advancing in the given batches; and A's hash at the end. */
function rowsOf(batches, rows) {
  const seen = [];
  const runner = new Runner(lab, { onRow: () => seen.push(runner.step) });
  runner.configure(kink, { ...kink, integrator: 'rk4' });
  runner.rows = rows;
  for (const n of batches) runner.advance(n);
  const out = { seen, hash: runner.a.sim.hash(), b: runner.b.sim.step };
  runner.disposeTracks();
  return out;
}

test('rows fall on every `every`-th step of the last `keep` of an advance, the same bits as without them', () => {
  const plain = rowsOf([100], { every: 0, keep: 0 });
  assert.deepEqual(plain.seen, []);
  // one advance of 100 keeping 12 steps of rows every 3: 90, 93, 96, 99 (and 87, where it stops running straight)
  const one = rowsOf([100], { every: 3, keep: 12 });
  assert.deepEqual(one.seen, [87, 90, 93, 96, 99]);
  assert.equal(one.hash, plain.hash);
  assert.equal(one.b, 100, 'B took as many steps');
  // in batches of 7 (frames): every multiple of 3 is a row (each batch is within `keep`)
  const frames = rowsOf(Array(15).fill(7), { every: 3, keep: 12 });
  assert.deepEqual(
    frames.seen,
    Array.from({ length: 35 }, (_, k) => 3 * (k + 1)),
  );
  assert.equal(frames.hash, rowsOf([105], { every: 0, keep: 0 }).hash);
  // a far landing (10 000 steps) stops on every row only near its end: before, only where
  // its chunks of 1024 steps (half the history ring at most) happen to end on one
  const far = rowsOf([10000], { every: 8, keep: 3840 });
  const kept = far.seen.filter((s) => s > 10000 - 3840);
  assert.deepEqual(
    kept,
    Array.from({ length: 480 }, (_, k) => 10000 - 3840 + 8 * (k + 1)),
  );
  assert.ok(far.seen.length - kept.length <= 10, `${far.seen.length - kept.length} rows before the kept ones`);
});
