// A field run's own cards, beside the diagnostics plots (web/plots/plots.js) and laid out
// like them: the space–time image of u (A and B side by side when comparing) and, where
// the scenario has kinks (web/sim/kinks.js decides from its density and initial u), the
// kink tracker: their positions and speeds, and the exact speed where the initial data
// are the family's travelling kink; and the multisymplectic law's residual (law-card.js).
// A row every rowInterval(scenario) of the run's time:
// the runner calls sample(runner) on those steps (Runner.rows, web/sim/runner.js), so
// rows are the same steps however frames batch them; a run that stopped adds nothing after
// its last good step, and a NaN is never drawn (rows with one are refused).
import { uPlot } from './uplot.js';
import { alignByTime, axisStyle, cssVar } from './common.js';
import { el, setChildren } from '../ui/dom.js';
import { num } from '../sim/format.js';
import { COLOR_A, COLOR_B, isDark } from '../scene/palette.js';
import { t, onLanguageChange } from '../i18n/index.js';
import { ROWS, SpaceTimeRing, averageColumns, colourOf, columnsFor, followRange, rowInterval } from '../sim/spacetime.js';
import { LawCard } from './law-card.js';
import { componentOf, fieldComponents } from '../sim/field-components.js';
import { KinkTracker, SPEED_SAMPLES, exactSpeedOf, kinkSetup, nodeVelocities } from '../sim/kinks.js';

const REDRAW_MS = 120;
const FONT_PX = { card: 11, projector: 15 };
const HEIGHT = { card: 240, projector: 300 };
// A's kinks and B's in the colours and dashes of the other A/B plots: A solid, B dashed (a kink;
// an antikink: A dashed, B dotted)
const KINK_STYLE = {
  A: { color: COLOR_A, dash: { kink: [], antikink: [6, 4] } },
  B: { color: COLOR_B, dash: { kink: [7, 4], antikink: [2, 3] } },
};
const MINUS = '\u2212';
const BAR_PX = 10; // the colour bar's width
const MIN_ROWS = 60; // the fewest rows the image's height is shared among

/** 'one' or 'many': the singular's catalogue key for 1, the plural's else (English and Spanish). */
const countWord = (n) => (n === 1 ? 'one' : 'many');
const rowsText = (n) => t(`plots.spacetime.rows.${countWord(n)}`, { rows: n });
const signed = (x, digits) => num(x, digits).replace(/^-/, MINUS);

/** One track's image: its ring of rows, the pixels of those rows, and its canvas. */
class TrackImage {
  constructor(label, title, columns) {
    this.label = label;
    this.ring = new SpaceTimeRing(columns);
    this.row = new Float64Array(columns);
    this.pixels = new ImageData(columns, ROWS);
    this.off = document.createElement('canvas');
    this.off.width = columns;
    this.off.height = ROWS;
    this.range = 0; // none yet: the first row sets it (followRange)
    this.canvas = el('canvas', { class: 'spacetime-canvas', role: 'img' });
    this.caption = el('p', { class: 'spacetime-label', title: `${label} · ${title}` }, `${label} · ${title}`);
    this.node = el('div', { class: 'spacetime-image' }, this.caption, this.canvas);
  }
}

export class FieldPlots {
  constructor(host) {
    this.host = host;
    this.projector = false;
    this.run = null;
    this.at = 0;
    this.drawn = -1;
    this.offLanguage = onLanguageChange(() => this.run && this.#build());
    // its own size and the light/dark theme: redrawn, recoloured
    if (typeof ResizeObserver === 'function') new ResizeObserver(() => this.resize()).observe(host);
    globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => this.retheme());
  }

  /** Projector mode (web/ui/projector.js): larger type now and on every change. */
  useProjector(projector) {
    this.setProjector(projector.isOn());
    projector.onChange((on) => this.setProjector(on));
  }

