// vilab: the JavaScript API over the WebAssembly core. One contract for the page,
// for Node and for anyone who embeds it (reference: docs/api.md; types: vilab.d.ts).
//
//   import { createLab } from 'vilab';
//   const lab = await createLab();
//   const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
//   sim.advance(1000);
//   console.log(sim.time, sim.diagnostics().energy, sim.hash());
//   sim.dispose();
//
// Lifetime policy: every array returned (q, p, visualState(), history samples) is
// a fresh copy that owns its buffer, never a view into the wasm heap, so nothing
// goes stale or detaches when the heap grows. The Embind layer returns heap views
// and this file copies them before making any other call into the module.
// Two builds of the same core: "full" (everything) and "lean" (the page's first load:
// every system and the common integrators, not the expression compiler, automatic
// differentiation, Lobatto or compositions; it refuses those with code 'full-module').
// A scenario both builds run gives the same bits in each.
const BUILDS = {
  full: { load: () => import('../../build/wasm/vilab.mjs'), wasm: () => new URL('../../build/wasm/vilab.wasm', import.meta.url) },
  lean: {
    load: () => import('../../build/wasm/vilab-lean.mjs'),
    wasm: () => new URL('../../build/wasm/vilab-lean.wasm', import.meta.url),
    // what the page's first frame does not run (scripts/split-lean.mjs): see deferredPart
    deferred: () => new URL('../../build/wasm/vilab-lean.deferred.wasm', import.meta.url),
  },
};
import { describeRun } from './describe.js';

const PREFIX = 'vilab: ';
/** Scenario text larger than this is refused before it enters the wasm heap (the core's limit). */
const MAX_SCENARIO_BYTES = 4 << 20;
const DETAILS = ['field', 'column', 'step', 'code', 'action', 'reason', 'suggestion', 'stepsTaken'];

/**
 * Every error the API throws, with .code: one of lab.vocabulary.inputErrorCodes, or for a
 * refused step one of lab.vocabulary.refusalCodes. Bad input: message 'vilab: <field>: <problem>'
 * and .field (and .column, 1-based, when the problem is located in an expression). A refused
 * step: message 'vilab: step k refused: <reason>; <suggestion> (…)' and .step, .code, .action
 * (one of lab.vocabulary.suggestionActions), .reason, .suggestion, .stepsTaken.
 */
export class VilabError extends Error {
  constructor(message, details = {}) {
    const text = String(message);
    super(text.startsWith(PREFIX) ? text : PREFIX + text);
    this.name = 'VilabError';
    for (const key of DETAILS) if (details[key] !== undefined && details[key] !== null) this[key] = details[key];
  }
}

/** Bad input found here rather than in the core; code: one of lab.vocabulary.inputErrorCodes. */
function inputError(code, field, problem) {
  return new VilabError(`${field}: ${problem}`, { field, code });
}

/** A number argument's code: 'type' when it is not a number at all, else 'range'. */
const numberCode = (value) => (typeof value === 'number' ? 'range' : 'type');

// The core's error record {message, field?, code, action?, step?, reason?, suggestion?, stepsTaken?} → VilabError.
function coreError(record) {
  return new VilabError(record.message, record);
}

// Anything else a call into the module throws (the core catches its own exceptions, so
// this is a last line: a WebAssembly.Exception or a trap) becomes a VilabError naming
// the call, never a raw error.
function asVilabError(e, where) {
  if (e instanceof VilabError) return e;
  const detail =
    typeof WebAssembly !== 'undefined' && WebAssembly.Exception && e instanceof WebAssembly.Exception
      ? 'an exception escaped the core'
      : String(e?.message ?? e).slice(0, 200);
  return new VilabError(`${where}: internal error (${detail})`, { field: where, code: 'internal' });
}

function guard(where, fn) {
  try {
    return fn();
  } catch (e) {
    throw asVilabError(e, where);
  }
}

// The Embind object behind a proxy whose methods turn any error into a VilabError.
function guarded(native, where) {
  const methods = new Map();
  return new Proxy(native, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let method = methods.get(prop);
      if (!method) {
        method = (...args) => guard(where, () => value.apply(target, args));
        methods.set(prop, method);
      }
      return method;
    },
  });
}

const hasOwn = (object, key) => Object.hasOwn(object, key);

// The own enumerable entries of a plain options object (never inherited ones, so
// {constructor: 1} or an own "__proto__" is an unknown key, not Object's property).
function ownEntries(name, value) {
  try {
    return Object.entries(value);
  } catch (e) {
    throw inputError('invalid', name, `cannot be read (${errorText(e)})`);
  }
}

function unknownKey(name, key, known) {
  return inputError('unknown-key', `${name}.${cutKey(key)}`, `unknown option (known: ${known.join(', ')})`);
}

function cutKey(raw) {
  const key = escapeControl(raw);
  if (key.length <= 32) return key;
  // cut at a character, and never inside an escape (as the core's cutForMessage)
  let head = key.slice(0, 32).replace(/[\uD800-\uDBFF]$/, '');
  const slash = head.lastIndexOf('\\');
  if (slash >= 0 && head.length - slash < 6 && key.startsWith('\\u0', slash)) head = head.slice(0, slash);
  return `${head}…`;
}

