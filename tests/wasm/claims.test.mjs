// web/sim/claims.js on hand-made histories (no wasm): each claim kind measures what it
// says, a malformed claim is refused naming its field, and the caption is filled in the
// reader's language with "…" for what the run has not reached.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClaimTracker, checkClaims, fillCaption, formatClaim, slotsOf, expectedOf } from '../../web/sim/claims.js';

/** A history read of samples k = start…start+count−1 at t = k·h with the columns given as functions of t. */
function read(start, count, h, fns) {
  const t = Float64Array.from({ length: count }, (_, i) => (start + i) * h);
  const col = (f) => Float64Array.from(t, f);
  const columns = Object.fromEntries(Object.entries(fns).map(([k, f]) => [k, col(f)]));
  return { start, count, t, energy: columns.energy, constraint: col(() => 0), columns };
}
const any = [-1e300, 1e300];

test('value: at a time, and the largest |drift| over [0, T], relative to the first sample', () => {
  const tr = new ClaimTracker([
    { name: 'at', kind: 'value', track: 'B', quantity: 'energy', at: 2, expect: any },
    { name: 'max', kind: 'value', track: 'A', quantity: 'energy', at: 3, stat: 'maxAbs', expect: any },
    { name: 'factor', kind: 'value', track: 'B', quantity: 'energy', measure: 'factor', at: 2, expect: any },
    { name: 'change', kind: 'value', track: 'B', quantity: 'energy', measure: 'change', at: 2, expect: any },
  ]);
  // A oscillates ±1 % about 10; B grows linearly from 2: 2 + t
  tr.ingest(read(0, 201, 0.01, { energy: (t) => 10 * (1 + 0.01 * Math.sin(t)) }), read(0, 201, 0.01, { energy: (t) => 2 + t }));
  let r = tr.results();
  assert.equal(r.get('at').state, 'done');
  assert.ok(Math.abs(r.get('at').value - 1) < 1e-12, `(4 − 2)/2 = 1, got ${r.get('at').value}`);
  assert.ok(Math.abs(r.get('factor').value - 2) < 1e-12);
  assert.ok(Math.abs(r.get('change').value - 2) < 1e-12, '4 − 2');
  assert.equal(r.get('max').state, 'pending', 'not yet at t = 3');
  tr.ingest(read(201, 200, 0.01, { energy: (t) => 10 * (1 + 0.01 * Math.sin(t)) }), read(201, 200, 0.01, { energy: (t) => 2 + t }));
  r = tr.results();
  assert.ok(Math.abs(r.get('max').value - 0.01) < 1e-6, `max |sin| over [0, 3] is 1, got ${r.get('max').value}`);
});

test('crossing: B’s envelope passes A’s, after the first second, at the sample it happens', () => {
  const tr = new ClaimTracker([{ name: 'c', kind: 'crossing', quantity: 'energy', expect: any }]);
  // A's band 1e-3 reached at once; B's error 1e-4·t passes it at t = 10
  const A = (t) => 1 + (t > 0 ? 1e-3 : 0);
  const B = (t) => 1 + 1e-4 * t;
  for (let k = 0; k < 2000; k += 500) tr.ingest(read(k, 500, 0.01, { energy: A }), read(k, 500, 0.01, { energy: B }));
  const c = tr.results().get('c');
  assert.equal(c.state, 'done');
  assert.ok(Math.abs(c.value - 10.01) < 1e-9, `first sample with B > A: t = 10.01, got ${c.value}`);
});

