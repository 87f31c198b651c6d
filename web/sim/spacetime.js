// The space–time image of a field run (system "field"): u(x, t) as rows of colour, one
// row per sample of the run, x across. Pure numbers, no DOM: the ring of rows, the
// columns each row is averaged into, the colour map and the spacing of the rows (the
// page's card is web/plots/field-plots.js; tests/wasm/spacetime.test.mjs).

/** The rows the ring keeps, and the most columns a row is drawn with. */
export const ROWS = 480;
export const MAX_COLUMNS = 512;

/**
 * The least time between two rows: the ring's ROWS rows span about two crossings of the
 * grid by the fastest waves (2L/c, c² the largest of the cells' `speeds`, c² per cell from the
 * core (web/sim/stiffness.js); without them √(κ/ρ) of a number κ, 1 for a typed density), a whole number of
 * steps h, at least one. The page takes a row at the first drawn step this far past the
 * last row, so rows are at the run's own step times.
 */
export function rowInterval(scenario, speeds = null) {
  const h = scenario.h;
  const d = scenario.params?.density ?? {};
  const kappa = typeof d.kappa === 'number' ? d.kappa : 1;
  const c = speeds?.length ? Math.sqrt(Math.max(...speeds)) : typeof d.lagrangian === 'string' ? 1 : Math.sqrt(kappa / (d.rho ?? 1));
  const span = (2 * (scenario.params?.grid?.length ?? 1)) / c;
  return h * Math.max(1, Math.floor(span / ROWS / h));
}

/** The columns a row of n nodes is drawn with: n up to MAX_COLUMNS, else MAX_COLUMNS (each the mean of its nodes). */
export function columnsFor(n) {
  return Math.min(n, MAX_COLUMNS);
}

/** Averages u (n nodes) into out (its length: columns), each column the mean of the nodes ⌊jn/m⌋ … ⌊(j+1)n/m⌋ − 1. */
export function averageColumns(u, out) {
  const n = u.length;
  const m = out.length;
  for (let j = 0; j < m; j++) {
    const a = Math.floor((j * n) / m);
    const b = Math.max(a + 1, Math.floor(((j + 1) * n) / m));
    let s = 0;
    for (let i = a; i < b; i++) s += u[i];
    out[j] = s / (b - a);
  }
  return out;
}

/**
 * The last ROWS rows: { t, values } each, oldest first (row(k)), plus the largest |u| of
 * the rows kept (maxAbs: the colour range follows it, up and down, as rows leave the ring). A row with a non-finite value is refused (push returns false)
 * and the ring takes no more rows until cleared: a broken run's image ends at its last
 * good row.
 */
export class SpaceTimeRing {
  constructor(columns, rows = ROWS) {
    this.columns = columns;
    this.capacity = rows;
    this.data = new Float32Array(columns * rows);
    this.times = new Float64Array(rows);
    this.rowMax = new Float64Array(rows); // each slot's largest |u|
    this.clear();
  }

  clear() {
    this.count = 0;
    this.next = 0; // the slot the next row goes to
    this.broken = false;
    this.version = (this.version ?? 0) + 1;
  }

  /** Takes a row of `columns` values at time t; false (and the ring closes) when one is not finite. */
  push(t, row) {
    if (this.broken) return false;
    for (let j = 0; j < this.columns; j++) {
      if (!Number.isFinite(row[j])) {
        this.broken = true;
        return false;
      }
    }
    if (!Number.isFinite(t)) return false;
    const base = this.next * this.columns;
    let most = 0;
    for (let j = 0; j < this.columns; j++) {
      this.data[base + j] = row[j];
      most = Math.max(most, Math.abs(row[j]));
    }
    this.rowMax[this.next] = most;
    this.times[this.next] = t;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    this.version++;
    return true;
  }

  /** The slot of the k-th oldest row kept. */
  slot(k) {
    return (this.next - this.count + k + this.capacity) % this.capacity;
  }

  /** The time of the k-th oldest row kept. */
  time(k) {
    return this.times[this.slot(k)];
  }

  /** The largest |u| of the rows kept (0 when empty). */
  get maxAbs() {
    let most = 0;
    for (let k = 0; k < this.count; k++) most = Math.max(most, this.rowMax[this.slot(k)]);
    return most;
  }

  /** The last row's time (NaN when empty). */
  get lastT() {
    return this.count ? this.time(this.count - 1) : NaN;
  }
}

/** The colour range: the largest |u| seen, rounded up to two significant digits (the bar's ends stay put while it fits). */
export function colourRange(maxAbs) {
  if (!(maxAbs > 0)) return 1;
  const k = 1 - Math.floor(Math.log10(maxAbs)); // 10^k maxAbs has two digits before the point
  const x = maxAbs * (1 - 1e-12);
  return k >= 0 ? Math.ceil(x * 10 ** k) / 10 ** k : Math.ceil(x / 10 ** -k) * 10 ** -k;
}

/** The colour range shrinks only once the rows kept need less than this fraction of it (no flicker as |u| swings). */
export const SHRINK_BELOW = 0.5;

/**
 * The colour range after a row: R grown at once to colourRange(maxAbs) when the rows kept
 * exceed it, shrunk to it once they need less than SHRINK_BELOW of R (an amplitude that
 * fell, the rows of a larger one gone from the ring), else kept. R ≤ 0: none yet.
 */
export function followRange(R, maxAbs) {
  const fit = colourRange(maxAbs);
  if (!(R > 0) || fit > R) return fit;
  return fit < SHRINK_BELOW * R ? fit : R;
}

// Diverging maps centred on u = 0 (the vacuum of the string, Klein–Gordon, sine-Gordon;
// the level between φ⁴'s vacua): blue for u < 0, red for u > 0, light (or dark) at 0.
const MAPS = {
  light: [
    [33, 102, 172],
    [247, 247, 247],
    [178, 24, 43],
  ],
  dark: [
    [67, 147, 195],
    [28, 30, 34],
    [214, 96, 77],
  ],
};

/** Writes the RGB of value u on the map (theme 'light' or 'dark') for the range [−R, R] into out at offset k. */
export function colourOf(u, R, theme, out, k = 0) {
  const [lo, mid, hi] = MAPS[theme] ?? MAPS.light;
  const s = Math.max(-1, Math.min(1, u / R));
  const end = s < 0 ? lo : hi;
  const a = Math.abs(s);
  out[k] = Math.round(mid[0] + (end[0] - mid[0]) * a);
  out[k + 1] = Math.round(mid[1] + (end[1] - mid[1]) * a);
  out[k + 2] = Math.round(mid[2] + (end[2] - mid[2]) * a);
  return out;
}
