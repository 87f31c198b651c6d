// Presets: scenes/presets.json (pendulums) and, when it exists,
// scenes/rigid_body_presets.json; both are arrays of
// { id, title, explanation, scenario, compare?, lesson?, claims? } shared with tests and benchmarks.
// lesson: what the lesson needs on screen { plot: the card its caption names, speed, window,
// energy: 'signed'|'envelope', cards?, camera?, jumpTo?, notConserved? } — applied with the
// preset, so it reads right from the first second; claims: how the caption's numbers are
// measured from the run (web/sim/claims.js).
// Then scenes/lagrangian/<id>.json, scenes/mechanisms/<id>.json and scenes/fields/<id>.json: each a complete scenario of a
// system defined by data plus an `about` block, made a preset by presetFromScene (web/sim/preset-data.js).
// Presets whose system or integrators the registry lacks are left out (both builds have
// the same registry: those the lean build leaves to the full one stay, and choosing one
// loads the full build).

import { presetFromScene } from './preset-data.js';

export { presetFromScene };

/**
 * The presets, in file order, with only cheap checks (system and integrators known): before the
 * page's first run when its document needs them, where normalizing every preset cost
 * 26–89 ms. Each is validated in full when chosen or matched (Controls); the shipped ones
 * are tested to run (tests/wasm/lean.test.mjs, tests/wasm/lagrangian-scenes.test.mjs).
 * The files are a chunk of their own (web/sim/preset-files.js), fetched here.
 */
export async function loadPresets(lab) {
  const { presetCandidates } = await import('./preset-files.js');
  const runs = (integrator, system) => integrator === undefined || lab.integrator(integrator)?.systems.includes(system);
  const out = [];
  const seen = new Set();
  for (const p of presetCandidates(presetFromScene)) {
    if (!p || typeof p.id !== 'string' || seen.has(p.id) || !p.scenario || typeof p.scenario !== 'object') continue;
    const { system, integrator } = p.scenario;
    if (!lab.system(system) || !runs(integrator, system) || (p.compare !== undefined && !runs(p.compare, system))) continue;
    seen.add(p.id);
    out.push(p);
  }
  return out;
}
