// The diagnostics plots (uPlot), fed incrementally from the recorded histories and
// laid out from the run's description (sim.describe(), web/sim/describe.js), never
// from system or integrator ids:
//
//   energy       the energy error (E − E₀)/E₀, or the running envelope max |ΔE/E| on a
//                log axis (a bounded band is flat, a drift rises); only when the
//                scenario's exact flow conserves the energy
//   momentum     drifts of the conserved momenta (J_z, J, Π₃, |Π|, Noether momenta)
//   conserved    drifts of a data-defined system's declared conserved quantities
//   unconserved  values of recorded quantities the exact flow does NOT conserve (the
//                heavy top's J_x, a damped system's energy), each with its reason
//   constraint   residual |g(q)| (log), only for constrained systems
//   iterations   Newton iterations per step
//   dt           step sizes h_k (variable-step integrators only)
//   phase        "Graph": any natural variable against another or against time
//
// A run that breaks down (non-finite numbers, the energy error beyond 100 %, the
// constraint residual beyond 1 % of the shortest link) stops contributing at its
// last good sample, which is marked; other series keep their ranges, and nothing is
// clipped into the tables. Redraws are staggered (at most one plot per frame, each
// ≤ ~8 Hz) and the tables are min/max envelopes of bounded size. The data are kept
// from the first sample; the plots themselves are built once uPlot has arrived (start(),
// called after the page's first frame).
import { uPlot, loadUPlot } from './uplot.js';
import { cssVar } from './common.js';
import { breakdownCriterion, quantityValue, sampleBreakdown } from '../sim/breakdown.js';
import { EnvelopeTable, PointRing } from './series.js';
import { el, setChildren } from '../ui/dom.js';
import { num, sci, signedSci, stepTime } from '../sim/format.js';
import { COLOR_A, COLOR_B } from '../scene/palette.js';
import { t } from '../i18n/index.js';
import { PLOT_CARDS } from './cards.js';

const LOG_FLOOR = 1e-17;
const TINY = { energy: 1e-12, momentum: 1e-9, other: 1e-12 };
const REDRAW_MS = 120;
const ENVELOPE_BUCKETS = 800;
const COMPONENT_DASH = [[], [2, 3], [8, 3, 2, 3]];
const DEG = 180 / Math.PI;
const MINUS = '\u2212';
// type and lines: a card, a card in projector mode, the lesson layout's large card (read
// at the back of a room), and that card in projector mode
const FONT_PX = { card: 11, projector: 15, featured: 16, featuredProjector: 24 };
const LINE_PX = { card: 1.6, projector: 2.8, featured: 2.4, featuredProjector: 3.6 };

const measureCtx = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;

function axisValues(u, splits) {
  const maxAbs = Math.max(...splits.map((v) => Math.abs(v ?? 0)));
  const useSci = maxAbs !== 0 && (maxAbs < 1e-2 || maxAbs >= 1e4);
  return splits.map((v) => (v == null ? '' : useSci ? sci(v, 2) : num(v, 3)));
}

function logAxisValues(u, splits) {
  return splits.map((v) => (v == null ? '' : `1e${Math.round(Math.log10(v))}`.replace('-', MINUS)));
}

/** Powers of ten, at least three of them, for a log axis. */
function logSplits(u, axisIdx, min, max) {
  let lo = Math.floor(Math.log10(Math.max(min, 1e-300)));
  let hi = Math.ceil(Math.log10(Math.max(max, 1e-300)));
  if (hi - lo < 2) (lo -= 1), (hi += 1);
  const step = Math.max(1, Math.ceil((hi - lo) / 5));
  const out = [];
  for (let e = hi; e >= lo; e -= step) out.unshift(10 ** e);
  return out;
}

/** A linear range with a minimum span (round-off-level data never makes the tick
 * search degenerate), padded 8 %. */
function safeRange(u, min, max) {
  if (min == null || max == null || !Number.isFinite(min) || !Number.isFinite(max)) return [-1, 1];
  const mid = (min + max) / 2;
  let half = (max - min) / 2;
  const floor = Math.max(1e-13, Math.abs(mid) * 1e-9);
  if (half < floor) half = floor;
  half *= 1.08;
  return [mid - half, mid + half];
}

/** Series names kept from the first page (tests and the CSV of older versions read them). */
function seriesName(q) {
  if (q.key === 'energy') return 'energy';
  if (q.key === 'momentum') return 'J';
  if (q.key.startsWith('momentum.')) return `J_${q.key.slice('momentum.'.length)}`;
  if (q.key === 'bodyMomentum.z') return 'Pi3';
  return q.key; // conserved.<name>, casimir
}

/** How a natural variable is shown: angles and rates in degrees. */
export function displayOf(v) {
  if (!v) return { factor: 1, unit: '' };
  if (v.kind === 'angle') return { factor: DEG, unit: '°' };
  if (v.kind === 'rate' && v.unit === 'rad/s') return { factor: DEG, unit: '°/s' };
  return { factor: 1, unit: v.unit };
}

export class Plots {
  /**
   * @param host  element to fill with plot cards
   * @param opts  { onPhaseChange(), onBreakdown(label, { t, kind, amount }) }
   */
  constructor(host, opts = {}) {
    this.host = host;
    this.opts = opts;
    this.plots = [];
    this.windowSeconds = 0;
    this.energyMode = 'signed';
    this.projector = false;
    this.large = null;
    // the lesson layout: on, the lesson's plot, the cards it shows, the teacher's pin, and
    // where the large card goes (null: it stays first among the cards, as on a phone)
    this.lesson = { on: false, plot: null, cards: null, pin: null, host: null };
    this.featured = null;
    this.graphAxes = null; // [x, y]: -1 = time, else an index into the variables
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
    this.onKey = (e) => {
      if (e.key === 'Escape' && this.large) this.enlarge(null);
    };
    document.addEventListener('keydown', this.onKey);
  }

