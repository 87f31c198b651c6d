// Exports of a run: an exact CSV and a picture of the whole view.
//
// The CSV is not the plots' envelope: the run is simulated again from its scenario
// (deterministic, so the same bits) up to the current step, and every row holds the
// exact state in natural variables and every diagnostic at that step. A run that
// stopped contributes rows up to its last step; nothing is clipped or invented.
// t is printed as step × h to 12 significant digits (no 4.5600000000000005).

const MAX_ROWS = 20000;

const fmtT = (t) => String(Number(t.toPrecision(12)));

/** Column → value of a diagnostics object, by the history's column names. */
function columnValues(d, columns) {
  const out = { energy: d.energy, constraint: d.constraint, iterations: d.iterations };
  const momentumCols = columns.filter((c) => c === 'momentum' || c.startsWith('momentum.'));
  momentumCols.forEach((c, i) => (out[c] = d.momentum[i]));
  if (d.bodyMomentum) ['x', 'y', 'z'].forEach((a, i) => (out[`bodyMomentum.${a}`] = d.bodyMomentum[i]));
  for (const [name, v] of Object.entries(d.conserved ?? {})) out[`conserved.${name}`] = v;
  return out;
}

function quantityOf(values, q) {
  const xs = q.columns.map((c) => values[c]);
  return q.combine === 'norm' ? Math.hypot(...xs) : xs[0];
}

const csvName = (q) =>
  q.key === 'energy'
    ? 'energy'
    : q.key === 'momentum'
      ? 'J'
      : q.key.startsWith('momentum.')
        ? `J_${q.key.slice(9)}`
        : q.key === 'bodyMomentum.z'
          ? 'Pi3'
          : q.key;
/** A unit as a column-name suffix: 'kg·m²/s' → '_kg_m2_per_s'. */
const unitTag = (u) =>
  u ? `_${u.replace(/·/g, '_').replace(/\//g, '_per_').replace(/²/g, '2').replace(/°/g, 'deg').replace(/[^\w]/g, '')}` : '';

/** One track's columns and a row writer. */
function trackColumns(sim, suffix) {
  const d0 = sim.describe();
  const cols = sim.history.columns;
  const base = columnValues(sim.diagnostics(), cols);
  const header = [];
  for (const v of d0.variables) header.push(`${v.key}${unitTag(v.unit)}_${suffix}`);
  if (d0.energyParts) header.push(`kinetic_J_${suffix}`, `potential_J_${suffix}`);
  for (const q of d0.quantities) {
    header.push(`${csvName(q)}${unitTag(q.unit)}_${suffix}`);
    if (q.conserved && q.key !== 'energy') {
      const b = quantityOf(base, q);
      q.relative = Math.abs(b) > 1e-12;
      q.base = b;
      header.push(`${csvName(q)}_drift_${q.relative ? 'relative' : 'absolute'}_${suffix}`);
    } else if (q.key === 'energy' && q.conserved) {
      q.base = quantityOf(base, q);
      q.relative = Math.abs(q.base) > 1e-12;
      header.push(`energy_error_${q.relative ? 'relative' : 'absolute'}_${suffix}`);
    }
  }
  if (d0.constrained) header.push(`constraint_residual_${suffix}`);
  header.push(`newton_iterations_${suffix}`);
  const row = () => {
    const d = sim.diagnostics();
    const values = columnValues(d, cols);
    const out = Array.from(sim.variables(), String);
    if (d0.energyParts) out.push(String(d.kinetic), String(d.potential));
    for (const q of d0.quantities) {
      const x = quantityOf(values, q);
      out.push(String(x));
      if (q.conserved) out.push(String(q.relative ? (x - q.base) / Math.abs(q.base) : x - q.base));
    }
    if (d0.constrained) out.push(String(d.constraint));
    out.push(String(d.iterations));
    return out;
  };
  return { header, row, width: header.length };
}

/**
 * The exact CSV of a run: tracks = [{ label, scenario, step, simulate?, title? }] (A, and
 * B); each is simulated again from t = 0 to its step (by simulate() for a B from outside
 * the registry, e.g. MuJoCo, named by its title). Returns the text.
 */