  /**
   * Sets up for a run: { scenarioA (normalized), hasB, labelA, labelB, u0, p0, stiffness (c² per cell or null) } (A's state at
   * t = 0; null u0 for a run whose scene has no space–time image: the host empties).
   * Returns the runner's rows { every, keep }: sample() is called every `every` steps
   * among the last `keep` of each advance (0: no rows).
   */
  configure(run) {
    this.kinkPlot?.destroy();
    this.kinkPlot = null;
    this.law?.destroyPlots();
    if (!run?.u0?.length || !run.scenarioA?.params?.grid) {
      this.run = null;
      setChildren(this.host);
      this.host.hidden = true;
      return { every: 0, keep: 0 };
    }
    this.host.hidden = false;
    const sc = run.scenarioA;
    // a field of several components: the image shows the first
    this.components = fieldComponents(sc).length;
    const u0 = componentOf(run.u0, run.u0.length / this.components);
    const columns = columnsFor(u0.length);
    this.run = run;
    this.interval = rowInterval(sc, run.stiffness);
    this.rowEvery = Math.round(this.interval / sc.h);
    this.length = sc.params.grid.length;
    this.nodes = u0.length;
    this.images = [new TrackImage('A', run.labelA, columns), ...(run.hasB ? [new TrackImage('B', run.labelB, columns)] : [])];
    this.setup = kinkSetup(sc, u0);
    this.trackers = this.setup ? { A: new KinkTracker(this.setup), B: run.hasB ? new KinkTracker(this.setup) : null } : null;
    this.exact = this.setup ? exactSpeedOf(this.setup, u0, nodeVelocities(this.setup, run.p0)) : null;
    this.lastT = -Infinity;
    this.law = new LawCard({ length: this.length, projector: this.projector, fontPx: FONT_PX });
    this.#build();
    return { every: this.rowEvery, keep: ROWS * this.rowEvery };
  }

  /** Takes a row (and the kinks) of A and B at the run's time now, once per time. */
  sample(runner) {
    if (!this.run || !runner.a) return;
    const time = runner.a.sim.time;
    if (!(time > this.lastT)) return;
    this.lastT = time;
    for (const [image, track] of [
      [this.images[0], runner.a],
      [this.images[1], runner.b],
    ]) {
      if (!image || !track) continue;
      // a stopped run adds nothing after its last good step (its picture is the last finite one)
      if (track.failure) {
        image.ring.broken = true;
        continue;
      }
      if (track.visual.length !== this.nodes * this.components) continue;
      const u = componentOf(track.visual, this.nodes);
      averageColumns(u, image.row);
      if (!image.ring.push(time, image.row)) continue;
      this.#paintRow(image, image.ring.count - 1);
      this.trackers?.[image.label]?.push(time, u);
    }
    this.law.sample(runner, time);
  }

