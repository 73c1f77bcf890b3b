// From reply.send(payload) to the write: an Error to the error handlers; a value through
// preSerialization and serialization (reply serializer, response schema, JSON), strings and bytes
// as they are; then the onSend hooks. write-response.ts writes what they leave.
import { STATUS_CODES } from 'node:http';
import { errorCodes } from '../errors.js';
import type { CompiledRoute, LifecycleReply } from '../state/application.js';
import { isErrorValue, readSafely } from '../thrown-values.js';
import { handleError, isInsideOnErrorHooks } from './error-handling.js';
import { logSafely } from './error-safety.js';
import { runValueHooks } from './hooks.js';
import { failSend, thrownToHandler } from './send-failure.js';
import { isStream, isWebStream } from './send-streams.js';
import { kHeaders, kHijacked, kRoute, kSent, kSerializer } from './symbols.js';
import { isBytes, isFetchResponse, writeResponse } from './write-response.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function essenceOf(contentType: unknown): string | undefined {
  if (typeof contentType !== 'string') return undefined;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** `application/json`, `application/problem+json`, `application/vnd.x+json; v=1`, ... */
function isJsonType(contentType: unknown): contentType is string {
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

function startSending(reply: LifecycleReply, payload: unknown): void {
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
export function serializeValue(reply: LifecycleReply, payload: unknown): unknown {
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

function serializeAndSend(reply: LifecycleReply, payload: unknown): void {
  let body: unknown;
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

/**
 * An error thrown by a serializer carries the route's config as `serialization` (Fastify's
 * mark), so an error handler can tell a response that failed to serialize from a failed handler.
 */
function markSerializationError(reply: LifecycleReply, error: unknown): void {
  if ((typeof error !== 'object' && typeof error !== 'function') || error === null) return;
  try {
    (error as { serialization?: unknown }).serialization = (reply[kRoute] as CompiledRoute).routeOptions.config;
  } catch {
    // A frozen error or a Proxy that refuses the property is still answered, only unmarked.
  }
}

/** onSend hooks, then the write. Exported for the default error answer, which serializes on its own. */
export function runOnSend(reply: LifecycleReply, payload: unknown): void {
  const hooks = (reply[kRoute] as CompiledRoute).hooks.onSend;
  if (hooks === null) {
    writeResponse(reply, payload);
    return;
  }
  runValueHooks(hooks, reply.request, reply, payload, writeResponse, failSend);
}

/** The body of the default 404. */
export function notFoundBody(request: { readonly method: string; readonly url: string }): string {
  // The exact shape Fastify answers with (no `code`), so tests that compare bodies still pass.
  return JSON.stringify({
    message: `Route ${request.method}:${request.url} not found`,
    error: STATUS_CODES[404],
    statusCode: 404,
  });
}
