// Expression programs (the core's straight-line programs of a system defined by data)
// compiled to WebAssembly at their first run: the core hands each program's canonical
// instructions here (bindings/program_compiler.cpp), this emits a module of one function
// run(variables, out) over the core's memory, instantiates it synchronously and returns
// the function, which the core puts in its table and calls from the step.
//
// Same bits as the interpreter (core/src/expr/program.cpp), by construction: +, −, ×, ÷,
// negation and sqrt are the IEEE operations both use; sin, cos, tan, exp, log, atan2 and
// a^b call the interpreter's own functions (imported from the core); integer powers are
// the interpreter's repeated squaring, step by step; sign and abs its comparisons; NaN
// results of sqrt and abs are made canonical as the core's detmath does. WebAssembly has
// no fused multiply-add, so nothing is contracted. Values live in locals, reused once a
// value's last reader has run; the variables are read first, so `out` may alias them.

/** The operation codes, in the bindings' order. */
export const OPS = Object.freeze([
  'const',
  'var',
  'add',
  'sub',
  'mul',
  'div',
  'neg',
  'powInt',
  'pow',
  'sqrt',
  'sin',
  'cos',
  'tan',
  'exp',
  'log',
  'abs',
  'sign',
  'atan2',
]);
const IMPORTED = ['sin', 'cos', 'tan', 'exp', 'log', 'atan2', 'pow'];
const BINARY_IMPORTS = new Set(['atan2', 'pow']);
const ARITHMETIC = { add: 0xa0, sub: 0xa1, mul: 0xa2, div: 0xa3 };
/** Chromium refuses a synchronous compile above 8 MB on the main thread; a larger program stays interpreted. */
export const MAX_MODULE_BYTES = 7 * 1024 * 1024;

const I = {
  get: 0x20,
  set: 0x21,
  f64const: 0x44,
  load: 0x2b,
  store: 0x39,
  neg: 0x9a,
  abs: 0x99,
  sqrt: 0x9f,
  ne: 0x62,
  lt: 0x63,
  gt: 0x64,
  select: 0x1b,
  call: 0x10,
  end: 0x0b,
};

function uleb(out, n) {
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
}

const f64Bytes = new DataView(new ArrayBuffer(8));
function pushF64(out, value) {
  f64Bytes.setFloat64(0, value, true);
  for (let i = 0; i < 8; i++) out.push(f64Bytes.getUint8(i));
}

/** The canonical quiet NaN (0x7ff8000000000000), as the core's detmath returns for every NaN. */
const CANONICAL_NAN = [0, 0, 0, 0, 0, 0, 0xf8, 0x7f];

/** Instruction k of a program: { op, a, b, n, value }. */
function instruction(program, k) {
  const f = program.fields;
  return { op: OPS[f[4 * k]], a: f[4 * k + 1], b: f[4 * k + 2], n: f[4 * k + 3], value: program.values[k] };
}

/** Which instruction reads each value last (−1: none), and which are needed at all. */
function lastReaders(program, count) {
  const last = new Int32Array(count).fill(-1);
  const needed = new Uint8Array(count);
  for (const o of program.outputs) needed[o] = 1;
  for (let k = count - 1; k >= 0; k--) {
    if (!needed[k]) continue;
    const { op, a, b } = instruction(program, k);
    if (op === 'const' || op === 'var') continue;
    for (const r of op === 'powInt' || b < 0 ? [a] : [a, b]) {
      needed[r] = 1;
      if (last[r] < 0) last[r] = k;
    }
  }
  return { last, needed };
}

/** Local variables: f64 slots reused once free. */
class Locals {
  constructor(first) {
    this.next = first;
    this.free = [];
  }
  take() {
    return this.free.length ? this.free.pop() : this.next++;
  }
  give(slot) {
    this.free.push(slot);
  }
}

