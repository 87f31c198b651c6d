// The Studies drawer's Dispersion section (for systems whose waves web/sim/dispersion.js
// knows): every integrator of the system measured in the pool, one task each; ω(k)Δt
// against kΔx beside the continuous relation, the growth per step |λ| − 1, and each
// method's largest stable Δt on this grid against the run's.
import { uPlot } from '../plots/uplot.js';
import { el, setChildren } from './dom.js';
import { num, sci } from '../sim/format.js';
import { COLOR_A, COLOR_B, COLOR_EXACT, OKABE_ITO } from '../scene/palette.js';
import { MAX_MODES, RELATIONS, courant, hasDispersion, unresolved, waveSetup } from '../sim/dispersion.js';
import { t } from '../i18n/index.js';
import { integratorTitle } from './why.js';
import { apiErrorText } from './api-error.js';

const OTHER_COLORS = [OKABE_ITO.green, OKABE_ITO.purple, OKABE_ITO.vermillion, OKABE_ITO.sky];

/** A number for the caption: 4 significant digits, scientific far from 1. */
const shown = (v) => (Number.isFinite(v) ? (Math.abs(v) >= 1e-3 && Math.abs(v) < 1e4 ? num(v, 4) : sci(v, 3)) : '—');

/** The methods measured: every integrator of the system; A's with its options, A and B in their colours. */
function methods(lab, system, st, structures) {
  let other = 0;
  return system.integrators.map((id) => {
    const entry = lab.integrator(id);
    const track = id === st.scenario.integrator ? 'A' : id === st.compare ? 'B' : '';
    const color = track === 'A' ? COLOR_A : track === 'B' ? COLOR_B : OTHER_COLORS[other++ % OTHER_COLORS.length];
    const title = integratorTitle(entry, structures);
    return {
      integrator: id,
      options: track === 'A' ? (st.scenario.options ?? {}) : {},
      color,
      label: track ? `${track} · ${title}` : title,
    };
  });
}

/** One uPlot of curves over kΔx: { label, color, y, dash? } on the shared x. */
function curvePlot(host, x, curves, { yLabel, width }) {
  host.replaceChildren(el('p', { class: 'plot-ylabel' }, yLabel));
  return new uPlot(
    {
      width,
      height: 220,
      scales: { x: { time: false }, y: { auto: true } },
      axes: [
        { label: t('dispersion.axis.k'), size: 40 },
        { size: 70, values: (u, s) => s.map((v) => (v == null ? '' : num(v, 3))) },
      ],
      series: [
        {},
        ...curves.map((c) => ({ label: c.label, stroke: c.color, width: c.dash ? 1.5 : 2, dash: c.dash, points: { show: false } })),
      ],
      legend: { show: true, live: false },
    },
    [x, ...curves.map((c) => c.y)],
    host,
  );
}

/** Which known relation a method's measured ω(k) follows, and how closely. */
function followsCell(r) {
  const f = r.follows;
  return el(
    'td',
    { class: 'dispersion-follows', dataset: { relation: f?.relation ?? 'none', difference: String(f?.difference ?? '') } },
    f
      ? t(`dispersion.relation.${f.relation}`, { difference: sci(Math.max(f.difference, Number.MIN_VALUE), 1) })
      : t('dispersion.relation.none'),
  );
}

/** A method's measured limit, the limit its relation's formula gives, ν there and the run's Δt against it. */
function limitCells(r, setup, h) {
  const limit = r.limit.limit;
  if (limit === null)
    return el(
      'td',
      { class: 'dispersion-limit', colspan: 4, dataset: { value: 'none' } },
      t('dispersion.nolimit', { max: shown(r.limit.searched) }),
    );
  const formula = r.follows?.limit;
  return [
    el('td', { class: 'dispersion-limit', dataset: { value: String(limit) } }, shown(limit)),
    el('td', { class: 'dispersion-formula', dataset: { value: String(formula ?? '') } }, formula ? shown(formula) : '—'),
    el('td', {}, shown(courant(setup, limit))),
    el('td', {}, t(h <= limit ? 'dispersion.stable' : 'dispersion.unstable')),
  ];
}

/** The table: each method's relation, its largest stable Δt on the grid (measured and by formula), ν there, the run's Δt against it. */
function limitTable(results, setup, h) {
  const row = (r) =>
    el(
      'tr',
      { dataset: { integrator: r.integrator } },
      el('th', {}, r.label),
      r.left
        ? el(
            'td',
            { class: 'dispersion-limit', colspan: 5 },
            t(`dispersion.left.${r.left.reason}`, { value: sci(r.left.value ?? Number.NaN, 1), message: r.left.message ?? '' }),
          )
        : [followsCell(r), limitCells(r, setup, h)],
    );
  const heads = ['follows', 'limit', 'formula', 'courant', 'run'].map((k) => el('th', {}, t(`dispersion.col.${k}`)));
  return el('table', { class: 'study-table' }, el('tr', {}, el('th', {}, ''), heads), results.map(row));
}

