// The Studies drawer: what many runs show and one run cannot, computed in workers
// (web/sim/study-pool.js) so the page keeps its frame rate.
//   Loop          a loop of starts carried by A (and B): the change of ∮p·dq over time
//   Convergence   the error at T for h, h/2, …, h/32: the fitted order on log–log axes
//   Poincaré      a 2-coordinate system defined by data: where orbits at one energy cross
//                 q₁ = 0 upwards; click the section to add an orbit there
//   Dispersion    a field's small waves: each integrator's ω(k) and growth per step,
//                 measured from one step of each Fourier mode, and its largest stable Δt
//                 (web/ui/dispersion.js)
//   Lessons       the seeds' figures, one click each: the lesson sets up the page and
//                 computes its curve; captions, sources and docs from web/sim/lessons.js
import { uPlot, loadUPlot } from '../plots/uplot.js';
import { el, setChildren } from './dom.js';
import { fixed, num, percent, sci } from '../sim/format.js';
import { COLOR_A, COLOR_B } from '../scene/palette.js';
import { fittedOrder } from '../sim/studies.js';
import { LESSONS, lessonById, lessonSetup } from '../sim/lessons.js';
import { StudyPool } from '../sim/study-pool.js';
import { needsFull } from '../sim/page-lab.js';
import { t, registryText } from '../i18n/index.js';
import { integratorTitle } from './why.js';
import { Drawer } from './drawer.js';
import { apiErrorText } from './api-error.js';
import { dispersionSection } from './dispersion.js';

const CONVERGENCE_STEPS = 6;
const ORBIT_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];
/** Errors below this are round-off, not truncation: left out of the fit. */
const ROUND_OFF = 1e-13;

function logRange(u, min, max) {
  if (!(min > 0) || !(max > 0)) return [1e-16, 1];
  min = Math.max(min, 1e-300);
  return [10 ** Math.floor(Math.log10(min)), 10 ** Math.ceil(Math.log10(max))];
}

/** A measured number for a caption: 3 significant digits, or scientific notation when far from 1. */
function measuredText(v) {
  if (Array.isArray(v)) return v.map((x) => measuredText(x)).join(', ');
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  return a >= 0.01 && a < 1000 ? num(v, 3) : sci(v, 2);
}

/** About five round tick values in [lo, hi]. */
function niceTicks(lo, hi, min = 4) {
  const mag = 10 ** Math.floor(Math.log10(hi - lo));
  // the largest round step that gives at least `min` ticks
  const steps = [1, 0.5, 0.25, 0.2, 0.1, 0.05].map((m) => m * mag);
  const first = (s) => Math.ceil(lo / s - 1e-9);
  const last = (s) => Math.floor(hi / s + 1e-9);
  const step = steps.find((s) => last(s) - first(s) + 1 >= min) ?? steps.at(-1);
  const out = [];
  for (let k = first(step); k <= last(step); k++) out.push(k === 0 ? 0 : k * step);
  return out;
}

/** The section's grid and tick values (drawn on ctx); returns the tick values as printed, { x, y }. */
function sectionTicks(ctx, { x0, x1, y0, y1 }, { X, Y, f, color, grid }) {
  const xs = niceTicks(x0, x1);
  const ys = niceTicks(y0, y1);
  ctx.font = '12px system-ui, sans-serif';
  ctx.strokeStyle = grid;
  ctx.lineWidth = 1;
  ctx.strokeRect(f.left, f.top, f.width, f.height);
  ctx.fillStyle = color;
  const x = xs.map((v) => {
    const text = num(v, 3);
    ctx.beginPath();
    ctx.moveTo(X(v), f.top + f.height);
    ctx.lineTo(X(v), f.top + f.height + 4);
    ctx.stroke();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(text, X(v), f.top + f.height + 6);
    return text;
  });
  const y = ys.map((v) => {
    const text = num(v, 3);
    ctx.beginPath();
    ctx.moveTo(f.left - 4, Y(v));
    ctx.lineTo(f.left, Y(v));
    ctx.stroke();
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, f.left - 6, Y(v));
    return text;
  });
  return { x, y };
}

