// The diagnostics plots (uPlot), fed incrementally from the recorded histories:
//
//   energy       (E − E₀)/E₀ (relative; E₀ > 0 since potentials vanish at rest)
//   momentum     each momentum-map component's drift: (J − J₀)/|J₀| when |J₀| is
//                not tiny, else J − J₀ (the axis says which); for a system defined by
//                data, one curve per symmetry, named by its history column
//                (momentum.<name>), each relative to its own |J₀|
//   conserved    a system defined by data: each declared conserved quantity's drift
//                (X − X₀)/|X₀| (X − X₀ when X₀ ≈ 0), from the columns conserved.<name>
//   constraint   residual |g(q)|, log scale
//   iterations   Newton iterations per step
//   dt           step sizes h_k (variable-step integrators only)
//   phase        a chosen pair of components of the canonical state (q, p), sampled
//                per frame; its layout depends on the model only, never on the integrator
//
// Redraws are staggered (at most one plot per animation frame, each ≤ ~12 Hz),
// the data arrays are reused, and the tables are min/max envelopes of bounded
// size, so long runs stay smooth.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { EnvelopeTable, PointRing } from './series.js';
import { el, setChildren } from '../ui/dom.js';
import { num, sci, signedSci, subscript } from '../sim/format.js';
import { COLOR_A, COLOR_B } from '../scene/palette.js';

const LOG_FLOOR = 1e-17;
// A method that blows up (explicit Euler just before it breaks down) would squash every
// other curve: relative errors are clipped at ±CLIP_REL, residuals at CLIP_RES.
const CLIP_REL = 10;
const CLIP_ABS = 1e12;
const CLIP_RES = 1e3;
const TINY_MOMENTUM = 1e-9;
const TINY_CONSERVED = 1e-12;
const REDRAW_MS = 120; // per plot (≈ 8 Hz); at most one plot is redrawn per frame
// Envelope buckets per table (two points each): ≥ 2 points per device pixel of a
// side-panel plot, and a bounded cost per redraw however long the run.
const ENVELOPE_BUCKETS = 800;
const COMPONENT_DASH = [[], [2, 3], [8, 3, 2, 3]];

function axisValues(u, splits) {
  const maxAbs = Math.max(...splits.map((v) => Math.abs(v ?? 0)));
  const useSci = maxAbs !== 0 && (maxAbs < 1e-2 || maxAbs >= 1e4);
  return splits.map((v) => (v == null ? '' : useSci ? sci(v, 2) : num(v, 3)));
}

function logAxisValues(u, splits) {
  return splits.map((v) => (v == null ? '' : `1e${Math.round(Math.log10(v))}`.replace('-', '−')));
}

/** Powers of ten, about four of them, for a log axis. */
function logSplits(u, axisIdx, min, max) {
  const lo = Math.floor(Math.log10(Math.max(min, 1e-300)));
  const hi = Math.ceil(Math.log10(Math.max(max, 1e-300)));
  const step = Math.max(1, Math.ceil((hi - lo) / 4));
  const out = [];
  for (let e = hi; e >= lo; e -= step) out.unshift(10 ** e);
  return out;
}

function timeValues(u, splits) {
  return splits.map((v, i) => (v == null ? '' : i === splits.length - 1 ? `${num(v, 4)} s` : num(v, 4)));
}

/** A linear range with a minimum span, so round-off-level data (1e−16) never
 * makes the tick search degenerate; padded 8 %. */
function safeRange(u, min, max) {
  if (min == null || max == null || !Number.isFinite(min) || !Number.isFinite(max)) return [-1, 1];
  const mid = (min + max) / 2;
  let half = (max - min) / 2;
  const floor = Math.max(1e-13, Math.abs(mid) * 1e-9);
  if (half < floor) half = floor;
  half *= 1.08;
  return [mid - half, mid + half];
}

