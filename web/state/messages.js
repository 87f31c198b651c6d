// The embedding protocol: what a host page may send an embedded vilab (postMessage),
// validated like a link, and the page's own URL keys for embedding.
//
//   host → page, commands (only from origins the embed code names with origin=):
//     { type: 'vilab:load', scenario, compare? }   { type: 'vilab:play' }   { type: 'vilab:pause' }
//     { type: 'vilab:step', steps: n }   (1 ≤ n ≤ MAX_MESSAGE_STEPS; pauses first)
//     each answered, once done, with { type: 'vilab:done', id, request, step, time, fingerprint, playing }
//   host → page, read-only (any origin):
//     { type: 'vilab:get', id? }         → { type: 'vilab:state', id, step, time, fingerprint, playing,
//                                            scenario, compare, diagnostics, energyError, shareURL }
//   page → host (to the parent window): vilab:ready, vilab:step, vilab:change, vilab:refusal, vilab:error
//
// A message whose type does not start with 'vilab:' belongs to someone else and is
// ignored. Anything else that is wrong is answered with vilab:error naming the field.
// Every reply carries the request's id whenever one could be read (null otherwise).
// Nothing from a message is ever inserted into the page as HTML.

export const MESSAGE_PREFIX = 'vilab:';
export const COMMANDS = ['vilab:load', 'vilab:play', 'vilab:pause', 'vilab:step'];
export const QUERIES = ['vilab:get'];
export const MAX_MESSAGE_STEPS = 100000;
/** The protocol's version, in vilab:ready and vilab:state: 2 echoes ids, acknowledges commands and reports changes. */
export const PROTOCOL_VERSION = 2;
/** An id is echoed back: keep it small and plain. */
const MAX_ID_LENGTH = 64;
const MAX_ORIGINS = 8;

/** A message problem: field as the host wrote it, problem in words. */
export class MessageError extends Error {
  /** code: one of lab.vocabulary.inputErrorCodes, for the page's words (web/ui/api-error.js). */
  constructor(field, problem, code = 'invalid') {
    super(`vilab: ${field}: ${problem}`);
    this.field = field;
    this.problem = problem;
    this.code = code;
  }
}

const own = (o, k) => Object.hasOwn(o, k);
const clip = (s) => (s.length > 32 ? `${s.slice(0, 32)}…` : s);

function plainObject(x) {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** The message's id when it is a valid one (a safe integer or a string of at most MAX_ID_LENGTH), else null. */
export function readId(data) {
  if (!plainObject(data) || !own(data, 'id')) return null;
  const id = data.id;
  const okNumber = typeof id === 'number' && Number.isSafeInteger(id);
  const okString = typeof id === 'string' && id.length <= MAX_ID_LENGTH;
  return okNumber || okString ? id : null;
}

/**
 * Reads a message's data. Returns null when it is not addressed to vilab, else
 * { type, id, command: boolean, scenario?, compare?, steps? }; throws MessageError otherwise.
 * The scenario is checked by the API later (lab.normalize), whose errors name the
 * field inside it ('scenario.h', …).
 */
export function parseMessage(data) {
  if (!plainObject(data) || !own(data, 'type') || typeof data.type !== 'string' || !data.type.startsWith(MESSAGE_PREFIX)) return null;
  const type = data.type;
  if (!COMMANDS.includes(type) && !QUERIES.includes(type)) {
    throw new MessageError('type', `unknown message "${clip(type)}" (known: ${[...COMMANDS, ...QUERIES].join(', ')})`, 'unknown-id');
  }
  const allowed = new Set(['type', 'id', ...(type === 'vilab:load' ? ['scenario', 'compare'] : type === 'vilab:step' ? ['steps'] : [])]);
  for (const key of Object.keys(data)) {
    if (!allowed.has(key)) throw new MessageError(clip(key), `is not a field of ${type}`, 'unknown-key');
  }
  const out = { type, id: null, command: COMMANDS.includes(type) };
  if (own(data, 'id')) {
    if (readId(data) === null)
      throw new MessageError('id', `must be an integer or a string of at most ${MAX_ID_LENGTH} characters`, 'type');
    out.id = data.id;
  }
  if (type === 'vilab:load') {
    if (!own(data, 'scenario')) throw new MessageError('scenario', 'is required', 'missing');
    if (!plainObject(data.scenario)) throw new MessageError('scenario', 'must be an object', 'type');
    out.scenario = data.scenario;
    // B's integrator (a registry id or an external one, web/sim/external-b.js), or null for none
    if (own(data, 'compare')) {
      if (data.compare !== null && typeof data.compare !== 'string')
        throw new MessageError('compare', 'must be an integrator id or null', 'type');
      out.compare = data.compare;
    }
  }
  if (type === 'vilab:step') {
    const n = own(data, 'steps') ? data.steps : 1;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_MESSAGE_STEPS) {
      throw new MessageError('steps', `must be an integer from 1 to ${MAX_MESSAGE_STEPS}`, 'range');
    }
    out.steps = n;
  }
  return out;
}