/** The loop study's table: one row per track, ∮p·dq at the start and now, or where it was lost. */
function fillLoopTable(table, res) {
  setChildren(
    table,
    el(
      'tr',
      {},
      el('th', {}, ''),
      el('th', {}, t('studies.loop.col.points')),
      el('th', {}, t('studies.loop.col.action0')),
      el('th', {}, t('studies.loop.col.action')),
      el('th', {}, t('studies.loop.col.change')),
    ),
    res.map((r) =>
      el(
        'tr',
        { dataset: { track: r.label } },
        el('th', {}, `${r.label} · ${r.title}`),
        el('td', {}, String(r.points)),
        el('td', { class: 'loop-action0' }, num(r.initialAction, 10)),
        r.unresolvedAt === null
          ? [
              el('td', { class: 'loop-action', dataset: { value: String(r.action) } }, num(r.action, 10)),
              el('td', { class: 'loop-change', dataset: { value: String(r.series.change.at(-1)) } }, sci(r.series.change.at(-1), 2)),
            ]
          : el(
              'td',
              { class: 'loop-unresolved', colspan: 2, dataset: { at: String(r.unresolvedAt) } },
              t('studies.loop.unresolved', { t: fixed(r.unresolvedAt, 2), n: r.points }),
            ),
      ),
    ),
  );
}

/** A loop's points with the first repeated at the end, so the drawn curve closes. */
function closedLoop(a) {
  return Array.from(a).concat(a.length ? [a[0]] : []);
}

/** The finite values' range with 5% margin: a fixed range keeps every curve in view. */
function paddedRange(arrays) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of arrays) for (const v of a) if (Number.isFinite(v)) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
  if (!(hi >= lo)) return [-1, 1];
  const pad = 0.05 * (hi - lo) || 0.5 * Math.abs(hi) || 1;
  return [lo - pad, hi + pad];
}

export class StudiesDrawer extends Drawer {
  /**
   * getState() the store's state; getRun() { A: { q, p, step, time }, B?, structures (A's sim.describe().structures) } where the run is
   * now; presets the page's presets; applyLesson({ scenario, compare, preset }) sets the
   * page up for a lesson; onLesson(id) tells the Explain drawer which lesson is shown;
   * onExplain() opens it.
   */
  constructor(root, button, { lab, getState, getRun, presets = [], applyLesson, onLesson, onExplain, onOpen }) {
    super(root, button);
    this.lab = lab;
    this.getState = getState;
    this.getRun = getRun;
    this.presets = presets;
    this.applyLesson = applyLesson;
    this.onLesson = onLesson;
    this.onExplain = onExplain;
    this.onOpen = onOpen;
    this.pool = null;
    this.plots = [];
    this.results = {};
    this.lesson = null; // { id, status, figure }
    this.applying = false;
  }

  /** The lessons this build can set up (their systems, integrators and presets exist). */
  get lessons() {
    return LESSONS.filter((l) => {
      const setup = lessonSetup(l, this.presets);
      if (!setup) return false;
      try {
        this.lab.normalize(setup.scenario);
      } catch (e) {
        if (!needsFull(e)) return false; // the full build runs it (loaded when the lesson starts)
      }
      return !setup.compare || !!this.lab.integrator(setup.compare);
    });
  }

  async open() {
    this.onOpen?.();
    await loadUPlot();
    return super.open();
  }

  /** A new run: results of the old one no longer apply. */
  update() {
    this.pool?.cancel();
    this.results = {};
    if (!this.applying) this.lesson = null;
    if (this.isOpen) this.render();
  }

