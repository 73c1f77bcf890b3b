// How the value under one `schema.response` key is read: a schema, the contract shorthand, or a
// `content` map by media type. Everything here runs at boot.
import { errorCodes } from '../errors.js';

/** What one response key declares. */
export type ResponseDeclaration = { kind: 'schema'; schema: unknown } | { kind: 'content'; entries: Array<{ mediaType: string; schema: unknown }> };

/** The media type that matches any reply without an entry of its own. */
export const CATCH_ALL_MEDIA_TYPE = '*/*';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// The keywords that mark an object as a full schema rather than a shorthand property list
// (SPEC §6.1, which §7.1 reuses).
const FULL_SCHEMA_KEYWORDS = ['type', 'properties', '$ref', 'oneOf', 'anyOf', 'allOf', '$merge', '$patch'];

function isPropertySchema(value: unknown): boolean {
  return typeof value === 'boolean' || isPlainObject(value);
}

/**
 * Applies the contract shorthand: a plain object with none of the full-schema keywords, whose
 * top-level values are all schemas, lists properties and becomes `{ type: 'object', properties }`.
 * Anything else is returned as it is. The "values are schemas" condition is ours: an object such
 * as `{ description: 'No content' }` cannot be a property list, so it is left for the compiler
 * to read as a schema instead of failing the build.
 *
 * @example
 * expandShorthand({ id: { type: 'integer' } }) // → { type: 'object', properties: { id: { type: 'integer' } } }
 * expandShorthand({ type: 'string' })          // → the same object
 */
export function expandShorthand(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  for (const keyword of FULL_SCHEMA_KEYWORDS) {
    if (schema[keyword] !== undefined) return schema;
  }
  if (!Object.values(schema).every(isPropertySchema)) return schema;
  return { type: 'object', properties: schema };
}

/**
 * The essence of a media type: `type/subtype`, lower-cased, parameters and surrounding
 * whitespace dropped.
 *
 * @example
 * mediaTypeEssence(' Application/JSON; charset=utf-8') // → 'application/json'
 */
export function mediaTypeEssence(value: string): string {
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * Whether a response value or a body schema is a `content` map by media type. Its keys are media
 * types, so a map with at least one slashed key is one (a key that is no media type then fails
 * as an entry without a schema, as in Fastify), and so is an empty map; a map without any
 * slashed key is a shorthand property list that has a property called `content`.
 *
 * @example
 * isContentMap({ content: { 'application/json': { schema: {} } } }) // → true
 * isContentMap({ content: {} })                                     // → true: no media type has a schema
 * isContentMap({ content: { type: 'string' } })                     // → false: a property named content
 */
export function isContentMap(value: unknown): value is { content: Record<string, unknown> } {
  if (!isPlainObject(value) || value.type !== undefined || value.properties !== undefined || value.$ref !== undefined) return false;
  const content: unknown = value.content;
  if (!isPlainObject(content)) return false;
  const mediaTypes = Object.keys(content);
  return mediaTypes.length === 0 || mediaTypes.some((mediaType) => mediaType.includes('/'));
}

/**
 * The entries of a content map, keyed by media-type essence. An entry without a schema (or a
 * key that is no media type, such as a stray `type`) is FST_ERR_SCH_CONTENT_MISSING_SCHEMA.
 */
export function readContentEntries(content: Record<string, unknown>): Array<{ written: string; mediaType: string; schema: unknown }> {
  return Object.entries(content).map(([written, entry]) => {
    if (!isPlainObject(entry) || entry.schema === undefined) throw new errorCodes.FST_ERR_SCH_CONTENT_MISSING_SCHEMA(written);
    return { written, mediaType: mediaTypeEssence(written), schema: entry.schema };
  });
}

/**
 * Reads the value under one response key.
 *
 * @example
 * readResponseDeclaration({ content: { 'application/json': { schema: { type: 'object' } } } })
 * // → { kind: 'content', entries: [{ mediaType: 'application/json', schema: { type: 'object' } }] }
 */
export function readResponseDeclaration(value: unknown): ResponseDeclaration {
  if (!isContentMap(value)) return { kind: 'schema', schema: expandShorthand(value) };
  const entries: Array<{ mediaType: string; schema: unknown }> = [];
  const seen = new Set<string>();
  for (const { written, mediaType, schema } of readContentEntries(value.content)) {
    if (seen.has(mediaType)) throw new errorCodes.FST_ERR_SCH_DUPLICATE(written);
    seen.add(mediaType);
    entries.push({ mediaType, schema: expandShorthand(schema) });
  }
  return { kind: 'content', entries };
}

/** Where a response key sends a status code. */
export type ResponseKey = { kind: 'status'; status: number } | { kind: 'class'; hundreds: number } | { kind: 'default' };

const STATUS_KEY = /^[1-5]\d\d$/;
const CLASS_KEY = /^[1-5]xx$/i;

/**
 * Parses a `schema.response` key, or returns null for a key that is none of an exact status
 * (100–599), a class (`1xx`…`5xx`, any case) or `default`.
 *
 * @example
 * parseResponseKey('2XX') // → { kind: 'class', hundreds: 2 }
 * parseResponseKey('type') // → null
 */
export function parseResponseKey(key: string): ResponseKey | null {
  if (key === 'default') return { kind: 'default' };
  if (STATUS_KEY.test(key)) return { kind: 'status', status: Number(key) };
  if (CLASS_KEY.test(key)) return { kind: 'class', hundreds: Number(key[0]) };
  return null;
}
