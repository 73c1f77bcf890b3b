// Response serialization (SPEC §7): everything is resolved when the app becomes ready, so that on
// the request path choosing a serializer is an array index and, only for `content` maps, a Map
// lookup by media type.
import { errorCodes } from '../errors.js';
import type { SerializeFunction, SerializerCompiler } from './contracts.js';
import { CATCH_ALL_MEDIA_TYPE, mediaTypeEssence, parseResponseKey, readResponseDeclaration } from './response-schema-shape.js';

export { createDefaultSerializerCompilerFactory } from './serializer-default-compiler.js';

/** The serializers of one response key that uses a `content` map. */
interface MediaTypeSerializers {
  byMediaType: Map<string, SerializeFunction>;
  catchAll: SerializeFunction | undefined;
}

type ResponseEntry = SerializeFunction | MediaTypeSerializers | undefined;

// The media type assumed when the reply has none yet: the default serializer writes JSON.
const ASSUMED_MEDIA_TYPE = 'application/json';

function selectByMediaType(entry: MediaTypeSerializers, contentType: string | undefined): SerializeFunction | undefined {
  if (contentType === undefined) return entry.byMediaType.get(ASSUMED_MEDIA_TYPE) ?? entry.catchAll;
  // The exact header text first: `reply.type('application/json')` then needs no string work.
  return entry.byMediaType.get(contentType) ?? entry.byMediaType.get(mediaTypeEssence(contentType)) ?? entry.catchAll;
}

function buildError(method: string, url: string, where: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new errorCodes.FST_ERR_SCH_SERIALIZATION_BUILD(method, url, reason, `${where} schema`);
  if (cause instanceof Error) error.cause = cause;
  return error;
}

interface CompileInput {
  method: string;
  url: string;
  compiler: SerializerCompiler;
}

function compileOne(input: CompileInput, schema: unknown, httpStatus: string, contentType?: string): SerializeFunction {
  const where = contentType === undefined ? `response ${httpStatus}` : `response ${httpStatus} (${contentType})`;
  let serializer: unknown;
  try {
    serializer = input.compiler(
      contentType === undefined
        ? { schema, method: input.method, url: input.url, httpStatus }
        : { schema, method: input.method, url: input.url, httpStatus, contentType },
    );
  } catch (error) {
    throw buildError(input.method, input.url, where, error);
  }
  if (typeof serializer !== 'function') {
    throw buildError(input.method, input.url, where, `the serializer compiler returned ${typeof serializer}, not a function`);
  }
  return serializer as SerializeFunction;
}

function compileEntry(input: CompileInput, key: string, value: unknown): SerializeFunction | MediaTypeSerializers {
  const declaration = readResponseDeclaration(value);
  if (declaration.kind === 'schema') return compileOne(input, declaration.schema, key);
  const byMediaType = new Map<string, SerializeFunction>();
  let catchAll: SerializeFunction | undefined;
  for (const { mediaType, schema } of declaration.entries) {
    const serializer = compileOne(input, schema, key, mediaType);
    if (mediaType === CATCH_ALL_MEDIA_TYPE) catchAll = serializer;
    else byMediaType.set(mediaType, serializer);
  }
  return { byMediaType, catchAll };
}

/**
 * Compiles a route's `schema.response` once, at ready, and returns the lookup the reply uses:
 * `(statusCode, contentType) => serializer | undefined`. A status is matched by its exact key,
 * then its class (`2xx`), then `default`; within a key that has a `content` map, by the reply's
 * media type (essence, case-insensitive, parameters ignored), then `*\/*`. Without a content
 * type, `application/json` is assumed. `undefined` means "no schema applies": the caller falls
 * back to its default serializer.
 *
 * Throws FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX for a key that is no status, class or
 * `default`, and FST_ERR_SCH_SERIALIZATION_BUILD (naming method, url and status) when the
 * compiler throws or returns something other than a function.
 *
 * @example
 * const serializerFor = compileResponseSerializers(
 *   { 200: { id: { type: 'integer' } }, '4xx': { type: 'object', properties: { message: { type: 'string' } } } },
 *   { method: 'GET', url: '/items/:id', compiler },
 * )
 * serializerFor(200, 'application/json; charset=utf-8')?.({ id: '7', secret: 1 }) // → '{"id":7}'
 */
export function compileResponseSerializers(
  given: unknown,
  input: { method: string; url: string; compiler: SerializerCompiler },
): (statusCode: number, contentType: string | undefined) => SerializeFunction | undefined {
  const exact = new Map<number, SerializeFunction | MediaTypeSerializers>();
  const classes: ResponseEntry[] = [];
  let fallback: ResponseEntry;
  const classKeys: string[] = [];
  let hasContentMaps = false;

  const notNested = (detail: string): Error => new errorCodes.FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX(detail, input.method, input.url);
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw notNested('is not an object');
  const response = given as Record<string, unknown>;

  for (const key of Object.keys(response)) {
    const parsed = parseResponseKey(key);
    if (parsed === null) throw notNested(`has the key '${key}'`);
    if (parsed.kind === 'class') {
      // '2xx' and '2XX' are the same key written twice.
      if (classKeys[parsed.hundreds] !== undefined) throw new errorCodes.FST_ERR_SCH_DUPLICATE(key);
      classKeys[parsed.hundreds] = key;
    }
    const entry = compileEntry(input, key, response[key]);
    if (typeof entry !== 'function') hasContentMaps = true;
    if (parsed.kind === 'status') exact.set(parsed.status, entry);
    else if (parsed.kind === 'class') classes[parsed.hundreds] = entry;
    else fallback = entry;
  }

  // Precedence: exact status, then its class, then `default`. A route with a single status (the
  // usual 200 or 201) answers with one comparison; the general case is a Map lookup, not a
  // 600-slot table per route (1,000 routes spent 12 ms and 5 MB building those at boot).
  if (!hasContentMaps && exact.size === 1 && classKeys.length === 0 && fallback === undefined) {
    // Read without copying the map into arrays: this runs once per route at ready.
    const onlyStatus = exact.keys().next().value as number;
    const onlySerializer = exact.get(onlyStatus) as SerializeFunction;
    return (statusCode) => (statusCode === onlyStatus ? onlySerializer : undefined);
  }
  const entryFor = (statusCode: number): ResponseEntry => {
    if (!Number.isInteger(statusCode) || statusCode < 0) return undefined;
    return exact.get(statusCode) ?? (statusCode >= 100 && statusCode < 600 ? classes[Math.floor(statusCode / 100)] : undefined) ?? fallback;
  };
  if (!hasContentMaps) return entryFor as (statusCode: number) => SerializeFunction | undefined;
  return (statusCode, contentType) => {
    const entry = entryFor(statusCode);
    if (entry === undefined || typeof entry === 'function') return entry;
    return selectByMediaType(entry, contentType);
  };
}

/**
 * A response map that is no status map fails the route's serialization build, as in Fastify:
 * FST_ERR_SCH_SERIALIZATION_BUILD naming the route, with the precise error as its `cause`.
 */
export function compileServingResponse(...args: Parameters<typeof compileResponseSerializers>): ReturnType<typeof compileResponseSerializers> {
  try {
    return compileResponseSerializers(...args);
  } catch (error) {
    if ((error as { code?: unknown })?.code !== errorCodes.FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX.code) throw error;
    const [, { method, url }] = args;
    throw new errorCodes.FST_ERR_SCH_SERIALIZATION_BUILD(method, url, (error as Error).message, 'response schema', { cause: error });
  }
}