  /** Writes the k-th oldest row's colours into the image's pixels (all of them when the colour range changed). */
  #paintRow(image, k) {
    const R = followRange(image.range, image.ring.maxAbs);
    if (R !== image.range) {
      image.range = R;
      for (let j = 0; j < image.ring.count; j++) this.#paintSlot(image, image.ring.slot(j));
    } else this.#paintSlot(image, image.ring.slot(k));
  }

  #paintSlot(image, slot) {
    const { columns, data } = image.ring;
    const px = image.pixels.data;
    const theme = this.dark ? 'dark' : 'light';
    for (let j = 0; j < columns; j++) {
      const o = 4 * (slot * columns + j);
      colourOf(data[slot * columns + j], image.range, theme, px, o);
      px[o + 3] = 255;
    }
    image.dirty = true;
  }

  #build() {
    this.dark = isDark();
    this.kinkPlot?.destroy();
    this.kinkPlot = null;
    const columnsNote =
      this.nodes > this.images[0].ring.columns
        ? t('plots.spacetime.columnsMean', { nodes: this.nodes, columns: this.images[0].ring.columns })
        : t('plots.spacetime.columnsAll', { nodes: this.nodes });
    const every = t(`plots.spacetime.every.${countWord(this.rowEvery)}`, { steps: this.rowEvery, dt: num(this.interval, 3) });
    const note = t('plots.spacetime.note', { every, rows: ROWS, columns: columnsNote });
    const card = this.#card('spacetime', t('plots.spacetime.title'), note);
    card.plotEl.classList.add('spacetime-pair');
    card.plotEl.append(...this.images.map((im) => im.node));
    for (const im of this.images) for (let j = 0; j < im.ring.count; j++) this.#paintSlot(im, im.ring.slot(j));
    const cards = [card.fig];
    this.spacetime = card;
    if (this.setup) {
      const levels = this.setup.levels.map((l) => (this.setup.family === 'phi4' ? '0' : levelText(l))).join(', ');
      const kinkNote = t('plots.kinks.note', { levels, samples: SPEED_SAMPLES });
      this.kinks = this.#card('kinks', t('plots.kinks.title'), kinkNote);
      this.kinks.list = el('ul', { class: 'kink-list', 'aria-live': 'off' });
      this.kinks.plotEl.before(this.kinks.list);
      cards.push(this.kinks.fig);
    } else this.kinks = null;
    cards.push(this.law.attach((id, title, note) => this.#card(id, title, note)));
    setChildren(this.host, ...cards);
    this.kinkTracks = 0;
    this.drawAll();
  }

  #card(id, title, note) {
    const valuesEl = el('span', { class: 'plot-values', id: `plot-${id}-values` });
    const plotEl = el('div', { class: 'plot-host' });
    const fig = el(
      'figure',
      { class: 'plot-card', id: `plot-${id}`, 'aria-labelledby': `plot-${id}-title`, 'aria-describedby': `plot-${id}-values` },
      el(
        'figcaption',
        {},
        el('span', { class: 'plot-title', id: `plot-${id}-title` }, title),
        ' ',
        el('span', { class: 'plot-note' }, note),
        valuesEl,
      ),
      plotEl,
    );
    return { fig, plotEl, valuesEl };
  }

  /** Larger type for a projector. */
  setProjector(on) {
    this.projector = !!on;
    this.law?.setProjector(this.projector);
    if (this.run) this.drawAll();
  }

  /** After a light/dark switch: the colour map and the axes' colours follow. */
  retheme() {
    if (this.run) this.#build();
  }

  resize() {
    if (this.run) this.drawAll();
  }

  /** Redraws when something changed, at most every REDRAW_MS (call every animation frame). */
  tick(now) {
    if (!this.run || now - this.at < REDRAW_MS) return;
    const version = this.images.reduce((s, im) => s + im.ring.version, 0);
    if (version === this.drawn) return;
    this.at = now;
    this.drawn = version;
    this.#drawImages();
    this.#drawKinks();
    this.law.draw(this.#plotWidth());
  }

  drawAll() {
    if (!this.run) return;
    this.at = performance.now();
    this.#drawImages();
    this.#drawKinks();
    this.law.draw(this.#plotWidth());
  }

  #plotWidth() {
    return Math.max(160, this.host.clientWidth - 16);
  }

  #drawImages() {
    const size = this.projector ? 'projector' : 'card';
    const width = Math.max(160, this.host.clientWidth - 16);
    const each = this.images.length > 1 ? Math.floor((width - 8) / 2) : width;
    const fg = cssVar('--fg-muted', '#4a515b');
    for (const im of this.images) drawImage(im, { width: each, height: HEIGHT[size], font: FONT_PX[size], fg, length: this.length });
    const a = this.images[0].ring;
    this.spacetime.valuesEl.textContent = a.count
      ? t('plots.spacetime.values', { t0: num(a.time(0), 4), t1: num(a.lastT, 4), rows: rowsText(a.count) })
      : '';
  }

  #drawKinks() {
    if (!this.kinks) return;
    const lines = [];
    for (const label of ['A', 'B']) {
      const tracker = this.trackers[label];
      if (!tracker) continue;
      const now = tracker.current();
      if (!now.length) lines.push(el('li', {}, t('plots.kinks.none', { label })));
      for (const k of now)
        lines.push(
          el(
            'li',
            { 'data-track': label, 'data-id': String(k.id) },
            this.#swatch(label, k),
            t(k.sign > 0 ? 'plots.kinks.kink' : 'plots.kinks.antikink', {
              label,
              id: k.id,
              x: num(k.x, 4),
              v: Number.isFinite(k.speed) ? signed(k.speed, 4) : '—',
            }),
          ),
        );
    }
    if (this.exact) lines.push(el('li', { class: 'kink-exact' }, t('plots.kinks.exact', { v: signed(this.exact.v, 6) })));
    this.kinks.list.replaceChildren(...lines);
    this.kinks.valuesEl.textContent = '';
    this.#kinkPlot();
  }

  /** The colour (and dash) of a kink's line in the plot, beside its readout. */
  #swatch(label, k) {
    const dash = k.sign > 0 ? (label === 'A' ? '' : ' dashed') : label === 'A' ? ' dashed' : ' dotted';
    const s = el('span', { class: `kink-swatch${dash}`, 'aria-hidden': 'true', 'data-track': label });
    s.style.borderColor = KINK_STYLE[label].color;
    return s;
  }

  /** The kinks of the tracks that run (A; B when comparing), each tagged with its track. */
  #kinkLines() {
    return ['A', 'B'].flatMap((label) => (this.trackers[label]?.tracks ?? []).map((k) => ({ label, k })));
  }

  /** A's (and B's) kink positions against time, one line per kink (rebuilt when a kink appears). */
  #kinkPlot() {
    if (!uPlot) return;
    const tracks = this.#kinkLines();
    if (!this.kinkPlot || this.kinkTracks !== tracks.length) {
      this.kinkPlot?.destroy();
      this.kinkTracks = tracks.length;
      this.kinkSeries = tracks.map(({ label, k }) => ({ track: label, id: k.id, sign: k.sign, color: KINK_STYLE[label].color }));
      const size = this.projector ? 'projector' : 'card';
      const font = `${FONT_PX[size]}px system-ui, sans-serif`;
      const axis = (label) => axisStyle(label, font);
      this.kinkPlot = new uPlot(
        {
          width: this.#plotWidth(),
          height: this.projector ? 190 : 150,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false }, y: { range: [0, this.length] } },
          axes: [axis('t (s)'), axis('x (m)')],
          series: [
            {},
            ...tracks.map(({ label, k }) => ({
              label: `${label} ${k.sign > 0 ? '+' : MINUS}${k.id}`,
              stroke: KINK_STYLE[label].color,
              width: this.projector ? 2.8 : 1.6,
              dash: KINK_STYLE[label].dash[k.sign > 0 ? 'kink' : 'antikink'],
              points: { show: false },
              spanGaps: false,
            })),
          ],
        },
        [[], ...tracks.map(() => [])],
        this.kinks.plotEl,
      );
    }
    this.kinkPlot.setData(
      alignByTime(
        tracks.map(({ k }) => k),
        (k) => k.x,
      ),
    );
  }

  /** What the cards hold, for tests: { rows, t0, t1, columns, range, kinks: { A, B }, exact, kinkSeries: the plot's lines }. */
  state() {
    if (!this.run) return null;
    const image = (im) =>
      im && {
        rows: im.ring.count,
        t0: im.ring.count ? im.ring.time(0) : NaN,
        t1: im.ring.lastT,
        times: Array.from({ length: im.ring.count }, (_, k) => im.ring.time(k)),
        columns: im.ring.columns,
        range: im.range,
        broken: im.ring.broken,
        finite: im.ring.data.every(Number.isFinite),
        label: im.canvas.getAttribute('aria-label'),
      };
    return {
      rowEvery: this.rowEvery,
      A: image(this.images[0]),
      B: image(this.images[1]) ?? null,
      kinks: this.trackers ? { A: this.trackers.A.current(), B: this.trackers.B?.current() ?? null } : null,
      exact: this.exact ? { ...this.exact } : null,
      readout: this.kinks ? [...this.kinks.list.children].map((li) => li.textContent) : [],
      kinkSeries: this.kinkPlot ? this.kinkSeries : [],
      law: this.law.state(),
    };
  }

  destroy() {
    this.kinkPlot?.destroy();
    this.law?.destroyPlots();
    this.offLanguage?.();
  }
}

