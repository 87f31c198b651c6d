// The page's one state store. Everything a link can carry lives here:
//
//   state = {
//     scenario,            // the normalized scenario of integrator A (lab.normalize output)
//     compare,             // integrator id of B, or null
//     speed,               // simulated seconds per wall-clock second
//     stepsPerFrame,       // 0 = real time × speed; N > 0 = exactly N steps per frame
//     window,              // plot window in seconds, 0 = whole run
//   }
//
// The URL holds only the differences from the defaults (see web/state/url.js).
// UI-only things that a link does not carry (playing, follow, open panels) are
// kept by the modules that own them.

export const DEFAULT_SYSTEM = 'double-spherical-pendulum';
export const UI_DEFAULTS = Object.freeze({ compare: null, speed: 1, stepsPerFrame: 0, window: 0 });
export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100];
export const STEPS_PER_FRAME = [0, 1, 10, 100, 1000, 10000];
export const WINDOWS = [0, 5, 20, 60];

/** The default state: the registry's defaults for the default system. */
export function defaultState(lab) {
  const system = lab.system(DEFAULT_SYSTEM) ? DEFAULT_SYSTEM : lab.systems[0].id;
  return { scenario: lab.normalize({ system }), ...UI_DEFAULTS };
}

export function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    /** Shallow-merges patch; listeners get (state, previous, meta). */
    set(patch, meta = {}) {
      const previous = state;
      state = { ...state, ...patch };
      for (const fn of listeners) fn(state, previous, meta);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

export const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));

/** B's scenario: A's with integrator B and B's default options. */
export function compareScenario(lab, scenario, integrator) {
  const { options: _drop, ...rest } = scenario;
  return lab.normalize({ ...rest, integrator });
}
