// The state in the URL hash, as differences from the defaults, readable:
//
//   #system=chain&integrator=rk4&h=0.005&params.g=3.7&initial.angles=1.6,0;2.2,0.8
//    &options.alpha=0.5&compare=rk4&speed=10&cam=3.1,-2,1.2,0,0,-0.8&fp=1234.3f9ac2d18e0b11aa&at=1234
//
// fp is the run's fingerprint at a step (the opener checks it when it gets there); at
// opens the link paused on that step, reached without animation.
//
// Keys are the API's own field paths, so an error the API throws about a field
// ('vilab: params.g: must be …') names the same key the reader sees in the link.
// Arrays are comma-separated; rows of a 2-D array are separated by ';'.
// A system defined by data (its registry entry has `dataParams`: the "lagrangian" and
// "mechanism" systems) carries its whole definition in one key instead of params.*:
//
//   #system=lagrangian&def=%7B%22coordinates%22%3A%5B%22r%22%2C%22th%22%5D%2C…%7D&initial.q=1.2,0.8
//
// def= is the compact JSON of params, URI-encoded, written only when it differs from
// the registry default; it is refused over MAX_DEFINITION_BYTES and validated by the
// API, whose errors name the field inside it (params.lagrangian, params.bodies[0]…).
// Nothing from a link is ever inserted into the page as HTML.
import { DEFAULT_SYSTEM, UI_DEFAULTS, SPEEDS, STEPS_PER_FRAME, WINDOWS, deepEqual } from './store.js';
import { escapeControl } from '../sim/vilab.js';
import { compareRefusal } from '../sim/external-b.js';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const SCENARIO_TOP = ['system', 'integrator', 'h'];
const GROUPS = ['params', 'options', 'initial'];
const UI_KEYS = ['compare', 'speed', 'spf', 'window', 'cam', 'fp', 'at'];
/** The key of a data-defined system's params, and its bound (UTF-8 bytes of the JSON). */
export const DEF_KEY = 'def';
export const MAX_DEFINITION_BYTES = 16 * 1024;
/** at= is reached by stepping when the link opens: a bound keeps that to seconds, not hours. */
export const MAX_AT_STEP = 10_000_000;

/** True when the system is defined by data (its params travel as one JSON definition). */
export const definedByData = (system) => !!system?.dataParams;

/** A link problem: field as the reader sees it in the link, problem in words (control characters shown as \u00XX). */
export class LinkError extends Error {
  /** code: one of lab.vocabulary.inputErrorCodes, for the page's words (web/ui/api-error.js). */
  constructor(rawField, rawProblem, code = 'invalid') {
    const field = escapeControl(rawField);
    const problem = escapeControl(rawProblem);
    super(`vilab: ${field}: ${problem}`);
    this.field = field;
    this.problem = problem;
    this.code = code;
  }
}

/** Splits 'vilab: <field>: <problem>' (the API's error text) into its parts. */
export function splitApiError(message) {
  const text = String(message ?? '').replace(/^vilab:\s*/, '');
  const m = text.match(/^([A-Za-z_][\w.[\]]*):\s*([\s\S]*)$/);
  return m ? { field: m[1], problem: m[2] } : { field: null, problem: text };
}

function encodeValue(v) {
  if (Array.isArray(v)) {
    if (v.some(Array.isArray)) return v.map((row) => (Array.isArray(row) ? row.map(String).join(',') : String(row))).join(';');
    return v.map(String).join(',');
  }
  return String(v);
}

function depth(v) {
  return Array.isArray(v) ? 1 + (v.length ? depth(v[0]) : 0) : 0;
}

function decodeToken(s) {
  return NUMBER.test(s) ? Number(s) : s;
}

