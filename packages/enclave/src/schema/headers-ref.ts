import { lowerCaseHeaderNames } from './header-schema-names.js';
import { isPlainObject } from './normalize-schema.js';

/**
 * Makes `headers: { $ref: 'h#' }` match headers whatever the case the shared schema `h` writes
 * their names in. Node lower-cases incoming header names, and lower-casing the route's own schema
 * does nothing for properties that live in a referenced shared schema; so when the headers schema
 * is exactly a reference to a visible shared schema whose names need lower-casing, the route gets
 * a lower-cased copy of that schema instead of the reference.
 *
 * The copy has no `$id`: Ajv refuses a second, different schema under an id it already holds. A
 * schema whose names are already lower-case keeps its `$ref` untouched.
 *
 * @example
 * inlineSharedHeadersSchema({ $ref: 'auth#' }, { auth: { $id: 'auth', required: ['X-Token'] } })
 * // { required: ['x-token'] }
 */
export function inlineSharedHeadersSchema(headers: unknown, sharedSchemas: Record<string, unknown>): unknown {
  if (!isPlainObject(headers) || typeof headers.$ref !== 'string' || Object.keys(headers).length !== 1) return headers;
  const reference = headers.$ref;
  const id = reference.endsWith('#') ? reference.slice(0, -1) : reference;
  if (!Object.hasOwn(sharedSchemas, id)) return headers;
  const shared = sharedSchemas[id];
  const lowered = lowerCaseHeaderNames(shared);
  if (lowered === shared || sameNames(lowered, shared)) return headers;
  const { $id: _id, ...withoutId } = lowered as Record<string, unknown>;
  return withoutId;
}

function sameNames(lowered: unknown, original: unknown): boolean {
  const a = lowered as { properties?: object; required?: unknown[] };
  const b = original as { properties?: object; required?: unknown[] };
  const keys = (value: object | undefined): string => (value === undefined ? '' : Object.keys(value).join('\n'));
  return keys(a.properties) === keys(b.properties) && String(a.required) === String(b.required);
}
