// Runs a preset as the page does (A and B in lockstep, a history sample every step) and
// feeds its claims (web/sim/claims.js). Not a test file: tests/wasm/preset-claims.test.mjs
// and the measurements of the captions use it.
import { readFileSync, readdirSync } from 'node:fs';
import { breakdownCriterion, sampleBreakdown } from '../../web/sim/breakdown.js';
import { ClaimTracker } from '../../web/sim/claims.js';
import { presetFromScene } from '../../web/sim/preset-data.js';

const root = new URL('../../scenes/', import.meta.url);

/** Every shipped preset, as the page lists them (web/sim/presets.js), in file order. */
export function shippedPresets() {
  const read = (name) => JSON.parse(readFileSync(new URL(name, root), 'utf8'));
  const out = [...read('presets.json'), ...read('rigid_body_presets.json')];
  for (const dir of ['fields', 'lagrangian'])
    for (const f of readdirSync(new URL(`${dir}/`, root)).sort()) out.push(presetFromScene(`scenes/${dir}/${f}`, read(`${dir}/${f}`)));
  return out;
}

/** One track: its simulation, breakdown rule and where it stopped. */
function track(lab, scenario) {
  const sim = lab.simulate(scenario, { historyStride: 1, historyCapacity: 32768 });
  const criterion = breakdownCriterion(sim.describe(), sim.history.read(0));
  // the page's per-step rule (web/sim/breakdown.js), so a caption's stop is the page's
  return { sim, broken: (r, i) => sampleBreakdown(criterion, r, i)?.kind ?? null, read: 0, stop: null, lastGood: 0 };
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
