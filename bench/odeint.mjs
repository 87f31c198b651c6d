// Work–precision on the default double spherical pendulum to T = 1e4 s, natively (g++,
// thread CPU time): vilab's variational methods at several h against Boost.Odeint's
// runge_kutta4 at several h and controlled runge_kutta_dopri5 at several tolerances,
// both on the index-reduced Cartesian equations with projection (bench/odeint/). The
// diagram is drawn with Vega-Lite, rendered to SVG in Node (no browser).
import { existsSync, writeFileSync } from 'node:fs';
import { dsp, dspAsData, fmt, native, nativeBin, single, stats } from './common.mjs';

const T = Number(process.env.VILAB_BENCH_WP_T ?? 1e4);
const VILAB = [
  ['midpoint', [0.02, 0.01, 0.005, 0.0025]],
  ['composition4', [0.04, 0.02, 0.01]],
  ['lobatto', [0.04, 0.02, 0.01]],
  // Gauss–Legendre s = 2 is the lobatto map on chains (the same L_d): s = 3 and 4 only.
  ['gauss6', [0.1, 0.05, 0.02]],
  ['gauss8', [0.1, 0.05]],
  ['energy-momentum', [0.05, 0.02, 0.01]],
];
// sem (symplectic–energy–momentum, variable steps) applies to systems defined by data:
// the same DSP typed as data.
const SEM = [0.01];
const ODEINT = [
  ['rk4', [0.01, 0.005, 0.0025, 0.001]],
  ['dopri5', [1e-6, 1e-8, 1e-10, 1e-12]],
];