/** User text in a message: control characters (C0, DEL, C1) as \u00XX, as the core writes them, so a NUL is seen and cuts nothing. */
export function escapeControl(text) {
  return String(text).replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Reads a foreign argument (a Proxy, getters, a revoked object): whatever it throws
// becomes a VilabError naming `field`, never a raw TypeError.
function readForeign(field, read) {
  try {
    return read();
  } catch (e) {
    if (e instanceof VilabError) throw e;
    throw inputError('invalid', field, `cannot be read (${errorText(e)})`);
  }
}

// What a foreign error says, on one line and bounded (reading it may throw too).
function errorText(e) {
  try {
    return escapeControl(String(e?.message ?? e).replace(/\s+/g, ' ')).slice(0, 100);
  } catch {
    return 'it threw';
  }
}

// The own enumerable entries of an options object, as a Map; an inherited enumerable key
// (Object.create({ historyStride: 7 })) is an error naming it, as an unknown one is.
function ownOptions(name, value) {
  return readForeign(name, () => {
    for (const key in value) {
      if (!hasOwn(value, key)) {
        throw inputError(
          'invalid',
          `${name}.${cutKey(key)}`,
          'is inherited, not an own property (options are read by their own properties only)',
        );
      }
    }
    return new Map(ownEntries(name, value));
  });
}

function isNode() {
  return typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
}

async function loadWasmBinaryInNode(build) {
  return (await nodeFileReader(BUILDS[build].wasm()))();
}

/** () → the file's bytes, read synchronously when asked for (Node). */
async function nodeFileReader(url) {
  // A variable specifier keeps bundlers from trying to resolve node:fs for browsers.
  const fsModule = 'node:fs';
  const { readFileSync } = await import(/* @vite-ignore */ fsModule);
  return () => readFileSync(url);
}

/** A URL's bytes, synchronously (a synchronous request cannot ask for an ArrayBuffer: the text as bytes). */
function fetchBytesSync(url) {
  const request = new XMLHttpRequest();
  request.open('GET', url, false);
  request.overrideMimeType('text/plain; charset=x-user-defined');
  request.send(null);
  if (request.status !== 200) throw new Error(`${url} answered ${request.status}`);
  const text = request.responseText;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

/**
 * The lean module in two parts (wasm-split, scripts/split-lean.mjs): the first holds what
 * the page's first frame runs, the deferred one the rest of the same code. Each function
 * of the deferred part has a placeholder in the first part's table, imported from here;
 * instantiating the deferred part writes its functions over them. load() brings it in
 * off the main thread (the page calls it after its first frame); a placeholder called
 * before that fetches it synchronously. Either way the same code runs: the same bits.
 * Adds the placeholders to `imports`; start(instance, module) once the first part is
 * instantiated (a module without placeholders is the whole module: load() has nothing to do).
 */
function deferredPart({ url, read, now }, imports) {
  let primary = null;
  let loaded = null; // the deferred part's instance
  let loading = null;
  let compiling = null; // the deferred part compiled (a promise), once asked for
  const compile = () =>
    (compiling ??= (
      read
        ? WebAssembly.compile(read())
        : (compileInBackground(url()) ?? Promise.reject(new Error('no fetch here: fetched when first needed')))
    ).catch((e) => {
      compiling = null; // a later request tries again
      throw e;
    }));
  let whole = false; // bytes of the module as linked (no placeholders): nothing to load
  const load = () => {
    if (loaded || whole) return Promise.resolve();
    loading ??= compile()
      .then((module) => {
        instantiate(module);
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  };
  if (now) compile().catch(() => {}); // from here on, beside the first part; reported by load()
  const direct = [];
  const instantiate = (module) => {
    loaded ??= new WebAssembly.Instance(module, { primary: primary.exports });
    return loaded;
  };
  const table = () => Object.values(primary.exports).find((v) => v instanceof WebAssembly.Table);
  imports.placeholder = new Proxy(
    {},
    {
      get: (_, name) => {
        const index = Number(name);
        return (...args) => {
          if (!loaded) instantiate(new WebAssembly.Module(read ? read() : fetchBytesSync(url())));
          direct[index] ??= table().get(index);
          return direct[index](...args);
        };
      },
    },
  );
  return {
    start(instance, module) {
      primary = instance;
      whole = !WebAssembly.Module.imports(module).some((i) => i.module === 'placeholder');
      if (now) load().catch(() => {}); // a failure is reported by the next load() or placeholder
    },
    load,
  };
}

function utf8Length(text) {
  // Cheap bound first: a UTF-16 code unit is at most 3 UTF-8 bytes.
  if (text.length * 3 <= MAX_SCENARIO_BYTES) return text.length;
  return new TextEncoder().encode(text).length;
}

// A value → JSON text for the core, or a VilabError naming `field`. JSON cannot carry NaN
// or ±Infinity (JSON.stringify turns them into null): send them as the strings the core
// reports verbatim, so the error names the field and says NaN. A BigInt is its number;
// a cycle, a getter or a Proxy that throws is refused, never thrown raw.
function encodeJson(value, field) {
  let text;
  try {
    text = JSON.stringify(value, (_key, v) => {
      if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
      if (typeof v === 'bigint') return Number(v);
      if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v, Number);
      return v;
    });
  } catch (e) {
    const deep = e instanceof RangeError && /call stack/i.test(errorText(e));
    throw inputError(deep ? 'too-large' : 'invalid', field, deep ? 'nested too deeply' : `cannot be encoded as JSON (${errorText(e)})`);
  }
  if (typeof text !== 'string') throw inputError('type', field, `cannot be encoded as JSON (got ${typeof value})`);
  const bytes = utf8Length(text);
  if (bytes > MAX_SCENARIO_BYTES) throw inputError('too-large', field, `too large (${bytes} bytes; the limit is 4 MiB)`);
  return text;
}

// Scenario → JSON text for the core. A string is taken as JSON text verbatim (the
// CLI passes file bytes, so the core parses exactly what the native CLI parses).
function encodeScenario(scenario) {
  return readForeign('scenario', () => {
    if (typeof scenario === 'string') {
      const bytes = utf8Length(scenario);
      if (bytes > MAX_SCENARIO_BYTES) throw inputError('too-large', 'scenario', `too large (${bytes} bytes; the limit is 4 MiB)`);
      return scenario;
    }
    if (scenario === null || typeof scenario !== 'object' || Array.isArray(scenario) || ArrayBuffer.isView(scenario)) {
      throw inputError('type', 'scenario', `must be an object or JSON text, got ${describe(scenario)}`);
    }
    return encodeJson(scenario, 'scenario');
  });
}

function describe(v) {
  if (v === null) return 'null';
  let array;
  try {
    array = Array.isArray(v);
  } catch {
    return 'an object that cannot be read (a revoked Proxy)';
  }
  if (array) return 'an array';
  if (typeof v === 'string') return v.length > 32 ? `a string of ${v.length} characters` : `string "${escapeControl(v)}"`;
  if (typeof v === 'number') return String(v);
  return typeof v;
}

function toFloat64(name, value, maxLength) {
  return readForeign(name, () => readFloat64(name, value, maxLength));
}

function readFloat64(name, value, maxLength) {
  if (!(Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))) {
    throw inputError('type', name, `must be an array or a Float64Array, got ${describe(value)}`);
  }
  if (value.length > maxLength) throw inputError('length', name, `too long (${value.length} entries)`);
  const out = new Float64Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const x = value[i];
    if (typeof x !== 'number' && typeof x !== 'bigint') throw inputError('type', `${name}[${i}]`, `must be a number, got ${describe(x)}`);
    out[i] = Number(x);
    if (!Number.isFinite(out[i])) throw inputError('range', `${name}[${i}]`, `must be a finite number, got ${out[i]}`);
  }
  return out;
}

function readOptions(options, limits) {
  const bounds = new Map([
    ['historyStride', [limits.historyStride.min, limits.historyStride.max]],
    ['historyCapacity', [limits.historyCapacity.min, limits.historyCapacity.max]],
  ]);
  const out = { historyStride: 1, historyCapacity: limits.historyCapacity.default };
  if (options === undefined) return out;
  if (options === null || typeof options !== 'object' || readForeign('options', () => Array.isArray(options))) {
    throw inputError('type', 'options', `must be an object, got ${describe(options)}`);
  }
  for (const [key, value] of ownOptions('options', options)) {
    const range = bounds.get(key);
    if (!range) throw unknownKey('options', key, [...bounds.keys()]);
    if (value === undefined) continue;
    const [min, max] = range;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw inputError(numberCode(value), `options.${key}`, `must be an integer in [${min}, ${max}], got ${describe(value)}`);
    }
    out[key] = value;
  }
  return out;
}

