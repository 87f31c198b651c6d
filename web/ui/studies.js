// The Studies drawer: what many runs show and one run cannot, computed in workers
// (web/sim/study-pool.js) so the page keeps its frame rate.
//   Loop          a loop of starts carried by A (and B): the change of ∮p·dq over time
//   Convergence   the error at T for h, h/2, …, h/32: the fitted order on log–log axes
//   Poincaré      a 2-coordinate system defined by data: where orbits at one energy cross
//                 q₁ = 0 upwards; click the section to add an orbit there
import uPlot from 'uplot';
import { el, setChildren } from './dom.js';
import { sci } from '../sim/format.js';
import { COLOR_A, COLOR_B } from '../scene/palette.js';
import { fittedOrder } from '../sim/studies.js';
import { StudyPool } from '../sim/study-pool.js';
import { t, registryText } from '../i18n/index.js';
import { Drawer } from './drawer.js';

const CONVERGENCE_STEPS = 6;
const ORBIT_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];
/** Errors below this are round-off, not truncation: left out of the fit. */
const ROUND_OFF = 1e-13;

function logRange(u, min, max) {
  if (!(min > 0) || !(max > 0)) return [1e-16, 1];
  return [10 ** Math.floor(Math.log10(min)), 10 ** Math.ceil(Math.log10(max))];
}

export class StudiesDrawer extends Drawer {
  constructor(root, button, { lab, getState, onOpen }) {
    super(root, button);
    this.lab = lab;
    this.getState = getState;
    this.onOpen = onOpen;
    this.pool = null;
    this.plots = [];
    this.results = {};
  }

  open() {
    this.onOpen?.();
    return super.open();
  }

  /** A new run: results of the old one no longer apply. */
  update() {
    this.pool?.cancel();
    this.results = {};
    if (this.isOpen) this.render();
  }