/** Parses a value with the nesting depth of `like` (or inferred from ';'). */
function decodeValue(text, like) {
  const d = like === undefined ? (text.includes(';') ? 2 : text.includes(',') ? 1 : 0) : depth(like);
  if (d === 0) return decodeToken(text);
  if (d === 1) return text === '' ? [] : text.split(',').map(decodeToken);
  const rows = text.split(';');
  if (rows.length > 1 && rows[rows.length - 1] === '') rows.pop();
  return rows.map((r) => (r === '' ? [] : r.split(',').map(decodeToken)));
}

const keyOf = (group, name) => `${group}.${name}`;

/**
 * Encodes state (+ optional camera and fingerprint check) as a hash string
 * without the '#'. Only what differs from the defaults is written.
 */
export function encodeState(lab, state, extras = {}) {
  const parts = [];
  const put = (k, v) => parts.push(`${k}=${encodeURIComponent(encodeValue(v)).replace(/%2C/gi, ',').replace(/%3B/gi, ';')}`);
  const sc = state.scenario;
  const sysDefaults = lab.normalize({ system: sc.system });
  if (sc.system !== DEFAULT_SYSTEM) put('system', sc.system);
  if (sc.integrator !== sysDefaults.integrator) put('integrator', sc.integrator);
  if (sc.h !== sysDefaults.h) put('h', sc.h);
  const byData = definedByData(lab.system(sc.system));
  const withDefinition = byData && !deepEqual(sc.params, sysDefaults.params);
  if (byData) {
    if (withDefinition) parts.push(`${DEF_KEY}=${encodeURIComponent(JSON.stringify(sc.params))}`);
  } else {
    for (const [name, v] of Object.entries(sc.params ?? {})) {
      if (!deepEqual(v, sysDefaults.params?.[name])) put(keyOf('params', name), v);
    }
  }
  const optDefaults = lab.normalize({ system: sc.system, integrator: sc.integrator }).options ?? {};
  for (const [name, v] of Object.entries(sc.options ?? {})) {
    if (!deepEqual(v, optDefaults[name])) put(keyOf('options', name), v);
  }
  // Initial data: against the defaults for the same parameters (so a resized
  // chain compares with its resized defaults), all fields if the kind differs.
  let initDefaults = {};
  try {
    initDefaults = lab.normalize({ system: sc.system, params: sc.params }).initial ?? {};
  } catch {
    initDefaults = sysDefaults.initial ?? {};
  }
  const sameKeys = deepEqual(Object.keys(sc.initial ?? {}).sort(), Object.keys(initDefaults).sort());
  // a system defined by data writes all its initial data with a definition (the API asks
  // for both) or once any of it differs (its defaults need not fit another definition)
  const all = withDefinition || (byData && Object.entries(sc.initial ?? {}).some(([name, v]) => !deepEqual(v, initDefaults[name])));
  for (const [name, v] of Object.entries(sc.initial ?? {})) {
    if (all || !sameKeys || !deepEqual(v, initDefaults[name])) {
      let text = encodeValue(v);
      // A 2-D value with one row is marked by a trailing ';' when the defaults
      // cannot tell the depth.
      if (!(name in initDefaults) && depth(v) === 2 && v.length === 1) text += ';';
      parts.push(`${keyOf('initial', name)}=${text}`);
    }
  }
  if (state.compare) put('compare', state.compare);
  if (state.speed !== UI_DEFAULTS.speed) put('speed', state.speed);
  if (state.stepsPerFrame !== UI_DEFAULTS.stepsPerFrame) put('spf', state.stepsPerFrame);
  if (state.window !== UI_DEFAULTS.window) put('window', state.window);
  if (extras.camera)
    put(
      'cam',
      extras.camera.map((x) => Number(x.toFixed(3))),
    );
  if (extras.fingerprint) parts.push(`fp=${extras.fingerprint.step}.${extras.fingerprint.hash}`);
  if (Number.isSafeInteger(extras.at) && extras.at > 0) parts.push(`at=${extras.at}`);
  return parts.join('&');
}

