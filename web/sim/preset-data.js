// Presets as data (plain JS: the page's preset list, web/sim/presets.js, and the Node
// tests read them the same way): a scenes/lagrangian/<id>.json file as a preset, which
// preset a document is, and what a preset's lesson changes in the run's description.
import { deepEqual } from '../state/store.js';
import { readLessonView } from './lesson-view.js';

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
  const jacobi = jacobiQuantity(description, lesson);
  if (!names.length && !jacobi) return description;
  const quantities = description.quantities.map((q) => (names.includes(q.key) ? { ...q, conserved: false, why: NOT_CONSERVED_WHY } : q));
  if (jacobi) quantities.push(jacobi);
  return { ...description, quantities };
}

export const JACOBI_WHY = 'The potential turns with the frame: in it, the energy H − n·L is conserved (the Jacobi integral).';

/**
 * The Jacobi integral of a lesson's rotating frame (lesson.frame: axis a, rate n), from the
 * recorded energy and momentum: H − n (a·L), conserved when the potential turns rigidly with
 * the frame (Arnold §21; the satellite's libration, Hughes). Null without a frame or the columns.
 */
export function jacobiQuantity(description, lesson) {
  const frame = lesson?.frame === undefined ? null : readLessonView({ frame: lesson.frame }).view.frame;
  if (!frame) return null;
  const byKey = new Map(description.quantities.map((q) => [q.key, q]));
  const energy = byKey.get('energy');
  if (!energy || energy.columns.length !== 1) return null;
  const columns = [...energy.columns];
  const weights = [1];
  for (const [i, c] of ['x', 'y', 'z'].entries()) {
    if (frame.axis[i] === 0) continue;
    const L = byKey.get(`momentum.${c}`);
    if (!L || L.columns.length !== 1) return null; // no such momentum recorded: no Jacobi integral
    columns.push(L.columns[0]);
    weights.push(-frame.rate * frame.axis[i]);
  }
  const one = frame.axis.filter((a) => a !== 0).length === 1;
  const symbol = one ? `H − n L_${['x', 'y', 'z'][frame.axis.findIndex((a) => a !== 0)]}` : 'H − n a·L';
  return {
    key: 'conserved.jacobi',
    symbol,
    title: 'Jacobi integral',
    unit: energy.unit,
    columns,
    combine: 'linear',
    weights,
    conserved: true,
    why: JACOBI_WHY,
  };
}
