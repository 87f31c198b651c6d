// A JSON Schema (draft-07) of vilab scenarios, generated from the registry a lab publishes:
// each system's parameters with their ranges and units, its initial fields, its
// integrators and their options, its range of h, and the format of a system defined by
// data (registry `definition`). Editors and validators in any language read it;
// `npx vilab schema` prints it and the package ships it (web/sim/scenario.schema.json,
// written by scripts/gen-schema.mjs).
//
// A schema checks structure: names, types, ranges, lengths. What needs the core stays
// the core's (lab.normalize): an expression's grammar and its names, counts that must
// agree with one another (a mass per link, one initial angle per bob), the triangle
// inequality of principal moments, data on the constraint manifold.

export const SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

/** A name of the expression language (a coordinate, a constant, a conserved quantity). */
const NAME = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,31}$' };

const describe = (item) =>
  [item.title, item.unit ? `(${item.unit})` : '', item.description ? `: ${item.description}` : ''].join(' ').trim();

/** A number in a registry range { min, max, minExclusive, integer }. */
function numberIn(spec) {
  const out = { type: spec.integer ? 'integer' : 'number', maximum: spec.max };
  if (spec.minExclusive) out.exclusiveMinimum = spec.min;
  else out.minimum = spec.min;
  return out;
}

/** One parameter of a registry system (kinds number, per-body, vector3). */
function paramSchema(p) {
  const item = numberIn(p);
  const description = describe(p);
  if (p.kind === 'number') return { ...item, description, default: p.default };
  if (p.kind === 'vector3') return { type: 'array', items: item, minItems: 3, maxItems: 3, description, default: p.default };
  return { type: 'array', items: item, minItems: p.minCount, maxItems: p.maxCount, description, default: p.default };
}

/**
 * The shape of an initial field: as its default is (a number, a list, a list of rows). A
 * system with per-body parameters takes one entry per body (up to their largest count);
 * any other list has its default's length. A field with no default: any of those shapes.
 */
function initialSchema(field, example, perBody) {
  const description = describe(field);
  const num = { type: 'number' };
  const count = perBody ? { minItems: 1, maxItems: perBody } : { minItems: example?.length, maxItems: example?.length };
  if (typeof example === 'number') return { ...num, description };
  // an expression (a field's initial u and u_t in x), or a number
  if (typeof example === 'string') return { anyOf: [{ type: 'string', minLength: 1 }, num], description };
  if (Array.isArray(example) && example.every((x) => typeof x === 'number')) return { type: 'array', items: num, ...count, description };
  if (Array.isArray(example) && Array.isArray(example[0])) {
    const width = example[0].length;
    return { type: 'array', items: { type: 'array', items: num, minItems: width, maxItems: width }, ...count, description };
  }
  const rows = { type: 'array', items: { type: 'array', items: num, minItems: 1 }, minItems: 1 };
  return { anyOf: [num, { type: 'array', items: num, minItems: 1 }, rows], description };
}

/** The options object of one integrator. */
function optionsSchema(integrator) {
  const properties = {};
  for (const o of integrator.options) properties[o.name] = { ...numberIn(o), description: describe(o), default: o.default };
  return { type: 'object', properties, additionalProperties: false };
}

/** JSON Schema's if / then (built from entries: an object literal with `then` reads as a promise to linters). */
const ifThen = (condition, consequence) =>
  Object.fromEntries([
    ['if', condition],
    ['then', consequence],
  ]);

/** `options` follows `integrator` (or the system's default integrator when it is left out). */
function optionsByIntegrator(lab, system) {
  return system.integrators.map((id) => {
    const chosen = { properties: { integrator: { const: id } }, required: ['integrator'] };
    const when = id === system.defaultIntegrator ? { anyOf: [chosen, { not: { required: ['integrator'] } }] } : chosen;
    return ifThen(when, { properties: { options: { $ref: `#/definitions/options.${id}` } } });
  });
}