  #pool() {
    this.pool ??= new StudyPool();
    return this.pool;
  }

  #tracks() {
    const st = this.getState();
    const sc = st.scenario;
    const structures = this.getRun?.()?.structures ?? null;
    const out = [{ label: 'A', color: COLOR_A, scenario: sc, title: integratorTitle(this.lab.integrator(sc.integrator), structures) }];
    if (st.compare) {
      const sysOk = this.lab.integrator(st.compare)?.systems.includes(sc.system);
      if (sysOk)
        out.push({
          label: 'B',
          color: COLOR_B,
          scenario: { ...sc, integrator: st.compare, options: {} },
          title: integratorTitle(this.lab.integrator(st.compare), structures),
        });
    }
    return out;
  }

  render() {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    const st = this.getState();
    const system = this.lab.system(st.scenario.system);
    const sections = [el('p', { class: 'hint' }, t('studies.intro', { cores: this.#pool().size }))];
    sections.push(this.#lessonsSection());
    sections.push(this.#loopSection(system, st));
    sections.push(this.#convergenceSection(st));
    const poincare = this.#poincareSection(system, st);
    if (poincare) sections.push(poincare);
    const dispersion = dispersionSection({
      lab: this.lab,
      system,
      st,
      structures: this.getRun?.()?.structures ?? null,
      runner: (key, start) => this.#runner(key, start),
      pool: () => this.#pool(),
      results: this.results,
      plots: this.plots,
      width: () => Math.max(260, this.body.clientWidth - 40 || 360),
    });
    if (dispersion) sections.push(dispersion);
    setChildren(this.body, sections);
  }

  // ---- progress and buttons shared by the sections
  #runner(key, start) {
    const bar = el('progress', { max: 1, value: 0, hidden: true, 'aria-label': t('studies.progress') });
    const status = el('p', { class: 'study-status', role: 'status' });
    const run = el('button', { type: 'button', class: 'btn primary', dataset: { study: key } }, t('studies.run'));
    const cancel = el('button', { type: 'button', class: 'btn', hidden: true }, t('studies.cancel'));
    const setBusy = (busy) => {
      run.disabled = busy;
      cancel.hidden = !busy;
      bar.hidden = !busy;
    };
    run.addEventListener('click', async () => {
      setBusy(true);
      bar.value = 0;
      status.textContent = t('studies.running');
      try {
        await start((f) => (bar.value = f));
        status.textContent = t('studies.done');
      } catch (e) {
        status.textContent = /cancelled/.test(e.message) ? t('studies.cancelled') : t('studies.failed', { message: apiErrorText(e) });
      } finally {
        setBusy(false);
      }
    });
    cancel.addEventListener('click', () => this.pool?.cancel());
    return { controls: el('div', { class: 'study-controls' }, run, cancel, bar), status };
  }

  // ---- loop
  #loopSection(system, st) {
    const head = el('h3', {}, t('studies.loop.title'));
    const text = el('p', {}, t('studies.loop.text'));
    if (system.state !== 'cotangent')
      return el('section', { class: 'study', id: 'study-loop' }, head, text, el('p', { class: 'hint' }, t('studies.loop.rigid')));
    const points = el(
      'select',
      { id: 'loop-points' },
      [256, 512, 1024].map((n) => el('option', { value: String(n), selected: n === 512 }, String(n))),
    );
    const steps = el('input', { id: 'loop-steps', type: 'number', min: 10, max: 100000, step: 10, value: 1000 });
    const plotHost = el('div', { class: 'study-plot', id: 'loop-plot' });
    const shape = this.#loopShapeView(st.scenario);
    const table = el('table', { class: 'study-table' });
    const centreNote = el('p', { class: 'hint loop-centre' });
    const show = () => {
      const res = this.results.loop;
      if (!res) return;
      shape.show(res);
      const a = res[0];
      centreNote.dataset.centre = a.centre;
      centreNote.textContent =
        a.from > 0
          ? t(a.centre === 'state' ? 'studies.loop.centre.state' : 'studies.loop.centre.start', { t: fixed(a.from, 2) })
          : t('studies.loop.centre.origin');
      this.#plotSeries(
        plotHost,
        res.map((r) => ({ label: r.label, color: r.color, x: r.series.t, y: r.series.change })),
        {
          xLabel: t('studies.axis.time'),
          yLabel: t('studies.loop.axis'),
          logX: false,
        },
      );
      fillLoopTable(table, res);
    };
    const { controls, status } = this.#runner('loop', async (progress) => {
      const res = await this.#runLoops(points, steps, progress);
      this.results.loop = res; // after the await: a new run may have replaced this.results meanwhile
      show();
    });
    show();
    return el(
      'section',
      { class: 'study', id: 'study-loop' },
      head,
      text,
      el(
        'div',
        { class: 'study-fields' },
        el('label', { for: 'loop-points' }, t('studies.loop.points'), ' ', points),
        el('label', { for: 'loop-steps' }, t('studies.loop.steps'), ' ', steps),
      ),
      controls,
      status,
      centreNote,
      plotHost,
      table,
      shape.root,
    );
  }

  /** Each track carries the loop in the pool; progress is the mean of the tracks' fractions. */
  #runLoops(points, steps, progress) {
    const tracks = this.#tracks();
    const now = this.getRun?.() ?? {};
    const n = Number(points.value);
    const total = Math.min(100000, Math.max(10, Math.round(Number(steps.value) || 1000)));
    const fractions = tracks.map(() => 0);
    return Promise.all(
      tracks.map((tr, k) =>
        this.#pool()
          .run(
            'loop',
            // mid-run, the loop is centred on where the run is now
            {
              scenario: tr.scenario,
              points: n,
              steps: total,
              around: now[tr.label]?.step > 0 ? { q: now[tr.label].q, p: now[tr.label].p } : undefined,
            },
            { onProgress: (f) => ((fractions[k] = f), progress(fractions.reduce((a, b) => a + b, 0) / tracks.length)) },
          )
          .then((r) => ({
            ...r,
            label: tr.label,
            color: tr.color,
            title: tr.title,
            from: now[tr.label]?.step > 0 ? now[tr.label].time : 0,
          })),
      ),
    );
  }

  // ---- lessons
  #lessonsSection() {
    const list = el(
      'ul',
      { class: 'lesson-list' },
      this.lessons.map((l) =>
        el(
          'li',
          {},
          el(
            'button',
            { type: 'button', class: 'btn lesson', dataset: { lesson: l.id }, 'aria-pressed': String(this.lesson?.id === l.id) },
            registryText('lesson', l, 'title'),
          ),
        ),
      ),
    );
    const figure = el('figure', { class: 'lesson-figure', id: 'lesson-figure', hidden: !this.lesson });
    const bar = el('progress', { max: 1, value: 0, hidden: true, 'aria-label': t('studies.progress') });
    const status = el('p', { class: 'study-status', role: 'status' });
    const cancel = el('button', { type: 'button', class: 'btn', hidden: true }, t('studies.cancel'));
    cancel.addEventListener('click', () => this.pool?.cancel());
    const show = () => {
      const state = this.lesson;
      if (!state) return;
      const lesson = lessonById(state.id);
      figure.hidden = false;
      figure.dataset.lesson = state.id;
      figure.dataset.status = state.status;
      bar.hidden = cancel.hidden = state.status !== 'running';
      status.textContent = {
        running: t('studies.running'),
        done: t('studies.done'),
        cancelled: t('studies.cancelled'),
        failed: t('studies.failed', { message: state.message ?? '' }),
      }[state.status];
      const plotHost = el('div', { class: 'study-plot', id: 'lesson-plot' });
      const measured = el('p', { class: 'lesson-measured' });
      setChildren(
        figure,
        el('h4', {}, registryText('lesson', lesson, 'title')),
        el('div', { class: 'study-controls' }, cancel, bar),
        status,
        plotHost,
        measured,
        el(
          'figcaption',
          { class: 'lesson-caption' },
          el('p', {}, registryText('lesson', lesson, 'caption')),
          el('p', {}, el('strong', {}, t('lessons.see')), ' ', registryText('lesson', lesson, 'see')),
          el('p', { class: 'citation' }, t('explain.source'), el('cite', {}, registryText('lesson', lesson, 'source'))),
        ),
        this.onExplain
          ? el('button', { type: 'button', class: 'btn small lesson-explain', onclick: () => this.onExplain() }, t('lessons.explain'))
          : null,
      );
      const fig = state.figure;
      if (!fig) return;
      const vars = Object.fromEntries(
        Object.entries(fig.measured).map(([k, v]) => [k, fig.percent?.includes(k) ? percent(v, 2) : measuredText(v)]),
      );
      measured.textContent = t(`lessons.${fig.summary}`, vars);
      measured.dataset.measured = JSON.stringify(fig.measured);
      const colors = { A: COLOR_A, B: COLOR_B };
      const curves = fig.curves.map((c, i) => ({
        label: t(`lessons.curve.${c.label}`),
        color: colors[c.color ?? c.label] ?? ORBIT_COLORS[i % ORBIT_COLORS.length],
        x: c.x,
        y: c.y,
      }));
      plotHost.dataset.points = String(curves.reduce((n, c) => n + c.y.filter((y) => Number.isFinite(y)).length, 0));
      this.#plotSeries(plotHost, curves, {
        xLabel: t(`lessons.axis.${lesson.plot.x}`),
        yLabel: t(`lessons.axis.${lesson.plot.y}`),
        logX: lesson.plot.logX,
        logY: lesson.plot.logY,
      });
    };
    list.addEventListener('click', (e) => {
      const id = e.target.closest('button[data-lesson]')?.dataset.lesson;
      if (id) this.#startLesson(lessonById(id)).catch(() => {});
    });
    show();
    this.showLesson = show;
    return el(
      'section',
      { class: 'study', id: 'study-lessons' },
      el('h3', {}, t('lessons.title')),
      el('p', {}, t('lessons.text')),
      list,
      figure,
    );
  }

  /** One click: the page is set up as the lesson says, then its jobs run in the pool. */
  async #startLesson(lesson) {
    const setup = lessonSetup(lesson, this.presets);
    this.applying = true;
    try {
      await this.applyLesson?.(setup, lesson); // a promise when the set-up waits for the full build
    } finally {
      this.applying = false;
    }
    const state = { id: lesson.id, status: 'running', figure: null };
    this.lesson = state;
    this.onLesson?.(lesson.id);
    this.render();
    const bar = this.body.querySelector('#lesson-figure progress');
    try {
      const jobs = lesson.jobs(await this.lab.withFull(() => this.lab.normalize(setup.scenario)));
      const results = await this.#pool().all(jobs, { onDone: (d, n) => bar && (bar.value = d / n) });
      state.figure = lesson.figure(results);
      state.status = 'done';
    } catch (e) {
      state.status = /cancelled/.test(e.message) ? 'cancelled' : 'failed';
      state.message = e.message;
    }
    if (this.lesson === state && this.isOpen) this.showLesson?.();
  }

  // ---- convergence
  #convergenceSection(st) {
    const h0 = st.scenario.h;
    const hs = Array.from({ length: CONVERGENCE_STEPS }, (_, i) => h0 / 2 ** i);
    const T = Number((100 * h0).toPrecision(12));
    const plotHost = el('div', { class: 'study-plot', id: 'convergence-plot' });
    const table = el('table', { class: 'study-table' });
    const show = () => {
      const res = this.results.convergence;
      if (!res) return;
      this.#plotSeries(
        plotHost,
        res.map((r) => ({ label: r.label, color: r.color, x: r.hs, y: r.errors })),
        { xLabel: t('studies.axis.h'), yLabel: t('studies.convergence.axis'), logX: true },
      );
      setChildren(
        table,
        el(
          'tr',
          {},
          el('th', {}, ''),
          el('th', {}, t('studies.convergence.col.order')),
          el('th', {}, t('studies.convergence.col.claimed')),
        ),
        res.map((r) =>
          el(
            'tr',
            { dataset: { track: r.label } },
            el('th', {}, `${r.label} · ${r.title}`),
            el('td', { class: 'fitted-order', dataset: { value: String(r.order) } }, fixed(r.order, 2)),
            el('td', {}, String(r.claimed)),
          ),
        ),
      );
    };
    const { controls, status } = this.#runner('convergence', async (progress) => {
      const tracks = this.#tracks();
      const reference = await this.#pool().run('reference', { scenario: st.scenario, hs, T });
      const jobs = tracks.flatMap((tr) => hs.map((h) => ['error', { scenario: tr.scenario, h, T, reference }]));
      const errors = await this.#pool().all(jobs, { onDone: (d, n) => progress(d / n) });
      this.results.convergence = tracks.map((tr, k) => {
        const errs = errors.slice(k * hs.length, (k + 1) * hs.length);
        const keep = hs.map((h, i) => [h, errs[i]]).filter(([, e]) => e > ROUND_OFF);
        return {
          label: tr.label,
          color: tr.color,
          title: tr.title,
          hs,
          errors: errs,
          order:
            keep.length >= 3
              ? fittedOrder(
                  keep.map((x) => x[0]),
                  keep.map((x) => x[1]),
                )
              : NaN,
          claimed: this.lab.integrator(tr.scenario.integrator).order,
          reference: reference.kind,
        };
      });
      show();
    });
    show();
    return el(
      'section',
      { class: 'study', id: 'study-convergence' },
      el('h3', {}, t('studies.convergence.title')),
      el('p', {}, t('studies.convergence.text', { T, h0, hmin: sci(hs.at(-1), 3) })),
      controls,
      status,
      plotHost,
      table,
    );
  }

  /**
   * The loop itself in a plane of two of the run's natural variables (chosen; by default
   * the run's phase-portrait pair): where it started (grey) and where each track carried
   * it by the chosen time. A symplectic method may stretch and fold it, never change
   * ∮p·dq (for one degree of freedom, the area it encloses).
   */
  #loopShapeView(scenario) {
    const probe = this.lab.simulate(scenario, { historyCapacity: this.lab.limits.historyCapacity.min });
    const { variables, phase } = probe.describe();
    probe.dispose();
    const axis = (id, label, index) =>
      el(
        'label',
        { for: id },
        `${label} `,
        el(
          'select',
          { id },
          variables.map((v, k) => el('option', { value: String(k), selected: k === index }, `${v.symbol} (${v.unit})`)),
        ),
      );
    const xAxis = axis('loop-x', t('studies.loop.shape.x'), phase[0]);
    const yAxis = axis('loop-y', t('studies.loop.shape.y'), phase[1]);
    const time = el('input', { id: 'loop-time', type: 'range', min: 0, max: 0, step: 1, value: 0 });
    const timeLabel = el('label', { for: 'loop-time' }, t('studies.loop.shape.time', { t: '0' }), ' ', time);
    const host = el('div', { class: 'study-plot', id: 'loop-shape' });
    const note = el('p', { class: 'hint' }, t('studies.loop.shape.text'));
    const root = el(
      'div',
      { class: 'loop-shape', hidden: true },
      note,
      el('div', { class: 'study-fields' }, xAxis, yAxis, timeLabel),
      host,
    );
    let res = null;
    let plot = null;
    const draw = () => {
      if (!res) return;
      const ix = Number(xAxis.querySelector('select').value);
      const iy = Number(yAxis.querySelector('select').value);
      const s = Number(time.value);
      const at = res[0].snapshots[Math.min(s, res[0].snapshots.length - 1)];
      timeLabel.firstChild.textContent = `${t('studies.loop.shape.time', { t: fixed(at.t, 2) })} `;
      const start = res[0].snapshots[0].vars;
      const curves = [
        { label: t('studies.loop.shape.start'), color: '#888888', dash: [4, 4], x: closedLoop(start[ix]), y: closedLoop(start[iy]) },
      ];
      for (const r of res) {
        const v = r.snapshots[Math.min(s, r.snapshots.length - 1)].vars;
        curves.push({ label: r.label, color: r.color, x: closedLoop(v[ix]), y: closedLoop(v[iy]) });
      }
      if (plot) {
        plot.destroy();
        this.plots = this.plots.filter((p) => p !== plot);
      }
      plot = this.#loopShapePlot(host, curves, variables[ix], variables[iy]);
      host.dataset.points = String(curves[1].x.length - 1);
      this.plots.push(plot);
    };
    for (const input of [xAxis.querySelector('select'), yAxis.querySelector('select'), time]) input.addEventListener('input', draw);
    return {
      root,
      show: (results) => {
        res = results;
        root.hidden = false;
        time.max = String(results[0].snapshots.length - 1);
        time.value = time.max;
        draw();
      },
    };
  }

  /** The loop's curves as an x–y plot (uPlot's mode 2) in host, replacing what it held. */
  #loopShapePlot(host, curves, xVar, yVar) {
    host.replaceChildren();
    const width = Math.max(260, host.clientWidth || this.body.clientWidth - 40 || 360);
    const facets = [
      { scale: 'x', auto: true },
      { scale: 'y', auto: true },
    ];
    return new uPlot(
      {
        mode: 2,
        width,
        height: 260,
        // every curve in view: uPlot's own ranging in mode 2 can leave part of a long filament out
        scales: {
          x: { time: false, range: () => paddedRange(curves.map((c) => c.x)) },
          y: { range: () => paddedRange(curves.map((c) => c.y)) },
        },
        axes: [
          { label: `${xVar.symbol} (${xVar.unit})`, size: 40 },
          { label: `${yVar.symbol} (${yVar.unit})`, size: 70 },
        ],
        legend: { show: true, live: false },
        cursor: { show: false },
        series: [
          {},
          ...curves.map((c) => ({
            label: c.label,
            stroke: c.color,
            width: c.dash ? 1.5 : 2,
            dash: c.dash,
            paths: uPlot.paths.linear(),
            points: { show: false },
            facets,
          })),
        ],
      },
      [null, ...curves.map((c) => [c.x, c.y])],
      host,
    );
  }

  // ---- Poincaré
  #poincareSection(system, st) {
    const sc = st.scenario;
    if (!system.definition || !Array.isArray(sc.initial?.q) || sc.initial.q.length !== 2 || (sc.params.constraints ?? []).length > 0)
      return null;
    const probe = this.lab.simulate(sc, { historyCapacity: this.lab.limits.historyCapacity.min });
    const E = probe.diagnostics().energy;
    probe.dispose();
    const coords = sc.params.coordinates;
    const canvas = el('canvas', {
      class: 'section-canvas',
      id: 'poincare-canvas',
      width: 480,
      height: 360,
      role: 'img',
      'aria-label': t('studies.poincare.label', { y: coords[1] }),
    });
    const orbits = (this.results.poincare ??= { E, orbits: [], range: null });
    let status = null; // the runner's status line, below
    const draw = () => this.#drawSection(canvas, orbits, coords);
    const addOrbit = async (y, py) => {
      const k = orbits.orbits.length;
      const initial = await this.#pool().run('seed', { scenario: sc, E, at: [y, py] });
      if (!initial) {
        status.textContent = t('studies.poincare.outside');
        return;
      }
      const { points } = await this.#pool().run('section', { scenario: { ...sc, initial }, crossings: 300 });
      orbits.orbits.push({ color: ORBIT_COLORS[k % ORBIT_COLORS.length], points });
      status.textContent = t('studies.poincare.count', { n: orbits.orbits.length });
      draw();
    };
    const runner = this.#runner('poincare', async (progress) => {
      // a fan of starts along q₂ with p₂ = 0, across the energy surface
      const seeds = Array.from({ length: 8 }, (_, i) => [-0.4 + (0.8 * (i + 0.5)) / 8, 0]);
      let n = 0;
      await Promise.all(
        seeds.map(([y, py]) =>
          addOrbit(y, py)
            .catch(() => {})
            .then(() => progress(++n / seeds.length)),
        ),
      );
    });
    const { controls } = runner;
    status = runner.status;
    canvas.addEventListener('click', (e) => {
      if (!orbits.range) return;
      const r = canvas.getBoundingClientRect();
      const [x0, x1, y0, y1] = orbits.range;
      const f = orbits.frame;
      // client px → canvas px → the plotting area's fraction
      const cx = ((e.clientX - r.left) * canvas.width) / r.width;
      const cy = ((e.clientY - r.top) * canvas.height) / r.height;
      const y = x0 + ((cx - f.left) / f.width) * (x1 - x0);
      const py = y1 - ((cy - f.top) / f.height) * (y1 - y0);
      addOrbit(y, py).catch((err) => (status.textContent = t('studies.failed', { message: apiErrorText(err) })));
    });
    draw();
    return el(
      'section',
      { class: 'study', id: 'study-poincare' },
      el('h3', {}, t('studies.poincare.title')),
      el('p', {}, t('studies.poincare.text', { E: sci(E, 4), x: coords[0], y: coords[1] })),
      controls,
      status,
      canvas,
    );
  }

  #drawSection(canvas, data, coords) {
    const ctx = canvas.getContext('2d');
    const styles = getComputedStyle(document.documentElement);
    ctx.fillStyle = styles.getPropertyValue('--surface') || '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    const all = data.orbits.flatMap((o) => o.points).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
    const ext = (i) => {
      const v = all.map((p) => p[i]);
      const lo = v.length ? Math.min(...v) : -0.5;
      const hi = v.length ? Math.max(...v) : 0.5;
      const m = (hi - lo) * 0.1 || 0.5;
      return [lo - m, hi + m];
    };
    const [x0, x1] = ext(0);
    const [y0, y1] = ext(1);
    data.range = [x0, x1, y0, y1];
    // the plotting area, inside margins for the tick values and the axis line of text
    const f = { left: 52, top: 8, width: canvas.width - 60, height: canvas.height - 48 };
    data.frame = f;
    const X = (a) => f.left + ((a - x0) / (x1 - x0)) * f.width;
    const Y = (b) => f.top + ((y1 - b) / (y1 - y0)) * f.height;
    const muted = styles.getPropertyValue('--fg-muted') || '#555';
    const ticks = sectionTicks(ctx, { x0, x1, y0, y1 }, { X, Y, f, color: muted, grid: styles.getPropertyValue('--grid') || '#ddd' });
    canvas.dataset.xticks = JSON.stringify(ticks.x);
    canvas.dataset.yticks = JSON.stringify(ticks.y);
    ctx.fillStyle = muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(t('words.poincare.axes', { x: coords[0], y: coords[1] }), f.left, canvas.height - 6);
    for (const o of data.orbits) {
      ctx.fillStyle = o.color;
      for (const [a, b] of o.points) {
        if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
        ctx.fillRect(X(a) - 1, Y(b) - 1, 2, 2);
      }
    }
    canvas.dataset.points = String(all.length);
  }

  /**
   * A uPlot of one curve per track; log y unless logY is false, log x when asked. The y label
   * is a line of text above the plot, not drawn along the axis: a long label wraps there
   * instead of being cut at the plot's height.
   */
  #plotSeries(host, curves, { xLabel, yLabel, logX, logY = true }) {
    host.replaceChildren(el('p', { class: 'plot-ylabel' }, yLabel));
    const xs = [...new Set(curves.flatMap((c) => c.x))].sort((a, b) => a - b);
    // on a log axis a zero (a drift of exactly nothing) or a subnormal has no place: a gap
    const shown = (y) => (Number.isFinite(y) && (!logY || y >= 1e-300) ? y : null);
    const data = [
      xs,
      ...curves.map((c) =>
        xs.map((x) => {
          const i = c.x.indexOf(x);
          return i < 0 ? null : shown(c.y[i]);
        }),
      ),
    ];
    const width = Math.max(260, host.clientWidth || this.body.clientWidth - 40 || 360);
    const u = new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: false, distr: logX ? 3 : 1 }, y: logY ? { distr: 3, range: logRange } : { auto: true } },
        axes: [
          { label: xLabel, size: 40 },
          {
            size: 70,
            values: (u, s) => s.map((v) => (v == null ? '' : logY ? sci(v, 1) : num(v, 4))),
          },
        ],
        series: [{}, ...curves.map((c) => ({ label: c.label, stroke: c.color, width: 2, points: { show: logX } }))],
        legend: { show: true, live: false },
      },
      data,
      host,
    );
    this.plots.push(u);
  }
}
