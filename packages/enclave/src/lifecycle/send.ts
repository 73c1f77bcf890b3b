// From reply.send(payload) to bytes on the socket: preSerialization and serialization for
// values that are not already bytes, onSend, then one writeHead and end (or a piped stream).
// Imported, not the global: Node defines the global `Buffer` as a getter, which a hot function
// calls through an inline-cache miss on every use (~150 instructions a response).
import { Buffer } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { errorCodes } from '../errors.js';
import { lingerIfBodyUnread } from '../http/lingering-close.js';
import type { CompiledRoute } from './compiled-route.js';
import { handleError, isInsideOnErrorHooks } from './error-handling.js';
import { isErrorValue, readSafely } from '../thrown-values.js';
import { logSafely } from './error-safety.js';
import { runValueHooks } from './hooks.js';
import { needsChunkedWrite, writeInChunks } from './http2-body.js';
import { isStream, isWebStream, pipeToResponse, pipeWebStream } from './send-streams.js';
import { releaseSource } from './stream-source.js';
import { kHeaders, kHijacked, kInHandler, kRoute, kSent, kSerializer } from './symbols.js';
import { hasTrailers, pipeWithTrailers, writeWithTrailers } from './trailers.js';
import type { LifecycleReply } from './lifecycle-types.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A Fetch API Response (checked by tag, as Fastify does, so any realm's Response counts).
 * Object.prototype.toString says '[object Response]' exactly when the value's Symbol.toStringTag
 * reads 'Response' (no built-in tag is that), so the tag is read directly: one property load
 * where the call cost ~0.1k instructions per response.
 */
