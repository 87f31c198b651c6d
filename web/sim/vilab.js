// vilab: the JavaScript API over the WebAssembly core. One contract for the page,
// for Node and for anyone who embeds it:
//
//   import { createLab } from 'vilab';
//   const lab = await createLab();
//   const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
//   sim.advance(1000);
//   console.log(sim.time, sim.diagnostics().energy, sim.hash());
//   sim.dispose();
//
// Every array returned is a fresh copy (never a view into the wasm heap), so
// nothing goes stale when the heap grows.
import createVilabModule from '../../build/wasm/vilab.mjs';

const PREFIX = 'vilab: ';

function vilabError(message) {
  const text = String(message);
  return new Error(text.startsWith(PREFIX) ? text : PREFIX + text);
}

function isNode() {
  return typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
}

async function loadWasmBinaryInNode() {
  // A variable specifier keeps bundlers from trying to resolve node:fs for browsers.
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* @vite-ignore */ fsModule);
  return readFile(new URL('../../build/wasm/vilab.wasm', import.meta.url));
}

// JSON cannot carry NaN or ±Infinity (JSON.stringify turns them into null). Send
// them as the strings the core reports verbatim, so the error names the field.
function encodeScenario(scenario) {
  if (scenario === null || typeof scenario !== 'object' || Array.isArray(scenario)) {
    throw vilabError('scenario: must be an object');
  }
  return JSON.stringify(scenario, (_key, value) => {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
    }
    if (typeof value === 'bigint') return Number(value);
    return value;
  });
}

function copyFloat64(view) {
  return Float64Array.from(view);
}

function toFloat64(name, value) {
  if (!(value instanceof Float64Array || Array.isArray(value) || ArrayBuffer.isView(value))) {
    throw vilabError(`${name}: must be an array or a Float64Array`);
  }
  const out = Float64Array.from(value, Number);
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i])) throw vilabError(`${name}[${i}]: must be a finite number`);
  }
  return out;
}

const DIAGNOSTIC_AXES = ['x', 'y', 'z'];

class Simulation {
  #module;
  #native;
  #disposed = false;
  #columns;

  constructor(module, scenario, options) {
    const stride = options.historyStride ?? 1;
    const capacity = options.historyCapacity ?? 32768;
    for (const [name, v, max] of [['historyStride', stride, 1e6], ['historyCapacity', capacity, 1048576]]) {
      if (!Number.isInteger(v) || v < 1 || v > max) throw vilabError(`${name}: must be an integer in [1, ${max}]`);
    }
    this.#module = module;
    const native = new module.Simulation(encodeScenario(scenario), stride, capacity);
    const error = native.error();
    if (error) {
      native.delete();
      throw vilabError(error);
    }
    this.#native = native;
    this.#columns = JSON.parse(native.historyColumns());
  }

  #live() {
    if (this.#disposed) throw vilabError('simulation: used after dispose()');
    return this.#native;
  }

  /** The normalized scenario, defaults filled in. */
  scenario() {
    return JSON.parse(this.#live().scenario());
  }

  /** The most steps one advance() call takes (so a call stays short). */
  get maxAdvance() {
    return this.#live().maxAdvance();
  }

  /**
   * Runs min(n, maxAdvance) steps inside one wasm call; returns the steps taken.
   * A refused step throws Error('vilab: step k refused: <reason> ...'); the state
   * stays at the last good step.
   */
  advance(n = 1) {
    const native = this.#live();
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
      throw vilabError(`n: must be a non-negative integer, got ${typeof n === 'number' ? n : typeof n}`);
    }
    const taken = native.advance(Math.min(n, native.maxAdvance()));
    if (taken < 0) throw vilabError(native.error());
    return taken;
  }