/** A sine-Gordon level (2n + 1)π as text. */
function levelText(level) {
  const k = Math.round(level / Math.PI);
  return k === 1 ? 'π' : k === -1 ? `${MINUS}π` : `${k < 0 ? MINUS : ''}${Math.abs(k)}π`;
}

/** The canvas at width × height CSS px (device pixels underneath), cleared; its 2-D context. */
function canvasContext(c, width, height) {
  const dpr = globalThis.devicePixelRatio || 1;
  if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
    c.style.width = `${width}px`;
    c.style.height = `${height}px`;
  }
  const ctx = c.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

/** Draws one image: the rows (oldest at the top, t going down), the t and x axes, the colour bar with its values. */
function drawImage(im, { width, height, font, fg, length }) {
  const ctx = canvasContext(im.canvas, width, height);
  ctx.font = `${font}px system-ui, sans-serif`;
  ctx.fillStyle = fg;
  ctx.strokeStyle = fg;
  const ring = im.ring;
  const range = im.range || 1; // no rows yet: the bar reads ±1
  const left = Math.ceil(Math.max(ctx.measureText(num(ring.lastT || 0, 4)).width, ctx.measureText('t (s) ↓').width)) + 10;
  const right = Math.ceil(ctx.measureText(`${MINUS}${num(range, 3)}`).width) + BAR_PX + 12;
  const top = font + 4;
  const box = { left, top, w: Math.max(20, width - left - right), h: Math.max(20, height - top - 2 * font - 10) };
  drawRows(ctx, im, box);
  drawAxes(ctx, ring, box, { font, length });
  drawColourBar(ctx, range, box, fg);
  im.canvas.setAttribute(
    'aria-label',
    ring.count
      ? t('plots.spacetime.alt', {
          label: im.label,
          length: num(length, 4),
          t0: num(ring.time(0), 4),
          t1: num(ring.lastT, 4),
          rows: rowsText(ring.count),
          range: num(range, 3),
        })
      : t('plots.spacetime.empty', { label: im.label }),
  );
}

