// Shared by the serialization tests: the response schemas they use, a reference implementation of
// "filter by schema, then coerce" written from fast-json-stringify's documented behaviour, and
// fast-check arbitraries for schemas and for data that the serializer accepts.
import fc from 'fast-check';

export const ADDRESS_ID = 'http://example.com/address.json';

/** Shared schemas as `addSchema` would hold them, keyed by `$id`. */
export const sharedSchemas: Record<string, any> = {
  [ADDRESS_ID]: {
    $id: ADDRESS_ID,
    type: 'object',
    properties: { city: { type: 'string' }, zip: { type: 'integer' } },
    definitions: {
      geo: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } } },
      tag: { $id: '#tag', type: 'object', properties: { label: { type: 'string' } } },
    },
  },
  money: { $id: 'money', type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string' } } },
};

/** Definitions added to every root schema so that the local `$ref` forms have a target. */
export const localDefinitions = {
  point: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } } },
  label: { $id: '#label', type: 'object', properties: { text: { type: 'string' } } },
};

/** Every `$ref` form of SPEC §5.3, with the schema it points at. */
export const refTargets: Record<string, any> = {
  '#label': localDefinitions.label,
  '#/definitions/point': localDefinitions.point,
  [`${ADDRESS_ID}#`]: sharedSchemas[ADDRESS_ID],
  [`${ADDRESS_ID}#/definitions/geo`]: sharedSchemas[ADDRESS_ID].definitions.geo,
  [`${ADDRESS_ID}#tag`]: sharedSchemas[ADDRESS_ID].definitions.tag,
  'money#': sharedSchemas.money,
};

/** Hand-written response schemas used across the serialization tests. */
export const fixtureSchemas: Record<string, any> = {
  user: {
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string' }, admin: { type: 'boolean' } },
  },
  userList: {
    type: 'array',
    items: { type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } },
  },
  nested: {
    type: 'object',
    properties: {
      owner: { type: 'object', properties: { name: { type: 'string' }, address: { $ref: `${ADDRESS_ID}#` } } },
      price: { $ref: 'money#' },
      where: { $ref: `${ADDRESS_ID}#/definitions/geo` },
      badge: { $ref: `${ADDRESS_ID}#tag` },
      origin: { $ref: '#/definitions/point' },
      caption: { $ref: '#label' },
    },
    definitions: localDefinitions,
  },
  scalars: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      count: { type: 'integer' },
      ratio: { type: 'number' },
      flag: { type: 'boolean' },
      nothing: { type: 'null' },
      when: { type: 'string', format: 'date-time' },
      maybe: { type: 'string', nullable: true },
      maybeObject: { type: 'object', nullable: true, properties: { a: { type: 'integer' } } },
      either: { type: ['integer', 'null'] },
    },
  },
  openObject: {
    type: 'object',
    properties: { id: { type: 'integer' } },
    additionalProperties: true,
  },
  typedExtras: {
    type: 'object',
    properties: { id: { type: 'integer' } },
    additionalProperties: { type: 'string' },
  },
  closedExtras: {
    type: 'object',
    properties: { id: { type: 'integer' } },
    additionalProperties: false,
  },
  sharedRoot: { $ref: 'money#' },
  profile: {
    type: 'object',
    properties: { id: { type: 'integer' }, profile: { type: 'object', properties: { name: { type: 'string' } } } },
  },
  openNested: {
    type: 'object',
    properties: { meta: { type: 'object', additionalProperties: true } },
  },
};

// ─── the reference: what the serialized output should parse back to ──────────────────────────

function resolve(schema: any): any {
  if (schema !== null && typeof schema === 'object' && typeof schema.$ref === 'string') {
    const target = refTargets[schema.$ref];
    if (target === undefined) throw new Error(`reference filter: unknown $ref ${schema.$ref}`);
    return resolve(target);
  }
  return schema;
}

function coerceString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString();
  if (value instanceof RegExp) return value.source;
  return String(value);
}

/**
 * Filters `value` by `schema` and coerces it the way fast-json-stringify documents: undeclared
 * properties dropped (unless `additionalProperties` admits them), `null` becomes the type's empty
 * value unless the schema is nullable, numbers/strings/booleans converted, Dates as ISO strings.
 * Only covers the keywords the fixtures and the generated schemas use.
 */
export function referenceFilter(schema: any, value: unknown): unknown {
  if (schema === true || schema === undefined) return value;
  const resolved = resolve(schema);
  if (value === null && resolved.nullable === true) return null;
  let type = resolved.type;
  if (Array.isArray(type)) {
    if (value === null && type.includes('null')) return null;
    type = type.find((candidate: string) => candidate !== 'null');
  }
  switch (type) {
    case 'null':
      return null;
    case 'string':
      return coerceString(value);
    case 'number': {
      const number = Number(value);
      return Number.isFinite(number) ? number : null;
    }
    case 'integer':
      return Number.isInteger(value) ? value : Math.trunc(value as number);
    case 'boolean':
      return Boolean(value);
    case 'array':
      return value === null ? [] : (value as unknown[]).map((item) => referenceFilter(resolved.items, item));
    case 'object':
      return filterObject(resolved, value);
    default:
      return value;
  }
}

