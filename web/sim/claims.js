// What a preset's caption claims, measured from the run: the same pure code fills the
// caption's {slots} on the page and checks every claim in Node
// (tests/wasm/preset-claims.test.mjs). A preset's `claims` is an array of
//
//   { name, kind, track?, quantity?, measure?, stat?, at?, format?, digits?, expect: [lo, hi] }
//
// kinds (CLAIM_KINDS):
//   crossing    the time B's largest |drift| so far (the energy plot's envelope) first
//               exceeds A's, after the first second (the plot's crossing marker)
//   value       a quantity of one track at time `at` (stat 'at'), or its 'max', 'min' or
//               'maxAbs' over [0, at]
//   stop        the time a track was stopped (a refused step or the page's breakdown)
//   recurrence  the first time after `after` that the quantity returns to `above` or more,
//               having fallen below `below`
//   interval    the mean interval between sign changes of the quantity over [0, at]
//               (a flip of a spinning body, half a period)
//   ratio       the value of claim `of[0]` divided by that of claim `of[1]`
//
// measure (of one sample x of a history column, against the track's first sample x₀):
//   drift   (x − x₀)/|x₀| (absolute when x₀ is tiny: the plots' rule), change x − x₀,
//   value   x, factor  x/x₀, share  x / the sample's energy.
// `expect` is the range a test holds the run to; the page says "not yet" with it.
// Runs are fed as history reads (sim.history.read(): { start, count, t, energy, columns }).

export const CLAIM_KINDS = Object.freeze(['crossing', 'value', 'stop', 'recurrence', 'interval', 'ratio']);
export const CLAIM_FORMATS = Object.freeze(['time', 'percent', 'signed-percent', 'sci', 'factor', 'number']);
const STATS = ['at', 'max', 'min', 'maxAbs'];
const MEASURES = ['drift', 'change', 'value', 'factor', 'share'];
// the plots' thresholds under which a drift is absolute (web/plots/plots.js)
const TINY = { energy: 1e-12, momentum: 1e-9, other: 1e-12 };
// the energy plot's crossing marker ignores the first second (both envelopes start at 0)
const CROSSING_FROM = 1;

/** Throws an Error naming the field when a preset's claims are malformed; returns them. */
export function checkClaims(claims, where = 'claims') {
  if (!Array.isArray(claims)) throw new Error(`${where}: must be an array`);
  const names = new Set();
  claims.forEach((c, i) => {
    const at = `${where}[${i}]`;
    if (!c || typeof c !== 'object') throw new Error(`${at}: must be an object`);
    if (typeof c.name !== 'string' || !/^[a-zA-Z]\w*$/.test(c.name)) throw new Error(`${at}.name: must be a word`);
    if (names.has(c.name)) throw new Error(`${at}.name: "${c.name}" is used twice`);
    names.add(c.name);
    if (!CLAIM_KINDS.includes(c.kind)) throw new Error(`${at}.kind: one of ${CLAIM_KINDS.join(', ')}, got ${c.kind}`);
    if (c.format !== undefined && !CLAIM_FORMATS.includes(c.format)) throw new Error(`${at}.format: unknown "${c.format}"`);
    if (c.measure !== undefined && !MEASURES.includes(c.measure)) throw new Error(`${at}.measure: unknown "${c.measure}"`);
    if (c.stat !== undefined && !STATS.includes(c.stat)) throw new Error(`${at}.stat: unknown "${c.stat}"`);
    if (c.track !== undefined && c.track !== 'A' && c.track !== 'B') throw new Error(`${at}.track: 'A' or 'B'`);
    const [lo, hi] = Array.isArray(c.expect) ? c.expect : [];
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi)) throw new Error(`${at}.expect: [lo, hi] with lo ≤ hi`);
    if (['value', 'interval'].includes(c.kind) && !(c.at > 0)) throw new Error(`${at}.at: a time > 0`);
    if (c.kind !== 'stop' && c.kind !== 'ratio' && typeof c.quantity !== 'string') throw new Error(`${at}.quantity: a history column`);
    if (c.kind === 'ratio' && !(Array.isArray(c.of) && c.of.length === 2)) throw new Error(`${at}.of: two claim names`);
  });
  for (const c of claims)
    if (c.kind === 'ratio') for (const n of c.of) if (!names.has(n)) throw new Error(`${where}: ratio ${c.name} names no claim "${n}"`);
  return claims;
}

