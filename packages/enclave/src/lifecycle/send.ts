// From reply.send(payload) to bytes on the socket: preSerialization and serialization for
// values that are not already bytes, onSend, then one writeHead and end (or a piped stream).
import { STATUS_CODES } from 'node:http';
import { finished, type Readable } from 'node:stream';
import { errorCodes } from '../errors.js';
import type { CompiledRoute } from './compiled-route.js';
import { handleError } from './error-handling.js';
import { runValueHooks } from './hooks.js';
import { kHeaders, kHijacked, kRoute, kSent, kSerializer } from './symbols.js';
import { hasTrailers, pipeWithTrailers, writeWithTrailers } from './trailers.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function isStream(payload: unknown): payload is Readable {
  return payload !== null && typeof payload === 'object' && typeof (payload as Readable).pipe === 'function';
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

function warnAlreadySent(reply: any): void {
  const error = new errorCodes.FST_ERR_REP_ALREADY_SENT(reply.request.method, reply.request.url);
  reply.log.warn({ err: error }, error.message);
}

/** reply.send: routes an Error to the error handlers, everything else towards the socket. */
export function sendPayload(reply: any, payload: unknown): void {
  if (reply[kHijacked]) return;
  if (reply[kSent]) {
    warnAlreadySent(reply);
    return;
  }
  if (payload instanceof Error) {
    handleError(reply, payload);
    return;
  }
  reply[kSent] = true;
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
  } else if (isStream(payload)) {
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
      runValueHooks(hooks, reply.request, reply, payload, (error, value) => {
        if (error) failSend(reply, error);
        else serializeAndSend(reply, value);
      });
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
    failSend(reply, error);
    return;
  }
  reply[kHeaders]['content-type'] ??= JSON_CONTENT_TYPE;
  runOnSend(reply, body);
}

/** A failure before anything was written: the reply can still carry the error. */
function failSend(reply: any, error: unknown): void {
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
  runValueHooks(hooks, reply.request, reply, payload, (error, value) => {
    if (error) failSend(reply, error);
    else writeResponse(reply, value);
  });
}

function closeIdleConnectionsSoon(server: unknown): void {
  setImmediate(() => (server as { closeIdleConnections?: () => void }).closeIdleConnections?.());
}

/**
 * Streams a payload into the response: `pipe` and one listener on each side, rather than
 * `pipeline`, which puts four more 'close' listeners on the response — with plugins that watch
 * it as well (@fastify/static, @fastify/compress, @fastify/multipart) Node warned of a leak.
 */
function pipeToResponse(reply: any, payload: Readable, res: any): void {
  // The client went away: release the source (a file descriptor, a compression stream).
  res.once('close', () => {
    if (!payload.readableEnded) payload.destroy();
  });
  // The source failed after the headers went out: the only honest answer is a cut response.
  finished(payload, { readable: true, writable: false }, (error) => {
    if (!error) return;
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      reply.log.warn({ err: error }, 'the response stream failed after the headers were sent');
    }
    if (!res.writableEnded) res.destroy();
  });
  payload.pipe(res);
}

function writeResponse(reply: any, payload: unknown): void {
  const res = reply.raw;
  if (res.headersSent || res.destroyed) {
    if (isStream(payload)) payload.destroy();
    return;
  }
  const headers = reply[kHeaders];
  const route = reply[kRoute] as CompiledRoute;
  // While closing, the connection stays usable so a request the client already sent on it gets
  // an explicit 503 rather than a reset; once it is idle again it is closed, so close() does not
  // wait for keepAliveTimeout.
  if (route.context.root.closing) res.once('finish', () => closeIdleConnectionsSoon(route.context.root.server));
  const statusCode: number = res.statusCode;
  const isHead = reply.request.raw.method === 'HEAD';
  if (isStream(payload)) {
    if (hasTrailers(reply)) {
      pipeWithTrailers(reply, headers, payload, isHead);
      return;
    }
    res.writeHead(statusCode, headers);
    if (isHead) {
      payload.destroy();
      res.end();
      return;
    }
    pipeToResponse(reply, payload, res);
    return;
  }
  if (payload !== undefined && payload !== null && typeof payload !== 'string' && !isBytes(payload)) {
    failSend(reply, new errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload));
    return;
  }
  // RFC 9110 §8.6: no Content-Length on 1xx and 204 (and no Content-Type: there is no
  // content to describe); 304 keeps whatever the handler set.
  if (statusCode < 200 || statusCode === 204 || statusCode === 304) {
    if (statusCode !== 304) {
      delete headers['content-length'];
      delete headers['content-type'];
      delete headers['transfer-encoding'];
    }
    res.writeHead(statusCode, headers);
    res.end();
    return;
  }
  if (hasTrailers(reply)) {
    writeWithTrailers(reply, headers, payload, isHead);
    return;
  }
  const length = payload === undefined || payload === null ? 0 : Buffer.byteLength(payload as string | Uint8Array);
  // A HEAD answer without a body may announce the length a GET would have (RFC 9110 §9.3.2).
  if (!(isHead && length === 0 && headers['content-length'] !== undefined)) headers['content-length'] = String(length);
  res.writeHead(statusCode, headers);
  if (isHead || length === 0) res.end();
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

/** reply.callNotFound(): answer with the not-found handler that owns the request's path. */
export function runNotFoundHandler(reply: any): void {
  const route = reply[kRoute] as CompiledRoute;
  const request = reply.request;
  const notFound = route.context.root.findNotFoundRoute(request.raw.url ?? '/');
  reply.code(404);
  try {
    const result = notFound.handler.call(notFound.context.instance, request, reply) as any;
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
      result.then(
        (value: unknown) => {
          if (value !== undefined && value !== reply && !reply.sent) reply.send(value);
        },
        (error: unknown) => handleError(reply, error),
      );
    }
  } catch (error) {
    handleError(reply, error);
  }
}