/** A row's height: the rows so far fill the image (at least MIN_ROWS of them), ROWS of them once the ring is full. */
function rowHeight(ring, h) {
  return h / Math.min(ROWS, Math.max(MIN_ROWS, ring.count));
}

/** The rows kept: ROWS of them fill the box's height, the oldest at the top (the ring drawn in its two pieces). */
function drawRows(ctx, im, { left, top, w, h }) {
  const ring = im.ring;
  if (im.dirty) {
    im.off.getContext('2d').putImageData(im.pixels, 0, 0);
    im.dirty = false;
  }
  ctx.imageSmoothingEnabled = false;
  const rowH = rowHeight(ring, h);
  const first = ring.slot(0);
  const upper = Math.min(ring.count, ROWS - first); // rows from `first` to the end of the buffer
  if (upper > 0) ctx.drawImage(im.off, 0, first, ring.columns, upper, left, top, w, upper * rowH);
  const lower = ring.count - upper;
  if (lower > 0) ctx.drawImage(im.off, 0, 0, ring.columns, lower, left, top + upper * rowH, w, lower * rowH);
  ctx.strokeRect(left - 0.5, top - 0.5, w + 1, h + 1);
}

/** t down the left, each tick a row labelled with its time; x along the bottom at 0, L/2, L. */
function drawAxes(ctx, ring, { left, top, w, h }, { font, length }) {
  const rowH = rowHeight(ring, h);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const ticks = Math.min(5, ring.count);
  for (let j = 0; j < ticks; j++) {
    const k = ticks > 1 ? Math.round((j * (ring.count - 1)) / (ticks - 1)) : 0;
    const y = top + (k + 0.5) * rowH;
    ctx.fillText(num(ring.time(k), 4), left - 6, y);
    ctx.fillRect(left - 4, y, 4, 1);
  }
  ctx.textBaseline = 'bottom';
  ctx.fillText('t (s) ↓', left - 4, top - 2);
  ctx.textBaseline = 'top';
  ctx.textAlign = 'center';
  for (const f of [0, 0.5, 1]) {
    const x = left + f * w;
    ctx.fillRect(x, top + h, 1, 4);
    ctx.fillText(num(f * length, 3), x, top + h + 5);
  }
  ctx.fillText('x (m)', left + w / 2, top + h + font + 8);
}

/** The colour bar right of the image: u from −R (bottom) through 0 to R (top), with those values. */
function drawColourBar(ctx, R, { left, top, w, h }, fg) {
  const bx = left + w + 6;
  const theme = isDark() ? 'dark' : 'light';
  const rgb = [0, 0, 0];
  for (let y = 0; y < h; y++) {
    colourOf(R * (1 - (2 * (y + 0.5)) / h), R, theme, rgb);
    ctx.fillStyle = `rgb(${rgb[0]},${rgb[1]},${rgb[2]})`;
    ctx.fillRect(bx, top + y, BAR_PX, 1);
  }
  ctx.fillStyle = fg;
  ctx.strokeRect(bx - 0.5, top - 0.5, BAR_PX + 1, h + 1);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(num(R, 3), bx + BAR_PX + 3, top + 4);
  ctx.fillText('0', bx + BAR_PX + 3, top + h / 2);
  ctx.fillText(`${MINUS}${num(R, 3)}`, bx + BAR_PX + 3, top + h - 4);
  ctx.textBaseline = 'bottom';
  ctx.fillText('u', bx, top - 2);
}
