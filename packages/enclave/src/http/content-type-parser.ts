/**
 * Request bodies: decide whether there is one, choose the parser by the parsed
 * Content-Type, read it within the limit, run the parser. The media type that chose the parser is
 * the one handed back, so the body schema is always chosen by the same essence.
 */
import { AsyncResource } from 'node:async_hooks';
import type { Readable } from 'node:stream';
import { errorCodes } from '../errors.js';
import { rejectionAsError, thrownAsError } from '../thrown-values.js';
import { discardBody, type RawRequestLike } from './body-read-common.js';
import { readBody, readDeclaredLength } from './body-reader.js';
import type { ContentTypeParserEntry, ContentTypeParserInput, ContentTypeParserStore } from './content-type-store.js';
import { hasReadableEssence } from './media-type.js';

export { createJsonParser, createJsonParser as getDefaultJsonParser, type PoisoningAction, parseTextBody } from './builtin-parsers.js';
export {
  type BodyParsingOptions,
  type ContentTypeParserEntry,
  type ContentTypeParserFunction,
  type ContentTypeParserOptions,
  ContentTypeParserStore,
  DEFAULT_BODY_LIMIT,
} from './content-type-store.js';
export { formatMediaType, type MediaType, parameterValuesEqual, parseMediaType } from './media-type.js';

/** What the body parsing reads of a request: its raw request, or the headers and method of a fake one. */
export interface ParsableRequest {
  readonly raw?: RawRequestLike | undefined;
  readonly headers?: unknown;
  readonly method?: unknown;
}

/**
 * Called once: with the error (`null` for none: any other value, falsy ones included, is a
 * failure), or with the body and the essence that chose its parser.
 */
export type ParsedBodyCallback = (err: unknown, body?: unknown, mediaType?: string) => void;

/**
 * Methods whose body is parsed only when a Content-Type announces it; for the others a body
 * without a Content-Type goes to the catch-all parser or is refused (as Fastify does).
 */
const OPTIONAL_BODY_METHODS = new Set(['DELETE', 'OPTIONS']);

/**
 * `method.toUpperCase()`, skipped for a method with nothing to change (Node's HTTP/1 parser only
 * hands over upper-case ones): V8 calls into its runtime for toUpperCase, ~350 instructions.
 */
function upperCased(method: string): string {
  for (let index = 0; index < method.length; index++) {
    // From 'a' up: ASCII lower case and every non-ASCII character, which toUpperCase may change.
    if (method.charCodeAt(index) >= 0x61) return method.toUpperCase();
  }
  return method;
}

/** Shortens a client-sent header for an error message. */
function quoteHeader(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

/** Errors for a request refused on its headers alone (see below). */
const headerRefusals = new WeakSet<object>();

/**
 * Whether a request was refused on its headers alone, before any parser: a Content-Type that is
 * not even a media type (`undefined`, `text`), or a QUERY without one. Fastify refuses these
 * before it looks for a parser, with the reply's status already set (an error handler sees it),
 * and also on a request for no route, where a body it merely has no parser for is a 404.
 */
export function isHeaderRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && headerRefusals.has(error);
}

function refuseOnHeaders(error: Error): Error {
  headerRefusals.add(error);
  return error;
}

/**
 * Runs one parser with `this` = its instance, whether it calls `done` or returns a promise. A
 * parser's error reaches the error handlers as it is, with its own status (500 without one), as
 * in Fastify: only a missing value becomes FST_ERR_SEND_UNDEFINED_ERR.
 */
function runParser(
  entry: ContentTypeParserEntry,
  request: unknown,
  input: ContentTypeParserInput,
  essence: string | undefined,
  done: ParsedBodyCallback,
): void {
  let settled = false;
  let callerFailure: { error: unknown } | undefined;
  const callback = (err: unknown, body?: unknown): void => {
    if (settled) return;
    settled = true;
    try {
      if (err !== null && err !== undefined) done(err);
      else done(null, body, essence);
    } catch (error) {
      callerFailure = { error };
      throw error;
    }
  };
  let result: unknown;
  try {
    result = entry.parser.call(entry.instance, request, input, callback);
  } catch (err) {
    // The caller's own callback failing is not ours to swallow; a parser throwing after it
    // settled is ignored, since the request already has its answer.
    if (callerFailure !== undefined && callerFailure.error === err) throw err;
    if (!settled) callback(thrownAsError(err));
    return;
  }
  // Any other return value is ignored: wrappers often return whatever the function they wrap
  // returned, while the real answer still comes through `done` (Fastify's contract). Reading
  // `then` is guarded: a parser may return anything, a revoked Proxy included.
  let then: unknown;
  try {
    then = result !== null && (typeof result === 'object' || typeof result === 'function') ? (result as { then?: unknown }).then : undefined;
  } catch (err) {
    callback(thrownAsError(err));
    return;
  }
  if (typeof then === 'function') {
    Promise.resolve(result).then(
      (body) => callback(null, body),
      (err: unknown) => callback(rejectionAsError(err)),
    );
  }
}

