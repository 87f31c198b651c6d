// Presets as data (plain JS: the page's preset list, web/sim/presets.js, and the Node
// tests read them the same way): a scenes/lagrangian/<id>.json file as a preset, which
// preset a document is, and what a preset's lesson changes in the run's description.
import { deepEqual } from '../state/store.js';

/**
 * A scenes/lagrangian file → a preset, or null when it is not a scenario with an about
 * block. The file is a scenario plus `about` { title, lesson (the caption), compare?,
 * view (the lesson's set-up), claims? (what the caption claims: web/sim/claims.js) };
 * the API never sees `about`.
 */
export function presetFromScene(path, file) {
  if (!file || typeof file !== 'object' || Array.isArray(file)) return null;
  const { about, ...scenario } = file;
  if (!about || typeof about !== 'object' || typeof about.title !== 'string' || typeof scenario.system !== 'string') return null;
  const id = path.replace(/^.*\//, '').replace(/\.json$/, '');
  return {
    id,
    title: about.title,
    explanation: typeof about.lesson === 'string' ? about.lesson : '',
    scenario,
    ...(typeof about.compare === 'string' ? { compare: about.compare } : {}),
    ...(about.view && typeof about.view === 'object' ? { lesson: about.view } : {}),
    ...(Array.isArray(about.claims) ? { claims: about.claims } : {}),
  };
}

const normalized = new WeakMap(); // preset → its normalized scenario (or null)

/** The preset whose scenario and comparison are the document's, or null. */
export function presetMatching(lab, presets, { scenario, compare }) {
  for (const p of presets) {
    if (p.scenario?.system !== scenario.system || (p.compare ?? null) !== (compare ?? null)) continue;
    if (!normalized.has(p)) {
      let n = null;
      try {
        n = lab.normalize(p.scenario);
      } catch {
        n = null; // a preset for a system this build lacks
      }
      normalized.set(p, n);
    }
    if (deepEqual(normalized.get(p), scenario)) return p;
  }
  return null;
}

export const NOT_CONSERVED_WHY = 'Declared by the definition, but this motion does not conserve it.';

/**
 * The run's description as the preset's lesson shows it: quantities a definition declares
 * but this motion does not conserve (lesson.notConserved: FPUT's mode energies, the height
 * of Kapitza's bob) are plotted as values, not as drifts of conserved quantities.
 */
export function describeForLesson(description, lesson) {
  const names = Array.isArray(lesson?.notConserved) ? lesson.notConserved : [];
  if (!names.length) return description;
  const quantities = description.quantities.map((q) => (names.includes(q.key) ? { ...q, conserved: false, why: NOT_CONSERVED_WHY } : q));
  return { ...description, quantities };
}