/** The caption: the linearization, the grid, the amplitude and the run's Δt and ν, all read from the measurement. */
function caption(results, setup, h) {
  const a = results.find((r) => !r.left) ?? results[0];
  const kept = results.filter((r) => !r.left);
  const limits = kept.map((r) =>
    r.limit.limit === null
      ? t('dispersion.caption.none', { method: r.label })
      : t('dispersion.caption.limit', { method: r.label, dt: shown(r.limit.limit) }),
  );
  return el(
    'figcaption',
    { class: 'dispersion-caption', dataset: { h: String(h), courant: String(courant(setup, h)), dx: String(setup.dx) } },
    el(
      'p',
      {},
      t('dispersion.caption.base', {
        u0: num(setup.vacuum, 3),
        curvature: shown(setup.curvature),
        n: setup.points,
        dx: shown(setup.dx),
        modes: a.modes.length,
      }),
      ' ',
      t(setup.linear ? 'dispersion.caption.amplitude.linear' : 'dispersion.caption.amplitude.small', {
        amplitude: sci(a.amplitude, 1),
        change: sci(Math.max(Number.MIN_VALUE, ...kept.map((r) => r.amplitudeChange)), 1),
      }),
    ),
    kept
      .filter((r) => unresolved(r) > 0)
      .map((r) =>
        el(
          'p',
          { class: 'dispersion-unresolved' },
          t('dispersion.caption.unresolved', { method: r.label, n: unresolved(r), total: r.modes.length }),
        ),
      ),
    el(
      'p',
      { class: 'dispersion-limits' },
      limits.join('; '),
      '. ',
      t('dispersion.caption.run', { h: shown(h), nu: shown(courant(setup, h)) }),
    ),
  );
}

/** The figure of a finished study: the two plots, the table and the caption. */
function showResults(host, results, { setup, h, width, plots }) {
  const kept = results.filter((r) => !r.left);
  const x = kept[0]?.kdx ?? [];
  const exact = { label: t('dispersion.exact'), color: COLOR_EXACT, dash: [4, 4], y: x.map((k) => RELATIONS.continuous(setup, k, h)) };
  const omega = el('div', { class: 'study-plot', id: 'dispersion-plot', dataset: { curves: String(kept.length + 1) } });
  const growth = el('div', { class: 'study-plot', id: 'dispersion-growth', dataset: { curves: String(kept.length) } });
  setChildren(host, omega, growth, limitTable(results, setup, h), caption(results, setup, h));
  plots.push(
    curvePlot(omega, x, [...kept.map((r) => ({ label: r.label, color: r.color, y: r.omegaDt })), exact], {
      yLabel: t('dispersion.axis.omega'),
      width,
    }),
    curvePlot(
      growth,
      x,
      kept.map((r) => ({ label: r.label, color: r.color, y: r.growth.map((g) => (g === null ? null : g - 1)) })),
      { yLabel: t('dispersion.axis.growth'), width },
    ),
  );
}

/**
 * The section, or null where the system has no waves to measure. ctx: { lab, system, st, structures (the run's),
 * runner(key, start) (the drawer's Run/Cancel/progress), pool() (the StudyPool), results
 * (the drawer's, kept until a new run), plots (to destroy on the next render), width }.
 */
export function dispersionSection({ lab, system, st, structures = null, runner, pool, results, plots, width }) {
  if (!hasDispersion(system)) return null;
  const head = el('h3', {}, t('dispersion.title'));
  const text = el('p', {}, t('dispersion.text'));
  let setup;
  try {
    setup = waveSetup(lab, st.scenario);
  } catch (e) {
    return el(
      'section',
      { class: 'study', id: 'study-dispersion' },
      head,
      text,
      el('p', { class: 'hint' }, t('dispersion.none', { message: apiErrorText(e) })),
    );
  }
  const top = Math.floor(setup.points / 2);
  const modes = el('input', { id: 'dispersion-modes', type: 'number', min: 2, max: MAX_MODES, step: 1, value: Math.min(128, top) });
  const figure = el('div', { class: 'dispersion-figure' });
  const h = st.scenario.h;
  const list = methods(lab, system, st, structures);
  const show = () => results.dispersion && showResults(figure, results.dispersion, { setup, h, width: width(), plots });
  const { controls, status } = runner('dispersion', async (progress) => {
    const n = Number(modes.value);
    if (!Number.isInteger(n) || n < 2 || n > MAX_MODES) throw new Error(t('dispersion.modes.bad', { max: MAX_MODES, got: modes.value }));
    const fractions = list.map(() => 0);
    const measured = await Promise.all(
      list.map((m, k) =>
        pool()
          .run(
            'dispersion',
            { scenario: st.scenario, integrator: m.integrator, options: m.options, modes: n },
            { onProgress: (f) => ((fractions[k] = f), progress(fractions.reduce((a, b) => a + b, 0) / list.length)) },
          )
          .then((r) => ({ ...r, ...m })),
      ),
    );
    results.dispersion = measured; // after the await: a new run may have replaced the results meanwhile
    show();
  });
  show();
  return el(
    'section',
    { class: 'study', id: 'study-dispersion' },
    head,
    text,
    el('div', { class: 'study-fields' }, el('label', { for: 'dispersion-modes' }, t('dispersion.modes', { top }), ' ', modes)),
    controls,
    status,
    figure,
  );
}
