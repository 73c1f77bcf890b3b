// Node lower-cases incoming header names, so everything in a headers schema that names a header
// must be lower-cased too, or it silently never applies: a `required` entry, a dependency written
// 'X-Admin' that never fires, a `propertyNames` deny-list that never matches. Header *values*
// (the schemas under `properties`) keep their case.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const lower = (name: unknown): unknown => (typeof name === 'string' ? name.toLowerCase() : name);

const LIST_COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;
const SINGLE_COMBINATORS = ['not', 'if', 'then', 'else'] as const;
const DEPENDENCY_KEYWORDS = ['dependencies', 'dependentRequired', 'dependentSchemas'] as const;
const DEFINITION_KEYWORDS = ['definitions', '$defs'] as const;

/** A copy of `record` with its keys lower-cased (defined, so `__proto__` stays a plain key) and its values mapped. */
function lowerKeys(record: Record<string, unknown>, mapValue: (value: unknown) => unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(record)) {
    Object.defineProperty(copy, name.toLowerCase(), { value: mapValue(record[name]), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Applies `normalize` to the subschemas of the combinators of `schema`, into `copy`. */
function throughCombinators(schema: Record<string, unknown>, copy: Record<string, unknown>, normalize: (schema: unknown) => unknown): void {
  for (const keyword of LIST_COMBINATORS) {
    if (Array.isArray(schema[keyword])) copy[keyword] = schema[keyword].map(normalize);
  }
  for (const keyword of SINGLE_COMBINATORS) {
    if (schema[keyword] !== undefined) copy[keyword] = normalize(schema[keyword]);
  }
}

/** A schema that validates one header name (under `propertyNames`): its `enum` and `const` are names. */
function nameSchema(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  const copy: Record<string, unknown> = { ...schema };
  if (Array.isArray(schema.enum)) copy.enum = schema.enum.map(lower);
  if (typeof schema.const === 'string') copy.const = schema.const.toLowerCase();
  throughCombinators(schema, copy, nameSchema);
  return copy;
}

/**
 * Returns a copy of a headers schema with every header name lower-cased: `properties` names,
 * `required` entries, dependency triggers and the names they require, `propertyNames` enums and
 * consts, through `allOf`/`anyOf`/`oneOf`/`not`/`if`/`then`/`else`, dependency subschemas and
 * local `definitions`/`$defs`. The schema given is never modified.
 *
 * @example
 * lowerCaseHeaderNames({ type: 'object', required: ['X-Token'], properties: { 'X-Token': {} } })
 * // { type: 'object', required: ['x-token'], properties: { 'x-token': {} } }
 */
export function lowerCaseHeaderNames(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  const copy: Record<string, unknown> = { ...schema };
  if (isPlainObject(schema.properties)) copy.properties = lowerKeys(schema.properties, (value) => value);
  if (Array.isArray(schema.required)) copy.required = schema.required.map(lower);
  for (const keyword of DEPENDENCY_KEYWORDS) {
    if (!isPlainObject(schema[keyword])) continue;
    copy[keyword] = lowerKeys(schema[keyword], (value) => (Array.isArray(value) ? value.map(lower) : lowerCaseHeaderNames(value)));
  }
  if (schema.propertyNames !== undefined) copy.propertyNames = nameSchema(schema.propertyNames);
  throughCombinators(schema, copy, lowerCaseHeaderNames);
  for (const keyword of DEFINITION_KEYWORDS) {
    if (!isPlainObject(schema[keyword])) continue;
    const definitions: Record<string, unknown> = {};
    for (const name of Object.keys(schema[keyword])) {
      Object.defineProperty(definitions, name, { value: lowerCaseHeaderNames(schema[keyword][name]), enumerable: true, writable: true, configurable: true });
    }
    copy[keyword] = definitions;
  }
  return copy;
}
