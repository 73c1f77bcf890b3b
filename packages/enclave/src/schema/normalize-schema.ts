import { errorCodes } from '../errors.js';
import { canCarryBody } from '../http/body-methods.js';
import type { HttpPart } from './contracts.js';
import { lowerCaseHeaderNames } from './header-schema-names.js';
import { expandShorthand, isContentMap, readContentEntries } from './response-schema-shape.js';

const FLUENT_SCHEMA_MARK = Symbol.for('fluent-schema-object');

/** True for `{}` literals and `Object.create(null)`: the only objects the shorthand may rewrite. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Turns a schema builder object (fluent-json-schema marks itself with a well-known symbol and
 * `isFluentSchema`) into its JSON; anything else is returned as is.
 *
 * @example
 * toPlainSchema(S.object().prop('name', S.string())) // { type: 'object', properties: … }
 */
export function toPlainSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  const candidate = schema as Record<string | symbol, unknown>;
  const isFluent = candidate.isFluentSchema === true || candidate.isFluentJSONSchema === true || candidate[FLUENT_SCHEMA_MARK] === true;
  return isFluent && typeof candidate.valueOf === 'function' ? (candidate.valueOf as () => unknown)() : schema;
}

/**
 * Applies the shorthand (top-level keys taken as properties) to one request part, after turning a schema builder
 * into JSON. The rule itself is shared with response schemas (they reuse it), so both sides read
 * a schema the same way. Returns a new object; the caller's schema is never modified.
 *
 * @example
 * expandPartShorthand({ name: { type: 'string' } }) // { type: 'object', properties: { name: { type: 'string' } } }
 * expandPartShorthand({ type: 'string' }) // unchanged
 */
export function expandPartShorthand(schema: unknown): unknown {
  return expandShorthand(toPlainSchema(schema));
}

/** A route's body schema: one schema, or one per request media type. */
export type BodySchema = { kind: 'single'; schema: unknown } | { kind: 'content'; byMediaType: Map<string, unknown> };

/** The validated parts of one route schema, normalized; absent parts are not listed. */
export interface NormalizedRouteSchema {
  params?: unknown;
  querystring?: unknown;
  headers?: unknown;
  body?: BodySchema;
}

function readContentMap(content: Record<string, unknown>): Map<string, unknown> {
  const byMediaType = new Map<string, unknown>();
  for (const { mediaType, schema } of readContentEntries(content)) byMediaType.set(mediaType, expandPartShorthand(schema));
  return byMediaType;
}

/** Route schema objects already prepared (a GET route and its HEAD route share one). */
const preparedSchemas = new WeakSet<object>();

/**
 * The changes Fastify makes to a route's own `schema` object when the application starts, made
 * here too because plugins read that object back (`request.routeOptions.schema`, onRoute's
 * options): `query` is copied to `querystring`, and schema builders (fluent-json-schema) of the
 * request parts and of each response are replaced by their JSON.
 */
export function prepareRouteSchemaObject(schema: unknown): void {
  if (!isPlainObject(schema) || preparedSchemas.has(schema) || Object.isFrozen(schema)) return;
  if (schema.query !== undefined) {
    if (schema.querystring !== undefined) throw errorCodes.FST_ERR_SCH_DUPLICATE('querystring');
    schema.querystring = schema.query;
  }
  for (const part of ['body', 'querystring', 'params', 'headers']) {
    if (schema[part] !== undefined) schema[part] = toPlainSchema(schema[part]);
  }
  const { response } = schema;
  if (isPlainObject(response) && !Object.isFrozen(response)) {
    for (const status of Object.keys(response)) response[status] = toPlainSchema(response[status]);
  }
  preparedSchemas.add(schema);
}

/**
 * Picks the validated parts out of a route's `schema` option and normalizes each: `query` is
 * read as `querystring` (both given → `FST_ERR_SCH_DUPLICATE`), the shorthand is expanded, header
 * names are lower-cased, a body `content` map is read by media-type essence, and the body is
 * dropped for methods that never carry one (GET, HEAD, TRACE: registration refuses those).
 *
 * @example
 * normalizeRouteSchema({ query: { limit: { type: 'integer' } } }, 'GET')
 * // { querystring: { type: 'object', properties: { limit: { type: 'integer' } } } }
 */
export function normalizeRouteSchema(schema: Record<string, unknown>, method: string): NormalizedRouteSchema {
  const normalized: NormalizedRouteSchema = {};
  if (schema.query !== undefined && schema.querystring !== undefined && !preparedSchemas.has(schema)) {
    throw errorCodes.FST_ERR_SCH_DUPLICATE('querystring');
  }
  const querystring = schema.querystring ?? schema.query;
  if (schema.params !== undefined) normalized.params = expandPartShorthand(schema.params);
  if (querystring !== undefined) normalized.querystring = expandPartShorthand(querystring);
  if (schema.headers !== undefined) normalized.headers = lowerCaseHeaderNames(expandPartShorthand(schema.headers));
  if (schema.body !== undefined && canCarryBody(method)) {
    const body = toPlainSchema(schema.body);
    if (!isContentMap(body)) normalized.body = { kind: 'single', schema: expandPartShorthand(body) };
    // An empty map declares no schema at all: the body is not validated, as if `body` were left
    // out (Fastify too). A map with entries refuses the media types it does not list.
    else if (Object.keys(body.content).length > 0) normalized.body = { kind: 'content', byMediaType: readContentMap(body.content) };
  }
  return normalized;
}

/** The property of the request each part is read from and written back to. */
export const REQUEST_PROPERTY_OF_PART = {
  params: 'params',
  querystring: 'query',
  headers: 'headers',
  body: 'body',
} as const satisfies Record<HttpPart, string>;
