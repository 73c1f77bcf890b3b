// Errors on the request path. onError hooks see the first error once; then the error handler of
// the route's context runs, and an error it throws (or sends) goes to its parent's handler, up
// to the default one, which sets the status and answers `{ statusCode, code, error, message }`.
// The path is total: whatever was thrown, and whatever its getters do, the client gets an answer
// (a plain 500 at worst) and the process keeps serving (issue 17).
// Imported, not the global `Buffer` (a getter, called on every use).
import { Buffer } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import { type EnclaveError as EnclaveErrorLike, errorCodes } from '../errors.js';
import type { ErrorHandlerEntry } from '../scope/context.js';
import { isErrorValue, readSafely } from '../thrown-values.js';
import { errorStatus } from './error-status.js';
import { thenTraced, traceOf } from './diagnostics.js';
import { answerLastResort, logSafely } from './error-safety.js';
import type { LifecycleReply } from './lifecycle-types.js';
import { runObserverHooks } from './hooks.js';
import { writeLogLine } from './log-lines.js';
import { FIXED_ANSWER_TYPE, isRouterError, routerErrorBody } from './router-error-answer.js';
import { runOnSend, sendPayload } from './send.js';
import { kErrorHandler, kHeaders, kHijacked, kInOnErrorHooks, kOnErrorDone, kRoute, kSent } from './symbols.js';

/** What the error path reads and writes on a reply. */
export type ErrorPathReply = LifecycleReply;

/**
 * How many times one reply may enter the error path besides once per error handler up its chain
 * (a chain of nested handlers that each rethrow is finite, however long). Each failed attempt to
 * send the error response is one entry; a handful is plenty, and the bound turns any loop we did
 * not foresee into a plain 500 instead of a hung request or a stack overflow.
 */
const MAX_EXTRA_ERROR_ENTRIES = 16;
/** Entries left to each reply in the error path, set on its first entry. */
const errorEntriesLeft = new WeakMap<object, number>();

function errorHandlerDepth(entry: ErrorHandlerEntry | null): number {
  let depth = 0;
  for (let link = entry; link !== null; link = link.parent) depth++;
  return depth;
}

/**
 * Whether `reply.send()` is being called from an onError hook (FST_ERR_SEND_INSIDE_ONERR): they
 * observe the error, the error handlers answer it. A slot of the reply, not a WeakSet: every
 * send asks, and a WeakSet.has costs ~50 instructions more.
 */
export function isInsideOnErrorHooks(reply: ErrorPathReply): boolean {
  return reply[kInOnErrorHooks] === true;
}

/** Handles an error thrown, rejected or sent anywhere on the request path. Never throws. */
export function handleError(reply: ErrorPathReply, error: unknown): void {
  const left = (errorEntriesLeft.get(reply) ?? errorHandlerDepth(reply[kErrorHandler]) + MAX_EXTRA_ERROR_ENTRIES) - 1;
  errorEntriesLeft.set(reply, left);
  try {
    if (left < 0) throw new Error('the error path did not settle');
    routeError(reply, error);
  } catch (failure) {
    logSafely(reply.log, 'error', { err: failure }, 'the error path failed; answering 500');
    reply[kSent] = true;
    answerLastResort(reply.raw);
  }
}

function routeError(reply: ErrorPathReply, error: unknown): void {
  if (reply[kHijacked]) return;
  if (reply[kSent]) {
    // The answer is already on its way (a handler threw or rejected after sending): it must
    // arrive whole, so the error is only logged.
    logSafely(reply.log, 'error', { err: error }, 'an error occurred after the reply was sent');
    return;
  }
  const res = reply.raw;
  if (res.headersSent) {
    logSafely(reply.log, 'error', { err: error }, 'an error occurred after the response headers were sent');
    res.destroy();
    return;
  }
  reply[kSent] = false;
  // `undefined` itself reaches the handlers, as in Fastify (a handler rejecting with nothing);
  // the default handler answers it with an empty 500. Hooks that fail with nothing have already
  // become FST_ERR_SEND_UNDEFINED_ERR in their runner.
  const route = reply[kRoute];
  // A thrown value that is not an Error takes the same path, as in Fastify: onError hooks and
  // error handlers see it (@fastify/rate-limit throws a plain object with a statusCode), and the
  // default handler sends it as the payload. The status stays as it is until the default
  // handler sets it, so a custom handler sees (and answers with) the status of the moment.
  if (route.hooks.onError !== null && onErrorHooksDue(reply)) {
    reply[kOnErrorDone] = true;
    reply[kInOnErrorHooks] = true;
    runObserverHooks(
      route.hooks.onError,
      [reply.request, reply, error],
      (hookError) => logSafely(reply.log, 'error', { err: hookError }, 'an onError hook failed'),
      () => {
        reply[kInOnErrorHooks] = false;
        handleErrorAfterHooks(reply, error);
      },
    );
    return;
  }
  reply[kOnErrorDone] = true;
  callErrorHandler(reply, error);
}

