// Runs a preset as the page does (A and B in lockstep, a history sample every step) and
// feeds its claims (web/sim/claims.js). Not a test file: tests/wasm/preset-claims.test.mjs
// and the measurements of the captions use it.
import { readFileSync, readdirSync } from 'node:fs';
import { ClaimTracker } from '../../web/sim/claims.js';
import { presetFromScene } from '../../web/sim/preset-data.js';

const root = new URL('../../scenes/', import.meta.url);

/** Every shipped preset, as the page lists them (web/sim/presets.js), in file order. */
export function shippedPresets() {
  const read = (name) => JSON.parse(readFileSync(new URL(name, root), 'utf8'));
  const out = [...read('presets.json'), ...read('rigid_body_presets.json')];
  for (const f of readdirSync(new URL('lagrangian/', root)).sort()) {
    out.push(presetFromScene(`scenes/lagrangian/${f}`, read(`lagrangian/${f}`)));
  }
  return out;
}

// The page's breakdown rule as the plots apply it to each history sample (Plots#fill in
// web/plots/plots.js): a non-finite value, a relative energy error beyond 1 (where the
// energy is conserved and E₀ is not tiny), a constraint residual beyond 1 % of the scale.
const BREAK_ENERGY = 1;
const BREAK_CONSTRAINT = 0.01;

function breakdownRule(sim) {
  const d = sim.describe();
  const energyConserved = d.quantities.some((q) => q.key === 'energy' && q.conserved);
  const E0 = sim.history.read(0).energy[0];
  const relative = energyConserved && Math.abs(E0) > 1e-12;
  return (read, i) => {
    for (const name of Object.keys(read.columns)) if (name !== 'dt' && !Number.isFinite(read.columns[name][i])) return 'non-finite';
    if (relative && Math.abs((read.energy[i] - E0) / Math.abs(E0)) > BREAK_ENERGY) return 'energy';
    if (d.constrained && Math.abs(read.constraint[i]) / (d.constraintScale || 1) > BREAK_CONSTRAINT) return 'constraint';
    return null;
  };
}

/** One track: its simulation, breakdown rule and where it stopped. */
function track(lab, scenario) {
  const sim = lab.simulate(scenario, { historyStride: 1, historyCapacity: 32768 });
  return { sim, broken: breakdownRule(sim), read: 0, stop: null, lastGood: 0 };
}

/** The unread samples of a track, cut at its breakdown (the sample before it is the stop). */
function readTrack(tr) {
  if (tr.stop) return null;
  const r = tr.sim.history.read(tr.read);
  tr.read = r.start + r.count;
  for (let i = 0; i < r.count; i++) {
    const why = tr.broken(r, i);
    if (why) {
      tr.stop = { t: tr.lastGood, reason: why };
      return { ...r, count: i };
    }
    tr.lastGood = r.t[i];
  }
  return r;
}

/** B's scenario: A's with the other integrator and its default options (the page's compareScenario). */
function compareOf(lab, scenario, integrator) {
  const { options: _drop, ...rest } = lab.normalize(scenario);
  return lab.normalize({ ...rest, integrator });
}

/**
 * Runs `preset` to time `until` (s) and returns { tracker, results, A, B } where A and B
 * are { stop: { t, reason } | null, sim } (disposed). A refused step stops its track at
 * the time of the refused step, as the page reports it (failureTime).
 */
export function runPreset(lab, preset, until) {
  const tracker = new ClaimTracker(preset.claims ?? []);
  const A = track(lab, preset.scenario);
  const B = preset.compare ? track(lab, compareOf(lab, preset.scenario, preset.compare)) : null;
  const h = A.sim.scenario().h;
  const total = Math.round(until / h);
  const chunk = 4096;
  try {
    for (let done = 0; done < total && !A.stop; ) {
      const n = Math.min(chunk, total - done);
      for (const tr of [A, B]) {
        if (!tr || tr.stop) continue;
        try {
          tr.sim.advance(n);
        } catch (e) {
          if (e.step === undefined) throw e;
          tr.refused = { t: e.step * h, reason: e.code };
        }
      }
      done += n;
      tracker.ingest(readTrack(A), B ? readTrack(B) : null);
      for (const [label, tr] of [
        ['A', A],
        ['B', B],
      ]) {
        if (!tr) continue;
        if (!tr.stop && tr.refused) tr.stop = tr.refused;
        if (tr.stop) tracker.stop(label, tr.stop.t);
      }
    }
    return { tracker, results: tracker.results(), A: { stop: A.stop, time: A.sim.time }, B: B && { stop: B.stop, time: B.sim.time } };
  } finally {
    A.sim.dispose();
    B?.sim.dispose();
  }
}
