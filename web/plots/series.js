// Plot data that stays small however long the run: a min/max envelope table.
//
// Samples are aggregated into buckets; each bucket keeps, per series, its lowest
// and highest value and which came first, and is drawn as two points (at the
// bucket's first and last time), so oscillations and spikes survive decimation.
//
//   mode 'all'     whole run: when the table is full, neighbouring buckets merge
//                  and the bucket size doubles (capacity stays fixed).
//   mode 'window'  the last `span` seconds: a ring of fixed-size buckets.
//
// Output arrays are allocated once and reused; a series with no data in a
// bucket (B after it failed) yields null, which uPlot draws as a gap.

export class EnvelopeTable {
  /**
   * @param names     series names (x is separate)
   * @param capacity  buckets held (each gives two points)
   * @param mode      'all' | 'window'
   * @param bucket    samples per bucket (window mode)
   */
  constructor(names, { capacity = 2048, mode = 'all', bucket = 1 } = {}) {
    this.names = names;
    this.k = names.length;
    this.capacity = capacity;
    this.mode = mode;
    this.bucket = bucket; // samples per bucket
    const C = capacity + 1;
    this.t0 = new Float64Array(C);
    this.t1 = new Float64Array(C);
    this.lo = names.map(() => new Float64Array(C));
    this.hi = names.map(() => new Float64Array(C));
    this.loFirst = names.map(() => new Uint8Array(C));
    this.cnt = names.map(() => new Uint32Array(C));
    this.fill = new Uint32Array(C); // samples in bucket
    this.head = 0; // ring start (window mode)
    this.n = 0; // closed + open buckets in use (the last one is open while fill < bucket)
    this.version = 0;
    // reusable outputs
    this.outX = [];
    this.outY = names.map(() => []);
  }

  clear() {
    this.head = 0;
    this.n = 0;
    this.version++;
  }