function cssVar(name, fallback) {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

/**
 * Names of the canonical state's components for the phase-portrait menu, by model
 * (vilab.d.ts, State): chains q = bob positions, p = their momenta; the oscillator
 * [x], [m ẋ]; rigid bodies q = unit quaternion, p = body angular momentum Π.
 * defaultAxes: the pair shown first, as indices into [...q, ...p].
 */
export function coordinateNames(model, qLen, pLen, coordinates = null) {
  if (model === 'oscillator') return { q: ['x'], p: ['p'], defaultAxes: [0, 1] };
  if (Array.isArray(coordinates) && coordinates.length === qLen && qLen === pLen) {
    // a system defined by data: its own coordinate names, and their conjugate momenta
    return { q: coordinates.slice(), p: coordinates.map((c) => `p_${c}`), defaultAxes: [0, qLen] };
  }
  if (model === 'rigid-body') {
    return { q: ['q_w', 'q_x', 'q_y', 'q_z'].slice(0, qLen), p: ['Π₁', 'Π₂', 'Π₃'].slice(0, pLen), defaultAxes: [qLen, qLen + 1] };
  }
  const q = [];
  for (let i = 0; i < qLen / 3; i++) for (const a of 'xyz') q.push(`${a}${subscript(i + 1)}`);
  return { q, p: q.map((n) => `p_${n}`), defaultAxes: [0, qLen] };
}

/** A history read's column of a conserved quantity (read().conserved, else read().columns). */
function conservedColumn(read, name) {
  return read?.conserved?.[name] ?? read?.columns?.[`conserved.${name}`] ?? null;
}

export class Plots {
  /**
   * @param host  element to fill with plot cards
   * @param opts  { onPhaseChange() }
   */
  constructor(host, opts = {}) {
    this.host = host;
    this.opts = opts;
    this.plots = [];
    this.windowSeconds = 0;
    this.phaseAxes = null; // [x index, y index] into [...q, ...p]; null → the model's default pair
    // only plots on screen are redrawn
    this.hidden = new Set();
    this.observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => {
            for (const e of entries) {
              if (e.isIntersecting) this.hidden.delete(e.target);
              else this.hidden.add(e.target);
            }
          })
        : null;
  }

  /**
   * Sets up for a run.
   * run = { h, hasB, labelA, labelB, momentumCount, E0, J0 (A), J0B, model, qLen, pLen,
   *         momentumNames?, conservedNames?, X0?, X0B?, coordinates? } (the named ones for a
   *         system defined by data: symmetry and conserved-quantity names, their initial values)
   */
  configure(run) {
    this.destroy();
    this.run = run;
    this.clipped = false;
    const m = run.momentumCount;
    const J0n = Math.hypot(...(run.J0 ?? []));
    this.momentumNames = Array.isArray(run.momentumNames) && run.momentumNames.length === m ? run.momentumNames : null;
    this.momentumRelative = m > 0 && J0n > TINY_MOMENTUM;
    // per component: divide the drift by scale[c]; relative[c] tells whether that is |J₀|
    if (this.momentumNames) {
      const per = (J0) => (J0 ?? []).map((j) => (Math.abs(j) > TINY_MOMENTUM ? Math.abs(j) : 1));
      this.momScaleA = per(run.J0);
      this.momScaleB = per(run.J0B ?? run.J0);
      this.momRelative = (run.J0 ?? []).map((j) => Math.abs(j) > TINY_MOMENTUM);
    } else {
      const JnB = Math.hypot(...(run.J0B ?? run.J0 ?? []));
      this.momScaleA = Array.from({ length: m }, () => (this.momentumRelative ? J0n : 1));
      this.momScaleB = Array.from({ length: m }, () => (this.momentumRelative ? JnB : 1));
      this.momRelative = Array.from({ length: m }, () => this.momentumRelative);
    }
    this.energyRelative = Math.abs(run.E0) > 1e-12;
    // conserved quantities of a system defined by data
    this.conservedNames = Array.isArray(run.conservedNames) ? run.conservedNames : [];
    const X0 = run.X0 ?? {};
    this.X0A = this.conservedNames.map((n) => X0[n]);
    this.X0B = this.conservedNames.map((n) => (run.X0B ?? X0)[n]);
    this.conservedRelative = this.X0A.map((x) => Number.isFinite(x) && Math.abs(x) > TINY_CONSERVED);
    // series layout in the tables: energy A,B; momentum comp c A,B; constraint A,B; iterations A,B;
    // conserved k A,B
    const names = ['energy_A', 'energy_B'];
    const compName = (c) => (this.momentumNames ? `J_${this.momentumNames[c]}` : m === 1 ? 'J' : `J_${'xyz'[c] ?? c}`);
    for (let c = 0; c < m; c++) names.push(`${compName(c)}_A`, `${compName(c)}_B`);
    names.push('constraint_A', 'constraint_B', 'iterations_A', 'iterations_B');
    for (const n of this.conservedNames) names.push(`conserved.${n}_A`, `conserved.${n}_B`);
    // variable-step integrators (history column dt): the step size h_k
    this.stepSizes = !!run.stepSizes;
    if (this.stepSizes) names.push('dt_A', 'dt_B');
    this.names = names;
    this.idx = {
      energy: 0,
      momentum: 2,
      constraint: 2 + 2 * m,
      iterations: 4 + 2 * m,
      conserved: 6 + 2 * m,
      dt: 6 + 2 * m + 2 * this.conservedNames.length,
    };
    this.all = new EnvelopeTable(names, { capacity: ENVELOPE_BUCKETS, mode: 'all' });
    this.#makeWindowTable();
    this.values = new Float64Array(names.length);
    this.latest = new Float64Array(names.length).fill(NaN);
    this.phase = new PointRing(1500, 2);
    const coords = coordinateNames(run.model, run.qLen, run.pLen, run.coordinates);
    // keep the chosen pair across runs of the same layout (same names), else the default
    if (!this.phaseAxes || this.coords?.q.join() !== coords.q.join() || this.coords?.p.join() !== coords.p.join()) {
      this.phaseAxes = coords.defaultAxes.slice();
    }
    this.coords = coords;
    this.#build();
  }

  #makeWindowTable() {
    const W = this.windowSeconds || 20;
    const samples = Math.ceil(W / this.run.h);
    const bucket = Math.max(1, Math.ceil(samples / ENVELOPE_BUCKETS));
    const capacity = Math.ceil(samples / bucket) + 1;
    this.win = new EnvelopeTable(this.names, { capacity, mode: 'window', bucket });
  }

  get table() {
    return this.windowSeconds > 0 ? this.win : this.all;
  }

  /** Changes the plot window (0 = whole run); refill comes from the caller (history). */
  setWindow(seconds) {
    this.windowSeconds = seconds;
    if (!this.run) return;
    this.#makeWindowTable();
    this.plots.forEach((p) => (p.drawn = -1));
  }

  #theme() {
    if (!this.themeCache) {
      this.themeCache = { fg: cssVar('--fg-muted', '#4a515b'), grid: cssVar('--grid', 'rgba(0,0,0,0.08)') };
    }
    return this.themeCache;
  }

  /** After a light/dark switch: forget the cached colours and redraw. */
  retheme(time) {
    this.themeCache = null;
    this.drawAll(time);
  }

  #axes(logY = false, yLabelSize = 58, { xIsTime = true } = {}) {
    // colours are read at draw time, so a light/dark switch needs no rebuild
    const fg = () => this.#theme().fg;
    const grid = () => this.#theme().grid;
    const common = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1, size: 4 }, font: '11px system-ui, sans-serif' };
    const y = { ...common, size: yLabelSize, values: logY ? logAxisValues : axisValues };
    if (logY) y.splits = logSplits;
    return [{ ...common, size: 26, values: xIsTime ? timeValues : axisValues }, y];
  }

  #card(id, title, note, { tall = false } = {}) {
    const valuesEl = el('span', { class: 'plot-values', 'aria-hidden': 'true' });
    const plotEl = el('div', { class: 'plot-host', 'aria-hidden': 'true' });
    const noteEl = el('span', { class: 'plot-note' }, note);
    const fig = el(
      'figure',
      { class: `plot-card${tall ? ' tall' : ''}`, id: `plot-${id}`, 'aria-labelledby': `plot-${id}-title` },
      el('figcaption', {}, el('span', { class: 'plot-title', id: `plot-${id}-title` }, title), ' ', noteEl, valuesEl),
      plotEl,
    );
    this.host.append(fig);
    this.observer?.observe(fig);
    return { fig, plotEl, valuesEl, noteEl };
  }

  #series(label, color, dash = [], width = 1.6) {
    return { label, stroke: color, width, dash, points: { show: false }, spanGaps: false };
  }

  #build() {
    const run = this.run;
    setChildren(this.host);
    const both = (name, extra = {}) => [
      this.#series(`${name} A`, COLOR_A, extra.dashA ?? []),
      { ...this.#series(`${name} B`, COLOR_B, extra.dashB ?? [7, 4]), show: run.hasB },
    ];
    const width = () => Math.max(160, this.host.clientWidth - 4);
    // energy (linear by default; a toggle shows |error| on a log axis)
    {
      const rel = this.energyRelative;
      const c = this.#card('energy', 'Energy error', '');
      const note = () => (this.energyLog ? (rel ? '|E − E₀|/E₀, log scale' : '|E − E₀| (J), log scale') : rel ? '(E − E₀)/E₀' : 'E − E₀ (J)');
      const toggle = el('button', { type: 'button', class: 'btn tiny', 'aria-pressed': String(!!this.energyLog), title: 'Show the size of the error on a log axis' }, 'log');
      const noteText = el('span', {}, note());
      c.noteEl.replaceChildren(noteText, toggle);
      const make = () =>
        new uPlot(
          {
            width: width(),
            height: 120,
            legend: { show: false },
            cursor: { show: false },
            scales: { x: { time: false }, y: this.energyLog ? { distr: 3, log: 10 } : { range: safeRange } },
            axes: this.#axes(!!this.energyLog),
            series: [{}, ...both('energy')],
          },
          [[], [], []],
          c.plotEl,
        );
      const entry = { id: 'energy', u: make(), card: c, cols: [0, 1], kind: 'time', drawn: -1, at: 0 };
      toggle.addEventListener('click', () => {
        this.energyLog = !this.energyLog;
        toggle.setAttribute('aria-pressed', String(this.energyLog));
        noteText.textContent = note();
        entry.u.destroy();
        entry.u = make();
        entry.drawn = -1;
        this.#draw(entry, performance.now(), this.lastTime);
      });
      this.plots.push(entry);
    }
    // momentum
    if (run.momentumCount > 0) {
      const m = run.momentumCount;
      const unit = 'kg·m²/s';
      const named = this.momentumNames;
      const allRel = this.momRelative.every(Boolean);
      const noneRel = !this.momRelative.some(Boolean);
      const note = named
        ? noneRel
          ? 'J − J₀, absolute since |J₀| ≈ 0'
          : `(J − J₀)/|J₀| per symmetry${allRel ? '' : ` (absolute for ${named.filter((_, k) => !this.momRelative[k]).join(', ')}, where J₀ ≈ 0)`}`
        : this.momentumRelative
          ? `(J − J₀)/|J₀|, relative`
          : `J − J₀ (${unit}), absolute since |J₀| ≈ 0`;
      const title = named
        ? `Noether momenta (${named.join(', ')})`
        : m === 1
          ? 'Momentum drift J_z'
          : `Momentum drift (${[...Array(m)].map((_, c) => 'J_' + 'xyz'[c]).join(', ')})`;
      const c = this.#card('momentum', title, note);
      const series = [{}];
      const cols = [];
      for (let k = 0; k < m; k++) {
        const nm = named ? named[k] : m === 1 ? 'J' : `J_${'xyz'[k]}`;
        series.push(this.#series(`${nm} A`, COLOR_A, COMPONENT_DASH[k % 3]));
        series.push({ ...this.#series(`${nm} B`, COLOR_B, k === 0 ? [7, 4] : COMPONENT_DASH[k % 3]), show: run.hasB });
        cols.push(this.idx.momentum + 2 * k, this.idx.momentum + 2 * k + 1);
      }
      const u = new uPlot(
        { width: width(), height: 110, legend: { show: false }, cursor: { show: false }, scales: { x: { time: false }, y: { range: safeRange } }, axes: this.#axes(), series },
        [[], ...cols.map(() => [])],
        c.plotEl,
      );
      this.plots.push({ id: 'momentum', u, card: c, cols, kind: 'time', drawn: -1, at: 0, labels: named ?? (m > 1 ? [...'xyz'] : null) });
    }
    // conserved quantities (a system defined by data)
    if (this.conservedNames.length > 0) {
      const names = this.conservedNames;
      const rel = this.conservedRelative;
      const note = rel.every(Boolean)
        ? '(X − X₀)/|X₀|'
        : rel.some(Boolean)
          ? `(X − X₀)/|X₀|; X − X₀ for ${names.filter((_, k) => !rel[k]).join(', ')} (X₀ ≈ 0)`
          : 'X − X₀, absolute since X₀ ≈ 0';
      const c = this.#card('conserved', `Conserved quantities (${names.join(', ')})`, note);
      const series = [{}];
      const cols = [];
      names.forEach((nm, k) => {
        series.push(this.#series(`${nm} A`, COLOR_A, COMPONENT_DASH[k % 3]));
        series.push({ ...this.#series(`${nm} B`, COLOR_B, k === 0 ? [7, 4] : COMPONENT_DASH[k % 3]), show: run.hasB });
        cols.push(this.idx.conserved + 2 * k, this.idx.conserved + 2 * k + 1);
      });
      const u = new uPlot(
        { width: width(), height: 110, legend: { show: false }, cursor: { show: false }, scales: { x: { time: false }, y: { range: safeRange } }, axes: this.#axes(), series },
        [[], ...cols.map(() => [])],
        c.plotEl,
      );
      this.plots.push({ id: 'conserved', u, card: c, cols, kind: 'time', drawn: -1, at: 0, labels: names });
    }
    // constraint (log)
    {
      const c = this.#card('constraint', 'Constraint residual', `|g(q)|, log scale; 0 is drawn at 1e−17`);
      const u = new uPlot(
        {
          width: width(),
          height: 110,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false }, y: { distr: 3, log: 10 } },
          axes: this.#axes(true),
          series: [{}, ...both('constraint')],
        },
        [[], [], []],
        c.plotEl,
      );
      this.plots.push({ id: 'constraint', u, card: c, cols: [this.idx.constraint, this.idx.constraint + 1], kind: 'time', log: true, drawn: -1, at: 0 });
    }
    // Newton iterations
    {
      const c = this.#card('iterations', 'Newton iterations', 'per step (0 for explicit methods)');
      const u = new uPlot(
        {
          width: width(),
          height: 80,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(4, Math.ceil(max + 1))] } },
          axes: this.#axes(false),
          series: [{}, ...both('iterations')],
        },
        [[], [], []],
        c.plotEl,
      );
      this.plots.push({ id: 'iterations', u, card: c, cols: [this.idx.iterations, this.idx.iterations + 1], kind: 'time', drawn: -1, at: 0 });
    }
    // step sizes of a variable-step integrator
    if (this.stepSizes) {
      const c = this.#card('dt', 'Step size', 'h_k of each step, in s: chosen so that the discrete energy is conserved');
      const u = new uPlot(
        {
          width: width(),
          height: 100,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(max, 1e-9) * 1.1] } },
          axes: this.#axes(false),
          series: [{}, ...both('dt')],
        },
        [[], [], []],
        c.plotEl,
      );
      this.plots.push({ id: 'dt', u, card: c, cols: [this.idx.dt, this.idx.dt + 1], kind: 'time', drawn: -1, at: 0 });
    }
    // phase portrait
    {
      const c = this.#card('phase', 'Phase portrait', '', { tall: true });
      const all = [...this.coords.q, ...this.coords.p];
      const mkSelect = (label, which) => {
        const id = `phase-${which}`;
        const select = el('select', { id, 'aria-label': `Phase portrait ${label} axis` });
        all.forEach((n, i) => select.append(el('option', { value: String(i) }, n)));
        select.addEventListener('change', () => {
          const v = Number(select.value);
          if (which === 'x') this.phaseAxes = [v, this.#partner(v)];
          else this.phaseAxes = [this.phaseAxes[0], v];
          this.phase.clear();
          this.opts.onPhaseChange?.();
        });
        return el('label', { class: 'phase-axis', for: id }, `${label} `, select);
      };
      const xs = mkSelect('horizontal', 'x');
      const ys = mkSelect('vertical', 'y');
      c.noteEl.replaceChildren(xs, ys);
      this.phaseSelects = [xs.querySelector('select'), ys.querySelector('select')];
      this.#syncPhaseSelects();
      const u = new uPlot(
        {
          mode: 2,
          width: width(),
          height: 190,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false, range: safeRange }, y: { range: safeRange } },
          axes: this.#axes(false, 58, { xIsTime: false }), // x is a coordinate, not time
          series: [{}, { ...this.#series('A', COLOR_A), paths: uPlot.paths.linear(), facets: [{ scale: 'x', auto: true }, { scale: 'y', auto: true }] },
            { ...this.#series('B', COLOR_B, [7, 4]), paths: uPlot.paths.linear(), facets: [{ scale: 'x', auto: true }, { scale: 'y', auto: true }] }],
        },
        [null, [[], []], [[], []]],
        c.plotEl,
      );
      this.plots.push({ id: 'phase', u, card: c, kind: 'phase', drawn: -1, at: 0 });
    }
  }

  /** The natural vertical axis for a horizontal one: its conjugate momentum when q and p
   * pair up (chains, the oscillator), else the next component of the same block (Π₁ → Π₂). */
  #partner(x) {
    const { qLen: n, pLen: m } = this.run;
    if (n === m) return x < n ? x + n : x - n;
    return x < n ? (x + 1) % n : n + ((x - n + 1) % m);
  }

  #syncPhaseSelects() {
    const [x, y] = this.phaseAxes;
    this.phaseSelects[0].value = String(x);
    this.phaseSelects[1].value = String(y);
  }

  /** The phase-portrait pair as indices into [...q, ...p]. */
  get phasePair() {
    return this.phaseAxes.slice();
  }

  /** Ingests history reads of A and B (aligned by sample index). */
  ingest(ra, rb, trackA, trackB, opts = {}) {
    if (!this.run) return;
    const m = this.run.momentumCount;
    const v = this.values;
    const E0A = trackA.E0;
    const E0B = trackB ? trackB.E0 : NaN;
    const J0A = trackA.J0;
    const J0B = trackB ? trackB.J0 : null;
    const relE = this.energyRelative;
    const relJ = this.momRelative;
    const count = ra ? ra.count : 0;
    const bOffset = rb && ra ? rb.start - ra.start : 0;
    const tables = opts.only === 'window' ? [this.win] : [this.all, this.win];
    for (let i = 0; i < count; i++) {
      const t = ra.t[i];
      v[0] = relE ? (ra.energy[i] - E0A) / Math.abs(E0A) : ra.energy[i] - E0A;
      const bi = i - bOffset;
      const hasB = rb && bi >= 0 && bi < rb.count;
      v[1] = hasB ? (relE ? (rb.energy[bi] - E0B) / Math.abs(E0B) : rb.energy[bi] - E0B) : NaN;
      for (let c = 0; c < m; c++) {
        const ja = ra.momentum[c]?.[i];
        v[2 + 2 * c] = (ja - J0A[c]) / this.momScaleA[c];
        const jb = hasB ? rb.momentum[c]?.[bi] : NaN;
        v[3 + 2 * c] = hasB ? (jb - J0B[c]) / this.momScaleB[c] : NaN;
      }
      const xi = this.idx.conserved;
      for (let k = 0; k < this.conservedNames.length; k++) {
        const name = this.conservedNames[k];
        const xa = conservedColumn(ra, name)?.[i];
        const x0 = this.X0A[k];
        v[xi + 2 * k] = this.conservedRelative[k] ? (xa - x0) / Math.abs(x0) : xa - x0;
        const xb = hasB ? conservedColumn(rb, name)?.[bi] : NaN;
        const x0b = this.X0B[k];
        v[xi + 2 * k + 1] = hasB ? (this.conservedRelative[k] && Math.abs(x0b) > TINY_CONSERVED ? (xb - x0b) / Math.abs(x0b) : xb - x0b) : NaN;
        for (const j of [xi + 2 * k, xi + 2 * k + 1]) {
          const lim = this.conservedRelative[k] ? CLIP_REL : CLIP_ABS;
          if (v[j] > lim) (v[j] = lim), (this.clipped = true);
          else if (v[j] < -lim) (v[j] = -lim), (this.clipped = true);
        }
      }
      const ci = this.idx.constraint;
      v[ci] = Math.abs(ra.constraint[i]);
      v[ci + 1] = hasB ? Math.abs(rb.constraint[bi]) : NaN;
      // clip blow-ups (see CLIP_REL)
      for (let j = 0; j < ci; j++) {
        const lim = j < 2 ? (relE ? CLIP_REL : CLIP_ABS) : relJ[(j - 2) >> 1] ? CLIP_REL : CLIP_ABS;
        if (v[j] > lim) (v[j] = lim), (this.clipped = true);
        else if (v[j] < -lim) (v[j] = -lim), (this.clipped = true);
      }
      for (const j of [ci, ci + 1]) if (v[j] > CLIP_RES) (v[j] = CLIP_RES), (this.clipped = true);
      const ii = this.idx.iterations;
      v[ii] = ra.iterations[i];
      v[ii + 1] = hasB ? rb.iterations[bi] : NaN;
      if (this.stepSizes) {
        // the first sample (the start) has no step yet
        const at = (r, k) => (k > 0 || r.start > 0 ? r.columns.dt?.[k] ?? NaN : NaN);
        v[this.idx.dt] = at(ra, i);
        v[this.idx.dt + 1] = hasB ? at(rb, bi) : NaN;
      }
      for (const tb of tables) tb.push(t, v);
      for (let j = 0; j < v.length; j++) if (Number.isFinite(v[j])) this.latest[j] = v[j];
    }
  }

  /** Samples the phase portrait from the current (q, p) of A and B. */
  samplePhase(qa, pa, qb, pb) {
    if (!this.run) return;
    const [ix, iy] = this.phasePair;
    const pick = (q, p, i) => (i < q.length ? q[i] : p[i - q.length]);
    const a = qa ? [pick(qa, pa, ix), pick(qa, pa, iy)] : null;
    const b = qb && qb.length === qa?.length ? [pick(qb, pb, ix), pick(qb, pb, iy)] : null;
    this.phase.push([a, b]);
    this.phaseVersion = (this.phaseVersion ?? 0) + 1;
  }

  /** Redraws at most one stale plot (call every animation frame). */
  tick(now, time) {
    if (!this.plots.length) return;
    let pick = null;
    for (const p of this.plots) {
      const version = p.kind === 'phase' ? this.phaseVersion ?? 0 : this.table.version;
      if (p.drawn === version || now - p.at < REDRAW_MS || this.hidden.has(p.card.fig)) continue;
      if (!pick || p.at < pick.at) pick = p;
    }
    if (pick) this.#draw(pick, now, time);
  }

  /** Redraws every plot now (tests, resize, pause). */
  drawAll(time) {
    const now = performance.now();
    for (const p of this.plots) this.#draw(p, now, time);
  }

  #draw(p, now, time) {
    p.at = now;
    this.lastTime = time;
    if (p.kind === 'phase') {
      p.drawn = this.phaseVersion ?? 0;
      const a = this.phase.output(0);
      const b = this.phase.output(1);
      p.u.setData([null, a, b]);
      this.#phaseLabels(p);
      return;
    }
    const table = this.table;
    p.drawn = table.version;
    const log = p.log || (p.id === 'energy' && this.energyLog);
    const tf = p.log ? (j, v) => (v > LOG_FLOOR ? v : LOG_FLOOR) : log ? (j, v) => Math.max(Math.abs(v), LOG_FLOOR) : null;
    const out = table.output(tf, log, p.cols);
    const data = [out[0], ...p.cols.map((c) => out[1 + c])];
    const W = this.windowSeconds;
    p.u.batch(() => {
      p.u.setData(data);
      if (W > 0 && out[0].length) {
        const t1 = Math.max(time ?? table.lastT, W);
        p.u.setScale('x', { min: t1 - W, max: t1 });
      } else if (out[0].length < 2) p.u.setScale('x', { min: 0, max: 1 });
    });
    // current values in the caption
    const parts = [];
    const fmt = p.id === 'iterations' ? (x) => String(Math.round(x)) : p.id === 'constraint' ? (x) => sci(x, 2) : (x) => signedSci(x, 2);
    const pairs = p.cols.length / 2;
    for (let k = 0; k < pairs; k++) {
      const a = this.latest[p.cols[2 * k]];
      const b = this.latest[p.cols[2 * k + 1]];
      const prefix = p.labels && (pairs > 1 || this.momentumNames || p.id === 'conserved') ? `${p.labels[k]}: ` : pairs > 1 ? `${'xyz'[k]}: ` : '';
      let s = `${prefix}A ${fmt(a)}`;
      if (this.run.hasB) s += `  B ${fmt(b)}`;
      parts.push(s);
    }
    p.card.valuesEl.textContent = parts.join(' · ') + (this.clipped && p.id !== 'iterations' ? ' (blow-up clipped)' : '');
  }

  #phaseLabels(p) {
    const [ix, iy] = this.phasePair;
    const all = [...this.coords.q, ...this.coords.p];
    p.card.valuesEl.textContent = `${all[iy]} against ${all[ix]}`;
  }

  /** Current values (latest sample) per series name. */
  latestValues() {
    const out = {};
    this.names?.forEach((n, j) => (out[n] = this.latest[j]));
    return out;
  }

  /** CSV of the plotted series (the current window's envelope points). */
  csv() {
    const table = this.table;
    const out = table.output(null);
    const rel = this.energyRelative ? 'relative' : 'absolute_J';
    const header = ['t_s'];
    const hasB = this.run.hasB;
    const keep = [];
    this.names.forEach((n, j) => {
      if (!hasB && n.endsWith('_B')) return;
      keep.push(j);
      let h = n;
      if (n.startsWith('energy')) h = `energy_error_${rel}_${n.slice(-1)}`;
      else if (n.startsWith('conserved.')) {
        const k = this.conservedNames.indexOf(n.slice('conserved.'.length, -2));
        h = `${n.slice(0, -2)}_drift_${this.conservedRelative[k] ? 'relative' : 'absolute'}_${n.slice(-1)}`;
      } else if (n.startsWith('J')) {
        const c = (j - 2) >> 1;
        h = `${n.slice(0, -2)}_drift_${this.momRelative[c] ? 'relative' : 'absolute'}_${n.slice(-1)}`;
      } else if (n.startsWith('constraint')) h = `constraint_residual_${n.slice(-1)}`;
      else if (n.startsWith('iterations')) h = `newton_iterations_${n.slice(-1)}`;
      else if (n.startsWith('dt_')) h = `step_size_s_${n.slice(-1)}`;
      header.push(h);
    });
    const lines = [
      `# vilab ${this.run.labelA}${hasB ? ` vs ${this.run.labelB}` : ''}; h = ${this.run.h} s; ${table.bucket > 1 ? `min/max envelope of ${table.bucket}-sample buckets` : 'every step'}`,
      header.join(','),
    ];
    for (let i = 0; i < out[0].length; i++) {
      const row = [out[0][i]];
      for (const j of keep) {
        const v = out[1 + j][i];
        row.push(v == null ? '' : v);
      }
      lines.push(row.join(','));
    }
    return lines.join('\n') + '\n';
  }

  resize() {
    const w = Math.max(160, this.host.clientWidth - 4);
    for (const p of this.plots) {
      const h = p.u.height;
      if (Math.abs(p.u.width - w) > 1) p.u.setSize({ width: w, height: h });
    }
  }

  clearData() {
    this.clipped = false;
    this.all?.clear();
    this.win?.clear();
    this.phase?.clear();
    this.latest?.fill(NaN);
    this.plots.forEach((p) => (p.drawn = -1));
  }

  destroy() {
    this.observer?.disconnect();
    this.hidden.clear();
    for (const p of this.plots) p.u.destroy();
    this.plots = [];
    setChildren(this.host);
  }
}