// Frees simulations that were garbage-collected without dispose() (a safety net;
// dispose() is still the way to free memory promptly).
const finalizer =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((native) => {
        try {
          native.delete();
        } catch {
          /* already freed */
        }
      })
    : null;

/** Diagnostic time series recorded in C++ every `stride` steps (a ring of `capacity` samples). */
class History {
  #sim;
  #columns;
  #momentum;
  #body;
  #conserved;
  constructor(sim, columns) {
    this.#sim = sim;
    this.#columns = columns;
    this.#momentum = columns.filter((n) => n === 'momentum' || n.startsWith('momentum.'));
    this.#body = columns.filter((n) => n.startsWith('bodyMomentum.'));
    this.#conserved = columns.filter((n) => n.startsWith('conserved.'));
  }
  /** Column names: t, energy, constraint, iterations, then momentum…, bodyMomentum… */
  get columns() {
    this.#sim();
    return this.#columns.slice();
  }
  get stride() {
    return this.#sim().historyStride();
  }
  get capacity() {
    return this.#sim().historyCapacity();
  }
  /** Samples recorded since the start (or the last setState), monotone. */
  get total() {
    return this.#sim().historyTotal();
  }
  /** Index of the oldest sample still held (total - capacity once the ring is full). */
  get oldest() {
    return this.#sim().historyOldest();
  }
  /**
   * Copies of samples [max(from, oldest), total): { start, count, t, energy,
   * constraint, iterations, momentum: Float64Array[], bodyMomentum?: Float64Array[],
   * columns: { [name]: Float64Array } }. Poll with from = previous start + count.
   */
  read(from = 0) {
    if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 0) {
      throw inputError(numberCode(from), 'from', `must be a non-negative integer (at most 2^53 − 1), got ${describe(from)}`);
    }
    const native = this.#sim();
    const data = native.historyRead(from).slice(); // copy before any other call
    const error = native.error();
    if (error) throw coreError(error);
    const start = native.historyReadStart();
    const names = this.#columns;
    const count = data.length / names.length;
    const columns = {};
    names.forEach((name, c) => {
      columns[name] = data.subarray(c * count, (c + 1) * count);
    });
    const out = {
      start,
      count,
      t: columns.t,
      energy: columns.energy,
      constraint: columns.constraint,
      iterations: columns.iterations,
      momentum: this.#momentum.map((n) => columns[n]),
      columns,
    };
    if (this.#body.length) out.bodyMomentum = this.#body.map((n) => columns[n]);
    if (this.#conserved.length) {
      out.conserved = {};
      for (const n of this.#conserved) out.conserved[n.slice('conserved.'.length)] = columns[n];
    }
    return out;
  }
}

// Owns one Embind object: turns its construction error into a VilabError, frees it
// on dispose() (or when the owner is garbage-collected), refuses use after dispose().
const LIVE = Symbol('live');
class NativeOwner {
  #native;
  #disposed = false;
  #name;

  constructor(native, name) {
    const error = guard(name, () => native.error());
    if (error) {
      native.delete();
      throw coreError(error);
    }
    this.#native = guarded(native, name);
    this.#name = name;
    finalizer?.register(this, native, this);
  }

  [LIVE]() {
    if (this.#disposed) throw new VilabError(`${this.#name}: used after dispose()`, { field: this.#name, code: 'disposed' });
    return this.#native;
  }

  get disposed() {
    return this.#disposed;
  }

  /** Frees the wasm memory now. Idempotent; any other use afterwards throws. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    finalizer?.unregister(this);
    this.#native.delete();
    this.#native = null;
  }
}

const disposeSymbol = Symbol.dispose ?? Symbol.for('Symbol.dispose');

class Simulation extends NativeOwner {
  #history;
  #maxStateSize;
  #systemOf;
  #description = null;

  constructor(module, limits, scenario, options, systemOf) {
    const opts = readOptions(options, limits);
    const text = encodeScenario(scenario);
    super(
      guard('simulate', () => new module.Simulation(text, opts.historyStride, opts.historyCapacity)),
      'simulation',
    );
    const native = this[LIVE]();
    this.#maxStateSize = limits.maxStateSize;
    this.#history = new History(() => this[LIVE](), Array.from(native.historyColumns()));
    this.#systemOf = systemOf;
  }

  #run() {
    if (!this.#description) {
      const scenario = this.scenario();
      this.#description = describeRun(this.#systemOf(scenario.system), scenario, this.history.columns);
    }
    return this.#description;
  }

  /**
   * What this run's numbers mean (web/sim/describe.js): { quantities: [{ key, symbol,
   * title, unit, columns, combine?, conserved, why }], constrained, constraintScale,
   * variables: [{ key, symbol, title, unit, kind }], phase: [ix, iy], energyParts,
   * structures } — conserved is decided by this scenario's exact flow (forcing,
   * gravity's torque, symmetry). A fresh copy.
   */
  describe() {
    const { values: _v, kinetic: _k, ...plain } = this.#run();
    return JSON.parse(JSON.stringify(plain));
  }

  /** The natural variables now (angles and rates, Π and ω, …), in describe().variables order. */
  variables() {
    const run = this.#run();
    const out = new Float64Array(run.variables.length);
    run.values(this.q, this.p, out);
    return out;
  }

  /** The normalized scenario, defaults filled in (a fresh object). */
  scenario() {
    return JSON.parse(this[LIVE]().scenario());
  }

  /**
   * Takes exactly n steps inside one wasm call (like mj_step in a loop, but one call).
   * A refused step throws a VilabError with .step (the refused step), .code, .reason,
   * .suggestion and .stepsTaken (steps this call took); the state stays at the last
   * good step (step − 1) and the simulation stays usable.
   */
  advance(n = 1) {
    const native = this[LIVE]();
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      throw inputError(numberCode(n), 'n', `must be a non-negative integer, got ${describe(n)}`);
    }
    native.advance(n);
    const error = native.error();
    if (error) throw coreError(error);
  }