  /**
   * A new language re-words every card (the data stay). Called by the slot (plots-slot.js),
   * whose listener comes before the frame loop's, which reads the cards' titles.
   */
  reword() {
    if (this.run) this.#rebuild();
    this.barEls = null;
  }

  /** Fetches uPlot and builds the plots of the run set up so far. */
  start() {
    return loadUPlot().then(() => {
      if (this.run) this.#rebuild();
    });
  }

  /**
   * Sets up for a run. run = { description: sim.describe() of A, firstA/firstB (history
   * reads holding sample 0: the reference of the drifts), hasB, labelA, labelB, h,
   * stepSizes (a variable-step integrator is in the run), energyBoundedA/B (symplectic or
   * energy-conserving) }.
   */
  configure(run) {
    this.destroyPlots();
    this.run = run;
    const d = run.description;
    this.description = d;
    this.quantities = d.quantities;
    this.conservedQ = d.quantities.filter((q) => q.conserved);
    this.unconservedQ = d.quantities.filter((q) => !q.conserved);
    this.energyQ = this.conservedQ.find((q) => q.key === 'energy') ?? null;
    this.momentumQ = this.conservedQ.filter((q) => q.key !== 'energy' && !q.key.startsWith('conserved.'));
    this.declaredQ = this.conservedQ.filter((q) => q.key.startsWith('conserved.'));
    // table layout: pairs (A, B) of series
    const names = [];
    const pair = (n) => {
      const j = names.length;
      names.push(`${n}_A`, `${n}_B`);
      return j;
    };
    this.col = new Map(); // quantity key → first column of its pair (drift or value)
    for (const q of this.conservedQ) this.col.set(q.key, pair(seriesName(q)));
    this.envCol = this.energyQ ? pair('energyEnvelope') : -1;
    for (const q of this.unconservedQ) this.col.set(q.key, pair(`value.${seriesName(q)}`));
    this.constraintCol = d.constrained ? pair('constraint') : -1;
    this.iterCol = pair('iterations');
    this.stepSizes = !!run.stepSizes;
    this.dtCol = this.stepSizes ? pair('dt') : -1;
    this.names = names;
    this.all = new EnvelopeTable(names, { capacity: ENVELOPE_BUCKETS, mode: 'all' });
    this.#makeWindowTable();
    this.values = new Float64Array(names.length);
    this.latest = new Float64Array(names.length).fill(NaN);
    this.base = { A: null, B: null }; // quantity values at sample 0
    this.criteria = { A: null, B: null }; // what ends each run (web/sim/breakdown.js)
    this.relative = new Map();
    if (run.firstA?.count) this.#quantityBase('A', run.firstA, 0);
    if (run.firstB?.count) this.#quantityBase('B', run.firstB, 0);
    this.envMax = { A: 0, B: 0 };
    this.crossAt = null;
    this.broken = { A: null, B: null };
    this.lastGoodT = { A: 0, B: 0 };
    this.phase = new PointRing(1500, 2);
    this.variables = d.variables;
    const n = d.variables.length;
    if (!this.graphAxes || this.graphLayout !== d.variables.map((v) => v.key).join()) this.graphAxes = d.phase.slice();
    this.graphAxes = this.graphAxes.map((i) => (i >= -1 && i < n ? i : 0));
    this.graphLayout = d.variables.map((v) => v.key).join();
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

  /** What a lesson needs: { energy: 'signed'|'envelope', large: card id or null }. */
  setView({ energy, large } = {}) {
    if (energy && energy !== this.energyMode) {
      this.energyMode = energy;
      if (this.run) this.#rebuild();
    }
    if (large !== undefined) this.enlarge(large);
  }

  /**
   * The lesson layout: { on, plot, cards, pin, host } (any of them). The large card is the
   * pinned one, else the lesson's, else energy, else the first; `cards` hides the others
   * the lesson leaves out.
   */
  setLesson(patch) {
    const next = { ...this.lesson, ...patch };
    const same = Object.keys(next).every((k) => next[k] === this.lesson[k]);
    this.lesson = next;
    if (!same && this.run) this.#rebuild();
  }

  /** The id of the card shown large in the lesson layout (null when the layout is off). */
  featuredId(ids = this.plots.map((p) => p.id)) {
    if (!this.lesson.on || !ids.length) return null;
    return [this.lesson.pin, this.lesson.plot, 'energy'].find((id) => id && ids.includes(id)) ?? ids[0];
  }

  /** The cards the run has, in the order they are built. */
  #cardIds() {
    const has = {
      energy: !!this.energyQ,
      momentum: this.momentumQ.length > 0,
      conserved: this.declaredQ.length > 0,
      unconserved: this.unconservedQ.length > 0,
      constraint: !!this.description.constrained,
      iterations: true,
      dt: this.stepSizes,
      phase: true,
    };
    return PLOT_CARDS.filter((id) => has[id]);
  }