/** The {slot} names of a caption. */
export function slotsOf(text) {
  return [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

function tinyFor(quantity) {
  if (quantity === 'energy') return TINY.energy;
  return quantity.startsWith('momentum') ? TINY.momentum : TINY.other;
}

const partsOf = new Map(); // quantity → its column names (split once)

/** The value of a quantity at sample i of a read: a history column, or a sum of columns ('a+b'). */
function valueAt(read, quantity, i) {
  let parts = partsOf.get(quantity);
  if (!parts) partsOf.set(quantity, (parts = quantity.split('+')));
  let sum = 0;
  for (const name of parts) {
    const col =
      name === 'energy' || name === 't' || name === 'constraint'
        ? read[name]
        : (read.columns?.[name] ?? (name === 'momentum' ? read.momentum?.[0] : undefined));
    if (!col) return undefined;
    sum += col[i];
  }
  return sum;
}

function measureOf(claim, x, x0, energy) {
  switch (claim.measure ?? 'drift') {
    case 'value':
      return x;
    case 'change':
      return x - x0;
    case 'factor':
      return x / x0;
    case 'share':
      return x / energy;
    default:
      return Math.abs(x0) > tinyFor(claim.quantity) ? (x - x0) / Math.abs(x0) : x - x0;
  }
}

/** One claim's state as samples arrive. */
class Measure {
  constructor(claim) {
    this.claim = claim;
    this.x0 = NaN;
    this.done = false;
    this.value = NaN;
    this.acc = claim.stat === 'max' || claim.stat === 'maxAbs' ? -Infinity : Infinity;
    this.fell = false; // recurrence: has it fallen below `below`?
    this.sign = 0; // interval: last sign, the times of its changes
    this.changes = [];
  }

  sample(t, x, energy) {
    const c = this.claim;
    if (this.done) return;
    if (Number.isNaN(this.x0)) this.x0 = x;
    const v = measureOf(c, x, this.x0, energy);
    if (c.kind === 'value') this.#value(t, v);
    else if (c.kind === 'recurrence') this.#recurrence(t, v);
    else if (c.kind === 'interval') this.#interval(t, v);
  }

  #value(t, v) {
    const c = this.claim;
    const stat = c.stat ?? 'at';
    if (stat === 'max') this.acc = Math.max(this.acc, v);
    else if (stat === 'min') this.acc = Math.min(this.acc, v);
    else if (stat === 'maxAbs') this.acc = Math.max(this.acc, Math.abs(v));
    if (t >= c.at - 1e-9) {
      this.value = stat === 'at' ? v : this.acc;
      this.done = true;
    }
  }

  #recurrence(t, v) {
    const c = this.claim;
    if (t < (c.after ?? 0)) return;
    if (v < c.below) this.fell = true;
    else if (this.fell && v >= c.above) {
      this.value = t;
      this.done = true;
    }
  }

  #interval(t, v) {
    const s = Math.sign(v);
    if (s !== 0 && this.sign !== 0 && s !== this.sign) this.changes.push(t);
    if (s !== 0) this.sign = s;
    if (t >= this.claim.at - 1e-9) {
      const n = this.changes.length;
      this.value = n >= 2 ? (this.changes[n - 1] - this.changes[0]) / (n - 1) : NaN;
      this.done = true;
    }
  }
}

/**
 * Follows a run of A (and B) and measures each claim. ingest(readA, readB) with the
 * history reads in order (the first holding sample 0), stop(label, t) when a track is
 * stopped; results() gives each claim's { state: 'done'|'pending'|'stopped', value }.
 */
export class ClaimTracker {
  constructor(claims) {
    this.claims = checkClaims(claims ?? []);
    this.measures = new Map(
      this.claims.filter((c) => !['crossing', 'stop', 'ratio'].includes(c.kind)).map((c) => [c.name, new Measure(c)]),
    );
    this.crossingQuantities = [...new Set(this.claims.filter((c) => c.kind === 'crossing').map((c) => c.quantity))];
    this.base = { A: new Map(), B: new Map() };
    this.env = { A: new Map(), B: new Map() };
    this.lastT = { A: -Infinity, B: -Infinity };
    this.crossed = new Map();
    this.stopped = { A: null, B: null };
  }

  /** History reads of A and B (sim.history.read()), aligned by sample index; either may be null. */
  ingest(ra, rb) {
    const from = Math.min(ra?.start ?? Infinity, rb?.start ?? Infinity);
    const to = Math.max(ra ? ra.start + ra.count : -Infinity, rb ? rb.start + rb.count : -Infinity);
    for (let k = from; k < to; k++) {
      const a = this.#sample('A', ra, k);
      const b = this.#sample('B', rb, k);
      // B's envelope passes A's at a sample both have (the energy plot's marker)
      if (a == null || b == null || b <= CROSSING_FROM) continue;
      for (const q of this.crossingQuantities) {
        if (!this.crossed.has(q) && (this.env.B.get(q) ?? 0) > (this.env.A.get(q) ?? Infinity)) this.crossed.set(q, b);
      }
    }
  }