function definitionTooLarge(size, unit) {
  return `is too large (${size} ${unit}); a shared definition may be at most ${MAX_DEFINITION_BYTES / 1024} KB`;
}

function checkDefinitionSize(text) {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_DEFINITION_BYTES) throw new LinkError(DEF_KEY, definitionTooLarge(bytes, 'bytes'), 'too-large');
}

/** The JSON of a definition (already size-checked) → a plain object, or a LinkError naming def. */
function parseDefinition(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LinkError(DEF_KEY, 'is not valid JSON', 'syntax');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new LinkError(DEF_KEY, 'must be a JSON object (the params of the definition)', 'type');
  }
  return value;
}

function oneOf(field, value, allowed, what) {
  if (typeof value !== 'number' || !allowed.includes(value)) {
    throw new LinkError(field, `${what} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, 'range');
  }
  return value;
}

/** One `key=value` part of a link, URI-decoded and bounded; a LinkError names what is wrong. */
function decodePart(part) {
  const eq = part.indexOf('=');
  let key;
  let value;
  // bound the raw text before decoding it (3 characters per encoded byte at most)
  if (eq > 0 && part.slice(0, eq) === DEF_KEY && part.length - eq - 1 > 3 * MAX_DEFINITION_BYTES) {
    throw new LinkError(DEF_KEY, definitionTooLarge(part.length - eq - 1, 'encoded characters'), 'too-large');
  }
  try {
    key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
  } catch {
    throw new LinkError('link', 'a field name is not valid URL encoding', 'syntax');
  }
  try {
    value = decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1));
  } catch {
    throw new LinkError(key.length > 32 ? key.slice(0, 32) + '…' : key, 'is not valid URL encoding', 'syntax');
  }
  if (key.length > 64) throw new LinkError(key.slice(0, 32) + '…', 'field name is too long', 'too-large');
  if (key === DEF_KEY) checkDefinitionSize(value);
  else if (value.length > 4000) throw new LinkError(key, 'value is too long', 'too-large');
  return [key, value];
}

/** The fields of a hash, key → value, each at most once. */
function readFields(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  const pairs = [];
  if (text.trim() !== '') {
    for (const part of text.split('&')) if (part !== '') pairs.push(decodePart(part));
  }
  const get = new Map();
  for (const [k, v] of pairs) {
    if (get.has(k)) throw new LinkError(k, 'appears more than once', 'conflict');
    get.set(k, v);
  }
  return get;
}

/** The scenario a link's fields write (before the API normalizes it): integrator, h, def= or params.*, options.*, initial.*. */
function scenarioFields(get, systemId, system, defaults) {
  const scenario = { system: systemId };
  const byData = definedByData(system);
  for (const [key, value] of get) {
    if (key === 'system') continue;
    if (key === DEF_KEY) {
      if (!byData)
        throw new LinkError(
          DEF_KEY,
          `only a system defined by data takes a definition (${systemId} has parameters: params.…)`,
          'not-applicable',
        );
      scenario.params = parseDefinition(value);
    } else if (byData && key.startsWith('params.')) {
      throw new LinkError(key, `unknown field: ${systemId} takes its whole definition in ${DEF_KEY}=`, 'unknown-key');
    } else if (key === 'integrator') scenario.integrator = value;
    else if (key === 'h') scenario.h = decodeToken(value);
    else if (UI_KEYS.includes(key)) continue;
    else {
      const dot = key.indexOf('.');
      const group = dot > 0 ? key.slice(0, dot) : key;
      const name = dot > 0 ? key.slice(dot + 1) : '';
      if (!GROUPS.includes(group) || !/^[A-Za-z_][\w]*$/.test(name)) {
        throw new LinkError(
          key,
          `unknown field (known: ${[...SCENARIO_TOP, ...GROUPS.map((g) => g + '.…'), ...UI_KEYS].join(', ')})`,
          'unknown-key',
        );
      }
      const like = defaults[group]?.[name];
      if (!scenario[group]) scenario[group] = {};
      Object.defineProperty(scenario[group], name, { value: decodeValue(value, like), enumerable: true, writable: true });
    }
  }
  return scenario;
}

/**
 * A link writes only the initial fields that differ from the defaults for its params
 * (encodeState): the others come back from those same defaults.
 */
function restoreInitialDefaults(lab, scenario, defaults) {
  let initDefaults = defaults.initial ?? {};
  try {
    initDefaults = lab.normalize({ system: scenario.system, params: scenario.params ?? {} }).initial ?? initDefaults;
  } catch {
    /* the params are refused below, naming their field */
  }
  if (Object.keys(scenario.initial).every((name) => name in initDefaults)) {
    for (const [name, v] of Object.entries(initDefaults)) if (!(name in scenario.initial)) scenario.initial[name] = v;
  }
}

/** The page's fields of a link into state: compare, speed, spf, window. */
function readPageFields(lab, get, systemId, state) {
  if (get.has('compare')) {
    const id = get.get('compare');
    if (id !== '' && id !== 'off') {
      const refusal = compareRefusal(lab, id, systemId);
      if (refusal) throw new LinkError('compare', refusal.message, refusal.code);
      state.compare = id;
    }
  }
  if (get.has('speed')) state.speed = oneOf('speed', decodeToken(get.get('speed')), SPEEDS, 'speed');
  if (get.has('spf')) state.stepsPerFrame = oneOf('spf', decodeToken(get.get('spf')), STEPS_PER_FRAME, 'steps per frame');
  if (get.has('window')) state.window = oneOf('window', decodeToken(get.get('window')), WINDOWS, 'plot window');
}

/** What a shared link adds: { camera, fingerprint, at } (each null when absent). */
function readShareFields(get) {
  let camera = null;
  if (get.has('cam')) {
    const c = decodeValue(get.get('cam'), [0]);
    if (c.length !== 6 || !c.every((x) => typeof x === 'number' && Number.isFinite(x) && Math.abs(x) < 1e6)) {
      throw new LinkError('cam', 'must be 6 finite numbers (camera position and target)', 'range');
    }
    camera = c;
  }
  let fingerprint = null;
  if (get.has('fp')) {
    const m = get.get('fp').match(/^(\d{1,9})\.([0-9a-f]{4,16})$/i);
    if (!m) throw new LinkError('fp', 'must be <step>.<hex fingerprint>', 'syntax');
    fingerprint = { step: Number(m[1]), hash: m[2].toLowerCase() };
  }
  let at = null;
  if (get.has('at')) {
    const m = get.get('at').match(/^\d{1,9}$/);
    if (!m || Number(m[0]) > MAX_AT_STEP) throw new LinkError('at', `must be a step number from 0 to ${MAX_AT_STEP}`, 'range');
    at = Number(m[0]);
  }
  return { camera, fingerprint, at };
}

/**
 * Decodes a hash (with or without '#'). Returns { state, camera, fingerprint, at }
 * or throws a LinkError / the API's Error naming the field.
 */
export function decodeState(lab, hash) {
  const get = readFields(hash);
  const systemId = get.has('system') ? get.get('system') : DEFAULT_SYSTEM;
  const system = lab.system(systemId);
  if (!system) {
    throw new LinkError('system', `unknown id "${systemId}" (known: ${lab.systems.map((s) => s.id).join(', ')})`, 'unknown-id');
  }
  const defaults = lab.normalize({ system: systemId });
  const scenario = scenarioFields(get, systemId, system, defaults);
  if (scenario.initial && !definedByData(system)) restoreInitialDefaults(lab, scenario, defaults);
  // The API validates everything and names the field on failure.
  const state = { scenario: lab.normalize(scenario), ...UI_DEFAULTS };
  readPageFields(lab, get, systemId, state);
  return { state, ...readShareFields(get) };
}