test('stop, ratio, recurrence and interval', () => {
  const tr = new ClaimTracker([
    { name: 'stop', kind: 'stop', track: 'B', expect: any },
    { name: 'x1', kind: 'value', track: 'A', quantity: 'energy', at: 1, measure: 'value', expect: any },
    { name: 'x3', kind: 'value', track: 'A', quantity: 'energy', at: 3, measure: 'value', expect: any },
    { name: 'grow', kind: 'ratio', of: ['x3', 'x1'], expect: any },
    { name: 'back', kind: 'recurrence', track: 'A', quantity: 'share', measure: 'value', below: 0.5, above: 0.99, expect: any },
    { name: 'flip', kind: 'interval', track: 'A', quantity: 'spin', measure: 'value', at: 9, expect: any },
    { name: 'later', kind: 'value', track: 'B', quantity: 'energy', at: 8, expect: any },
  ]);
  const fns = { energy: (t) => 1 + t, share: (t) => Math.cos((Math.PI * t) / 8) ** 2, spin: (t) => Math.sin(Math.PI * t * 0.5 + 0.1) };
  tr.ingest(read(0, 501, 0.01, fns), read(0, 501, 0.01, fns));
  assert.equal(tr.results().get('stop').state, 'pending');
  tr.stop('B', 5);
  tr.ingest(read(501, 500, 0.01, fns), read(501, 500, 0.01, fns)); // B's samples after its stop are ignored
  const r = tr.results();
  assert.equal(r.get('stop').value, 5);
  assert.equal(r.get('grow').value, 2, '(1 + 3)/(1 + 1)');
  // cos²(πt/8) = 0.99 at t = 8 − 8·acos(√0.99)/π
  const back = 8 - (8 * Math.acos(Math.sqrt(0.99))) / Math.PI;
  assert.ok(Math.abs(r.get('back').value - back) < 0.011, `cos² returns to 0.99 at t = ${back}, got ${r.get('back').value}`);
  assert.ok(Math.abs(r.get('flip').value - 2) < 1e-9, `sin(πt/2) changes sign every 2 s, got ${r.get('flip').value}`);
  assert.equal(r.get('later').state, 'stopped', 'B stopped before t = 8');
});

test('a malformed claim is refused, naming the field', () => {
  const ok = { name: 'a', kind: 'value', quantity: 'energy', at: 1, expect: [0, 1] };
  assert.doesNotThrow(() => checkClaims([ok]));
  for (const [bad, field] of [
    [{ ...ok, kind: 'guess' }, 'claims[0].kind'],
    [{ ...ok, expect: [1, 0] }, 'claims[0].expect'],
    [{ ...ok, at: undefined }, 'claims[0].at'],
    [{ ...ok, name: '1x' }, 'claims[0].name'],
    [{ ...ok, format: 'hex' }, 'claims[0].format'],
    [{ ...ok, track: 'C' }, 'claims[0].track'],
  ]) {
    assert.throws(
      () => checkClaims([bad]),
      (e) => e.message.startsWith(field),
      field,
    );
  }
  assert.throws(() => checkClaims([ok, ok]), /used twice/);
  assert.throws(() => checkClaims([ok, { name: 'r', kind: 'ratio', of: ['a', 'z'], expect: [0, 1] }]), /names no claim "z"/);
});

test('the caption: slots filled in the reader’s language, "…" while pending', () => {
  const claims = [
    { name: 'stop', kind: 'stop', format: 'time', digits: 3, expect: [5.2, 5.4] },
    { name: 'e', kind: 'value', quantity: 'energy', at: 1, format: 'signed-percent', digits: 2, expect: any },
  ];
  const results = new Map([
    ['stop', { claim: claims[0], state: 'done', value: 5.29 }],
    ['e', { claim: claims[1], state: 'pending', value: NaN }],
  ]);
  assert.deepEqual(slotsOf('a {stop} b {e}'), ['stop', 'e']);
  const en = fillCaption('stops at t = {stop}; {e} after 1 s', results, 'en');
  assert.equal(en.text, 'stops at t = 5.29 s; … after 1 s');
  assert.deepEqual(
    en.pending.map((c) => c.name),
    ['e'],
  );
  assert.equal(fillCaption('t = {stop}', results, 'es').text, 't = 5,29 s');
  assert.equal(formatClaim({ format: 'signed-percent', digits: 2 }, 0.1385, 'en'), '+14 %');
  assert.equal(formatClaim({ format: 'signed-percent', digits: 2 }, -0.0034, 'en'), '−0.34 %');
  assert.equal(formatClaim({ format: 'sci', digits: 2 }, 4.249e-5, 'en'), '4.2e−5');
  assert.equal(formatClaim({ format: 'sci', digits: 2 }, -4.9e-4, 'en'), '−4.9e−4');
  assert.equal(formatClaim({ format: 'factor', digits: 3 }, 1.01, 'en'), '×1.01');
  assert.equal(formatClaim({ format: 'time', digits: 3 }, 1782, 'en'), '1780 s');
  assert.equal(expectedOf({ expect: [1760, 1810] }), 1785);
});