/**
 * The page's embedding keys from its query string: { embed, paused, chrome, origins, predict }.
 * paused=1 opens paused at t = 0; predict=1 asks for a prediction when a preset or lesson
 * is chosen (the default unless embed=1); chrome=0 leaves only the view, the transport and the
 * plots; origin= (repeatable) names the host origins whose commands are obeyed.
 * Throws MessageError naming the key.
 */
export function parseEmbedKeys(search) {
  const params = new URLSearchParams(search);
  const flag = (key, fallback) => {
    const values = params.getAll(key);
    if (values.length === 0) return fallback;
    if (values.length > 1 || (values[0] !== '0' && values[0] !== '1')) throw new MessageError(key, 'must be 0 or 1', 'range');
    return values[0] === '1';
  };
  const embed = flag('embed', false);
  const paused = flag('paused', false);
  const chrome = flag('chrome', true);
  // the prediction card of a preset or lesson: on in the page, off in an embed unless asked
  const predict = flag('predict', !embed);
  const raw = params.getAll('origin');
  if (raw.length > MAX_ORIGINS) throw new MessageError('origin', `at most ${MAX_ORIGINS} origins`, 'too-large');
  const origins = raw.map((text) => {
    let url = null;
    try {
      url = new URL(text);
    } catch {
      /* reported below */
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== text.replace(/\/$/, '')) {
      throw new MessageError('origin', `"${clip(text)}" is not an origin (scheme://host[:port], http or https)`, 'syntax');
    }
    return url.origin;
  });
  return { embed, paused, chrome, origins, predict };
}

/** The iframe code for a page URL (already carrying the scenario) and the embedding choices. */
export function embedCode(pageURL, { title, paused = false, chrome = true, predict = false, origins = [], width = 800, height = 540 }) {
  const url = new URL(pageURL);
  for (const key of ['embed', 'paused', 'chrome', 'predict', 'origin']) url.searchParams.delete(key);
  url.searchParams.set('embed', '1');
  if (paused) url.searchParams.set('paused', '1');
  if (predict) url.searchParams.set('predict', '1');
  if (!chrome) url.searchParams.set('chrome', '0');
  for (const o of origins) url.searchParams.append('origin', o);
  const attr = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${attr(url.toString())}" title="${attr(title)}" width="${width}" height="${height}" style="border:0;max-width:100%" loading="lazy" allow="clipboard-write"></iframe>`;
}

// The document's parts a vilab:change names, most telling first: the change is named
// after the first part that differs.
const CHANGE_KINDS = [
  ['system', (path) => path === 'system'],
  ['integrator', (path) => path === 'integrator' || path.startsWith('options')],
  ['h', (path) => path === 'h'],
  ['parameter', (path) => path.startsWith('params')],
  ['initial', (path) => path.startsWith('initial')],
  ['compare', (path) => path === 'compare'],
  ['pace', (path) => path === 'speed' || path === 'stepsPerFrame' || path === 'window'],
];

/** Every vilab:change `change`: the document's kinds, a preset or a link, and the transport's. */
export const CHANGES = ['preset', 'link', ...CHANGE_KINDS.map(([kind]) => kind), 'play', 'pause', 'reset'];

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The paths (system, h, params.g, initial.angles, options.alpha, compare, speed, …) where two documents differ. */
export function changedPaths(next, prev) {
  const paths = [];
  const sc = next.scenario ?? {};
  const ps = prev.scenario ?? {};
  for (const key of ['system', 'integrator', 'h']) if (!same(sc[key], ps[key])) paths.push(key);
  for (const group of ['params', 'initial', 'options']) {
    const a = sc[group] ?? {};
    const b = ps[group] ?? {};
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) if (!same(a[key], b[key])) paths.push(`${group}.${key}`);
  }
  for (const key of ['compare', 'speed', 'stepsPerFrame', 'window']) if (!same(next[key], prev[key])) paths.push(key);
  return paths;
}

/**
 * What a change of the page's document was, for vilab:change: { change, fields, preset? },
 * or null when nothing a host sees changed. meta.cause names a preset chosen ('preset',
 * with meta.preset its id) or a link opened in place ('link'); else the change is named
 * after what differs (CHANGE_KINDS): system, integrator (or its options), h, parameter,
 * initial, compare, pace.
 */
export function changeOf(next, prev, meta = {}) {
  const fields = changedPaths(next, prev);
  if (meta.cause === 'preset') return { change: 'preset', preset: meta.preset ?? null, fields };
  if (meta.cause === 'link') return { change: 'link', fields };
  const kind = CHANGE_KINDS.find(([, matches]) => fields.some(matches));
  return kind ? { change: kind[0], fields } : null;
}