  /** Where each card goes: the large one into the lesson's host, the ones a lesson leaves out hidden. */
  #arrange() {
    const cards = this.lesson.cards;
    let hiddenCount = 0;
    for (const p of this.plots) {
      const large = p.id === this.featured;
      p.card.fig.classList.toggle('featured', large);
      if (large && this.lesson.host) this.lesson.host.append(p.card.fig);
      p.card.fig.hidden = !large && !!cards && !cards.includes(p.id);
      if (p.card.fig.hidden) hiddenCount++;
      const pinned = this.lesson.pin === p.id;
      p.card.pinBtn.setAttribute('aria-pressed', String(pinned));
      p.card.pinBtn.textContent = t(pinned ? 'layout.pinned' : 'layout.pin');
      if (large) this.#legendIn(p);
      // the large card's head grows with its note ("not yet …"): the plot gives way
      if (large) this.#headObserver().observe(p.card.fig.querySelector('figcaption'));
    }
    this.hiddenCount = hiddenCount;
    if (this.featured && this.lesson.host) this.resize();
    this.opts.onArrange?.({ featured: this.featured, hidden: hiddenCount });
  }

  #headObserver() {
    this.headObserver?.disconnect();
    this.headObserver = new ResizeObserver(() => this.resize());
    return this.headObserver;
  }

  /** The large card's legend, inside its plot area (uPlot's overlay): which line is A and which B. */
  #legendIn(p) {
    const pairs = p.kind === 'phase' ? 1 : p.cols.length / 2;
    const items = [];
    for (let k = 0; k < pairs; k++) {
      const q = p.quantities?.[k];
      const prefix = q && pairs > 1 ? `${q.symbol} · ` : '';
      const dash = k === 0 ? '' : ` k${k % 3}`;
      items.push(el('li', {}, el('span', { class: `legend-line A${dash}` }), `${prefix}A · ${this.run.labelA}`));
      if (this.run.hasB) items.push(el('li', {}, el('span', { class: `legend-line B${dash}` }), `${prefix}B · ${this.run.labelB}`));
    }
    p.u.over.append(el('ul', { class: 'plot-legend', 'aria-hidden': 'true' }, items));
  }

  /** Larger type and thicker lines for a projector. */
  setProjector(on) {
    this.projector = !!on;
    if (this.run) this.#rebuild();
  }

  /** Enlarges one card (id) or none (null). */
  enlarge(id) {
    this.large = id && this.plots.some((p) => p.id === id) ? id : null;
    for (const p of this.plots) {
      const on = p.id === this.large;
      p.card.fig.classList.toggle('enlarged', on);
      p.card.enlargeBtn.setAttribute('aria-pressed', String(on));
      p.card.enlargeBtn.textContent = on ? t('plots.close') : t('plots.enlarge');
    }
    document.documentElement.classList.toggle('plot-enlarged', !!this.large);
    this.resize();
    this.drawAll(this.lastTime);
    if (this.large) this.plots.find((p) => p.id === this.large)?.card.enlargeBtn.focus({ preventScroll: true });
  }

  #theme() {
    if (!this.themeCache) this.themeCache = { fg: cssVar('--fg-muted', '#4a515b'), grid: cssVar('--grid', 'rgba(0,0,0,0.08)') };
    return this.themeCache;
  }

  /** After a light/dark switch: forget the cached colours and redraw. */
  retheme(time) {
    this.themeCache = null;
    this.drawAll(time);
  }

  /** What a card's type and lines are sized for: 'card', 'projector', 'featured' or 'featuredProjector'. */
  #sizeOf(id) {
    if (id && id === this.featured) return this.projector ? 'featuredProjector' : 'featured';
    return this.projector ? 'projector' : 'card';
  }

  #axes({ id = null, logY = false, xFormat = null, xLabel = 't (s)', yLabel = '' } = {}) {
    const fg = () => this.#theme().fg;
    const grid = () => this.#theme().grid;
    const px = FONT_PX[this.#sizeOf(id)];
    const font = `${px}px system-ui, sans-serif`;
    const common = {
      stroke: fg,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1, size: 4 },
      font,
      labelFont: font,
      labelSize: px + 6,
    };
    // the y axis is as wide as its widest label (a minus sign is never clipped)
    const ySize = (u, values) => {
      if (!values || !measureCtx) return 50;
      measureCtx.font = font;
      return Math.ceil(Math.max(...values.map((v) => measureCtx.measureText(String(v ?? '')).width))) + 12;
    };
    // the y label runs along the plot's height: the plot records whether it fits there (data-ylabel-fits)
    const label = (u) => {
      if (measureCtx && u.root) {
        measureCtx.font = font;
        const fits = measureCtx.measureText(yLabel).width <= u.bbox.height / devicePixelRatio;
        u.root.dataset.ylabel = yLabel;
        u.root.dataset.ylabelFits = String(fits);
      }
      return yLabel;
    };
    const y = { ...common, size: ySize, space: px * 2 + 4, values: logY ? logAxisValues : axisValues, label: yLabel ? label : yLabel };
    if (logY) y.splits = logSplits;
    const x = { ...common, size: px + 16, space: px * 5, values: xFormat ?? axisValues, label: xLabel };
    return [x, y];
  }

  #card(id, title, note) {
    const valuesEl = el('span', { class: 'plot-values', id: `plot-${id}-values` });
    const plotEl = el('div', { class: 'plot-host', 'aria-hidden': 'true' });
    const noteEl = el('span', { class: 'plot-note' }, note);
    const enlargeBtn = el(
      'button',
      { type: 'button', class: 'btn tiny enlarge', 'aria-pressed': 'false', 'aria-label': t('plots.enlarge.label', { title }) },
      t('plots.enlarge'),
    );
    enlargeBtn.addEventListener('click', () => this.enlarge(this.large === id ? null : id));
    // the teacher's pin: this card is the large one in the lesson layout, whatever the preset says
    const pinBtn = el(
      'button',
      {
        type: 'button',
        class: 'btn tiny pin',
        'aria-pressed': 'false',
        'aria-label': t('layout.pin.label', { title }),
        title: t('layout.pin.title'),
      },
      t('layout.pin'),
    );
    pinBtn.addEventListener('click', () => this.opts.onPin?.(this.lesson.pin === id ? null : id));
    const markEl = el('p', { class: 'plot-mark', hidden: true });
    // the numbers behind the curve, for screen readers (kept current at the redraw rate)
    const tableEl = el('table', { class: 'sr-only' }, el('caption', {}, t('plots.table.caption', { title })));
    const fig = el(
      'figure',
      { class: 'plot-card', id: `plot-${id}`, 'aria-labelledby': `plot-${id}-title`, 'aria-describedby': `plot-${id}-values` },
      el('figcaption', {}, el('span', { class: 'plot-title', id: `plot-${id}-title` }, title), ' ', noteEl, valuesEl, pinBtn, enlargeBtn),
      plotEl,
      markEl,
      tableEl,
    );
    this.host.append(fig);
    this.observer?.observe(fig);
    return { fig, plotEl, valuesEl, noteEl, enlargeBtn, pinBtn, markEl, tableEl };
  }

  #series(label, color, dash = [], id = null) {
    return { label, stroke: color, width: LINE_PX[this.#sizeOf(id)], dash, points: { show: false }, spanGaps: false };
  }

  #height(base) {
    const small = typeof innerWidth === 'number' && innerWidth < 700;
    // a laptop's short screen (768 px): the first two cards fit above the fold
    const short = !small && typeof innerHeight === 'number' && innerHeight < 820;
    return Math.round(base * (small ? 0.8 : short ? 0.78 : 1) * (this.projector ? 1.25 : 1));
  }

  #width() {
    return Math.max(160, this.host.clientWidth - 4);
  }

  /** Draws a ring and a cross at each broken run's last good point. */
  #markerHook(entry) {
    return (u) => {
      const ctx = u.ctx;
      for (const [k, label] of [
        [0, 'A'],
        [1, 'B'],
      ]) {
        if (!this.broken[label]) continue;
        for (let s = k; s < entry.cols.length; s += 2) {
          const v = this.latest[entry.cols[s]];
          if (!Number.isFinite(v)) continue;
          const y = entry.log ? Math.max(Math.abs(v), LOG_FLOOR) : v;
          const cx = u.valToPos(this.lastGoodT[label], 'x', true);
          const cy = u.valToPos(y, 'y', true);
          if (!Number.isFinite(cx) || !Number.isFinite(cy)) continue;
          const r = 5 * devicePixelRatio;
          ctx.save();
          ctx.strokeStyle = label === 'A' ? COLOR_A : COLOR_B;
          ctx.lineWidth = 2 * devicePixelRatio;
          ctx.beginPath();
          ctx.arc(cx, cy, r, 0, 2 * Math.PI);
          ctx.moveTo(cx - r, cy - r);
          ctx.lineTo(cx + r, cy + r);
          ctx.moveTo(cx + r, cy - r);
          ctx.lineTo(cx - r, cy + r);
          ctx.stroke();
          ctx.restore();
        }
      }
    };
  }

  #timePlot(entry, { height, logY = false, yLabel = '', range = safeRange, series }) {
    const opts = {
      width: this.#width(),
      height: this.#height(height),
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false }, y: logY ? { distr: 3, log: 10 } : { range } },
      axes: this.#axes({ id: entry.id, logY, yLabel }),
      series: [{}, ...series],
      hooks: { draw: [this.#markerHook(entry)] },
    };
    entry.baseHeight = opts.height;
    return new uPlot(opts, [[], ...series.map(() => [])], entry.card.plotEl);
  }

  #pairSeries(name, k = 0, id = null) {
    return [
      this.#series(`${name} A`, COLOR_A, COMPONENT_DASH[k % 3], id),
      { ...this.#series(`${name} B`, COLOR_B, k === 0 ? [7, 4] : COMPONENT_DASH[k % 3], id), show: this.run.hasB },
    ];
  }

  #rebuild() {
    const large = this.large;
    this.destroyPlots();
    this.#build();
    if (large) this.enlarge(large);
    this.drawAll(this.lastTime);
  }

  #build() {
    if (!uPlot) {
      setChildren(this.host, el('p', { class: 'plots-waiting', role: 'status' }, t('plots.waiting')));
      return;
    }
    setChildren(this.host);
    this.featured = this.featuredId(this.#cardIds());
    const list = (qs) => ({ list: qs.map((q) => q.symbol).join(', ') });
    if (this.energyQ) this.#buildEnergy();
    if (this.momentumQ.length) this.#buildQuantities('momentum', this.momentumQ, t('plots.momentum.title', list(this.momentumQ)), '');
    if (this.declaredQ.length) this.#buildQuantities('conserved', this.declaredQ, t('plots.conserved.title', list(this.declaredQ)), '');
    if (this.unconservedQ.length) {
      const qs = this.unconservedQ;
      const why = [...new Set(qs.map((q) => t(q.why)))].join(' ');
      const units = [...new Set(qs.map((q) => q.unit).filter(Boolean))];
      this.#buildQuantities('unconserved', qs, t('plots.unconserved.title', list(qs)), t('plots.unconserved.note', { why }), {
        values: true,
        yLabel: units.length === 1 ? units[0] : t('plots.value'),
      });
    }
    this.#buildStepPlots();
    // a system without natural variables (a mechanism's bodies) has no Graph card
    if (this.variables.length) this.#buildGraph();
    this.#arrange();
  }

  /** The energy card: ΔE/E₀ signed, or the largest |ΔE/E₀| so far on a log axis (the envelope toggle). */
  #buildEnergy() {
    const envelope = this.energyMode === 'envelope';
    const rel = () => this.relative.get('energy') !== false;
    const c = this.#card('energy', t('plots.energy.title'), '');
    const noteText = el('span', {});
    const toggle = el(
      'button',
      { type: 'button', class: 'btn tiny', 'aria-pressed': String(envelope), title: t('plots.envelope.title') },
      t('plots.envelope'),
    );
    toggle.addEventListener('click', () => this.setView({ energy: this.energyMode === 'envelope' ? 'signed' : 'envelope' }));
    c.noteEl.replaceChildren(noteText, toggle);
    const entry = { id: 'energy', card: c, kind: 'time', drawn: -1, at: 0, log: envelope, noteText, rel };
    entry.cols = envelope ? [this.envCol, this.envCol + 1] : [this.col.get('energy'), this.col.get('energy') + 1];
    entry.u = this.#timePlot(entry, {
      height: 200,
      logY: envelope,
      yLabel: envelope ? t('plots.energy.yEnvelope') : 'ΔE/E₀',
      series: this.#pairSeries('energy', 0, 'energy'),
    });
    this.plots.push(entry);
  }

  /** A card of several quantities, a curve of A and of B each: their drifts, or their values. */
  #buildQuantities(id, qs, title, note, { values = false, yLabel = t('plots.drift') } = {}) {
    const c = this.#card(id, title, note);
    const series = [];
    const cols = [];
    qs.forEach((q, k) => {
      series.push(...this.#pairSeries(q.symbol, k, id));
      cols.push(this.col.get(q.key), this.col.get(q.key) + 1);
    });
    const entry = { id, card: c, cols, kind: 'time', drawn: -1, at: 0, quantities: qs };
    if (values) entry.values = true;
    entry.u = this.#timePlot(entry, { height: 150, yLabel, series });
    this.plots.push(entry);
  }

  /** What each step does: the constraint residual (constrained runs), Newton iterations, the step sizes (variable h). */
  #buildStepPlots() {
    if (this.description.constrained) {
      const c = this.#card('constraint', t('plots.constraint.title'), t('plots.constraint.note', { floor: `1e${MINUS}17` }));
      const entry = {
        id: 'constraint',
        card: c,
        cols: [this.constraintCol, this.constraintCol + 1],
        kind: 'time',
        log: true,
        drawn: -1,
        at: 0,
      };
      entry.u = this.#timePlot(entry, {
        height: 140,
        logY: true,
        yLabel: '|g(q)|',
        series: this.#pairSeries('constraint', 0, 'constraint'),
      });
      this.plots.push(entry);
    }
    const c = this.#card('iterations', t('plots.iterations.title'), t('plots.iterations.note'));
    const entry = { id: 'iterations', card: c, cols: [this.iterCol, this.iterCol + 1], kind: 'time', drawn: -1, at: 0 };
    entry.u = this.#timePlot(entry, {
      height: 100,
      // no y label: the card's title names the count, and a label along 40 px of height would be cut
      range: (u, min, max) => [0, Math.max(4, Math.ceil(max + 1))],
      series: this.#pairSeries('iterations', 0, 'iterations'),
    });
    this.plots.push(entry);
    if (this.stepSizes) {
      const c = this.#card('dt', t('plots.dt.title'), t('plots.dt.note'));
      const entry = { id: 'dt', card: c, cols: [this.dtCol, this.dtCol + 1], kind: 'time', drawn: -1, at: 0 };
      entry.u = this.#timePlot(entry, {
        height: 120,
        yLabel: 'h (s)',
        range: (u, min, max) => [0, Math.max(max, 1e-9) * 1.1],
        series: this.#pairSeries('dt', 0, 'dt'),
      });
      this.plots.push(entry);
    }
  }

  /** The Graph card: any natural variable against another, or against time. */
  #buildGraph() {
    const vars = this.variables;
    const c = this.#card('phase', t('plots.graph.title'), '');
    const label = (i) => (i < 0 ? 't (s)' : `${vars[i].symbol} (${displayOf(vars[i]).unit || '—'})`);
    const mkSelect = (name, which) => {
      const id = `phase-${which}`;
      const select = el('select', { id });
      if (which === 'x') select.append(el('option', { value: '-1' }, t('plots.graph.time')));
      vars.forEach((v, i) =>
        select.append(el('option', { value: String(i), title: v.titleKey ? t(v.titleKey, v.titleVars) : t(v.title) }, v.symbol)),
      );
      select.addEventListener('change', () => {
        const v = Number(select.value);
        this.graphAxes = which === 'x' ? [v, this.graphAxes[1]] : [this.graphAxes[0], v];
        this.phase.clear();
        this.#rebuildGraph();
        this.opts.onPhaseChange?.();
      });
      return el('label', { class: 'phase-axis', for: id }, `${name} `, select);
    };
    const xs = mkSelect(t('plots.graph.horizontal'), 'x');
    const ys = mkSelect(t('plots.graph.vertical'), 'y');
    const period = el('span', { class: 'period', id: 'period' });
    const periodReset = el('button', { type: 'button', class: 'btn tiny', title: t('plots.period.reset.title') }, t('plots.period.reset'));
    periodReset.addEventListener('click', () => this.#resetPeriod());
    c.noteEl.replaceChildren(xs, ys, period, periodReset);
    this.phaseSelects = [xs.querySelector('select'), ys.querySelector('select')];
    this.phaseSelects[0].value = String(this.graphAxes[0]);
    this.phaseSelects[1].value = String(this.graphAxes[1]);
    const [ix, iy] = this.graphAxes;
    const dispX = ix < 0 ? { factor: 1 } : displayOf(vars[ix]);
    const xFormat = (u, splits) => splits.map((v) => (v == null ? '' : num(v, 3)));
    const entry = { id: 'phase', card: c, kind: 'phase', drawn: -1, at: 0, cols: [], periodEl: period };
    const opts = {
      mode: 2,
      width: this.#width(),
      height: this.#height(240),
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: safeRange }, y: { range: safeRange } },
      axes: this.#axes({ id: 'phase', xFormat, xLabel: label(ix), yLabel: label(iy) }),
      series: [
        {},
        {
          ...this.#series('A', COLOR_A, [], 'phase'),
          paths: uPlot.paths.linear(),
          facets: [
            { scale: 'x', auto: true },
            { scale: 'y', auto: true },
          ],
        },
        {
          ...this.#series('B', COLOR_B, [7, 4], 'phase'),
          paths: uPlot.paths.linear(),
          facets: [
            { scale: 'x', auto: true },
            { scale: 'y', auto: true },
          ],
        },
      ],
    };
    entry.baseHeight = opts.height;
    entry.u = new uPlot(opts, [null, [[], []], [[], []]], c.plotEl);
    entry.dispX = dispX;
    this.plots.push(entry);
    this.#resetPeriod();
  }

  #rebuildGraph() {
    const i = this.plots.findIndex((p) => p.id === 'phase');
    if (i < 0) return;
    const old = this.plots[i];
    old.u.destroy();
    this.observer?.unobserve(old.card.fig);
    old.card.fig.remove();
    this.plots.splice(i, 1);
    this.#buildGraph();
    // the new card (the last, as before) takes the old one's role in the lesson layout
    this.#arrange();
    this.resize();
    if (this.large === 'phase') this.enlarge('phase');
  }

  #resetPeriod() {
    this.periodState = { last: null, prevY: NaN, prevDY: NaN, maxima: [] };
    const p = this.plots.find((x) => x.id === 'phase');
    if (p) p.periodEl.textContent = '';
  }

  /** The graph's pair as indices (−1 = time) into the variables. */
  get phasePair() {
    return this.graphAxes.slice();
  }

  #quantityBase(track, read, i) {
    const base = new Map();
    for (const q of this.quantities) base.set(q.key, quantityValue(read, q, i));
    this.base[track] = base;
    this.criteria[track] = breakdownCriterion(this.description, read); // sample 0 is index 0 of the first read
    if (track === 'A') {
      for (const q of this.conservedQ) {
        const b = base.get(q.key);
        const tiny = q.key === 'energy' ? TINY.energy : q.key.startsWith('momentum') ? TINY.momentum : TINY.other;
        this.relative.set(q.key, Number.isFinite(b) && Math.abs(b) > tiny);
      }
    }
  }

  /** Writes one track's values of sample i into v (slot 0: A, 1: B); returns a breakdown or null. */
  #fill(track, slot, read, i, v) {
    const base = this.base[track];
    for (const q of this.conservedQ) {
      const x = quantityValue(read, q, i);
      const b = base.get(q.key);
      v[this.col.get(q.key) + slot] = this.relative.get(q.key) ? (x - b) / Math.abs(b) : x - b;
    }
    for (const q of this.unconservedQ) v[this.col.get(q.key) + slot] = quantityValue(read, q, i);
    if (this.energyQ) {
      const e = Math.abs(v[this.col.get('energy') + slot]);
      if (e > this.envMax[track]) this.envMax[track] = e;
      v[this.envCol + slot] = this.envMax[track];
    }
    if (this.constraintCol >= 0) v[this.constraintCol + slot] = Math.abs(read.constraint[i]);
    v[this.iterCol + slot] = read.iterations[i];
    if (this.stepSizes) v[this.dtCol + slot] = i > 0 || read.start > 0 ? (read.columns.dt?.[i] ?? NaN) : NaN;
    // breakdown? (the runner's per-step criterion, web/sim/breakdown.js)
    return sampleBreakdown(this.criteria[track], read, i);
  }

  #blank(slot, v) {
    for (let j = slot; j < v.length; j += 2) v[j] = NaN;
  }

  /** Ingests history reads of A and B (aligned by sample index). */
  ingest(ra, rb, trackA, trackB, opts = {}) {
    if (!this.run) return;
    const v = this.values;
    const count = ra ? ra.count : 0;
    const bOffset = rb && ra ? rb.start - ra.start : 0;
    const tables = opts.only === 'window' ? [this.win] : [this.all, this.win];
    const replay = opts.only === 'window';
    for (let i = 0; i < count; i++) {
      const t = ra.t[i];
      if (!this.base.A && ra.start + i === 0) this.#quantityBase('A', ra, i);
      const bi = i - bOffset;
      const hasB = rb && bi >= 0 && bi < rb.count;
      if (hasB && !this.base.B && rb.start + bi === 0) this.#quantityBase('B', rb, bi);
      for (const [track, slot, read, k, present] of [
        ['A', 0, ra, i, !!this.base.A],
        ['B', 1, rb, bi, hasB && !!this.base.B],
      ]) {
        const brk = this.broken[track];
        if (!present || (brk && t > brk.t)) {
          this.#blank(slot, v);
          continue;
        }
        const problem = this.#fill(track, slot, read, k, v);
        if (problem && !brk && !replay) {
          this.#blank(slot, v);
          this.broken[track] = { t: this.lastGoodT[track], ...problem };
          this.opts.onBreakdown?.(track, this.broken[track]);
        } else if (problem) this.#blank(slot, v);
        else this.lastGoodT[track] = Math.max(this.lastGoodT[track], t);
      }
      if (
        this.energyQ &&
        this.run.hasB &&
        this.crossAt == null &&
        t > 1 &&
        Number.isFinite(v[this.envCol + 1]) &&
        v[this.envCol + 1] > v[this.envCol]
      ) {
        this.crossAt = t;
      }
      for (const tb of tables) tb.push(t, v);
      for (let j = 0; j < v.length; j++) if (Number.isFinite(v[j])) this.latest[j] = v[j];
    }
  }

  /** Samples the graph from the natural variables of A and B (and the time). */
  samplePhase(varsA, varsB, t) {
    if (!this.run || !varsA || !this.variables.length) return;
    const [ix, iy] = this.graphAxes;
    const dx = ix < 0 ? 1 : displayOf(this.variables[ix]).factor;
    const dy = displayOf(this.variables[iy]).factor;
    const pick = (vars) => (vars ? [ix < 0 ? t : vars[ix] * dx, vars[iy] * dy] : null);
    this.phase.push([pick(varsA), varsB && varsB.length === varsA.length ? pick(varsB) : null]);
    this.phaseVersion = (this.phaseVersion ?? 0) + 1;
    this.#periodSample(t, varsA[iy]);
  }

  /** The period of the graphed variable: time between successive maxima (of A). */
  #periodSample(t, y) {
    const s = this.periodState;
    if (!s || !Number.isFinite(y)) return;
    const dy = y - s.prevY;
    if (dy < 0 && s.prevDY > 0) {
      s.maxima.push(s.lastT);
      if (s.maxima.length > 6) s.maxima.shift();
    }
    if (Number.isFinite(dy) && dy !== 0) s.prevDY = dy;
    s.prevY = y;
    s.lastT = t;
  }

  #periodText() {
    const m = this.periodState?.maxima ?? [];
    if (m.length < 2) return '';
    const T = (m[m.length - 1] - m[0]) / (m.length - 1);
    return t(m.length > 2 ? 'plots.period.many' : 'plots.period.one', { T: num(T, 4), n: m.length - 1 });
  }

  /** Redraws at most one stale plot (call every animation frame). */
  tick(now, time) {
    if (!this.plots.length) return;
    let pick = null;
    for (const p of this.plots) {
      const version = p.kind === 'phase' ? (this.phaseVersion ?? 0) : this.table.version;
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
      p.u.setData([null, this.phase.output(0), this.phase.output(1)]);
      const [ix, iy] = this.graphAxes;
      const name = (i) => (i < 0 ? 't' : this.variables[i].symbol);
      p.card.valuesEl.textContent = t('plots.graph.against', { y: name(iy), x: name(ix) });
      p.periodEl.textContent = this.#periodText();
      return;
    }
    const table = this.table;
    p.drawn = table.version;
    const tf = p.log ? (j, v) => Math.max(Math.abs(v), LOG_FLOOR) : null;
    const out = table.output(tf, !!p.log, p.cols);
    const data = [out[0], ...p.cols.map((c) => out[1 + c])];
    const W = this.windowSeconds;
    p.u.batch(() => {
      p.u.setData(data);
      if (W > 0 && out[0].length) {
        const t1 = Math.max(time ?? table.lastT, W);
        p.u.setScale('x', { min: t1 - W, max: t1 });
      } else if (out[0].length < 2) p.u.setScale('x', { min: 0, max: 1 });
    });
    p.card.valuesEl.textContent = this.#valuesText(p);
    this.#table(p);
    if (p.id === 'energy') p.noteText.textContent = this.#energyNote(p);
    this.#markText(p);
  }

  #valuesText(p) {
    const parts = [];
    const pairs = p.cols.length / 2;
    const fmt =
      p.id === 'iterations' ? (x) => String(Math.round(x)) : p.log || p.values || p.id === 'dt' ? (x) => sci(x, 3) : (x) => signedSci(x, 2);
    for (let k = 0; k < pairs; k++) {
      const a = this.latest[p.cols[2 * k]];
      const b = this.latest[p.cols[2 * k + 1]];
      const prefix =
        p.quantities && (pairs > 1 || p.id !== 'momentum' || p.quantities[k].key !== 'momentum') ? `${p.quantities[k].symbol}: ` : '';
      let s = `${prefix}A ${fmt(a)}`;
      if (this.run.hasB) s += `  B ${fmt(b)}`;
      parts.push(s);
    }
    return parts.join(' · ');
  }

  /** The card's accessible table: one row per quantity, columns A and B (latest values). */
  #table(p) {
    const caption = p.card.tableEl.querySelector('caption');
    const rows = [
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, t('plots.table.quantity')),
        el('th', { scope: 'col' }, 'A'),
        this.run.hasB ? el('th', { scope: 'col' }, 'B') : null,
      ),
    ];
    const pairs = p.cols.length / 2;
    for (let k = 0; k < pairs; k++) {
      const name = p.quantities?.[k]?.symbol ?? p.card.fig.querySelector('.plot-title').textContent;
      const cell = (j) => el('td', {}, sci(this.latest[p.cols[2 * k + j]], 4));
      rows.push(el('tr', {}, el('th', { scope: 'row' }, name), cell(0), this.run.hasB ? cell(1) : null));
    }
    p.card.tableEl.replaceChildren(caption, ...rows);
  }

  /** Energy bars: kinetic, potential and total energy of A (and B), from diagnostics(). */
  energyBars(host, dA, dB) {
    if (!this.description?.energyParts || !dA || !Number.isFinite(dA.kinetic)) {
      host.hidden = true;
      return;
    }
    host.hidden = false;
    const tracks = [['A', dA], ...(this.run.hasB && dB && Number.isFinite(dB.kinetic) ? [['B', dB]] : [])];
    const scale = Math.max(...tracks.flatMap(([, d]) => [Math.abs(d.kinetic), Math.abs(d.potential), Math.abs(d.energy)]), 1e-300);
    if (!this.barEls || this.barEls.tracks !== tracks.length) {
      const row = (label, part, name) => {
        const bar = el('span', { class: `bar ${part} ${label}` });
        const value = el('span', { class: 'bar-value' });
        return {
          node: el(
            'div',
            { class: 'bar-row' },
            el('span', { class: 'bar-label' }, `${t(`plots.bars.${name}`)} ${label}`),
            el('span', { class: 'bar-track' }, bar),
            value,
          ),
          bar,
          value,
        };
      };
      const rows = [];
      for (const [label] of tracks)
        for (const [part, name] of [
          ['kinetic', 'kinetic'],
          ['potential', 'potential'],
          ['total', 'total'],
        ])
          rows.push({ label, part, ...row(label, part, name) });
      host.replaceChildren(el('p', { class: 'bars-title' }, t('plots.bars.title')), ...rows.map((r) => r.node));
      this.barEls = { tracks: tracks.length, rows };
    }
    for (const r of this.barEls.rows) {
      const d = tracks.find(([l]) => l === r.label)?.[1];
      const v = r.part === 'kinetic' ? d.kinetic : r.part === 'potential' ? d.potential : d.energy;
      r.bar.style.width = `${Math.max(0, Math.min(100, (100 * Math.abs(v)) / scale))}%`;
      r.value.textContent = num(v, 4);
    }
  }

  #energyNote(p) {
    const rel = this.relative.get('energy') !== false;
    const what =
      this.energyMode === 'envelope'
        ? rel
          ? t('plots.energy.envelopeRel')
          : t('plots.energy.envelopeAbs')
        : rel
          ? '(E − E₀)/E₀'
          : 'E − E₀ (J)';
    if (!this.run.hasB || this.energyMode !== 'envelope') return what;
    const A = this.run.labelA;
    const B = this.run.labelB;
    if (this.crossAt != null) {
      const head = t('plots.energy.crossed', { what, B, t: num(this.crossAt, 2) });
      return this.run.energyBoundedA ? `${head} ${t('plots.energy.neverGrows', { A })}` : head;
    }
    if (this.envMax.B < this.envMax.A && this.run.energyBoundedA && !this.run.energyBoundedB) {
      return t('plots.energy.notYet', { what, A, B });
    }
    return what;
  }

  #markText(p) {
    const parts = [];
    for (const label of ['A', 'B']) {
      const b = this.broken[label];
      if (b && (label === 'A' || this.run.hasB)) parts.push(t('plots.stopped', { label, t: stepTime(b.t, this.run.h) }));
    }
    p.card.markEl.hidden = parts.length === 0;
    p.card.markEl.textContent = parts.join('; ');
  }

  /** Current values (latest sample) per series name. */
  latestValues() {
    const out = {};
    this.names?.forEach((n, j) => (out[n] = this.latest[j]));
    return out;
  }

  /** The whole-run table's span: { first, last } times of the samples it holds, null before any. */
  span() {
    const tb = this.all;
    return tb?.n ? { first: tb.t0[0], last: tb.t1[tb.n - 1] } : null;
  }

  /** A short text of the current diagnostics (the live summary for screen readers). */
  summary() {
    if (!this.run) return '';
    return this.plots
      .filter((p) => p.kind === 'time')
      .map((p) => `${p.card.fig.querySelector('.plot-title').textContent}: ${this.#valuesText(p)}`)
      .join('. ');
  }

  /** A card's plot size and its axes' type, in CSS px: { width, height, tickPx, labelPx } (the smallest of its axes). */
  textSize(id) {
    const p = this.plots.find((x) => x.id === id);
    if (!p) return null;
    const axes = p.u.axes.filter((a) => a.show !== false);
    return {
      width: p.u.width,
      height: p.u.height,
      tickPx: Math.min(...axes.map((a) => a.font[2])),
      labelPx: Math.min(...axes.map((a) => a.labelFont[2])),
    };
  }

  /** y range of a card's plot (tests: a breakdown must not rescale the others). */
  yRange(id) {
    const p = this.plots.find((x) => x.id === id);
    return p ? [p.u.scales.y.min, p.u.scales.y.max] : null;
  }

  resize() {
    const w = this.#width();
    for (const p of this.plots) {
      const large = p.id === this.large;
      let width = large ? Math.max(200, p.card.fig.clientWidth - 16) : w;
      let height = large ? Math.max(p.baseHeight * 2, Math.round(innerHeight * 0.7)) : p.baseHeight;
      if (!large && p.id === this.featured && this.lesson.host) [width, height] = this.#featuredSize(p);
      if (Math.abs(p.u.width - width) > 1 || Math.abs(p.u.height - height) > 1) p.u.setSize({ width, height });
    }
  }

  /** The large card fills its host: the host's size less the card's caption, borders and mark. */
  #featuredSize(p) {
    const host = this.lesson.host;
    const fig = p.card.fig;
    const around = fig.offsetHeight - p.u.root.offsetHeight;
    const width = Math.max(200, host.clientWidth - (fig.offsetWidth - fig.clientWidth) - 14);
    const height = Math.max(p.baseHeight, host.clientHeight - around - 2);
    return [Math.floor(width), Math.floor(height)];
  }

  clearData() {
    this.all?.clear();
    this.win?.clear();
    this.phase?.clear();
    this.latest?.fill(NaN);
    this.plots.forEach((p) => (p.drawn = -1));
  }

  destroyPlots() {
    this.barEls = null;
    this.observer?.disconnect();
    this.hidden.clear();
    for (const p of this.plots) {
      p.u.destroy();
      p.card.fig.remove(); // the lesson layout's large card is outside the host
    }
    this.plots = [];
    setChildren(this.host);
    document.documentElement.classList.remove('plot-enlarged');
  }

  destroy() {
    this.destroyPlots();
    document.removeEventListener('keydown', this.onKey);
  }
}