  /**
   * The bounded call for interactive use: takes up to maxSteps steps and returns once
   * budgetMs of wall-clock time have passed (checked about every millisecond).
   * Returns { steps, done } (done: all maxSteps were taken). Refusals throw as advance().
   */
  advanceFor(limits = {}) {
    const native = this[LIVE]();
    if (limits === null || typeof limits !== 'object' || readForeign('limits', () => Array.isArray(limits))) {
      throw inputError('type', 'limits', `must be { maxSteps, budgetMs }, got ${describe(limits)}`);
    }
    const entries = ownOptions('limits', limits);
    for (const key of entries.keys()) {
      if (key !== 'maxSteps' && key !== 'budgetMs') throw unknownKey('limits', key, ['maxSteps', 'budgetMs']);
    }
    const maxSteps = entries.get('maxSteps');
    const budgetMs = entries.get('budgetMs');
    if (typeof maxSteps !== 'number' || !Number.isSafeInteger(maxSteps) || maxSteps < 0) {
      throw inputError(numberCode(maxSteps), 'maxSteps', `must be a non-negative integer, got ${describe(maxSteps)}`);
    }
    if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs)) {
      throw inputError(numberCode(budgetMs), 'budgetMs', `must be a number of milliseconds, got ${describe(budgetMs)}`);
    }
    const steps = native.advanceFor(maxSteps, budgetMs);
    const error = native.error();
    if (error) throw coreError(error);
    return { steps, done: native.lastDone() };
  }

  /** step × h (s). */
  get time() {
    return this[LIVE]().time();
  }
  /** Steps taken since the start (or the last setState). */
  get step() {
    return this[LIVE]().step();
  }
  /** The canonical positions (a copy): Cartesian bob positions, [x], or the unit quaternion [w, x, y, z]. */
  get q() {
    return this[LIVE]().q().slice();
  }
  /** The canonical momenta (a copy): Cartesian bob momenta, [m ẋ], or the body angular momentum Π. */
  get p() {
    return this[LIVE]().p().slice();
  }

  /**
   * { energy, momentum: number[], constraint, iterations, bodyMomentum? }.
   * momentum is the conserved momentum map (J_z for pendulums and chains, spatial
   * angular momentum RΠ for rigid bodies); bodyMomentum is Π for rigid bodies.
   */
  diagnostics() {
    const d = this[LIVE]().diagnostics();
    const out = { energy: d.energy, momentum: Array.from(d.momentum), constraint: d.constraint, iterations: d.iterations };
    // kinetic and potential parts, where the system separates them (describe().energyParts)
    const run = this.#run();
    if (run.kinetic) {
      out.kinetic = run.kinetic(this.q, this.p);
      out.potential = d.energy - out.kinetic;
    }
    if (d.bodyMomentum) out.bodyMomentum = Array.from(d.bodyMomentum);
    if (d.conserved) {
      const names = this.history.columns.filter((n) => n.startsWith('conserved.')).map((n) => n.slice('conserved.'.length));
      out.conserved = Object.fromEntries(names.map((n, i) => [n, d.conserved[i]]));
    }
    return out;
  }

  /** What to draw: bob positions [x,y,z,...] or the orientation quaternion [w,x,y,z] (a copy). */
  visualState() {
    return this[LIVE]().visualState().slice();
  }

  /**
   * Replaces the canonical state { q, p }; throws when malformed or off the constraint
   * manifold by more than the tolerance (smaller errors are projected away). Restarts
   * step and history at 0.
   */
  setState(state) {
    const native = this[LIVE]();
    if (state === null || typeof state !== 'object') throw inputError('type', 'state', `must be { q, p }, got ${describe(state)}`);
    const entries = ownOptions('state', state);
    for (const key of entries.keys()) {
      if (key !== 'q' && key !== 'p') throw inputError('unknown-key', `state.${cutKey(key)}`, 'unknown field (known: q, p)');
    }
    const error = native.setState(
      toFloat64('q', entries.get('q'), this.#maxStateSize),
      toFloat64('p', entries.get('p'), this.#maxStateSize),
    );
    if (error) throw coreError(error);
  }

  /**
   * The Jacobian ∂(q_{k+1}, p_{k+1})/∂(q_k, p_k) of the next step at the current state,
   * from the integrator's own derivatives (not finite differences): a Float64Array of
   * (2n)² numbers, row-major, q rows and columns first (n = q.length; on pendulums and
   * chains n is the degrees of freedom, in a symplectic basis of the tangent space of the
   * constrained phase space, docs/api.md). Throws a
   * VilabError (field 'integrator') where the integrator's registry entry does not list
   * the system in `linearizes`; the run is unchanged.
   */
  linearize() {
    const native = this[LIVE]();
    const jacobian = native.linearize().slice(); // copy before any other call
    const error = native.error();
    if (error) throw coreError(error);
    return jacobian;
  }

  /**
   * Fields: the residual of the local multisymplectic conservation law (the discrete
   * ∂_t ω + ∂_x κ = 0; Marsden, Patrick & Shkoller 1998, Thm 4.1) on the dual cell of
   * every node, over the next two steps from the current state, for two variations carried
   * by the integrator's own linearization, relative to the size of its terms:
   * { law: 'midpoint' | 'trapezoid' (the discrete density it is stated for), max, nodes:
   * Float64Array (0 at a fixed end) }. The run is unchanged. Throws a VilabError (field
   * 'integrator') for an integrator without it (DOPRI5, the AVI) or a system that is not a
   * field.
   */
  lawResidual() {
    const native = this[LIVE]();
    const out = native.multisymplecticResiduals();
    const nodes = out.nodes.slice(); // copy before any other call
    const error = native.error();
    if (error) throw coreError(error);
    let max = 0;
    for (const r of nodes) max = Math.max(max, r);
    return { law: out.law, max, nodes };
  }

  /**
   * Fields: the density's local stiffness per cell, linearized about rest at the cell's
   * centre (core/include/vilab/models/field_cells.hpp): { speed2: c² = −ℒ_{u_x u_x}/ℒ_{u_t u_t}
   * (κ/ρ for the built-in family), curvature: V'' = −ℒ_{uu}, inertia: ρ = ℒ_{u_t u_t} }, each a
   * Float64Array of one number per cell. Throws a VilabError (field 'system') for a system
   * that is not a field.
   */
  fieldStiffness() {
    const native = this[LIVE]();
    const all = native.fieldStiffness().slice(); // copy before any other call
    const error = native.error();
    if (error) throw coreError(error);
    const n = all.length / 3;
    return { speed2: all.subarray(0, n), curvature: all.subarray(n, 2 * n), inertia: all.subarray(2 * n) };
  }

  /**
   * FNV-1a 64 (offset 0xcbf29ce484222325, prime 0x100000001b3) of the exact
   * little-endian bytes of q (float64 each), then p (float64 each), then the step
   * count (uint64), as 16 lowercase hex digits; equals the native `vilab hash`.
   */
  hash() {
    return this[LIVE]().hash();
  }

  /** The diagnostic time series recorded in C++ (see History). */
  get history() {
    this[LIVE]();
    return this.#history;
  }

  /** The CSV header and the current row, exactly as the native CLI prints them. */
  csvHeader() {
    return this[LIVE]().csvHeader();
  }
  csvRow() {
    return this[LIVE]().csvRow();
  }

  /** `using sim = lab.simulate(…)` frees it at the end of the block. */
  [disposeSymbol]() {
    this.dispose();
  }
}

/** t for an exact solution: beyond maxTime its phase has lost its digits, so refused, not noise. */
function exactTime(t, maxTime) {
  if (typeof t !== 'number' || !(Math.abs(t) <= maxTime)) {
    const bound = maxTime.toExponential().replace('e+', 'e');
    throw inputError(numberCode(t), 't', `must be a finite number of seconds in [-${bound}, ${bound}], got ${describe(t)}`);
  }
  return t;
}

const EVALUATE = Symbol('evaluate');

/**
 * What every exact solution has: solution (its id in lab.vocabulary.exactSolutions),
 * period, state(t) → { q, p } in the system's canonical coordinates (in the subclasses),
 * dispose() and [Symbol.dispose]().
 */
class ExactSolution extends NativeOwner {
  #solution;
  #period;
  #maxTime;

  constructor(native, name, solution, maxTime) {
    super(native, name);
    this.#solution = solution;
    this.#period = this[LIVE]().period();
    this.#maxTime = maxTime;
  }

  /** Which exact solution this is: 'oscillator' | 'pendulum' | 'rigid-body' (lab.vocabulary.exactSolutions). */
  get solution() {
    this[LIVE]();
    return this.#solution;
  }

  get period() {
    this[LIVE]();
    return this.#period;
  }

  /** native[method](t) for t within ±maxTime, as a fresh array; a value that is not finite throws. */
  [EVALUATE](method, t) {
    const native = this[LIVE]();
    const values = Array.from(native[method](exactTime(t, this.#maxTime)));
    const error = native.error();
    if (error) throw coreError(error);
    return values;
  }

  /** `using exact = lab.exact(…)` frees it at the end of the block. */
  [disposeSymbol]() {
    this.dispose();
  }
}

/**
 * The exact harmonic oscillator (core vilab::exact::Oscillator) of a normalized undamped
 * `oscillator` scenario. period: 2π/ω (s).
 */
class ExactOscillator extends ExactSolution {
  #mass;

  constructor(module, scenario, maxTime) {
    const { mass, stiffness } = scenario.params;
    const { position, velocity } = scenario.initial;
    const native = guard('exactOscillator', () => new module.ExactOscillator(mass, stiffness, position, velocity));
    super(native, 'exactOscillator', 'oscillator', maxTime);
    this.#mass = mass;
  }

  /** [x(t), ẋ(t)] (a fresh array). */
  at(t) {
    return this[EVALUATE]('at', t);
  }

  /** The state at t in the system's canonical coordinates: q = [x], p = [m ẋ]. */
  state(t) {
    const [x, v] = this.at(t);
    return { q: [x], p: [this.#mass * v] };
  }
}

/**
 * The exact planar pendulum (Jacobi elliptic functions; core vilab::exact::Pendulum) of a
 * normalized undamped `pendulum` scenario. period: 4K(k²)/w in libration, the time of one
 * revolution 2K(1/k²)/(k w) in rotation, Infinity on the separatrix.
 */
class ExactPendulum extends ExactSolution {
  #regime;
  #modulus;
  #length;
  #mass;

  constructor(module, scenario, maxTime) {
    const { g, lengths, masses } = scenario.params;
    const [theta0] = scenario.initial.angles;
    const [omega0] = scenario.initial.rates;
    super(
      guard('exactPendulum', () => new module.ExactPendulum(g, lengths[0], theta0, omega0)),
      'exactPendulum',
      'pendulum',
      maxTime,
    );
    const native = this[LIVE]();
    this.#regime = native.regime();
    this.#modulus = native.modulus();
    this.#length = lengths[0];
    this.#mass = masses[0];
  }

  /** 'libration' | 'separatrix' | 'rotation'. */
  get regime() {
    this[LIVE]();
    return this.#regime;
  }

  /** k = √(sin²(θ₀/2) + θ̇₀²/(4 g/l)): below 1 it swings, above 1 it turns over. */
  get modulus() {
    this[LIVE]();
    return this.#modulus;
  }

  /** [θ(t), θ'(t)] (a fresh array). */
  at(t) {
    return this[EVALUATE]('at', t);
  }

  /** The state at t in the system's canonical coordinates: the bob at q = l (sin θ, 0, −cos θ), p = m l θ' (cos θ, 0, sin θ). */
  state(t) {
    const [theta, omega] = this.at(t);
    const l = this.#length;
    const pl = this.#mass * l * omega;
    return { q: [l * Math.sin(theta), 0, -l * Math.cos(theta)], p: [pl * Math.cos(theta), 0, pl * Math.sin(theta)] };
  }
}

/**
 * The exact free rigid body (Jacobi elliptic functions; core
 * vilab::exact::FreeRigidBodyExact) of a normalized `rigid-body` scenario. period: that of
 * Π(t), 4K/λ, or 2π/|ν| for a symmetric body; Infinity when Π is constant or on the separatrix.
 */
class ExactRigidBody extends ExactSolution {
  #branch;

  constructor(module, scenario, maxTime) {
    const { inertia } = scenario.params;
    const { orientation, omega } = scenario.initial;
    super(
      guard('exactRigidBody', () => new module.ExactRigidBody(inertia, orientation, omega)),
      'exactRigidBody',
      'rigid-body',
      maxTime,
    );
    this.#branch = this[LIVE]().branch();
  }

  /** 'max-axis' | 'min-axis' | 'separatrix' | 'symmetric' | 'spherical' | 'steady'. */
  get branch() {
    this[LIVE]();
    return this.#branch;
  }

  /** Body angular momentum Π(t) [Π1, Π2, Π3] (a fresh array). */
  Pi(t) {
    return this[EVALUATE]('Pi', t);
  }

  /** Orientation quaternion [w, x, y, z] at t (body → space; orientation(0) = the normalized initial one). */
  orientation(t) {
    return this[EVALUATE]('orientation', t);
  }

  /** The state at t in the system's canonical coordinates: q = the orientation quaternion, p = Π. */
  state(t) {
    return { q: this.orientation(t), p: this.Pi(t) };
  }
}

/** The class of each exact solution, by its id in lab.vocabulary.exactSolutions. */
const EXACT_SOLUTIONS = { oscillator: ExactOscillator, pendulum: ExactPendulum, 'rigid-body': ExactRigidBody };

/**
 * The exact solution of a scenario: the core checks the system's `exact` capability and its
 * conditions (a VilabError with code 'no-exact-solution' names the unmet field) and
 * returns the normalized scenario it holds for.
 */
function exactSolution(module, limits, scenario) {
  const text = encodeScenario(scenario);
  const result = guard('exact', () => module.exactSolutionOf(text));
  if (!result.ok) throw coreError(result.error);
  const Solution = EXACT_SOLUTIONS[result.solution];
  if (!Solution)
    throw new VilabError(`exact: internal error (no class for the solution "${result.solution}")`, { field: 'exact', code: 'internal' });
  return new Solution(module, JSON.parse(result.scenario), limits.maxExactTime);
}

function deepFreeze(x) {
  if (x && typeof x === 'object') {
    Object.values(x).forEach(deepFreeze);
    Object.freeze(x);
  }
  return x;
}

/** The module compiled from its URL, streaming (from the same response's bytes when the server's MIME type is not application/wasm); null where there is no fetch. */
function compileInBackground(url) {
  if (typeof fetch !== 'function' || typeof WebAssembly?.compileStreaming !== 'function') return null;
  const compiled = fetch(url, { credentials: 'same-origin' }).then((r) => {
    if (!r.ok) throw new Error(`${url} answered ${r.status}`);
    return WebAssembly.compileStreaming(r.clone()).catch(() => r.arrayBuffer().then((bytes) => WebAssembly.compile(bytes)));
  });
  compiled.catch(() => {}); // reported by the caller (instantiateCompiled, deferredPart)
  return compiled;
}

/**
 * The emscripten factory on a module compiling (a promise of a WebAssembly.Module) or on
 * its bytes, through its instantiateWasm hook, with the deferred part's placeholders where
 * the build has one; rejects if compiling or instantiating fails. Resolves to the module,
 * with loadDeferred() (which has nothing to do where there is no deferred part).
 */
function instantiateCompiled(factory, args, compiled, parts) {
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  let deferred = null;
  const instantiateWasm = (imports, receive) => {
    if (parts) deferred = deferredPart(parts, imports);
    Promise.resolve(compiled)
      .then(async (wasm) => {
        const result = await WebAssembly.instantiate(wasm, imports);
        // from bytes: { module, instance }; from a compiled module: the instance
        const [instance, module] = result instanceof WebAssembly.Instance ? [result, wasm] : [result.instance, result.module];
        deferred?.start(instance, module);
        receive(instance, module);
      })
      .catch(fail);
    return {}; // asynchronous: the exports arrive through receive
  };
  return Promise.race([factory({ ...args, instantiateWasm }), failed]).then((module) => {
    module.loadDeferred = deferred ? () => deferred.load() : () => Promise.resolve();
    return module;
  });
}

/** The emscripten module of options.build, instantiated (Node reads its bytes from disk). */
async function loadModule(options) {
  const build = BUILDS[options.build];
  const args = {};
  if (options.wasmBinary) args.wasmBinary = options.wasmBinary;
  else if (isNode()) {
    // The bytes Node read itself count as the lab's: a later createLab with the same
    // bytes is the same lab, not a conflict.
    args.wasmBinary = await loadWasmBinaryInNode(options.build);
    options.wasmBinary = args.wasmBinary;
  }
  if (options.locateFile) args.locateFile = options.locateFile;
  // The deferred part's bytes: from disk in Node, else from its URL (or locateFile's).
  const deferred = build.deferred && {
    url: () => (options.locateFile ? options.locateFile('vilab-lean.deferred.wasm', '') : build.deferred()),
    read: isNode() ? await nodeFileReader(build.deferred()) : null,
    now: options.loadDeferred, // fetched beside the first part
  };
  // The full module compiles each expression program to WebAssembly with it
  // (program-compiler.js, fetched beside the full module: the lean one has no programs).
  const compiler = options.build === 'lean' ? null : import('./program-compiler.js');
  // In a browser the wasm compiles off the main thread from here on, while the loader
  // is fetched and evaluated and the page builds its view; the loader then only
  // instantiates it. A build in parts is always instantiated here, with its placeholders.
  const compiled = args.wasmBinary
    ? null
    : args.locateFile
      ? deferred && compileInBackground(args.locateFile('vilab-lean.wasm', ''))
      : compileInBackground(build.wasm());
  try {
    if (compiler) args.compileProgram = (await compiler).compileProgram;
    const { default: createVilabModule } = await build.load();
    if (compiled || (deferred && args.wasmBinary)) {
      const { wasmBinary, ...rest } = args;
      return await instantiateCompiled(createVilabModule, rest, compiled ?? wasmBinary, deferred);
    }
    return await createVilabModule(args);
  } catch (e) {
    throw new VilabError(`module: the WebAssembly core could not be loaded (${e?.message ?? e})`, { field: 'module', code: 'module-load' });
  }
}

/**
 * The editor's view of a definition (the params of system "lagrangian"): { coordinates,
 * latex: { lagrangian, constraints: [] }, params (normalized), velocityQuadratic,
 * constantMassMatrix }; throws VilabError { field, column? } at the first problem.
 * The core's parser, so the preview and the engine always agree.
 */
function inspectLagrangian(module, params) {
  const text = readForeign('params', () => {
    if (params === null || typeof params !== 'object' || Array.isArray(params) || ArrayBuffer.isView(params)) {
      throw inputError('type', 'params', `must be an object, got ${describe(params)}`);
    }
    return encodeJson(params, 'params');
  });
  const result = guard('inspectLagrangian', () => module.inspectLagrangian(text));
  if (!result.ok) throw coreError(result.error);
  const normalized = JSON.parse(result.params);
  return {
    coordinates: normalized.coordinates,
    latex: { lagrangian: result.latex.lagrangian, constraints: Array.from(result.latex.constraints) },
    params: normalized,
    velocityQuadratic: result.velocityQuadratic,
    constantMassMatrix: result.constantMassMatrix,
  };
}

const TRAJECTORY_OPTIONS = ['steps', 'every', 'include'];

function readCount(name, value, min, max) {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw inputError(numberCode(value), name, `must be an integer in [${min}, ${max}], got ${describe(value)}`);
  }
  return value;
}

function readTrajectoryOptions(options, limits) {
  if (options === null || typeof options !== 'object' || readForeign('options', () => Array.isArray(options))) {
    throw inputError('type', 'options', `must be { steps, every?, include? }, got ${describe(options)}`);
  }
  const entries = ownOptions('options', options);
  for (const key of entries.keys()) if (!TRAJECTORY_OPTIONS.includes(key)) throw unknownKey('options', key, TRAJECTORY_OPTIONS);
  if (entries.get('steps') === undefined) throw inputError('missing', 'steps', 'is required (the steps to take)');
  const steps = readCount('steps', entries.get('steps'), 0, limits.maxSteps);
  const every = readCount('every', entries.get('every') ?? 1, 1, limits.maxSteps);
  const include = readForeign('include', () => {
    const list = entries.get('include') ?? [];
    if (!Array.isArray(list)) throw inputError('type', 'include', `must be an array of diagnostic names, got ${describe(list)}`);
    return list.map((name, i) => {
      if (typeof name !== 'string') throw inputError('type', `include[${i}]`, `must be a string, got ${describe(name)}`);
      return name;
    });
  });
  return { steps, every, include };
}

// The named columns of one trajectory: t, q and p per coordinate, the diagnostics
// grouped as in history.read().
function trajectoryOf(result) {
  const data = result.data.slice(); // copy before any other call
  const names = Array.from(result.columns);
  const n = result.samples;
  const columns = {};
  names.forEach((name, c) => {
    columns[name] = data.subarray(c * n, (c + 1) * n);
  });
  const group = (prefix) => names.filter((k) => k === prefix || k.startsWith(`${prefix}.`)).map((k) => columns[k]);
  const out = {
    samples: n,
    t: columns.t,
    q: names.filter((k) => k.startsWith('q[')).map((k) => columns[k]),
    p: names.filter((k) => k.startsWith('p[')).map((k) => columns[k]),
    columns,
    refusal: result.refusal ? coreError(result.refusal) : null,
  };
  for (const key of ['energy', 'constraint', 'iterations', 'dt']) if (columns[key]) out[key] = columns[key];
  for (const key of ['momentum', 'bodyMomentum']) if (group(key).length) out[key] = group(key);
  const conserved = names.filter((k) => k.startsWith('conserved.'));
  if (conserved.length) out.conserved = Object.fromEntries(conserved.map((k) => [k.slice('conserved.'.length), columns[k]]));
  return out;
}

/**
 * lab.integrate: the trajectory of a scenario from one wasm call (see docs/api.md).
 * A refused step ends it early: the samples before it and `refusal` (a VilabError).
 */
function integrate(module, limits, scenario, options) {
  const text = encodeScenario(scenario);
  const { steps, every, include } = readTrajectoryOptions(options, limits);
  const result = guard('integrate', () => module.integrate(text, steps, every, include));
  if (!result.ok) throw coreError(result.error);
  return trajectoryOf(result);
}

function readEquationOptions(options, rules) {
  if (options === null || typeof options !== 'object' || readForeign('options', () => Array.isArray(options))) {
    throw inputError('type', 'options', `must be { rule?, alpha? }, got ${describe(options)}`);
  }
  const entries = ownOptions('options', options);
  for (const key of entries.keys()) if (key !== 'rule' && key !== 'alpha') throw unknownKey('options', key, ['rule', 'alpha']);
  const rule = entries.get('rule') ?? rules[0];
  if (typeof rule !== 'string' || !rules.includes(rule)) {
    throw inputError('unknown-id', 'rule', `must be one of ${rules.join(', ')}, got ${describe(rule)}`);
  }
  const alpha = entries.get('alpha') ?? 0.5;
  if (typeof alpha !== 'number' || !(alpha >= 0 && alpha <= 1)) {
    throw inputError(numberCode(alpha), 'alpha', `must be a number in [0, 1], got ${describe(alpha)}`);
  }
  return { rule, alpha };
}

/**
 * lab.equations: the mechanics of a definition (params of system 'lagrangian') from the
 * core's derivative graph, simplified: momenta, mass matrix, Euler–Lagrange and discrete
 * Euler–Lagrange equations of a rule, each { latex, infix }, and `latex` (all of them).
 */
function equations(module, params, options = {}) {
  if (typeof module.motionEquations !== 'function') {
    throw inputError('full-module', 'equations', 'the equations are in the full module (createLab({ build: "full" }))');
  }
  const rules = Array.from(module.equationRules());
  const { rule, alpha } = readEquationOptions(options, rules);
  const text = readForeign('params', () => {
    if (params === null || typeof params !== 'object' || Array.isArray(params) || ArrayBuffer.isView(params)) {
      throw inputError('type', 'params', `must be an object, got ${describe(params)}`);
    }
    return encodeJson(params, 'params');
  });
  const result = guard('equations', () => module.motionEquations(text, rule, alpha));
  if (!result.ok) throw coreError(result.error);
  const list = (a) => Array.from(a, (e) => ({ latex: e.latex, infix: e.infix }));
  return {
    rule,
    alpha: result.usesAlpha ? alpha : null,
    rules,
    coordinates: Array.from(result.coordinates),
    symbolicConstants: result.symbolicConstants,
    momenta: list(result.momenta),
    mass: list(result.mass),
    massLatex: result.massLatex,
    eulerLagrange: list(result.eulerLagrange),
    discrete: list(result.discrete),
    latex: result.latex,
  };
}

/**
 * lab.importMjcfText: a MuJoCo model (MJCF, XML text) as a `mechanism` scenario, the
 * 2-space JSON text `vilab import` prints (lab.importMjcf parses it). Refusals are
 * VilabErrors whose field is "mjcf line N"; the lean build throws code 'full-module'.
 */
function importMjcfText(module, xml) {
  if (typeof module.importMjcf !== 'function') {
    throw inputError('full-module', 'mjcf', 'the MJCF importer is in the full module (createLab({ build: "full" }))');
  }
  if (typeof xml !== 'string') throw inputError('type', 'mjcf', `must be MJCF (XML) text, got ${describe(xml)}`);
  const bytes = utf8Length(xml);
  if (bytes > MAX_SCENARIO_BYTES) throw inputError('too-large', 'mjcf', `too large (${bytes} bytes; the limit is 4 MiB)`);
  const result = guard('importMjcf', () => module.importMjcf(xml));
  if (!result.ok) throw coreError(result.error);
  return result.scenario;
}

/**
 * lab.exactPendulum and lab.exactRigidBody: the exact solution of one kind, or a VilabError
 * (code 'no-exact-solution', field 'system') naming the system it is known for.
 */
function exactWrappers(module, limits, normalize, systemOf) {
  const requireSolution = (normalized, solution, what) => {
    if (systemOf(normalized.system).exact?.solution === solution) return;
    throw inputError(
      'no-exact-solution',
      'system',
      `the exact solution is known for ${what} only ("${solution}"), got "${normalized.system}"`,
    );
  };
  return {
    /**
     * The exact solution of a free rigid body, built from the normalized scenario's
     * inertia and initial data (whatever its forcing: lab.exact checks that too).
     */
    exactRigidBody(scenario) {
      const normalized = normalize(scenario);
      requireSolution(normalized, 'rigid-body', 'the free rigid body');
      return new ExactRigidBody(module, normalized, limits.maxExactTime);
    },
    /** The exact planar pendulum (undamped, g > 0: checked by the core as for lab.exact). */
    exactPendulum(scenario) {
      const normalized = normalize(scenario);
      requireSolution(normalized, 'pendulum', 'the planar pendulum');
      return exactSolution(module, limits, normalized);
    },
  };
}

/** The lab over an instantiated module: its registry, deep-frozen, and the calls into it. */
function makeLab(module) {
  const registry = deepFreeze(JSON.parse(module.registryJson()));
  const { systems, integrators, limits } = registry;
  const systemOf = (id) => systems.find((s) => s.id === id);
  const normalize = (scenario) => {
    const text = encodeScenario(scenario);
    const result = guard('normalize', () => module.validateScenario(text));
    if (!result.ok) throw coreError(result.error);
    return JSON.parse(result.scenario);
  };
  return Object.freeze({
    version: registry.version,
    /** 'full', or 'lean': the first-load build, which refuses some pairs with code 'full-module'. */
    build: module.build(),
    systems,
    integrators,
    /** The core's limits (history sizes, tolerances, …), from the registry. */
    limits,
    /** The closed lists of ids (models, views, codes, actions, …), from the registry. */
    vocabulary: registry.vocabulary,
    system: systemOf,
    integrator: (id) => integrators.find((i) => i.id === id),
    /** Validates and normalizes without creating a simulation: returns the scenario or throws. */
    normalize,
    /**
     * The exact solution of a scenario ({ solution, period, state(t) → { q, p }, dispose() }
     * and what its kind adds), or a VilabError with code 'no-exact-solution' naming the
     * unmet field (the system's `exact` capability and its conditions).
     */
    exact: (scenario) => exactSolution(module, limits, scenario),
    ...exactWrappers(module, limits, normalize, systemOf),
    inspectLagrangian: (params) => inspectLagrangian(module, params),
    /** The rules lab.equations() can show: 'midpoint', 'trapezoid', 'alpha' ([] in the lean build). */
    equationRules: typeof module.equationRules === 'function' ? Object.freeze(Array.from(module.equationRules())) : Object.freeze([]),
    equations: (params, options) => equations(module, params, options),
    /** A MuJoCo model (MJCF, XML text) as a `mechanism` scenario object (full build). */
    importMjcf: (xml) => JSON.parse(importMjcfText(module, xml)),
    /** The same scenario as the 2-space JSON text `vilab import` prints. */
    importMjcfText: (xml) => importMjcfText(module, xml),
    /**
     * The trajectory of a scenario from one wasm call: { samples, t, q[i], p[i] (Float64Arrays,
     * sample k at step k·every), the diagnostics in `include`, columns, refusal }; the same bits
     * as advance(1) and sim.q, sim.p. At most limits.maxTrajectoryValues numbers.
     */
    integrate: (scenario, options) => integrate(module, limits, scenario, options),
    /** A new simulation; options { historyStride = 1, historyCapacity = limits.historyCapacity.default }. */
    simulate(scenario, simOptions) {
      return new Simulation(module, limits, scenario, simOptions, systemOf);
    },
    /** The registry exactly as the native `vilab registry` prints it (2-space JSON). */
    registryText: () => guard('registryText', () => module.registryText()),
    /**
     * The lean build's deferred part (what the page's first frame does not run), compiled off
     * the main thread; a call that needs it before then fetches it synchronously. The page
     * calls it after its first frame. Resolves at once for the full build.
     */
    loadDeferred: () => (module.loadDeferred ? module.loadDeferred() : Promise.resolve()),
    /** Bytes of wasm linear memory (grows, never shrinks). */
    heapBytes: () => module.HEAPU8.length,
    /** Bytes currently allocated by malloc inside the module (for leak checks). */
    heapUsed: () => guard('heapUsed', () => module.heapUsed()),
    ...programSwitch(module),
  });
}

/**
 * Expression programs compiled to WebAssembly (systems defined by data, full build):
 * programCounts() → { compiled, failed, compiledRuns, interpretedRuns, enabled } since the
 * module started; setCompiledPrograms(false) runs every program on the interpreter (the
 * reference: the same bits) from its next run on, true compiles again.
 */
function programSwitch(module) {
  const compiler = typeof module.programCounts === 'function';
  return {
    programCounts: () =>
      compiler
        ? { ...guard('programCounts', () => module.programCounts()) }
        : { compiled: 0, failed: 0, compiledRuns: 0, interpretedRuns: 0, enabled: false },
    setCompiledPrograms(enabled) {
      if (typeof enabled !== 'boolean') throw inputError('type', 'enabled', `must be true or false, got ${describe(enabled)}`);
      if (compiler) guard('setCompiledPrograms', () => module.setCompiledPrograms(enabled));
    },
  };
}

async function loadLab(options) {
  return makeLab(await loadModule(options));
}

// One lab per build, loaded once: { promise, options }.
const labs = new Map();

function sameBytes(a, b) {
  const x = ArrayBuffer.isView(a) ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength) : new Uint8Array(a);
  const y = ArrayBuffer.isView(b) ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function readLabOptions(options) {
  if (options === null || typeof options !== 'object' || readForeign('options', () => Array.isArray(options))) {
    throw inputError('type', 'options', `must be an object, got ${describe(options)}`);
  }
  const known = ['build', 'wasmBinary', 'locateFile', 'loadDeferred'];
  const entries = ownOptions('options', options);
  for (const key of entries.keys()) {
    if (!known.includes(key)) throw unknownKey('options', key, known);
  }
  const build = entries.get('build') ?? 'full';
  if (typeof build !== 'string' || !hasOwn(BUILDS, build))
    throw inputError('unknown-id', 'options.build', `must be "full" or "lean", got ${describe(build)}`);
  const wasmBinary = entries.get('wasmBinary');
  const locateFile = entries.get('locateFile');
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer || ArrayBuffer.isView(wasmBinary))) {
    throw inputError('type', 'options.wasmBinary', `must be an ArrayBuffer or a typed array, got ${describe(wasmBinary)}`);
  }
  if (locateFile !== undefined && typeof locateFile !== 'function') {
    throw inputError('type', 'options.locateFile', `must be a function, got ${describe(locateFile)}`);
  }
  const loadDeferred = entries.get('loadDeferred') ?? false;
  if (typeof loadDeferred !== 'boolean') {
    throw inputError('type', 'options.loadDeferred', `must be true or false, got ${describe(loadDeferred)}`);
  }
  return { build, wasmBinary, locateFile, loadDeferred };
}

/**
 * Loads the WebAssembly core once and returns the lab; later calls return the same
 * lab. options.build: 'full' (the default) or 'lean' (the page's first load, one lab
 * per build); options.wasmBinary: the module's bytes (Node reads them from disk by
 * itself); options.locateFile: as for any emscripten module. Options that conflict
 * with the loaded module (other bytes, another locateFile) are an error, not ignored.
 */
export function createLab(options = {}) {
  let opts;
  try {
    opts = readLabOptions(options);
  } catch (e) {
    return Promise.reject(e);
  }
  const loaded = labs.get(opts.build);
  if (loaded && opts.loadDeferred) loaded.promise.then((lab) => lab.loadDeferred()).catch(() => {});
  if (loaded) {
    const conflict =
      (opts.wasmBinary !== undefined &&
        (loaded.options.wasmBinary === undefined || !sameBytes(opts.wasmBinary, loaded.options.wasmBinary))) ||
      (opts.locateFile !== undefined && opts.locateFile !== loaded.options.locateFile);
    if (conflict) {
      return Promise.reject(
        inputError(
          'conflict',
          'options',
          'the lab is already loaded with other options; createLab loads the module once per page or process',
        ),
      );
    }
    return loaded.promise;
  }
  const entry = { options: opts, promise: null };
  entry.promise = loadLab(opts).catch((e) => {
    labs.delete(opts.build);
    throw e;
  });
  labs.set(opts.build, entry);
  return entry.promise;
}

export { MAX_SCENARIO_BYTES };