/** The function body's emitter: where each value is (a local, or a constant pushed inline). */
class Body {
  constructor(program, importIndex) {
    this.program = program;
    this.count = program.values.length;
    this.importIndex = importIndex;
    this.code = [];
    this.slot = new Int32Array(this.count).fill(-1);
    // Locals 0 and 1 are the parameters; 2, 3 and 4 the temporaries of sqrt, abs and powers.
    this.temp = [2, 3, 4];
    this.locals = new Locals(5);
  }
  op(...bytes) {
    for (const b of bytes) this.code.push(b);
  }
  local(opcode, slot) {
    this.code.push(opcode);
    uleb(this.code, slot);
  }
  constant(value) {
    this.code.push(I.f64const);
    pushF64(this.code, value);
  }
  /** Pushes value k. */
  push(k) {
    if (this.slot[k] >= 0) this.local(I.get, this.slot[k]);
    else this.constant(instruction(this.program, k).value);
  }
  memory(opcode, offset) {
    this.code.push(opcode, 3);
    uleb(this.code, offset);
  }
}

/** Replaces the NaN on the stack by the canonical one (the core's detmath canon). */
function canonical(body) {
  const t = body.temp[0];
  body.local(I.set, t);
  body.op(I.f64const, ...CANONICAL_NAN);
  body.local(I.get, t);
  body.local(I.get, t);
  body.local(I.get, t);
  body.op(I.ne, I.select);
}

/** a^n as the interpreter's integerPower: repeated squaring, 1/x^|n| for n < 0. */
function integerPower(body, a, n) {
  if (n === 2) {
    body.push(a);
    body.push(a);
    body.op(ARITHMETIC.mul);
    return;
  }
  const [, base, result] = body.temp;
  body.push(a);
  body.local(I.set, base);
  let m = Math.abs(n);
  let one = true; // result is still the 1 it starts from
  while (m) {
    if (m % 2) {
      if (one) body.constant(1);
      else body.local(I.get, result);
      body.local(I.get, base);
      body.op(ARITHMETIC.mul);
      body.local(I.set, result);
      one = false;
    }
    m = Math.floor(m / 2);
    if (m) {
      body.local(I.get, base);
      body.local(I.get, base);
      body.op(ARITHMETIC.mul);
      body.local(I.set, base);
    }
  }
  if (n < 0) body.constant(1);
  if (one) body.constant(1);
  else body.local(I.get, result);
  if (n < 0) body.op(ARITHMETIC.div);
}

/** sign(a): 1, −1 or 0 (NaN gives 0), by the interpreter's two comparisons. */
function sign(body, a) {
  body.constant(1);
  body.constant(-1);
  body.constant(0);
  body.push(a);
  body.constant(0);
  body.op(I.lt, I.select);
  body.push(a);
  body.constant(0);
  body.op(I.gt, I.select);
}

/** Pushes the value of instruction k (not a constant or a variable). */
function emitValue(body, k) {
  const { op, a, b, n } = instruction(body.program, k);
  if (op in ARITHMETIC) {
    body.push(a);
    body.push(b);
    body.op(ARITHMETIC[op]);
  } else if (op === 'neg') {
    body.push(a);
    body.op(I.neg);
  } else if (op === 'sqrt' || op === 'abs') {
    body.push(a);
    body.op(I[op]);
    canonical(body);
  } else if (op === 'powInt') integerPower(body, a, n);
  else if (op === 'sign') sign(body, a);
  else if (IMPORTED.includes(op)) {
    body.push(a);
    if (BINARY_IMPORTS.has(op)) body.push(b);
    body.op(I.call);
    uleb(body.code, body.importIndex[op]);
  } else throw new Error(`unknown operation ${op} at instruction ${k}`);
}

/** Stores value k into out[j] for every output j it is. */
function storeOutputs(body, k, outputsOf) {
  for (const j of outputsOf.get(k) ?? []) {
    body.local(I.get, 1);
    body.push(k);
    body.memory(I.store, 8 * j);
  }
}