function filterObject(schema: any, value: unknown): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  if (value === null || typeof value !== 'object') return output;
  const source = value as Record<string, unknown>;
  const properties: Record<string, unknown> = schema.properties ?? {};
  // defineProperty: an own `__proto__` key in the data is written as a key by the serializer.
  const put = (name: string, item: unknown) => Object.defineProperty(output, name, { value: item, enumerable: true, writable: true, configurable: true });
  for (const name of Object.keys(properties)) {
    if (source[name] !== undefined) put(name, referenceFilter(properties[name], source[name]));
  }
  const extras = schema.additionalProperties;
  if (extras === undefined || extras === false) return output;
  for (const name of Object.keys(source)) {
    const item = source[name];
    if (Object.hasOwn(properties, name) || item === undefined || typeof item === 'function') continue;
    put(name, extras === true ? item : referenceFilter(extras, item));
  }
  return output;
}

// ─── arbitraries ─────────────────────────────────────────────────────────────────────────────

const reservedNames = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Property names, including ones that need escaping; never an `Object.prototype` name. */
export const propertyName = fc
  .oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/), fc.constantFrom('with space', 'quo"te', 'back\\slash', 'ünï', '0', 'tab\there'))
  .filter((name) => !reservedNames.has(name));

const safeDate = fc.date({ noInvalidDate: true, min: new Date(-8.64e15 + 1), max: new Date(8.64e15 - 1) });
const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });

/** Values that fast-json-stringify accepts for a schema, including ones it must coerce. */
export function valueFor(schema: any, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema);
  const base = valueForType(resolved, depth);
  return resolved.nullable === true ? fc.oneof(fc.constant(null), base) : base;
}

function valueForType(schema: any, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.type)) {
    const single = schema.type.find((candidate: string) => candidate !== 'null');
    // Multi-type schemas pick a branch by the value's own type, so give exactly that type.
    const strict: Record<string, fc.Arbitrary<unknown>> = {
      integer: fc.integer(),
      number: finiteDouble,
      string: fc.string(),
      boolean: fc.boolean(),
    };
    return fc.oneof(fc.constant(null), strict[single] ?? fc.constant(null));
  }
  switch (schema.type) {
    case 'null':
      return fc.oneof(fc.constant(null), fc.integer(), fc.string());
    case 'string':
      if (schema.format === 'date-time') return fc.oneof(safeDate, fc.constant(null), fc.stringMatching(/^[0-9T:.Z-]{0,24}$/));
      return fc.oneof(fc.string({ unit: 'binary' }), fc.integer(), finiteDouble, fc.boolean(), fc.constant(null), safeDate);
    case 'number':
      return fc.oneof(fc.double({ noNaN: true }), fc.integer(), finiteDouble.map(String), fc.boolean(), fc.constant(null), safeDate);
    case 'integer':
      return fc.oneof(fc.integer(), finiteDouble, finiteDouble.map(String), fc.boolean(), fc.constant(null));
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.integer(), fc.string(), fc.constant(null));
    case 'array':
      return fc.oneof(
        { weight: 4, arbitrary: fc.array(valueFor(schema.items ?? true, depth + 1), { maxLength: 4 }) },
        { weight: 1, arbitrary: fc.constant(null) },
      );
    case 'object':
      return fc.oneof({ weight: 6, arbitrary: objectValueFor(schema, depth) }, { weight: 1, arbitrary: fc.constant(null) });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectValueFor(schema: any, depth: number): fc.Arbitrary<unknown> {
  const properties: Record<string, unknown> = schema.properties ?? {};
  const declared: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of Object.keys(properties)) declared[name] = valueFor(properties[name], depth + 1);
  const extras = schema.additionalProperties;
  // Undeclared data must never reach the output unless admitted; make some of it look tempting.
  const extraValue =
    extras !== undefined && extras !== false && extras !== true
      ? valueFor(extras, depth + 1)
      : fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ password: 'hunter2', token: 'secret' }));
  return fc
    .tuple(
      fc.record(declared, { requiredKeys: [] }),
      fc.dictionary(
        propertyName.filter((name) => !Object.hasOwn(properties, name)),
        extraValue,
        { maxKeys: 3 },
      ),
    )
    .map(([known, unknown]) => ({ ...unknown, ...known }));
}

const leafSchema = fc.oneof(
  fc.constantFrom(
    { type: 'string' },
    { type: 'number' },
    { type: 'integer' },
    { type: 'boolean' },
    { type: 'null' },
    { type: 'string', format: 'date-time' },
    { type: ['string', 'null'] },
    { type: ['integer', 'null'] },
  ),
  fc.constantFrom('string', 'number', 'integer', 'boolean').map((type) => ({ type, nullable: true })),
);

const refSchema = fc.constantFrom(...Object.keys(refTargets)).map(($ref) => ({ $ref }));

/** Schemas built from the keywords the reference understands, a few levels deep. */
export const schemaArbitrary: fc.Arbitrary<any> = fc.letrec<{ schema: any }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'schema' },
    { weight: 3, arbitrary: leafSchema },
    { weight: 1, arbitrary: refSchema },
    {
      weight: 2,
      arbitrary: fc
        .record({
          properties: fc.dictionary(propertyName, tie('schema'), { maxKeys: 4 }),
          additionalProperties: fc.oneof(fc.constant(undefined), fc.constant(false), fc.constant(true), leafSchema),
          nullable: fc.boolean(),
        })
        .map(({ properties, additionalProperties, nullable }) => ({
          type: 'object',
          properties,
          ...(additionalProperties === undefined ? {} : { additionalProperties }),
          ...(nullable ? { nullable } : {}),
        })),
    },
    { weight: 1, arbitrary: tie('schema').map((items) => ({ type: 'array', items })) },
  ),
})).schema;

/** A generated schema as a route would declare it: with local definitions for `#...` refs. */
export const rootSchemaArbitrary: fc.Arbitrary<any> = schemaArbitrary.map((schema) => ({ ...schema, definitions: localDefinitions }));