function isFetchResponse(payload: unknown): payload is Response {
  return payload !== null && typeof payload === 'object' && (payload as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Response';
}

function isBytes(payload: unknown): payload is Uint8Array {
  return payload instanceof Uint8Array;
}

function essenceOf(contentType: unknown): string | undefined {
  if (typeof contentType !== 'string') return undefined;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** `application/json`, `application/problem+json`, `application/vnd.x+json; v=1`, ... */
function isJsonType(contentType: unknown): boolean {
  return essenceOf(contentType)?.includes('json') === true;
}

/** A JSON body is UTF-8 (RFC 8259 §8.1): say so when the type set by the user does not. */
function withCharset(contentType: string): string {
  return /;\s*charset\s*=/i.test(contentType) ? contentType : `${contentType.trim().replace(/;\s*$/, '')}; charset=utf-8`;
}

export function warnAlreadySent(reply: LifecycleReply): void {
  const error = new errorCodes.FST_ERR_REP_ALREADY_SENT(reply.request.url, reply.request.method);
  reply.log.warn({ err: error }, error.message);
}

/** reply.send: routes an Error to the error handlers, everything else towards the socket. */
export function sendPayload(reply: LifecycleReply, payload: unknown): void {
  if (isInsideOnErrorHooks(reply)) throw new errorCodes.FST_ERR_SEND_INSIDE_ONERR();
  // After hijack() the reply is the caller's: a send is a second answer, warned about as one.
  if (reply[kHijacked] || reply[kSent]) {
    warnAlreadySent(reply);
    return;
  }
  if (isErrorValue(payload)) {
    handleError(reply, payload);
    return;
  }
  reply[kSent] = true;
  try {
    startSending(reply, payload);
  } catch (error) {
    if (thrownToHandler.has(error as object)) throw error;
    // A payload that breaks the checks below (a revoked Proxy, a throwing `pipe` getter) is
    // an error like any other, answered while nothing has been written yet.
    if (!reply.raw.headersSent) failSend(reply, error);
    else reply.raw.destroy();
  }
}

function startSending(reply: any, payload: unknown): void {
  const headers = reply[kHeaders];
  if (typeof payload === 'string') {
    const contentType = headers['content-type'];
    if (contentType === undefined) headers['content-type'] = 'text/plain; charset=utf-8';
    else if (isJsonType(contentType)) headers['content-type'] = withCharset(contentType);
    // With a type set, a reply serializer applies to strings too (Fastify's behaviour).
    let body: unknown = payload;
    if (contentType !== undefined && reply[kSerializer] !== null) {
      try {
        body = reply[kSerializer](payload);
      } catch (error) {
        failSend(reply, error);
        return;
      }
    }
    runOnSend(reply, body);
  } else if (payload === undefined) {
    runOnSend(reply, payload);
  } else if (isBytes(payload)) {
    headers['content-type'] ??= 'application/octet-stream';
    runOnSend(reply, payload);
  } else if (isStream(payload) || isWebStream(payload) || isFetchResponse(payload)) {
    runOnSend(reply, payload);
  } else {
    const contentType = headers['content-type'];
    if (contentType !== undefined && reply[kSerializer] === null) {
      // Only JSON types are serialized. Any other type hands the value to onSend as it is, so
      // a hook can encode it; if none does, the write refuses it (invalid payload type).
      if (!isJsonType(contentType)) {
        runOnSend(reply, payload);
        return;
      }
      headers['content-type'] = withCharset(contentType);
    }
    const hooks = (reply[kRoute] as CompiledRoute).hooks.preSerialization;
    if (hooks === null) serializeAndSend(reply, payload);
    else {
      runValueHooks(hooks, reply.request, reply, payload, serializeAndSend, failSend);
    }
  }
}

/** The serializer for a value: reply.serializer, the response schema, the reply serializer, JSON. */
export function serializeValue(reply: any, payload: unknown): string {
  if (reply[kSerializer] !== null) return reply[kSerializer](payload);
  const route = reply[kRoute] as CompiledRoute;
  const statusCode = reply.raw.statusCode;
  if (route.serializerFor !== null) {
    // The header as written: a content map looks it up as is first, and only then by essence.
    const contentType = reply[kHeaders]['content-type'];
    const serialize = route.serializerFor(statusCode, typeof contentType === 'string' ? contentType : undefined);
    if (serialize !== undefined) return serialize(payload);
  }
  if (route.context.replySerializer !== null) return route.context.replySerializer(payload, statusCode);
  return JSON.stringify(payload);
}

function serializeAndSend(reply: any, payload: unknown): void {
  let body: string;
  try {
    body = serializeValue(reply, payload);
  } catch (error) {
    markSerializationError(reply, error);
    failSend(reply, error);
    return;
  }
  const then = readSafely(body, 'then');
  if (typeof then === 'function') {
    // Serializers are synchronous. An async one's promise is refused like any non-string body,
    // and its rejection is observed here, so it cannot surface as an unhandled rejection.
    then.call(body, undefined, (error: unknown) => logSafely(reply.log, 'warn', { err: error }, 'an asynchronous serializer rejected'));
    failSend(reply, new errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE('Promise'));
    return;
  }
  reply[kHeaders]['content-type'] ??= JSON_CONTENT_TYPE;
  runOnSend(reply, body);
}

/** Errors on their way back to the handler that called reply.send(): the send path's catches let them through. */
const thrownToHandler = new WeakSet<object>();

/**
 * A payload nothing turned into bytes. Sent synchronously from the handler, it throws there, as
 * in Fastify (the handler may catch it and send something else; uncaught, it comes back as the
 * handler's error). Anywhere else (an async hook, a timer) nobody could catch it: it is the
 * reply's error, answered by the error handlers, never an uncaught exception.
 */
function refusePayload(reply: LifecycleReply, payload: unknown): void {
  const error = new errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload);
  if (!reply[kInHandler]) {
    failSend(reply, error);
    return;
  }
  reply[kSent] = false;
  thrownToHandler.add(error);
  throw error;
}

/**
 * An error thrown by a serializer carries the route's config as `serialization` (Fastify's
 * mark), so an error handler can tell a response that failed to serialize from a failed handler.
 */
function markSerializationError(reply: any, error: unknown): void {
  if ((typeof error !== 'object' && typeof error !== 'function') || error === null) return;
  try {
    (error as { serialization?: unknown }).serialization = (reply[kRoute] as CompiledRoute).routeOptions.config;
  } catch {
    // A frozen error or a Proxy that refuses the property is still answered, only unmarked.
  }
}

/** A failure before anything was written: the reply can still carry the error. */
function failSend(reply: LifecycleReply, error: unknown): void {
  reply[kSent] = false;
  handleError(reply, error);
}

/** onSend hooks, then the write. Exported for the error path, which serializes on its own. */
export function runOnSend(reply: any, payload: unknown): void {
  const hooks = (reply[kRoute] as CompiledRoute).hooks.onSend;
  if (hooks === null) {
    writeResponse(reply, payload);
    return;
  }
  runValueHooks(hooks, reply.request, reply, payload, writeResponse, failSend);
}

/** A Fetch API Response gives the reply its status and headers; its body is what is sent. */
function unwrapFetchResponse(reply: any, response: Response): unknown {
  if (typeof response.status === 'number') reply.code(response.status);
  for (const [name, value] of response.headers) reply.header(name, value);
  if (response.body !== null && response.bodyUsed) throw new errorCodes.FST_ERR_REP_RESPONSE_BODY_CONSUMED();
  return response.body;
}

const headStreamError = 'Error on Stream found for HEAD route';

function checkUnlocked(payload: WebReadableStream): WebReadableStream {
  if (payload.locked) throw new errorCodes.FST_ERR_REP_READABLE_STREAM_LOCKED();
  return payload;
}

/**
 * A HEAD answer never reads a web stream: it is cancelled, and a cancel() that fails (its
 * source's own cancel hook threw) is logged, since nothing else would ever see that rejection.
 * An empty stream stands in for it, so the answer takes the stream path (no Content-Length).
 */
function cancelUnread(reply: any, payload: WebReadableStream): Readable {
  payload.cancel('Stream cancelled by HEAD route').catch((error: unknown) => logSafely(reply.log, 'error', { err: error }, headStreamError));
  return Readable.from([]);
}

function writeResponse(reply: LifecycleReply, payload: unknown): void {
  try {
    writeToSocket(reply, payload);
  } catch (error) {
    if (thrownToHandler.has(error as object)) throw error;
    // writeHead refusing what it was given (an invalid status or header) is still answerable;
    // past the headers the only honest answer is a cut response.
    if (reply.raw.headersSent) {
      reply.log.warn({ err: error }, 'writing the response failed');
      reply.raw.destroy();
    } else {
      failSend(reply, error);
    }
  }
}

function writeToSocket(reply: any, given: unknown): void {
  const res = reply.raw;
  let payload = given;
  // Headers the user wrote with res.writeHead still leave room for a stream's body (it goes out
  // with a warning, as in Fastify); nothing else can be sent any more.
  const streaming = isStream(payload) || isWebStream(payload) || isFetchResponse(payload);
  if (res.destroyed || res.writableEnded || (res.headersSent && !streaming)) {
    if (isStream(payload)) releaseSource(reply, payload);
    else if (isWebStream(payload)) payload.cancel().catch(() => {});
    return;
  }
  const isHead = reply.request.raw.method === 'HEAD';
  try {
    if (isFetchResponse(payload)) payload = unwrapFetchResponse(reply, payload);
    if (isWebStream(payload)) payload = isHead ? cancelUnread(reply, payload) : checkUnlocked(payload);
  } catch (error) {
    failSend(reply, error);
    return;
  }
  const headers = reply[kHeaders];
  const route = reply[kRoute] as CompiledRoute;
  // Answered before the body arrived (a hook's 401, a 404, a GET with a body): read at most a
  // bodyLimit more of it, then close (issue 28). One load on every response, false but for those
  // (and for a reply that streams the request back).
  if (reply.request.raw.complete === false && payload !== reply.request.raw) lingerIfBodyUnread(reply.request.raw, res, route.bodyLimit);
  const statusCode: number = res.statusCode;
  const noBody = statusCode < 200 || statusCode === 204 || statusCode === 304;
  // No payload: the headers go out as the handler and the hooks left them (a plugin may set
  // `Content-Length: 0` on a 204 on purpose); only a status with content gets a zero length.
  if (payload === undefined || payload === null) {
    // Trailers still go out after an empty chunked body (their functions see the payload as is).
    if (!noBody && hasTrailers(reply)) {
      writeWithTrailers(reply, headers, payload, isHead);
      return;
    }
    if (!noBody && (!isHead || route.isHeadTwin === true)) headers['content-length'] = '0';
    res.writeHead(statusCode, headers);
    res.end();
    return;
  }
  if (isWebStream(payload)) {
    if (res.headersSent || (!noBody && !isHead && !hasTrailers(reply))) {
      pipeWebStream(reply, payload, res, (error) => failSend(reply, error));
      return;
    }
    // The rarer paths (no body, HEAD, trailers) share the Node stream handling below.
    payload = Readable.fromWeb(payload);
  }
  if (res.headersSent) {
    pipeToResponse(reply, payload as Readable, res, (error) => failSend(reply, error));
    return;
  }
  // A payload on a 1xx or 204 is dropped, and so are the headers that would describe it.
  if (statusCode < 200 || statusCode === 204) {
    delete headers['content-type'];
    delete headers['content-length'];
    res.writeHead(statusCode, headers);
    res.end();
    // Drained rather than destroyed, as Fastify does: the source still ends (and says so).
    if (isStream(payload)) {
      payload.on('error', () => {});
      payload.resume();
    }
    return;
  }
  if (isStream(payload)) {
    if (hasTrailers(reply)) {
      pipeWithTrailers(reply, headers, payload, isHead);
      return;
    }
    if (isHead) {
      res.writeHead(statusCode, headers);
      // The stream is not read, but it may still fail (its source was already at work): an
      // error without a listener would be an uncaught exception, so it is logged instead.
      payload.on('error', (error) => logSafely(reply.log, 'error', { err: error }, headStreamError));
      releaseSource(reply, payload);
      res.end();
      return;
    }
    pipeToResponse(reply, payload, res, (error) => failSend(reply, error));
    return;
  }
  if (typeof payload !== 'string' && !isBytes(payload)) {
    refusePayload(reply, payload);
    return;
  }
  if (hasTrailers(reply)) {
    writeWithTrailers(reply, headers, payload, isHead);
    return;
  }
  const length = Buffer.byteLength(payload);
  // A HEAD answer without a body may announce the length a GET would have (RFC 9110 §9.3.2).
  if (!(isHead && length === 0 && headers['content-length'] !== undefined)) headers['content-length'] = `${length}`;
  res.writeHead(statusCode, headers);
  if (isHead || length === 0) res.end();
  else if (needsChunkedWrite(reply.request.raw, length)) writeInChunks(res, payload, () => res.end());
  else res.end(payload);
}

/** The body of the default 404. */
export function notFoundBody(request: any): string {
  // The exact shape Fastify answers with (no `code`), so tests that compare bodies still pass.
  return JSON.stringify({
    message: `Route ${request.method}:${request.url} not found`,
    error: STATUS_CODES[404],
    statusCode: 404,
  });
}
