// The page's one store, in two parts (as tldraw's store keeps session records apart
// from the document):
//
//   document = what a link carries (store.get / set / subscribe):
//     scenario,            // the normalized scenario of integrator A (lab.normalize output)
//     compare,             // integrator id of B, or null
//     speed,               // simulated seconds per wall-clock second
//     stepsPerFrame,       // 0 = real time × speed; N > 0 = exactly N steps per frame
//     window,              // plot window in seconds, 0 = whole run
//
//   session = what this tab alone knows (store.session.get / set / subscribe; SESSION_DEFAULTS)
//
// The URL holds only the document's differences from the defaults (see web/state/url.js).
// Widgets that only remember themselves (follow, open drawers, the settings sheet) keep
// their own state.

export const DEFAULT_SYSTEM = 'double-spherical-pendulum';
// The baseline the page invites a structure-preserving integrator to be compared
// with: the method most simulators use. Any other choice follows from the registry.
export const PREFERRED_BASELINE = 'rk4';
export const UI_DEFAULTS = Object.freeze({ compare: null, speed: 1, stepsPerFrame: 0, window: 0 });
export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100];
export const STEPS_PER_FRAME = [0, 1, 10, 100, 1000, 10000];
export const WINDOWS = [0, 5, 20, 60];

/** The default state: the registry's defaults for the default system. */
export function defaultState(lab) {
  const system = lab.system(DEFAULT_SYSTEM) ? DEFAULT_SYSTEM : lab.systems[0].id;
  return { scenario: lab.normalize({ system }), ...UI_DEFAULTS };
}

/**
 * The session part's fields and their values when a page opens. `frames` is the frame
 * loop's statistics record: the loop writes it in place every frame, without telling
 * subscribers (readers ask it when they need it).
 */
export const SESSION_DEFAULTS = Object.freeze({
  playing: false, // the transport: the run advances with the frames
  linkCheck: null, // { step, hash }: a link's fingerprint, verified when A reaches that step
  linkVerdict: null, // { ok, step, hash }: the verified fingerprint as shown, or null (hidden)
  exact: null, // the exact solution drawn as a ghost beside A (lab.exactRigidBody), or null
  exactShown: true, // the "Exact ghost" toggle
  frameShown: true, // the "Orbit frame" toggle: a lesson's rotating frame, the bodies drawn in it
  deferred: null, // Promise<Error|null> of a change that waits for the full build, or null
  built: { view: 'linkage', exact: false, frame: false, structures: null }, // the run last built: its scene, an exact ghost, its claim kinds
  frames: null, // the frame loop's statistics (count, first frame, ms per frame and phase)
  lesson: null, // the preset or lesson last chosen: { system, plot, cards } (page/lesson-layout.js), or null
  pinnedPlot: null, // the plot card the teacher pinned as the large one, or null (kept across presets)
});

/** One part of the store: a value replaced by shallow-merged patches; listeners get (value, previous, meta). */
function storePart(initial) {
  let value = initial;
  const listeners = new Set();
  return {
    get: () => value,
    set(patch, meta = {}) {
      const previous = value;
      value = { ...value, ...patch };
      for (const fn of listeners) fn(value, previous, meta);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** The store: the document part (get, set, subscribe) and the session part (store.session). */
export function createStore(initialDocument, initialSession = {}) {
  const doc = storePart(initialDocument);
  return { ...doc, session: storePart({ ...SESSION_DEFAULTS, ...initialSession }) };
}

export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

export const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));

/** B's scenario: A's with integrator B and B's default options. */
export function compareScenario(lab, scenario, integrator) {
  const { options: _drop, ...rest } = scenario;
  return lab.normalize({ ...rest, integrator });
}

/**
 * The integrator the page suggests comparing A with (the invitation and the C key), or
 * null: for a symplectic or energy-conserving A, PREFERRED_BASELINE (else the
 * highest-order non-symplectic baseline of the system); for a baseline A, the system's
 * default integrator.
 */
export function compareSuggestion(lab, scenario) {
  const system = lab.system(scenario.system);
  const A = lab.integrator(scenario.integrator);
  if (!system || !A) return null;
  const candidates = system.integrators.map((id) => lab.integrator(id)).filter((i) => i && i.id !== A.id);
  if (A.family === 'baseline') return candidates.find((i) => i.id === system.defaultIntegrator)?.id ?? null;
  const baselines = candidates.filter((i) => i.family === 'baseline' && !i.symplectic);
  const preferred = baselines.find((i) => i.id === PREFERRED_BASELINE);
  if (preferred) return preferred.id;
  return baselines.sort((x, y) => y.order - x.order)[0]?.id ?? null;
}
