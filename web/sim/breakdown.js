// When a run has left the physics: a per-step criterion on the recorded history, so where
// a run stops depends only on its scenario and the step, never on how the steps were
// batched (a frame's budget, a link's `at`, a test's chunks). A sample breaks down when
// any recorded quantity, the constraint residual or the iteration count is not finite,
// when the energy error |E − E₀|/|E₀| exceeds 1 (where the exact flow conserves the
// energy and E₀ is not zero), or when the constraint residual exceeds 1 % of the shortest
// link (describe().constraintScale). The page (web/sim/runner.js, web/plots/plots.js) and
// the Node tests call the same functions.

export const BREAK_ENERGY = 1; // relative energy error
export const BREAK_CONSTRAINT = 0.01; // residual, as a fraction of describe().constraintScale
const TINY_ENERGY = 1e-12; // below this |E₀| the energy error is absolute and never ends a run

/** Columns' values combined as a quantity says: their norm, a weighted sum (`linear`, with `weights`), or the first. */
function combined(q, values) {
  if (q.combine === 'norm') return Math.hypot(...values);
  if (q.combine !== 'linear') return values[0];
  let sum = 0;
  for (let k = 0; k < values.length; k++) sum += q.weights[k] * values[k];
  return sum;
}

/** A quantity's value from a history read at index i (its columns, their norm or their weighted sum). */
export function quantityValue(read, q, i) {
  const cols = q.columns.map((c) => read?.columns?.[c]?.[i]);
  if (cols.some((v) => v === undefined)) return NaN;
  return combined(q, cols);
}

/**
 * What a run is checked against: description = sim.describe(), first = a history read
 * holding sample 0 (the energy reference E₀). Plain data.
 */
export function breakdownCriterion(description, first) {
  const energyQ = description.quantities.find((q) => q.key === 'energy' && q.conserved) ?? null;
  const E0 = energyQ && first?.count ? quantityValue(first, energyQ, 0) : NaN;
  return {
    quantities: description.quantities,
    energy: energyQ && Number.isFinite(E0) && Math.abs(E0) > TINY_ENERGY ? { quantity: energyQ, E0 } : null,
    constraintScale: description.constrained ? description.constraintScale || 1 : null,
  };
}

/** The columns a quantity reads, from one history read (undefined where the read lacks one). */
function columnsOf(read, q) {
  return q.columns.map((c) => read?.columns?.[c]);
}

/** A quantity's value at sample i from its columns (quantityValue without allocating). */
function valueAt(q, cols, i) {
  if (cols.some((c) => c === undefined)) return NaN;
  if (q.combine === 'linear')
    return combined(
      q,
      cols.map((c) => c[i]),
    );
  if (q.combine !== 'norm') return cols[0][i];
  if (cols.length === 2) return Math.hypot(cols[0][i], cols[1][i]);
  if (cols.length === 3) return Math.hypot(cols[0][i], cols[1][i], cols[2][i]);
  return Math.hypot(...cols.map((c) => c[i]));
}

/** The criterion against one history read: (i) → { kind, amount } or null for its sample i. */
function checkerOf(criterion, read) {
  const quantities = criterion.quantities.map((q) => ({ q, cols: columnsOf(read, q) }));
  const energy = criterion.energy ? { ...criterion.energy, cols: columnsOf(read, criterion.energy.quantity) } : null;
  const { constraint, iterations } = read;
  const scale = criterion.constraintScale;
  return (i) => {
    for (const { q, cols } of quantities) if (!Number.isFinite(valueAt(q, cols, i))) return { kind: 'non-finite', amount: NaN };
    if (!Number.isFinite(constraint[i]) || !Number.isFinite(iterations[i])) return { kind: 'non-finite', amount: NaN };
    if (energy) {
      const e = (valueAt(energy.quantity, energy.cols, i) - energy.E0) / Math.abs(energy.E0);
      if (Math.abs(e) > BREAK_ENERGY) return { kind: 'energy', amount: e };
    }
    if (scale != null) {
      const g = Math.abs(constraint[i]) / scale;
      if (g > BREAK_CONSTRAINT) return { kind: 'constraint', amount: g };
    }
    return null;
  };
}

/** Sample i of a history read against the criterion: { kind: 'non-finite'|'energy'|'constraint', amount } or null. */
export function sampleBreakdown(criterion, read, i) {
  return checkerOf(criterion, read)(i);
}

/**
 * The first sample of a history read (samples 1… only: sample 0 is the reference) that
 * breaks down: { sample, step, kind, amount, lastGood: { step, t } } (the sample before it,
 * where the run rests: its time from this read, or prevT when it was the previous read's
 * last), or null. stride: the history's stride (steps per sample).
 */
export function findBreakdown(criterion, read, { stride = 1, prevT = Number.NaN } = {}) {
  if (!read) return null;
  const check = checkerOf(criterion, read);
  for (let i = 0; i < read.count; i++) {
    const sample = read.start + i;
    if (sample === 0) continue;
    const problem = check(i);
    if (!problem) continue;
    const t = i > 0 ? read.t[i - 1] : prevT;
    return { sample, step: sample * stride, ...problem, lastGood: { step: (sample - 1) * stride, t } };
  }
  return null;
}
