// Boot-time helpers for the default serializer compiler: a content key for a schema (so that
// identical schemas compile once) and a defensive copy (fast-json-stringify writes inferred
// `type`s into the schema objects it is given, which would leak into validation and into the
// user's own objects).

/** What the serializer cache needs to know about one schema. */
export interface SchemaFingerprint {
  /**
   * A deterministic text of the schema's content, or undefined when the schema holds something
   * that has no faithful text (a function, a class instance, a cycle): such schemas are compiled
   * every time instead of being cached.
   */
  key: string | undefined;
  /** True when a `$ref` appears anywhere, i.e. when the output depends on the shared schemas. */
  hasRef: boolean;
  /**
   * True when a key, `$id` or `$ref` contains a line terminator. fast-json-stringify 6 copies
   * schema paths into `//` comments of the code it generates, so such a name would end the
   * comment and the rest of it would run as code when the serializer is built.
   */
  hasLineTerminatorInName: boolean;
}

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** True when `text` contains a JavaScript line terminator. */
export function containsLineTerminator(text: string): boolean {
  return LINE_TERMINATOR.test(text);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Describes a schema for the serializer cache. Key order is kept, not sorted: the order of
 * `properties` is the order of the output, so two schemas that differ only in that order must
 * not share a serializer.
 *
 * The key is the native `JSON.stringify` of the schema (building the text by hand cost four times
 * as much). Most schemas take the short way: the text shows `$ref` and names with line
 * terminators itself, and one walk only checks that every value has a faithful text. Anything
 * else (a text with escaped quotes or line breaks, a function, a class instance, a cycle) is
 * described by the full walk, whose answers the short way gives exactly. At boot this runs for
 * every route schema: the short way halved it for 1,000 distinct schemas.
 *
 * @example
 * fingerprintSchema({ type: 'object', properties: { id: { $ref: 'id#' } } })
 * // → { key: '{"type":"object","properties":{"id":{"$ref":"id#"}}}', hasRef: true, hasLineTerminatorInName: false }
 */
export function fingerprintSchema(schema: unknown): SchemaFingerprint {
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch {
    return describeSchema(schema); // a cycle or a BigInt
  }
  // Without an escaped quote, `"$ref":` in the text can only be a key named `$ref`; without an
  // escape or raw line terminator, no name holds one.
  if (typeof text !== 'string' || ESCAPED_QUOTE_OR_LINE_TERMINATOR.test(text) || !hasFaithfulText(schema)) return describeSchema(schema);
  return { key: text, hasRef: text.includes('"$ref":'), hasLineTerminatorInName: false };
}

const ESCAPED_QUOTE_OR_LINE_TERMINATOR = /\\["nr]|[\u2028\u2029]/;

// True when JSON.stringify writes exactly what the compiler reads: plain objects and arrays of
// strings, booleans, finite numbers and null (what describeSchema calls faithful, cycles aside:
// those made JSON.stringify throw already).
function hasFaithfulText(value: unknown): boolean {
  if (typeof value !== 'object') return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
  if (value === null) return true;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!hasFaithfulText(value[index])) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const name of Object.keys(value)) {
    const child = value[name];
    if (child !== undefined && !hasFaithfulText(child)) return false;
  }
  return true;
}

// The full walk: checks what `JSON.stringify` would not say (functions, class instances, cycles,
// non-finite numbers, holes: anything whose text would not be faithful), finds `$ref` and names
// with line terminators, then the native `JSON.stringify` writes the key.
function describeSchema(schema: unknown): SchemaFingerprint {
  const ancestors: object[] = [];
  let faithful = true;
  let hasRef = false;
  let hasLineTerminatorInName = false;

  // No early exit when something cannot be keyed: the name check must still see everything.
  const inspect = (value: unknown): void => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
    if (typeof value !== 'object') {
      // undefined (an array hole), functions, symbols, BigInts, and NaN or Infinity, which
      // JSON.stringify would all write as null or leave out.
      if (typeof value !== 'number' || !Number.isFinite(value)) faithful = false;
      return;
    }
    if (ancestors.includes(value)) {
      faithful = false;
      return;
    }
    ancestors.push(value);
    // JSON.stringify would write what toJSON returns, not what the compiler reads.
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') faithful = false;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) inspect(value[index]);
    } else if (isPlainObject(value)) {
      for (const name of Object.keys(value)) {
        const child = value[name];
        if (child === undefined) continue; // absent and undefined mean the same to the compiler
        if (name === '$ref') hasRef = true;
        if (LINE_TERMINATOR.test(name)) hasLineTerminatorInName = true;
        if ((name === '$ref' || name === '$id') && typeof child === 'string' && LINE_TERMINATOR.test(child)) {
          hasLineTerminatorInName = true;
        }
        inspect(child);
      }
    } else {
      faithful = false;
    }
    ancestors.pop();
  };

  inspect(schema);
  return { key: faithful ? JSON.stringify(schema) : undefined, hasRef, hasLineTerminatorInName };
}

/**
 * A private copy of a schema whose fingerprint has a key: parsing the key back is a deep copy,
 * done natively. `__proto__` stays an own property, as JSON.parse defines keys rather than
 * assigning them.
 */
export function copyFromKey<T>(key: string): T {
  return JSON.parse(key) as T;
}

/**
 * A deep copy of the plain objects and arrays of a schema; anything else (functions, class
 * instances) is shared. Shared sub-objects and cycles are copied once and stay shared.
 *
 * @example
 * const copy = cloneSchema(schema) // copy !== schema, copy.properties !== schema.properties
 */
export function cloneSchema<T>(schema: T): T {
  const copies = new Map<object, unknown>();
  const copy = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const existing = copies.get(value);
    if (existing !== undefined) return existing;
    if (Array.isArray(value)) {
      const array: unknown[] = [];
      copies.set(value, array);
      for (const item of value) array.push(copy(item));
      return array;
    }
    if (!isPlainObject(value)) return value;
    const object: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
    copies.set(value, object);
    for (const name of Object.keys(value)) {
      // defineProperty, not assignment: a property named `__proto__` must stay a property.
      Object.defineProperty(object, name, { value: copy(value[name]), writable: true, enumerable: true, configurable: true });
    }
    return object;
  };
  return copy(schema) as T;
}

/** A schema's content key, for caches keyed by what a schema says rather than which object it is. */
export function contentKey(schema: unknown): string | undefined {
  return fingerprintSchema(schema).key;
}