/** The rules of one system's scenarios, applied when `system` is its id. */
function systemSchema(lab, system) {
  const h = { type: 'number', maximum: system.h.max, description: `time step (${system.h.unit}); default ${system.h.default}` };
  if (system.h.minExclusive) h.exclusiveMinimum = system.h.min;
  else h.minimum = system.h.min;
  const initial = { type: 'object', additionalProperties: false, properties: {} };
  const perBody = Math.max(0, ...system.params.filter((p) => p.kind === 'per-body').map((p) => p.maxCount)) || null;
  for (const f of system.initialFields) initial.properties[f.name] = initialSchema(f, system.defaults.initial?.[f.name], perBody);
  // a density that may declare its components (params.density.fields) takes each one's
  // displacement and rate (name, name + "t") as the first initial field's kind; the pattern
  // leaves out the fields already named
  const named = system.initialFields.map((f) => f.name.replace(/[^\w]/g, '')).join('|');
  if (system.paramsSchema?.properties?.density?.properties?.fields && system.initialFields.length)
    initial.patternProperties = {
      [`^(?!(${named})$)[A-Za-z][A-Za-z0-9]{0,7}t?$`]: {
        ...initial.properties[system.initialFields[0].name],
        description: "a declared component's displacement (its name) or velocity (its name + t) at t = 0: an expression in x",
      },
    };
  let params = { type: 'object', additionalProperties: false, properties: {} };
  for (const p of system.params) params.properties[p.name] = paramSchema(p);
  // params given as data with their own schema (a mechanism's bodies and joints), from the registry
  if (system.paramsSchema) params = system.paramsSchema;
  if (system.definition) {
    params = { $ref: '#/definitions/definition' };
    const n = system.definition.limits.maxCoordinates;
    for (const f of system.initialFields)
      initial.properties[f.name] = { type: 'array', items: { type: 'number' }, minItems: 1, maxItems: n };
  }
  return {
    description: describe(system),
    properties: { integrator: { enum: system.integrators }, h, params, initial },
    ...(system.definition ? { required: ['params', 'initial'] } : {}),
    allOf: optionsByIntegrator(lab, system),
  };
}

/** An expression of the language (or a number, written as one). */
const expression = (limits) => ({ anyOf: [{ type: 'string', minLength: 1, maxLength: limits.maxExpressionBytes }, { type: 'number' }] });
const point = { type: 'array', items: { $ref: '#/definitions/expression' }, minItems: 3, maxItems: 3 };
const direction = { type: 'array', items: { type: 'number', minimum: -1e6, maximum: 1e6 }, minItems: 3, maxItems: 3 };

/** A body of a system defined by data: a sphere at `position`, or a piece of furniture of a kind. */
function bodySchema(limits) {
  const placed = { kind: true, position: point, angle: { $ref: '#/definitions/expression' }, axis: direction };
  const points = { type: 'array', items: point, minItems: 2, maxItems: limits.maxFurniturePoints };
  const furniture = (kinds, extra, required = []) => ({
    type: 'object',
    required: ['kind', ...required],
    properties: { ...placed, kind: { enum: kinds }, ...extra },
    additionalProperties: false,
  });
  return {
    oneOf: [
      {
        type: 'object',
        required: ['position'],
        properties: {
          kind: { const: 'body' },
          position: point,
          anchor: {
            anyOf: [{ type: 'null' }, { type: 'integer', minimum: 0, maximum: limits.maxBodies - 1 }, direction],
          },
          link: { enum: ['rod', 'spring', 'none'] },
          radius: { type: 'number', minimum: 0, maximum: 1e3 },
        },
        additionalProperties: false,
      },
      furniture(
        ['hoop', 'pulley'],
        {
          radius: {
            anyOf: [
              { type: 'number', exclusiveMinimum: 0, maximum: 1e3 },
              { type: 'string', minLength: 1 },
            ],
          },
          normal: direction,
        },
        ['radius'],
      ),
      furniture(['floor', 'wall'], { size: { type: 'number', exclusiveMinimum: 0, maximum: 1e4 }, normal: direction }),
      furniture(['wire'], { points, closed: { type: 'boolean' } }, ['points']),
      furniture(
        ['curve'],
        {
          curve: point,
          range: { type: 'array', items: { type: 'number', minimum: -1e6, maximum: 1e6 }, minItems: 2, maxItems: 2 },
          samples: { type: 'integer', minimum: 2, maximum: limits.maxFurniturePoints },
          parameter: NAME,
          closed: { type: 'boolean' },
        },
        ['curve', 'range'],
      ),
    ],
  };
}