/** Replies whose onError hooks ran a second time, for the failure of the default error answer. */
const onErrorRanForDefaultAnswer = new WeakSet<object>();

/**
 * onError hooks observe the first error, and, as in Fastify, once more the error that broke the
 * default error answer on its way out (an onSend hook failing again): no more, so a hook that
 * fails on every send cannot loop.
 */
function onErrorHooksDue(reply: ErrorPathReply): boolean {
  if (!reply[kOnErrorDone]) return true;
  if (!defaultErrorSent.has(reply) || onErrorRanForDefaultAnswer.has(reply)) return false;
  onErrorRanForDefaultAnswer.add(reply);
  return true;
}

/** The continuation of the onError hooks, which may run asynchronously: it too must not throw. */
function handleErrorAfterHooks(reply: ErrorPathReply, error: unknown): void {
  try {
    callErrorHandler(reply, error);
  } catch (failure) {
    handleError(reply, failure);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof readSafely(value, 'then') === 'function';
}

function callErrorHandler(reply: ErrorPathReply, error: unknown): void {
  const entry = reply[kErrorHandler];
  if (entry === null || entry.fn === null) {
    sendDefaultError(reply, error);
    return;
  }
  // An error raised by this handler goes to the next one up.
  reply[kErrorHandler] = entry.parent;
  // Each handler chooses its own type: a JSON error must not make its text answer JSON.
  delete reply[kHeaders]['content-type'];
  delete reply[kHeaders]['content-length'];
  let result: unknown;
  try {
    result = entry.fn.call(entry.instance, error, reply.request, reply);
  } catch (thrown) {
    handleError(reply, thrown);
    return;
  }
  const sendResult = (value: unknown): void => {
    try {
      if (value !== reply && !reply.sent) reply.send(value);
    } catch (failure) {
      handleError(reply, failure);
    }
  };
  if (isPromiseLike(result)) {
    // An async handler that resolves without sending answers with what it resolved to
    // (undefined: an empty body), so the request never hangs.
    // A traced request's trace follows it (asyncStart/asyncEnd around the continuation).
    thenTraced(traceOf(reply), result, sendResult, (rejected: unknown) => handleError(reply, rejected ? rejected : new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()));
  } else if (result !== undefined) {
    sendResult(result);
  }
}

/** Replies whose error response already went through onSend once (a hook failing again). */
const defaultErrorSent = new WeakSet<object>();

/** The message of the default JSON: the error's own, or the status text when it cannot be read. */
function messageOf(error: Error, statusCode: number): string {
  const message = readSafely(error, 'message');
  if (typeof message === 'string') return message;
  return message === undefined ? (STATUS_CODES[statusCode] ?? 'Error') : String(message);
}

/** Values no serializer can turn into a body: they answer like an Error without a message. */
function isUnsendable(value: unknown): boolean {
  return typeof value === 'symbol' || typeof value === 'function' || (typeof value === 'object' && value !== null && !isSendableObject(value));
}

function isSendableObject(value: object): boolean {
  try {
    // A revoked Proxy fails here; anything else the payload path can try (and report on).
    Object.getPrototypeOf(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The answer when the error response itself cannot be serialized: a 500 whose body is Fastify's
 * for this case, `{ statusCode, code, message }` (no `error` field).
 */
function serializationFailure(reply: ErrorPathReply, failure: EnclaveErrorLike): string {
  reply.raw.statusCode = 500;
  return JSON.stringify({ statusCode: 500, code: failure.code, message: failure.message });
}

/** A custom serializer gave neither text nor bytes: logged (nothing else would show it), then answered. */
function refusedSerialization(reply: ErrorPathReply, type: string): string {
  const failure = new errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(type);
  logSafely(reply.log, 'error', { err: failure }, failure.message);
  return serializationFailure(reply, failure);
}

/** The default handler: status and headers from the error, log, serialize `{ statusCode, code, error, message }`. */
export function sendDefaultError(reply: ErrorPathReply, thrown: unknown): void {
  // An error may carry the headers its answer needs (e.g. WWW-Authenticate on a 401).
  const errorHeaders = readSafely(thrown, 'headers');
  if (errorHeaders !== null && typeof errorHeaders === 'object') {
    try {
      reply.headers(errorHeaders as Record<string, unknown>);
    } catch (headerError) {
      logSafely(reply.log, 'warn', { err: headerError }, 'an error carried a header that cannot be sent');
    }
  }
  const statusCode = errorStatus(thrown, reply.raw.statusCode);
  reply.raw.statusCode = statusCode;
  if (typeof thrown === 'symbol' || typeof thrown === 'function') {
    // JSON has nothing for them: the answer is an empty JSON 500, as in Fastify.
    logSafely(reply.log, 'error', {}, `a ${typeof thrown} was thrown; answering an empty ${statusCode}`);
    reply[kHeaders]['content-type'] = 'application/json; charset=utf-8';
    sendPayload(reply, undefined);
    return;
  }
  const error = isUnsendable(thrown) ? new Error(STATUS_CODES[statusCode]) : thrown;
  if (!isErrorValue(error)) {
    sendPayload(reply, error);
    return;
  }
  const message = messageOf(error, statusCode);
  const code = readSafely(error, 'code');
  const body = {
    statusCode,
    code: typeof code === 'string' ? code : undefined,
    // No status text, no field (Fastify's answer for a 599, say). Fastify answers its router's
    // 414 as 'Bad Request', and clients see that text.
    error: code === 'FST_ERR_MAX_PARAM_LENGTH' ? STATUS_CODES[400] : STATUS_CODES[statusCode],
    message,
  };
  if (defaultErrorSent.has(reply)) {
    // The error response itself failed on its way out (an onSend hook, an invalid payload):
    // answer with this last error, without running the hooks again.
    logSafely(reply.log, 'error', { err: error }, 'sending the error response failed');
    const payload = JSON.stringify(body);
    reply[kSent] = true;
    reply.raw.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(payload)) });
    reply.raw.end(payload);
    return;
  }
  defaultErrorSent.add(reply);
  writeLogLine(reply, (controller) => controller.defaultErrorLog(error, reply.request as never, reply as never));
  const route = reply[kRoute];
  // The router's own errors get Fastify's bytes (router-error-answer.ts).
  const routerError = isRouterError(error);
  let payload: string;
  try {
    const serialize = route.serializerFor?.(statusCode, 'application/json');
    // A response schema for the error status receives the error itself, with the three fields
    // the default answer computes on top (so it can add the error's own properties).
    const input = Object.create(error, {
      statusCode: { value: statusCode, enumerable: true },
      error: { value: body.error, enumerable: true },
      message: { value: message, enumerable: true },
    });
    const serialized: unknown = serialize ? serialize(input) : routerError ? routerErrorBody(body) : JSON.stringify(body);
    // A custom serializer compiler may hand back anything; only text or bytes can be sent.
    payload = typeof serialized === 'string' || serialized instanceof Uint8Array ? (serialized as string) : refusedSerialization(reply, typeof serialized);
  } catch (serializationError) {
    writeLogLine(reply, (controller) => controller.serializerError(serializationError as Error, reply.request as never, reply as never, { statusCode }));
    payload = serializationFailure(reply, new errorCodes.FST_ERR_FAILED_ERROR_SERIALIZATION(String(readSafely(serializationError, 'message')), message));
  }
  const headers = reply[kHeaders];
  headers['content-type'] = routerError ? FIXED_ANSWER_TYPE : 'application/json; charset=utf-8';
  delete headers['content-length'];
  reply[kSent] = true;
  runOnSend(reply, payload);
}