  #pool() {
    this.pool ??= new StudyPool();
    return this.pool;
  }

  #tracks() {
    const st = this.getState();
    const sc = st.scenario;
    const out = [{ label: 'A', color: COLOR_A, scenario: sc, title: registryText('integrator', this.lab.integrator(sc.integrator), 'title') }];
    if (st.compare) {
      const sysOk = this.lab.integrator(st.compare)?.systems.includes(sc.system);
      if (sysOk) out.push({ label: 'B', color: COLOR_B, scenario: { ...sc, integrator: st.compare, options: {} }, title: registryText('integrator', this.lab.integrator(st.compare), 'title') });
    }
    return out;
  }

  render() {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    const st = this.getState();
    const system = this.lab.system(st.scenario.system);
    const sections = [el('p', { class: 'hint' }, t('studies.intro', { cores: this.#pool().size }))];
    sections.push(this.#loopSection(system, st));
    sections.push(this.#convergenceSection(st));
    const poincare = this.#poincareSection(system, st);
    if (poincare) sections.push(poincare);
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
        status.textContent = /cancelled/.test(e.message) ? t('studies.cancelled') : t('studies.failed', { message: e.message });
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
    if (system.model === 'rigid-body') return el('section', { class: 'study', id: 'study-loop' }, head, text, el('p', { class: 'hint' }, t('studies.loop.rigid')));
    const points = el('select', { id: 'loop-points' }, [256, 512, 1024].map((n) => el('option', { value: String(n), selected: n === 512 }, String(n))));
    const steps = el('input', { id: 'loop-steps', type: 'number', min: 10, max: 100000, step: 10, value: 1000 });
    const plotHost = el('div', { class: 'study-plot', id: 'loop-plot' });
    const table = el('table', { class: 'study-table' });
    const show = () => {
      const res = this.results.loop;
      if (!res) return;
      this.#plotSeries(plotHost, res.map((r) => ({ label: r.label, color: r.color, x: r.series.t, y: r.series.change })), {
        xLabel: t('studies.axis.time'),
        yLabel: t('studies.loop.axis'),
        logX: false,
      });
      setChildren(
        table,
        el('tr', {}, el('th', {}, ''), el('th', {}, t('studies.loop.col.points')), el('th', {}, t('studies.loop.col.change'))),
        res.map((r) => el('tr', { dataset: { track: r.label } }, el('th', {}, `${r.label} · ${r.title}`), el('td', {}, String(r.points)), el('td', { class: 'loop-change', dataset: { value: String(r.series.change.at(-1)) } }, sci(r.series.change.at(-1), 2)))),
      );
    };
    const { controls, status } = this.#runner('loop', async (progress) => {
      const tracks = this.#tracks();
      const n = Number(points.value);
      const total = Math.min(100000, Math.max(10, Math.round(Number(steps.value) || 1000)));
      const fractions = tracks.map(() => 0);
      const res = await Promise.all(
        tracks.map((tr, k) =>
          this.#pool()
            .run('loop', { scenario: tr.scenario, points: n, steps: total }, { onProgress: (f) => ((fractions[k] = f), progress(fractions.reduce((a, b) => a + b, 0) / tracks.length)) })
            .then((r) => ({ ...r, label: tr.label, color: tr.color, title: tr.title })),
        ),
      );
      this.results.loop = res;
      show();
    });
    show();
    return el(
      'section',
      { class: 'study', id: 'study-loop' },
      head,
      text,
      el('div', { class: 'study-fields' }, el('label', { for: 'loop-points' }, t('studies.loop.points'), ' ', points), el('label', { for: 'loop-steps' }, t('studies.loop.steps'), ' ', steps)),
      controls,
      status,
      plotHost,
      table,
    );
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
      this.#plotSeries(plotHost, res.map((r) => ({ label: r.label, color: r.color, x: r.hs, y: r.errors })), { xLabel: t('studies.axis.h'), yLabel: t('studies.convergence.axis'), logX: true });
      setChildren(
        table,
        el('tr', {}, el('th', {}, ''), el('th', {}, t('studies.convergence.col.order')), el('th', {}, t('studies.convergence.col.claimed'))),
        res.map((r) => el('tr', { dataset: { track: r.label } }, el('th', {}, `${r.label} · ${r.title}`), el('td', { class: 'fitted-order', dataset: { value: String(r.order) } }, Number.isFinite(r.order) ? r.order.toFixed(2) : '—'), el('td', {}, String(r.claimed)))),
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
          order: keep.length >= 3 ? fittedOrder(keep.map((x) => x[0]), keep.map((x) => x[1])) : NaN,
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

  // ---- Poincaré
  #poincareSection(system, st) {
    const sc = st.scenario;
    if (!system.definition || !Array.isArray(sc.initial?.q) || sc.initial.q.length !== 2 || (sc.params.constraints ?? []).length > 0) return null;
    const probe = this.lab.simulate(sc, { historyCapacity: this.lab.limits.historyCapacity.min });
    const E = probe.diagnostics().energy;
    probe.dispose();
    const coords = sc.params.coordinates;
    const canvas = el('canvas', { class: 'section-canvas', id: 'poincare-canvas', width: 480, height: 360, role: 'img', 'aria-label': t('studies.poincare.label', { y: coords[1] }) });
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
      await Promise.all(seeds.map(([y, py]) => addOrbit(y, py).catch(() => {}).then(() => progress(++n / seeds.length))));
    });
    const { controls } = runner;
    status = runner.status;
    canvas.addEventListener('click', (e) => {
      if (!orbits.range) return;
      const r = canvas.getBoundingClientRect();
      const [x0, x1, y0, y1] = orbits.range;
      const y = x0 + ((e.clientX - r.left) / r.width) * (x1 - x0);
      const py = y1 - ((e.clientY - r.top) / r.height) * (y1 - y0);
      addOrbit(y, py).catch((err) => (status.textContent = t('studies.failed', { message: err.message })));
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
    const w = canvas.width;
    const h = canvas.height;
    const styles = getComputedStyle(document.documentElement);
    ctx.fillStyle = styles.getPropertyValue('--surface') || '#fff';
    ctx.fillRect(0, 0, w, h);
    const all = data.orbits.flatMap((o) => o.points).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
    const pad = 0.1;
    const ext = (i) => {
      const v = all.map((p) => p[i]);
      const lo = v.length ? Math.min(...v) : -0.5;
      const hi = v.length ? Math.max(...v) : 0.5;
      const m = (hi - lo) * pad || 0.5;
      return [lo - m, hi + m];
    };
    const [x0, x1] = ext(0);
    const [y0, y1] = ext(1);
    data.range = [x0, x1, y0, y1];
    ctx.fillStyle = styles.getPropertyValue('--fg-muted') || '#555';
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillText(`${coords[1]} →   (p_${coords[1]} ↑; ${coords[0]} = 0, p_${coords[0]} > 0)`, 8, h - 8);
    for (const o of data.orbits) {
      ctx.fillStyle = o.color;
      for (const [a, b] of o.points) {
        if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
        ctx.fillRect(((a - x0) / (x1 - x0)) * w - 1, ((y1 - b) / (y1 - y0)) * h - 1, 2, 2);
      }
    }
    canvas.dataset.points = String(all.length);
  }

  /** A uPlot of one curve per track; log y (and log x when asked). */
  #plotSeries(host, curves, { xLabel, yLabel, logX }) {
    host.replaceChildren();
    const xs = [...new Set(curves.flatMap((c) => c.x))].sort((a, b) => a - b);
    const data = [xs, ...curves.map((c) => xs.map((x) => { const i = c.x.indexOf(x); return i < 0 ? null : c.y[i]; }))];
    const width = Math.max(260, host.clientWidth || this.body.clientWidth - 40 || 360);
    const u = new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: false, distr: logX ? 3 : 1 }, y: { distr: 3, range: logRange } },
        axes: [{ label: xLabel, size: 40 }, { label: yLabel, size: 70, values: (u, s) => s.map((v) => (v == null ? '' : v.toExponential(0))) }],
        series: [{}, ...curves.map((c) => ({ label: c.label, stroke: c.color, width: 2, points: { show: logX } }))],
        legend: { show: true },
      },
      data,
      host,
    );
    this.plots.push(u);
  }
}