  get time() {
    return this.#live().time();
  }
  get step() {
    return this.#live().step();
  }
  /** Generalized coordinates of the integrator (copy). */
  get q() {
    return copyFloat64(this.#live().q());
  }
  /** Conjugate momenta (copy). */
  get p() {
    return copyFloat64(this.#live().p());
  }

  /**
   * { energy, momentum: number[], constraint, iterations, bodyMomentum? }.
   * momentum is the conserved momentum map (J_z for pendulums, spatial angular
   * momentum for rigid bodies); bodyMomentum is Π for rigid bodies.
   */
  diagnostics() {
    const d = this.#live().diagnostics();
    const out = {
      energy: d[0],
      momentum: Array.from(d.subarray(4, 4 + d[3])),
      constraint: d[1],
      iterations: d[2],
    };
    if (d[7]) out.bodyMomentum = [d[8], d[9], d[10]];
    return out;
  }

  /** What to draw: bob positions [x,y,z,...] or the orientation quaternion [w,x,y,z]. */
  visualState() {
    return copyFloat64(this.#live().visualState());
  }

  /** Replaces (q, p); throws when malformed or off the constraint manifold. Resets step and history. */
  setState({ q, p } = {}) {
    const native = this.#live();
    const error = native.setState(toFloat64('q', q), toFloat64('p', p));
    if (error) throw vilabError(error);
  }

  /** FNV-1a 64 of the exact bytes of q, p and the step count (hex); equals `vilab hash`. */
  hash() {
    return this.#live().hash();
  }

  /**
   * Diagnostic time series recorded in C++ every `stride` steps:
   *   history.columns      ['t', 'energy', 'constraint', 'iterations', 'momentum', ...]
   *   history.total        samples recorded so far
   *   history.read(from)   { start, count, t: Float64Array, energy: ..., ... } copies of
   *                        samples [max(from, oldest held), total)
   */
  get history() {
    const native = this.#live();
    const columns = this.#columns;
    return {
      columns: columns.slice(),
      stride: native.historyStride(),
      capacity: native.historyCapacity(),
      total: native.historyTotal(),
      read: (from = 0) => {
        const n = this.#live();
        const data = n.historyRead(from);
        const start = n.historyReadStart();
        const count = data.length / columns.length;
        const out = { start, count };
        columns.forEach((name, c) => {
          out[name] = Float64Array.from(data.subarray(c * count, (c + 1) * count));
        });
        return out;
      },
    };
  }

  /** CSV header and the current row, as the native CLI prints them. */
  csvHeader() {
    return this.#live().csvHeader();
  }
  csvRow() {
    return this.#live().csvRow();
  }

  get disposed() {
    return this.#disposed;
  }

  /** Frees the wasm memory. Further use throws. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#native.delete();
    this.#native = null;
  }
}

/**
 * Loads the WebAssembly core once and returns the lab.
 * options.wasmBinary: the module's bytes (Node loads them from disk by itself).
 */
export async function createLab(options = {}) {
  const args = {};
  if (options.wasmBinary) args.wasmBinary = options.wasmBinary;
  else if (isNode()) args.wasmBinary = await loadWasmBinaryInNode();
  const module = await createVilabModule(args);
  const registry = JSON.parse(module.registryJson());
  const freeze = (x) => {
    if (x && typeof x === 'object') {
      Object.values(x).forEach(freeze);
      Object.freeze(x);
    }
    return x;
  };
  const systems = freeze(registry.systems);
  const integrators = freeze(registry.integrators);
  return Object.freeze({
    version: registry.version,
    systems,
    integrators,
    system: (id) => systems.find((s) => s.id === id),
    integrator: (id) => integrators.find((i) => i.id === id),
    /** Validates and normalizes without creating a simulation: returns the scenario or throws. */
    normalize(scenario) {
      const result = JSON.parse(module.validateScenario(encodeScenario(scenario)));
      if (!result.ok) throw vilabError(result.error);
      return result.scenario;
    },
    /** A new simulation; options { historyStride = 1, historyCapacity = 32768 }. */
    simulate(scenario, simOptions = {}) {
      return new Simulation(module, scenario, simOptions);
    },
    /** Bytes of the wasm heap (for leak checks). */
    heapBytes: () => module.HEAPU8.length,
  });
}

export { DIAGNOSTIC_AXES };