/**
 * Parses the request body: decides whether there is one, picks the parser by the parsed
 * Content-Type, reads `payload` within `bodyLimit` (checking Content-Length), runs the parser.
 * Calls `done(err)` with a coded 4xx error, or `done(null, body, mediaTypeEssence)`.
 *
 * - No Content-Type and no body → `done(null, undefined, undefined)`.
 * - GET, HEAD and TRACE bodies are never parsed.
 * - A body without Content-Type → the catch-all parser (essence `undefined`), else 415; for
 *   DELETE and OPTIONS such a body is left unparsed, as is a Content-Type without a body.
 * - A malformed or unsupported Content-Type → 415 `FST_ERR_CTP_INVALID_MEDIA_TYPE`.
 * - `parseAs` parsers: the body is read here, limited by the parser's own `bodyLimit` when it has
 *   one, else by `bodyLimit`; 413 past the limit, 400 when Content-Length is not a number or
 *   disagrees with the bytes received. Stream parsers get `payload` itself.
 *
 * @example
 * parseRequestBody(context.parsers, request, request.raw, route.bodyLimit, (err, body, mediaType) => {
 *   if (err) return reply.send(err)
 *   request.body = body
 *   validate(request, mediaType)
 * })
 *
 * The caller decides which methods carry a body (GET, HEAD and TRACE do not, unless
 * `addHttpMethod()` says otherwise), so every request that reaches here is read.
 */
export function parseRequestBody(
  store: ContentTypeParserStore,
  request: ParsableRequest,
  payload: Readable,
  bodyLimit: number,
  done: ParsedBodyCallback,
  routeSetsLimit = false,
): void {
  const raw = request?.raw;
  // Before validation the request's headers are still its raw request's (Node's header object).
  const headers = (request?.headers ?? raw?.headers ?? {}) as Record<string, string | string[] | undefined>;
  const method = typeof raw?.method === 'string' ? upperCased(raw.method) : typeof request?.method === 'string' ? upperCased(request.method) : '';
  const contentType = headers['content-type'];
  const transferEncoding = headers['transfer-encoding'];
  // RFC 9112 §6.3: with Transfer-Encoding, Content-Length is ignored.
  const declaredLength = transferEncoding === undefined ? readDeclaredLength(headers['content-length']) : undefined;
  if (declaredLength === null) {
    discardBody(raw, payload);
    done(errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    return;
  }
  const hasBody = transferEncoding !== undefined || (declaredLength !== undefined && declaredLength > 0);
  // RFC 10008 §2: a QUERY request must say what its content is; the server may not guess.
  if (method === 'QUERY' && contentType === undefined) {
    discardBody(raw, payload);
    done(refuseOnHeaders(errorCodes.FST_ERR_ROUTE_MISSING_CONTENT_TYPE('QUERY')));
    return;
  }

  let entry: ContentTypeParserEntry | undefined;
  let essence: string | undefined;
  if (contentType === undefined) {
    if (!hasBody || OPTIONAL_BODY_METHODS.has(method)) {
      done(null, undefined, undefined);
      return;
    }
    entry = store.getCatchAll();
    if (entry === undefined) {
      discardBody(raw, payload);
      done(Object.assign(errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), { cause: 'a body was sent without a Content-Type' }));
      return;
    }
  } else {
    // A Content-Type announces a body, empty or not, on every method that can carry one: its
    // parser runs (Fastify 5 too; clients drop `Content-Length: 0` from an empty DELETE).
    const found = typeof contentType === 'string' ? store.lookup(contentType) : null;
    if (found === null) {
      discardBody(raw, payload);
      const error = Object.assign(errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), { cause: `no parser for ${quoteHeader(contentType)}` });
      if (typeof contentType !== 'string' || !hasReadableEssence(contentType)) refuseOnHeaders(error);
      done(error);
      return;
    }
    entry = found.entry;
    essence = found.mediaType.essence;
  }

  const parser = entry;
  const finish = inRequestContext(done);
  if (parser.parseAs === undefined) {
    runParser(parser, request, payload, essence, finish);
    return;
  }
  const routeLimit = Number.isInteger(bodyLimit) && bodyLimit > 0 ? bodyLimit : store.defaultBodyLimit;
  // A route's own bodyLimit wins over the parser's, which wins over the application's (Fastify's order).
  const limit = routeSetsLimit ? routeLimit : (parser.bodyLimit ?? routeLimit);
  readBody(raw, payload, declaredLength, limit, parser.parseAs === 'string', (err, body) => {
    if (err !== null) finish(err);
    else runParser(parser, request, body as string | Buffer, essence, finish);
  });
}

/**
 * The body's bytes arrive in the socket's async context, and a parser may call back from any
 * context of its own; the rest of the request (hooks, handler, error handler) must go on in the
 * request's, where an AsyncLocalStorage store set by an onRequest hook lives. Fastify names the
 * resource 'content-type-parser:run' (async_hooks tooling sees it) and destroys it once used.
 */
function inRequestContext(done: ParsedBodyCallback): ParsedBodyCallback {
  const resource = new AsyncResource('content-type-parser:run');
  return (err, body, mediaType) => {
    // Destroying first is the same (destroy hooks run later, outside any scope) and spares a
    // closure per request: the arguments go through runInAsyncScope itself.
    resource.emitDestroy();
    resource.runInAsyncScope(done, null, err, body, mediaType);
  };
}
