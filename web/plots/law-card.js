// A field run's multisymplectic law card: the residual of the local conservation law (the
// discrete ∂_t ω + ∂_x κ = 0; Marsden, Patrick & Shkoller 1998, Thm 4.1) that
// sim.lawResidual() measures on each node's dual cell over the next two steps — its
// largest value over time (log axis) for A and B, and its profile along the string at the
// last probe. The box scheme and the leapfrog keep it to rounding; RK4 does not. An
// integrator without it (DOPRI5, the AVI) says why, from the API's own error. Probes are
// taken at the space–time image's row steps, at most every PROBE_MS of wall time: each is
// a few steps' work, so a fast run is not slowed by it.
import { uPlot } from './uplot.js';
import { alignByTime, axisStyle } from './common.js';
import { el } from '../ui/dom.js';
import { sci } from '../sim/format.js';
import { COLOR_A, COLOR_B } from '../scene/palette.js';
import { t } from '../i18n/index.js';
import { apiError } from '../ui/api-error.js';

const PROBE_MS = 150;
const KEEP = 400; // probes kept per track
const FLOOR = 1e-18; // a residual of exactly 0 drawn here (a log axis has no 0)

/** One track's probes: times and largest residuals (a ring), its last profile, or why it has none. */
class LawTrack {
  constructor(label) {
    this.label = label;
    this.t = [];
    this.max = [];
    this.nodes = null;
    this.law = null;
    this.why = null;
  }
  push(time, { law, max, nodes }) {
    this.law = law;
    this.nodes = nodes;
    this.t.push(time);
    this.max.push(Math.max(max, FLOOR));
    if (this.t.length > KEEP) {
      this.t.shift();
      this.max.shift();
    }
  }
  last() {
    return this.max.length ? this.max[this.max.length - 1] : NaN;
  }
}

export class LawCard {
  /** length: the string's; fontPx: { card, projector } type sizes. */
  constructor({ length, projector, fontPx }) {
    Object.assign(this, { length, projector, fontPx });
    this.tracks = { A: new LawTrack('A'), B: null };
    this.at = -Infinity;
    this.drawnCount = -1;
  }

  /** (Re)makes the card in the page's language: card(id, title, note) → { fig, plotEl, valuesEl }; returns its figure. */
  attach(card) {
    this.destroyPlots();
    this.card = card('law', t('plots.law.title'), t('plots.law.note'));
    this.timeEl = el('div', { class: 'plot-host' });
    this.profileEl = el('div', { class: 'plot-host' });
    this.card.plotEl.append(this.timeEl, this.profileEl);
    return this.card.fig;
  }

  /** Probes A (and B) now, unless one was taken less than PROBE_MS ago; a stopped track is left as it stopped. */
  sample(runner, time, now = performance.now()) {
    if (now - this.at < PROBE_MS) return;
    this.at = now;
    for (const [label, track] of [
      ['A', runner.a],
      ['B', runner.b],
    ]) {
      if (!track) continue;
      this.tracks[label] ??= new LawTrack(label);
      const mine = this.tracks[label];
      if (mine.why || track.failure) continue;
      try {
        mine.push(time, track.sim.lawResidual());
      } catch (e) {
        if (e?.field !== 'integrator') throw e;
        mine.why = e; // worded when drawn, in the page's language then
      }
    }
  }

  /** What the card holds, for tests. */
  state() {
    const one = (k) =>
      k && {
        law: k.law,
        why: k.why?.message ?? null,
        probes: k.t.length,
        last: k.last(),
        t: k.t.slice(),
        nodes: k.nodes ? Array.from(k.nodes) : null,
      };
    return { A: one(this.tracks.A), B: one(this.tracks.B) };
  }

  setProjector(on) {
    this.projector = on;
    this.destroyPlots();
  }

  draw(width) {
    const count = (this.tracks.A?.t.length ?? 0) + (this.tracks.B?.t.length ?? 0);
    this.#values();
    if (!uPlot || (count === this.drawnCount && this.timePlot)) return;
    this.drawnCount = count;
    const live = [this.tracks.A, this.tracks.B].filter((k) => k && !k.why);
    if (!live.length) {
      this.destroyPlots();
      return;
    }
    if (!this.timePlot || this.timePlot.series.length !== live.length + 1 || this.width !== width) this.#build(live, width);
    this.timePlot.setData(alignByTime(live, (k) => k.max));
    const xs = live[0].nodes ? Array.from(live[0].nodes, (_, i) => (i * this.length) / (live[0].nodes.length - 1)) : [];
    this.profilePlot.setData([xs, ...live.map((k) => (k.nodes ? Array.from(k.nodes, (r) => Math.max(r, FLOOR)) : []))]);
  }

  #values() {
    const parts = [];
    for (const k of [this.tracks.A, this.tracks.B]) {
      if (!k) continue;
      if (k.why) parts.push(t('plots.law.none', { label: k.label, why: apiError(k.why).problem }));
      else if (k.t.length) parts.push(t('plots.law.value', { label: k.label, law: k.law, max: sci(k.last(), 1) }));
    }
    this.card.valuesEl.textContent = parts.join(' · ');
  }

  #build(live, width) {
    this.destroyPlots();
    this.width = width;
    const size = this.projector ? 'projector' : 'card';
    const font = `${this.fontPx[size]}px system-ui, sans-serif`;
    const logTicks = { values: (u, splits) => splits.map((v) => (v == null ? '' : `1e${Math.round(Math.log10(v))}`)) };
    const axis = (label, log) => axisStyle(label, font, log ? logTicks : {});
    const series = live.map((k) => ({
      label: k.label,
      stroke: k.label === 'A' ? COLOR_A : COLOR_B,
      width: this.projector ? 2.8 : 1.6,
      points: { show: false },
    }));
    const opts = (xLabel, yLabel, xRange) => ({
      width,
      height: this.projector ? 170 : 130,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, ...(xRange ? { range: xRange } : {}) }, y: { distr: 3, log: 10, range: logRange } },
      axes: [axis(xLabel, false), axis(yLabel, true)],
      series: [{}, ...series],
    });
    this.timePlot = new uPlot(opts('t (s)', t('plots.law.axisMax')), [[], ...live.map(() => [])], this.timeEl);
    this.profilePlot = new uPlot(opts('x (m)', t('plots.law.axisNode'), [0, this.length]), [[], ...live.map(() => [])], this.profileEl);
  }

  destroyPlots() {
    this.timePlot?.destroy();
    this.profilePlot?.destroy();
    this.timePlot = this.profilePlot = null;
    this.drawnCount = -1;
  }
}

/** Powers of ten around the data, at least 1e-17 to 1e-14 (rounding's band). */
function logRange(u, min, max) {
  const lo = Math.min(1e-17, Number.isFinite(min) ? min : 1e-17);
  const hi = Math.max(1e-14, Number.isFinite(max) ? max : 1e-14);
  return [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi))];
}