/** The function's body: the variables read, each needed value computed once, the outputs stored. */
function emitBody(program, importIndex) {
  const body = new Body(program, importIndex);
  const { last, needed } = lastReaders(program, body.count);
  const outputsOf = new Map();
  program.outputs.forEach((o, j) => outputsOf.set(o, [...(outputsOf.get(o) ?? []), j]));
  const computed = [];
  for (let k = 0; k < body.count; k++) {
    if (!needed[k]) continue;
    const { op, n } = instruction(program, k);
    if (op === 'var') {
      body.slot[k] = body.locals.take();
      body.local(I.get, 0);
      body.memory(I.load, 8 * n);
      body.local(I.set, body.slot[k]);
    } else if (op !== 'const') computed.push(k);
  }
  // Outputs that are constants or variables, stored at once.
  for (let k = 0; k < body.count; k++) {
    const { op } = instruction(program, k);
    if (needed[k] && (op === 'const' || op === 'var')) storeOutputs(body, k, outputsOf);
  }
  for (const k of computed) {
    emitValue(body, k);
    const { op, a, b } = instruction(program, k);
    for (const r of new Set(op === 'powInt' || b < 0 ? [a] : [a, b]))
      if (last[r] === k && body.slot[r] >= 0) body.locals.give(body.slot[r]);
    body.slot[k] = body.locals.take();
    body.local(I.set, body.slot[k]);
    storeOutputs(body, k, outputsOf);
    if (last[k] < 0) body.locals.give(body.slot[k]);
  }
  body.op(I.end);
  return { code: body.code, locals: body.locals.next - 2 };
}

/** Appends bytes one by one (a spread of a large body would overflow the call's arguments). */
function append(out, bytes) {
  for (const b of bytes) out.push(b);
}

function section(out, id, content) {
  out.push(id);
  uleb(out, content.length);
  append(out, content);
}

function name(out, text) {
  uleb(out, text.length);
  for (const c of text) out.push(c.charCodeAt(0));
}

/** The module's bytes: imports (memory, the elementary functions used), one exported function `run`. */
export function programModule(program) {
  const ops = new Set(Array.from({ length: program.values.length }, (_, k) => OPS[program.fields[4 * k]]));
  const used = IMPORTED.filter((f) => ops.has(f));
  const importIndex = Object.fromEntries(used.map((f, i) => [f, i]));
  const { code, locals } = emitBody(program, importIndex);
  const bytes = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  // Types: 0 (i32, i32) → (), 1 (f64) → f64, 2 (f64, f64) → f64.
  section(bytes, 1, [3, 0x60, 2, 0x7f, 0x7f, 0, 0x60, 1, 0x7c, 1, 0x7c, 0x60, 2, 0x7c, 0x7c, 1, 0x7c]);
  const imports = [];
  uleb(imports, 1 + used.length);
  name(imports, 'env');
  name(imports, 'memory');
  imports.push(0x02, 0x00, 0x00);
  for (const f of used) {
    name(imports, 'env');
    name(imports, f);
    imports.push(0x00, BINARY_IMPORTS.has(f) ? 2 : 1);
  }
  section(bytes, 2, imports);
  section(bytes, 3, [1, 0]);
  const exports = [1];
  name(exports, 'run');
  exports.push(0x00);
  uleb(exports, used.length);
  section(bytes, 7, exports);
  const fn = [];
  if (locals > 0) {
    fn.push(1);
    uleb(fn, locals);
    fn.push(0x7c);
  } else fn.push(0);
  append(fn, code);
  const codeSection = [1];
  uleb(codeSection, fn.length);
  append(codeSection, fn);
  section(bytes, 10, codeSection);
  return new Uint8Array(bytes);
}

/**
 * The compiled function of a program { fields (Int32Array: op, a, b, n per instruction),
 * values (Float64Array), outputs (Int32Array) } over env { memory, sin, cos, tan, exp,
 * log, atan2, pow }; throws when it cannot (the core then interprets the program).
 */
export function compileProgram(program, env) {
  const bytes = programModule(program);
  if (bytes.length > MAX_MODULE_BYTES) throw new Error(`program module of ${bytes.length} bytes exceeds ${MAX_MODULE_BYTES}`);
  const module = new WebAssembly.Module(bytes);
  return new WebAssembly.Instance(module, { env }).exports.run;
}