export function exactCSV(lab, tracks, { hash = null } = {}) {
  const last = Math.max(...tracks.map((t) => t.step));
  const stride = Math.max(1, Math.ceil(last / MAX_ROWS));
  const sims = tracks.map((t) => t.simulate?.() ?? lab.simulate(t.scenario, { historyStride: 1000000, historyCapacity: 1 }));
  try {
    const cols = sims.map((sim, i) => trackColumns(sim, tracks[i].label));
    const lines = [
      `# vilab: every ${stride === 1 ? 'step' : `${stride} steps`}, simulated again from t = 0 (the same bits as the page's run)`,
      ...tracks.map((t) => `# ${t.label}: ${t.title ? `${t.title} on ` : ''}${JSON.stringify(t.scenario)}`),
      `# ${tracks.map((t) => `${t.label} ran to step ${t.step}`).join('; ')}${hash ? `; A's fingerprint there: ${hash}` : ''}`,
      ['t_s', ...cols.flatMap((c) => c.header)].join(','),
    ];
    const h = tracks[0].scenario.h;
    const variableStep = sims[0].history.columns.includes('dt');
    for (let k = 0; k <= last; k += stride) {
      const t = variableStep ? sims[0].time : k * h;
      const row = [fmtT(t)];
      sims.forEach((sim, i) => {
        if (sim.step === k && k <= tracks[i].step) row.push(...cols[i].row());
        else row.push(...Array(cols[i].width).fill(''));
      });
      lines.push(row.join(','));
      const next = Math.min(stride, last - k);
      if (next <= 0) break;
      sims.forEach((sim, i) => {
        const n = Math.min(next, tracks[i].step - sim.step);
        if (n > 0 && sim.step === k) {
          try {
            sim.advance(n);
          } catch {
            /* a refused step: this track's rows end here */
          }
        }
      });
    }
    return lines.join('\n') + '\n';
  } finally {
    sims.forEach((s) => s.dispose());
  }
}

/**
 * A PNG (data URL) of the whole view: a header line (title, time, step, fingerprint),
 * the 3D canvas, the legend, and every plot card beside it with its title and values.
 */
export function wholeViewPNG({ view, legend, header, plotCards }) {
  view.render(true);
  const src = view.canvas;
  const dpr = src.width / Math.max(1, src.clientWidth || src.width);
  const pad = Math.round(10 * dpr);
  const line = Math.round(18 * dpr);
  const cards = plotCards.filter((c) => c.canvas && c.canvas.width > 0);
  const plotW = cards.length ? Math.max(...cards.map((c) => c.canvas.width)) : 0;
  const plotsH = cards.reduce((s, c) => s + c.canvas.height + 2 * line + pad, 0);
  const headH = pad + line * (1 + legend.length) + pad;
  const W = src.width + (plotW ? plotW + 3 * pad : 2 * pad);
  const H = headH + Math.max(src.height, plotsH) + pad;
  const out = document.createElement('canvas');
  out.width = W;
  out.height = H;
  const ctx = out.getContext('2d');
  const bg = getComputedStyle(document.body).backgroundColor || '#fff';
  const fg = getComputedStyle(document.body).color || '#000';
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = fg;
  ctx.font = `600 ${Math.round(14 * dpr)}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  ctx.fillText(header, pad, pad);
  ctx.font = `${Math.round(12 * dpr)}px system-ui, sans-serif`;
  legend.forEach((text, i) => ctx.fillText(text, pad, pad + line * (i + 1)));
  ctx.drawImage(src, pad, headH);
  let y = headH;
  const x = src.width + 2 * pad;
  for (const c of cards) {
    ctx.fillStyle = fg;
    ctx.font = `600 ${Math.round(12 * dpr)}px system-ui, sans-serif`;
    ctx.fillText(c.title, x, y);
    ctx.font = `${Math.round(11 * dpr)}px ui-monospace, monospace`;
    ctx.fillText(c.values, x, y + line);
    ctx.drawImage(c.canvas, x, y + 2 * line);
    y += c.canvas.height + 2 * line + pad;
  }
  return out.toDataURL('image/png');
}