export async function odeintSection(lab, table, resultsDir) {
  const points = [];
  const notes = [];
  for (const [id, hs] of VILAB) {
    for (const h of hs) {
      const r = native('vilab_bench', ['--run', JSON.stringify({ ...dsp, integrator: id, h }), T, 1000]);
      if (!r) {
        notes.push(`vilab ${id}: not available for the DSP in this build`);
        break;
      }
      if (r.refusedAt != null) {
        notes.push(`vilab ${id} (h = ${h}): refuses its step at t = ${Number(r.refusedAt).toFixed(2)} s`);
        continue;
      }
      points.push({ method: `vilab ${id}`, family: 'vilab', param: `h = ${h}`, cpuMs: r.cpuMs, energy: r.energy, jz: r.momentum });
      console.log(
        `  vilab ${id.padEnd(16)} h = ${String(h).padEnd(8)} ${fmt(r.cpuMs).padStart(8)} ms  |ΔE/E| ${fmt(r.energy)}  |ΔJz/Jz| ${fmt(r.momentum)}`,
      );
    }
  }
  for (const h of SEM) {
    const r = native('vilab_bench', ['--run', JSON.stringify({ ...dspAsData(lab), integrator: 'sem', h }), T, 100]);
    if (!r) notes.push('vilab sem: not available for the DSP as data in this build');
    else if (r.refusedAt != null)
      notes.push(`vilab sem on the DSP as data (h = ${h}): refuses its step at t = ${Number(r.refusedAt).toFixed(2)} s (${r.steps} steps)`);
    else
      points.push({ method: 'vilab sem (as data)', family: 'vilab', param: `h = ${h}`, cpuMs: r.cpuMs, energy: r.energy, jz: r.momentum });
  }
  if (!existsSync(nativeBin('vilab_bench_odeint'))) {
    console.log('  vilab_bench_odeint was not built (Boost absent: apt-get install libboost-dev): the Odeint rows are skipped');
  } else {
    for (const [method, params] of ODEINT) {
      for (const x of params) {
        const r = native('vilab_bench_odeint', [method, x, T]);
        if (!r) continue;
        const param = method === 'rk4' ? `h = ${x}` : `tol = ${x}`;
        points.push({ method: `Odeint ${method}`, family: 'Odeint', param, cpuMs: r.cpuMs, energy: r.energy, jz: r.momentum });
        console.log(
          `  Odeint ${method.padEnd(15)} ${param.padEnd(12)} ${fmt(r.cpuMs).padStart(8)} ms  |ΔE/E| ${fmt(r.energy)}  |ΔJz/Jz| ${fmt(r.momentum)}  (${r.steps} steps)`,
        );
      }
    }
  }
  // Pareto front for energy: no other point is both cheaper and more accurate.
  const front = points.filter(
    (a) => !points.some((b) => b !== a && b.cpuMs <= a.cpuMs && b.energy <= a.energy && (b.cpuMs < a.cpuMs || b.energy < a.energy)),
  );
  const onFront = front.filter((p) => p.family === 'vilab');
  table.add('Odeint', `DSP T = ${T} s: vilab points on the energy Pareto front (of ${front.length})`, single(onFront.length), {
    goal: '≥ 1',
    met: onFront.length >= 1,
  });
  const variational = points.filter((p) => p.family === 'vilab');
  const odeint = points.filter((p) => p.family === 'Odeint');
  if (variational.length && odeint.length) {
    const tiny = (x) => Math.max(x, 1e-300);
    const orders = Math.log10(Math.min(...odeint.map((p) => p.jz)) / tiny(Math.max(...variational.map((p) => p.jz))));
    table.add('Odeint', 'J_z error: orders of magnitude, best Odeint point ÷ worst vilab point', single(orders), {
      goal: '≥ 6',
      met: orders >= 6,
    });
    // At equal cost: each vilab point against the best Odeint point costing no more
    // (or the cheapest, when every Odeint point costs more).
    const cheapest = odeint.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a));
    const equal = variational.map((v) => {
      const within = odeint.filter((o) => o.cpuMs <= v.cpuMs);
      const best = within.length ? Math.min(...within.map((o) => o.jz)) : cheapest.jz;
      return Math.log10(best / tiny(v.jz));
    });
    table.add('Odeint', 'J_z error at equal CPU time: orders of magnitude won (over vilab points)', stats(equal), {
      goal: '≥ 6',
      met: stats(equal).median >= 6,
    });
  }
  const md = [
    '| method | setting | CPU ms | max rel. energy error | max rel. J_z error | on the energy front |',
    '|---|---|---:|---:|---:|---|',
  ];
  for (const p of points)
    md.push(`| ${p.method} | ${p.param} | ${fmt(p.cpuMs)} | ${fmt(p.energy)} | ${fmt(p.jz)} | ${front.includes(p) ? 'yes' : ''} |`);
  if (notes.length) md.push('', ...notes.map((n) => `- ${n}`));
  table.detail(`Work–precision, DSP to T = ${T} s (native, thread CPU time)`, md.join('\n'));
  for (const n of notes) console.log(`  ${n}`);
  if (points.length) writeFileSync(new URL('work-precision.svg', resultsDir), await diagram(points));
}

async function diagram(points) {
  const vega = await import('vega');
  const vl = await import('vega-lite');
  const data = points.flatMap((p) => [
    { ...p, measure: 'relative energy error', error: Math.max(p.energy, 1e-17) },
    { ...p, measure: 'relative J_z error', error: Math.max(p.jz, 1e-17) },
  ]);
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values: data },
    columns: 2,
    facet: { field: 'measure', type: 'nominal', title: null, sort: ['relative energy error', 'relative J_z error'] },
    spec: {
      width: 330,
      height: 260,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'cpuMs', type: 'quantitative', scale: { type: 'log' }, title: `CPU time to T = ${T} s (ms)` },
        y: { field: 'error', type: 'quantitative', scale: { type: 'log' }, title: 'max relative error', axis: { format: '.0e' } },
        color: { field: 'method', type: 'nominal', title: null },
        order: { field: 'cpuMs', type: 'quantitative' },
        tooltip: [{ field: 'method' }, { field: 'param' }],
      },
    },
    resolve: { scale: { y: 'independent' } },
    config: { font: 'sans-serif', background: 'white', legend: { orient: 'bottom', columns: 3, labelLimit: 0 } },
  };
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  return view.toSVG();
}