  #slot(i) {
    return this.mode === 'window' ? (this.head + i) % (this.capacity + 1) : i;
  }

  /** Appends one sample: t and values[k] (NaN = no value for that series). */
  push(t, values) {
    let s;
    if (this.n === 0 || this.fill[this.#slot(this.n - 1)] >= this.bucket) {
      if (this.n === this.capacity + 1 || (this.mode === 'all' && this.n === this.capacity)) {
        if (this.mode === 'all') this.#compact();
        else {
          this.head = (this.head + 1) % (this.capacity + 1);
          this.n--;
        }
      }
      s = this.#slot(this.n);
      this.n++;
      this.fill[s] = 0;
      this.t0[s] = t;
      for (let j = 0; j < this.k; j++) this.cnt[j][s] = 0;
    } else s = this.#slot(this.n - 1);
    this.t1[s] = t;
    this.fill[s]++;
    for (let j = 0; j < this.k; j++) {
      const v = values[j];
      if (!Number.isFinite(v)) continue;
      if (this.cnt[j][s]++ === 0) {
        this.lo[j][s] = this.hi[j][s] = v;
        this.loFirst[j][s] = 1;
      } else if (v < this.lo[j][s]) {
        this.lo[j][s] = v;
        this.loFirst[j][s] = 0; // the new low comes after the high
      } else if (v > this.hi[j][s]) {
        this.hi[j][s] = v;
        this.loFirst[j][s] = 1;
      }
    }
    this.version++;
  }

  /** Merges bucket pairs; the bucket size doubles. */
  #compact() {
    const half = Math.floor(this.n / 2);
    for (let i = 0; i < half; i++) {
      const a = 2 * i;
      const b = a + 1;
      this.t0[i] = this.t0[a];
      this.t1[i] = this.t1[b];
      this.fill[i] = this.fill[a] + this.fill[b];
      for (let j = 0; j < this.k; j++) {
        const ca = this.cnt[j][a];
        const cb = this.cnt[j][b];
        const lo = this.lo[j];
        const hi = this.hi[j];
        const lf = this.loFirst[j];
        if (ca && cb) {
          // the merged low/high and whether the low comes first in time
          const loA = lo[a] <= lo[b];
          const hiA = hi[a] >= hi[b];
          const nlo = loA ? lo[a] : lo[b];
          const nhi = hiA ? hi[a] : hi[b];
          let first;
          if (loA && !hiA) first = 1;
          else if (!loA && hiA) first = 0;
          else first = loA ? lf[a] : lf[b];
          lo[i] = nlo;
          hi[i] = nhi;
          lf[i] = first;
        } else if (cb) {
          lo[i] = lo[b];
          hi[i] = hi[b];
          lf[i] = lf[b];
        } else if (ca) {
          lo[i] = lo[a];
          hi[i] = hi[a];
          lf[i] = lf[a];
        }
        this.cnt[j][i] = ca + cb;
      }
    }
    let n = half;
    if (this.n % 2 === 1) {
      // the odd last bucket moves down as is
      const a = this.n - 1;
      this.t0[n] = this.t0[a];
      this.t1[n] = this.t1[a];
      this.fill[n] = this.fill[a];
      for (let j = 0; j < this.k; j++) {
        this.lo[j][n] = this.lo[j][a];
        this.hi[j][n] = this.hi[j][a];
        this.loFirst[j][n] = this.loFirst[j][a];
        this.cnt[j][n] = this.cnt[j][a];
      }
      n++;
    }
    this.n = n;
    this.bucket *= 2;
  }

  /**
   * The plot arrays [x, y_0, …] (reused between calls). transform(j, v) may map
   * values (e.g. floor for a log axis). cols: the series to fill (default all; the
   * others keep stale contents), so a plot of two series does not pay for twelve.
   */
  output(transform = null, maxOnly = false, cols = null) {
    const m = this.bucket === 1 ? this.n : 2 * this.n;
    const x = this.outX;
    x.length = m;
    const ys = this.outY;
    const js = cols ?? (this.allCols ??= Array.from({ length: this.k }, (_, j) => j));
    for (const j of js) ys[j].length = m;
    let o = 0;
    for (let i = 0; i < this.n; i++) {
      const s = this.#slot(i);
      if (this.bucket === 1) {
        x[o] = this.t0[s];
        for (const j of js) {
          const v = this.cnt[j][s] ? this.lo[j][s] : null;
          ys[j][o] = v == null || !transform ? v : transform(j, v);
        }
        o++;
        continue;
      }
      x[o] = this.t0[s];
      x[o + 1] = this.t1[s] > this.t0[s] ? this.t1[s] : this.t0[s] + 1e-12;
      for (const j of js) {
        let a = null;
        let b = null;
        if (this.cnt[j][s]) {
          const first = this.loFirst[j][s];
          a = first ? this.lo[j][s] : this.hi[j][s];
          b = first ? this.hi[j][s] : this.lo[j][s];
          if (maxOnly) {
            // for log axes: the envelope's largest magnitude
            const m = Math.max(Math.abs(a), Math.abs(b));
            a = b = m;
          }
          if (transform) {
            a = transform(j, a);
            b = transform(j, b);
          }
        }
        ys[j][o] = a;
        ys[j][o + 1] = b;
      }
      o += 2;
    }
    return [x, ...ys];
  }

  /** Last time in the table (or 0). */
  get lastT() {
    return this.n ? this.t1[this.#slot(this.n - 1)] : 0;
  }
  get firstT() {
    return this.n ? this.t0[this.#slot(0)] : 0;
  }
}

/** A ring of (x, y) points for the phase portrait, sampled once per frame. */
export class PointRing {
  constructor(capacity = 3000, series = 2) {
    this.capacity = capacity;
    this.xs = Array.from({ length: series }, () => new Float64Array(capacity));
    this.ys = Array.from({ length: series }, () => new Float64Array(capacity));
    this.head = 0;
    this.n = 0;
    this.outX = Array.from({ length: series }, () => []);
    this.outY = Array.from({ length: series }, () => []);
    this.valid = Array.from({ length: series }, () => new Uint8Array(capacity));
  }
  clear() {
    this.head = 0;
    this.n = 0;
  }
  push(points) {
    const i = (this.head + this.n) % this.capacity;
    if (this.n < this.capacity) this.n++;
    else this.head = (this.head + 1) % this.capacity;
    points.forEach((p, j) => {
      const ok = p && Number.isFinite(p[0]) && Number.isFinite(p[1]);
      this.valid[j][i] = ok ? 1 : 0;
      if (ok) {
        this.xs[j][i] = p[0];
        this.ys[j][i] = p[1];
      }
    });
  }
  output(j) {
    const x = this.outX[j];
    const y = this.outY[j];
    x.length = 0;
    y.length = 0;
    for (let k = 0; k < this.n; k++) {
      const i = (this.head + k) % this.capacity;
      if (!this.valid[j][i]) continue;
      x.push(this.xs[j][i]);
      y.push(this.ys[j][i]);
    }
    return [x, y];
  }
}
