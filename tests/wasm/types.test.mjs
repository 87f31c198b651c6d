// The hand-written declarations (web/sim/vilab.d.ts) against what the registry returns:
// TypeScript's own checker reads the declared interfaces, and every entry of lab.systems,
// lab.integrators, lab.limits and lab.vocabulary is checked field by field — every key an
// entry has is declared, every required key is present, and every value has the declared
// type (strings, numbers, booleans, null, literal unions, arrays, nested objects) — so the
// types cannot drift from the core again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import ts from 'typescript';
import { lab, root } from './helpers.mjs';

const DECLARATIONS = join(root, 'web/sim/vilab.d.ts');
const program = ts.createProgram([DECLARATIONS], {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.esnext.disposable.d.ts'],
  strict: true,
  noEmit: true,
  types: [],
});
const checker = program.getTypeChecker();

/** The declared type of an interface or type alias exported by vilab.d.ts. */
function declared(name) {
  const module = checker.getSymbolAtLocation(program.getSourceFile(DECLARATIONS));
  const symbol = checker.getExportsOfModule(module).find((s) => s.name === name);
  assert.ok(symbol, `vilab.d.ts exports no ${name}`);
  return checker.getDeclaredTypeOfSymbol(symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
}

const show = (value) => (JSON.stringify(value) ?? String(value)).slice(0, 80);
const F = ts.TypeFlags;

/** What is wrong with `value` as a `type` (empty when nothing), each problem with its path. */
function problems(value, type, path) {
  if (type.flags & (F.Any | F.Unknown)) return [];
  if (type.isUnion()) {
    const each = type.types.map((t) => problems(value, t, path));
    if (each.some((p) => p.length === 0)) return [];
    // the member that fits best says what is wrong
    return each.reduce((a, b) => (b.length < a.length ? b : a));
  }
  const literal = (ok) => (ok ? [] : [`${path}: ${show(value)} is not ${checker.typeToString(type)}`]);
  if (type.isStringLiteral() || type.isNumberLiteral()) return literal(value === type.value);
  if (type.flags & F.BooleanLiteral) return literal(value === (checker.typeToString(type) === 'true'));
  if (type.flags & F.String) return literal(typeof value === 'string');
  if (type.flags & F.Number) return literal(typeof value === 'number');
  if (type.flags & F.Boolean) return literal(typeof value === 'boolean');
  if (type.flags & F.Null) return literal(value === null);
  if (type.flags & F.Undefined) return literal(value === undefined);
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    if (!Array.isArray(value)) return [`${path}: ${show(value)} is not an array`];
    const elements = checker.getTypeArguments(type);
    return value.flatMap((x, i) => problems(x, checker.isTupleType(type) ? elements[i] : elements[0], `${path}[${i}]`));
  }
  if (type.flags & F.Object || type.isIntersection()) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: ${show(value)} is not an object`];
    const properties = new Map(checker.getPropertiesOfType(type).map((p) => [p.name, p]));
    const index = checker.getIndexInfosOfType(type).find((i) => i.keyType.flags & F.String);
    const out = [];
    for (const [key, x] of Object.entries(value)) {
      const property = properties.get(key);
      if (property) out.push(...problems(x, checker.getTypeOfSymbol(property), `${path}.${key}`));
      else if (index) out.push(...problems(x, index.type, `${path}.${key}`));
      else out.push(`${path}.${key}: not declared in ${checker.typeToString(type)}`);
    }
    for (const [name, property] of properties) {
      if (!(property.flags & ts.SymbolFlags.Optional) && !(name in value)) out.push(`${path}.${name}: declared, missing`);
    }
    return out;
  }
  return [`${path}: cannot check against ${checker.typeToString(type)}`];
}

test('vilab.d.ts compiles on its own', () => {
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diagnostics, []);
});

test('every registry entry matches its declared type, field by field', () => {
  const found = [
    ...lab.systems.flatMap((s) => problems(s, declared('SystemInfo'), `systems[${s.id}]`)),
    ...lab.integrators.flatMap((i) => problems(i, declared('IntegratorInfo'), `integrators[${i.id}]`)),
    ...problems(lab.limits, declared('Limits'), 'limits'),
    ...problems(lab.vocabulary, declared('Vocabulary'), 'vocabulary'),
  ];
  assert.deepEqual(found, []);
  // the optional fields are checked too where an entry has them
  assert.ok(lab.systems.some((s) => s.definition) && lab.systems.some((s) => s.exact));
  assert.ok(lab.systems.some((s) => s.params.some((p) => p.integer)) || lab.integrators.some((i) => i.options.some((p) => p.integer)));
});

test('the check finds an undeclared key, a missing key and a value of the wrong kind', () => {
  const { id, title, ...rest } = lab.systems[0];
  const tampered = { ...rest, id, extra: 1, h: { ...rest.h, max: '0.1' }, view: 'stage' };
  const found = problems(tampered, declared('SystemInfo'), 's');
  assert.ok(found.includes('s.extra: not declared in SystemInfo'), found.join('\n'));
  assert.ok(found.includes('s.title: declared, missing'), found.join('\n'));
  assert.ok(
    found.some((p) => p.startsWith('s.h.max: "0.1"')),
    found.join('\n'),
  );
  assert.ok(
    found.some((p) => p.startsWith('s.view: "stage"')),
    found.join('\n'),
  );
  assert.deepEqual(problems({ ...lab.integrators[0], claims: [{ kind: 'colour', text: '' }] }, declared('IntegratorInfo'), 'i').length, 1);
});