/** The format of a system defined by data (registry `definition`): its fields, names, limits. */
function definitionSchema(definition) {
  const { limits } = definition;
  const text = (f) => definition.fields.find((x) => x.name === f)?.description ?? '';
  const expressions = (max) => ({ type: 'array', items: { $ref: '#/definitions/expression' }, maxItems: max });
  const named = (value, max) => ({ type: 'object', propertyNames: NAME, additionalProperties: value, maxProperties: max });
  const properties = {
    coordinates: { type: 'array', items: NAME, minItems: 1, maxItems: limits.maxCoordinates, uniqueItems: true },
    constants: named({ type: 'number', minimum: -1e12, maximum: 1e12 }, limits.maxConstants),
    lagrangian: { type: 'string', minLength: 1, maxLength: limits.maxExpressionBytes },
    constraints: expressions(limits.maxConstraints),
    damping: { type: 'number', minimum: 0, maximum: 1e6 },
    forces: expressions(limits.maxCoordinates),
    conserved: named({ type: 'string', minLength: 1, maxLength: limits.maxExpressionBytes }, limits.maxConserved),
    symmetries: named(expressions(limits.maxCoordinates), limits.maxSymmetries),
    bodies: { type: 'array', items: { $ref: '#/definitions/body' }, maxItems: limits.maxBodies },
  };
  for (const f of definition.fields) if (properties[f.name]) properties[f.name].description = text(f.name);
  const unknown = definition.fields.map((f) => f.name).filter((name) => !properties[name]);
  if (unknown.length) throw new Error(`vilab schema: the registry's definition has fields the schema does not know: ${unknown.join(', ')}`);
  return {
    type: 'object',
    required: ['coordinates', 'lagrangian'],
    properties,
    additionalProperties: false,
    description: `A system defined by data. Functions: ${definition.functions.join(', ')}. ${definition.notes}`,
  };
}

/** The JSON Schema of a scenario for a lab's registry (a lab, or { systems, integrators }). */
export function scenarioSchema(lab) {
  const definitions = {};
  for (const i of lab.integrators) definitions[`options.${i.id}`] = optionsSchema(i);
  const data = lab.systems.find((s) => s.definition);
  if (data) {
    definitions.definition = definitionSchema(data.definition);
    definitions.body = bodySchema(data.definition.limits);
    definitions.expression = expression(data.definition.limits);
  }
  return {
    $schema: SCHEMA_DRAFT,
    $id: 'urn:vilab:scenario',
    title: 'vilab scenario',
    description:
      'A vilab scenario: a system, an integrator, a time step, parameters, initial data and options. Generated from the registry.',
    type: 'object',
    required: ['system'],
    properties: {
      system: { enum: lab.systems.map((s) => s.id) },
      integrator: { enum: lab.integrators.map((i) => i.id) },
      h: { type: 'number' },
      params: { type: 'object' },
      initial: { type: 'object' },
      options: { type: 'object' },
    },
    additionalProperties: false,
    allOf: lab.systems.map((s) => ifThen({ properties: { system: { const: s.id } } }, systemSchema(lab, s))),
    definitions,
  };
}

/** The schema as the package ships it and `vilab schema` prints it: 2-space JSON and a newline. */
export function scenarioSchemaText(lab) {
  return `${JSON.stringify(scenarioSchema(lab), null, 2)}\n`;
}
