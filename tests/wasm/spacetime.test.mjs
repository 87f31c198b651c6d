// The space–time image's numbers (web/sim/spacetime.js): rows at the run's own step
// times, columns as means of their nodes (N up to 4096), a ring that keeps the last rows
// oldest first, refuses a NaN and then takes nothing more, and a colour map centred on 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  ROWS,
  MAX_COLUMNS,
  SpaceTimeRing,
  averageColumns,
  colourOf,
  colourRange,
  followRange,
  SHRINK_BELOW,
  columnsFor,
  rowInterval,
} from '../../web/sim/spacetime.js';

const scene = (id) => {
  const { about, ...scenario } = JSON.parse(readFileSync(new URL(`../../scenes/fields/${id}.json`, import.meta.url), 'utf8'));
  return scenario;
};

test('rows: a whole number of steps apart, the ring spanning about two crossings of the grid', () => {
  for (const id of ['plucked-string', 'sine-gordon-kink', 'klein-gordon', 'nonlinear-string']) {
    const sc = scene(id);
    const dt = rowInterval(sc);
    const steps = dt / sc.h;
    assert.ok(Math.abs(steps - Math.round(steps)) < 1e-9 && steps >= 1, `${id}: ${steps} steps`);
    const span = ROWS * dt;
    const crossing = 2 * sc.params.grid.length; // c = 1 in every shipped scene
    assert.ok(span <= crossing + 1e-9 && span > crossing - ROWS * sc.h, `${id}: ${span}`);
  }
  // the sine-Gordon kink (L = 40, h = 0.02): 80/480 → 8 steps a row
  assert.equal(Math.round(rowInterval(scene('sine-gordon-kink')) / 0.02), 8);
  // faster waves (κ = 4, c = 2) halve the span
  const fast = scene('sine-gordon-kink');
  fast.params.density.kappa = 4;
  assert.equal(Math.round(rowInterval(fast) / 0.02), 4);
});

test('columns: up to 512, each the mean of its nodes (4096 nodes: 8 each)', () => {
  assert.equal(columnsFor(128), 128);
  assert.equal(columnsFor(4096), MAX_COLUMNS);
  const u = Float64Array.from({ length: 4096 }, (_, i) => i);
  const out = averageColumns(u, new Float64Array(512));
  for (let j = 0; j < 512; j++) assert.equal(out[j], 8 * j + 3.5);
  // 1000 nodes into 512 columns: every node in exactly one column
  const ones = averageColumns(new Float64Array(1000).fill(2), new Float64Array(512));
  assert.ok(ones.every((x) => x === 2));
  // as many columns as nodes: the nodes themselves
  assert.deepEqual(Array.from(averageColumns([1, -2, 3], new Float64Array(3))), [1, -2, 3]);
});

test('the ring keeps the last rows oldest first with their times, and the largest |u|', () => {
  const ring = new SpaceTimeRing(2, 4);
  for (let k = 0; k < 6; k++) assert.equal(ring.push(0.1 * k, [k, -2 * k]), true);
  assert.equal(ring.count, 4);
  assert.deepEqual(
    Array.from({ length: 4 }, (_, k) => ring.time(k)),
    [0.2, 0.30000000000000004, 0.4, 0.5],
  );
  assert.equal(ring.data[ring.slot(0) * 2], 2);
  assert.equal(ring.data[ring.slot(3) * 2 + 1], -10);
  assert.equal(ring.maxAbs, 10);
  assert.equal(ring.lastT, 0.5);
});

test('a row with a NaN is refused and the ring takes no more rows until cleared', () => {
  const ring = new SpaceTimeRing(3, 8);
  assert.equal(ring.push(0, [0, 1, 2]), true);
  assert.equal(ring.push(1, [0, Number.NaN, 2]), false);
  assert.equal(ring.push(2, [0, 1, 2]), false);
  assert.equal(ring.count, 1);
  assert.ok(ring.broken);
  assert.ok(Array.from(ring.data).every(Number.isFinite));
  ring.clear();
  assert.equal(ring.push(0, [0, 1, 2]), true);
  assert.equal(ring.push(1, [Infinity, 0, 0]), false);
});

test('colours: a diverging map centred on u = 0, its range the largest |u| to two digits', () => {
  assert.equal(colourRange(2 * Math.PI), 6.3);
  assert.equal(colourRange(0.05), 0.05);
  assert.equal(colourRange(0.0512), 0.052);
  assert.equal(colourRange(0), 1);
  for (const theme of ['light', 'dark']) {
    const at = (u) => colourOf(u, 2, theme, [0, 0, 0]);
    const [r0, g0, b0] = at(0);
    assert.ok(r0 === g0 || Math.abs(r0 - b0) < 12, `${theme}: the centre is grey (${at(0)})`);
    const [rn, , bn] = at(-2);
    const [rp, , bp] = at(2);
    assert.ok(bn > rn && rp > bp, `${theme}: blue below, red above`);
    assert.deepEqual(at(-5), at(-2)); // beyond the range: the end colour
    // symmetric distance from the centre colour at ±u
    const dist = (c) => Math.hypot(c[0] - r0, c[1] - g0, c[2] - b0);
    assert.ok(dist(at(1)) > 0.4 * dist(at(2)) && dist(at(1)) < 0.6 * dist(at(2)));
  }
});

test('the largest |u| is that of the rows kept: it falls as the rows of a larger amplitude leave the ring', () => {
  const ring = new SpaceTimeRing(2, 4);
  ring.push(0, [1, -3]);
  for (let k = 1; k <= 3; k++) ring.push(k, [0.1, -0.2]);
  assert.equal(ring.maxAbs, 3, 'the large row is still kept');
  ring.push(4, [0.1, -0.2]);
  assert.equal(ring.maxAbs, 0.2, 'gone from the ring, gone from the range');
  ring.clear();
  assert.equal(ring.maxAbs, 0);
});

test('the colour range grows at once, shrinks once the rows need less than half of it, and does not flicker', () => {
  assert.equal(SHRINK_BELOW, 0.5);
  assert.equal(followRange(0, 0.05), 0.05, 'the first row sets it');
  assert.equal(followRange(0.05, 0.08), 0.08, 'grows at once');
  assert.equal(followRange(0.08, 0.05), 0.08, 'kept while the rows need more than half of it');
  assert.equal(followRange(0.08, 0.03), 0.03, 'shrinks to the rows once they need less than half');
  // a field whose amplitude decays by 1 % a row, then swings between 0.9 and 1: the range
  // follows it down in a few jumps (never more than one per halving) and holds still on the swing
  const ring = new SpaceTimeRing(1, 10);
  let R = 0;
  const ranges = [];
  for (let k = 0; k < 400; k++) {
    ring.push(k, [k < 300 ? 0.99 ** k : 0.95 + 0.05 * Math.sin(k)]);
    R = followRange(R, ring.maxAbs);
    ranges.push(R);
  }
  const changes = ranges.filter((r, k) => k > 0 && r !== ranges[k - 1]).length;
  // the rows kept after the decay reach 0.99^290 = 0.054: the range is within twice that (and a rounding up)
  assert.ok(ranges[299] <= 0.11, `after the decay the range is ${ranges[299]}, not the first row's 1`);
  assert.ok(changes <= 8, `${changes} changes`);
  assert.ok(
    ranges.slice(310).every((r) => r === 1),
    'on the swing: 1, unchanged',
  );
  // the old rule, the largest |u| ever seen, would still read 1 after the decay
  assert.equal(colourRange(Math.max(...Array.from({ length: 300 }, (_, k) => 0.99 ** k))), 1);
});