  /** Sample k of a track's read: measures and envelopes; its time, or null when absent. */
  #sample(label, read, k) {
    const i = read ? k - read.start : -1;
    if (i < 0 || i >= read.count) return null;
    const t = read.t[i];
    // a stopped track's samples count up to its stop (the page may read past it before it knows)
    if (t <= this.lastT[label] || t > (this.stopped[label]?.t ?? Infinity)) return null;
    this.lastT[label] = t;
    const energy = read.energy[i];
    for (const m of this.measures.values()) {
      if ((m.claim.track ?? 'A') !== label) continue;
      const x = valueAt(read, m.claim.quantity, i);
      if (x !== undefined) m.sample(t, x, energy);
    }
    for (const q of this.crossingQuantities) this.#envelope(label, q, valueAt(read, q, i));
    return t;
  }

  #envelope(label, quantity, x) {
    if (x === undefined) return;
    const base = this.base[label];
    if (!base.has(quantity)) base.set(quantity, x);
    const x0 = base.get(quantity);
    const d = Math.abs(Math.abs(x0) > tinyFor(quantity) ? (x - x0) / Math.abs(x0) : x - x0);
    this.env[label].set(quantity, Math.max(this.env[label].get(quantity) ?? 0, d));
  }

  /** A track stopped at time t (a refused step's or the breakdown's last good time). */
  stop(label, t) {
    if (!this.stopped[label]) this.stopped[label] = { t };
  }

  /** Each claim by name: { claim, state, value }. */
  results() {
    const out = new Map();
    for (const c of this.claims) out.set(c.name, { claim: c, ...this.#result(c, out) });
    return out;
  }

  #result(c, out) {
    if (c.kind === 'stop') {
      const s = this.stopped[c.track ?? 'B'];
      return s ? { state: 'done', value: s.t } : { state: 'pending', value: NaN };
    }
    if (c.kind === 'crossing') {
      if (this.crossed.has(c.quantity)) return { state: 'done', value: this.crossed.get(c.quantity) };
      return this.stopped.A || this.stopped.B ? { state: 'stopped', value: NaN } : { state: 'pending', value: NaN };
    }
    if (c.kind === 'ratio') {
      const [x, y] = c.of.map((n) => out.get(n));
      if (x?.state === 'done' && y?.state === 'done') return { state: 'done', value: x.value / y.value };
      return { state: x?.state === 'stopped' || y?.state === 'stopped' ? 'stopped' : 'pending', value: NaN };
    }
    const m = this.measures.get(c.name);
    if (m.done) return { state: 'done', value: m.value };
    return { state: this.stopped[c.track ?? 'A'] ? 'stopped' : 'pending', value: NaN };
  }
}

/** A claim's value as the caption prints it, in the language `lang` (Intl). */
export function formatClaim(claim, value, lang = 'en') {
  if (!Number.isFinite(value)) return '…';
  const digits = claim.digits ?? 3;
  const n = (x, opts = {}) => new Intl.NumberFormat(lang, { maximumSignificantDigits: digits, useGrouping: false, ...opts }).format(x);
  switch (claim.format ?? 'number') {
    case 'time':
      return `${n(value)} s`;
    case 'percent':
      return `${n(Math.abs(value) * 100)} %`;
    case 'signed-percent':
      return `${n(value * 100, { signDisplay: 'always' })} %`.replace('-', '−');
    case 'factor':
      return `×${n(value)}`;
    case 'sci': {
      if (value === 0) return '0';
      const e = Math.floor(Math.log10(Math.abs(value)));
      const m = value / 10 ** e;
      return `${n(m)}e${e < 0 ? '−' : ''}${Math.abs(e)}`.replace(/^-/, '−');
    }
    default:
      return n(value).replace(/^-/, '−');
  }
}

/** The middle of a claim's expected range, as the "not yet" note states it. */
export function expectedOf(claim) {
  return (claim.expect[0] + claim.expect[1]) / 2;
}

/**
 * The caption with its slots filled: { text, pending: [claims not yet measured], stopped: [...] }.
 * A slot whose claim is not yet measured reads "…".
 */
export function fillCaption(text, results, lang = 'en') {
  const pending = [];
  const stopped = [];
  const filled = String(text).replace(/\{(\w+)\}/g, (whole, name) => {
    const r = results.get(name);
    if (!r) return whole;
    if (r.state === 'pending') pending.push(r.claim);
    if (r.state === 'stopped') stopped.push(r.claim);
    return formatClaim(r.claim, r.value, lang);
  });
  return { text: filled, pending, stopped };
}
