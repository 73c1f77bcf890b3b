// The default error handler: the last entry of every error-handler chain (the factory puts it at
// the root), and what `instance.errorHandler` returns until one is set. It takes the status and
// the headers from the error, logs it, and answers `{ statusCode, code, error, message }` through
// the route's response schema for that status when there is one, else as JSON.
// Imported, not the global `Buffer` (a getter, called on every use).
import { Buffer } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import { type EnclaveError as EnclaveErrorLike, errorCodes } from '../errors.js';
import type { LifecycleReply } from '../state/application.js';
import { isErrorValue, readSafely } from '../thrown-values.js';
import { defaultAnswerStarted } from './default-answer-started.js';
import { logSafely } from './error-safety.js';
import { errorStatus } from './error-status.js';
import { writeLogLine } from './log-lines.js';
import { FIXED_ANSWER_TYPE, isRouterError, routerErrorBody } from './router-error-answer.js';
import { runOnSend, sendPayload } from './send.js';
import { kErrorHandler, kHeaders, kRoute, kSent } from './symbols.js';

type ErrorPathReply = LifecycleReply;

/**
 * The default error handler. Called from a custom handler (through `instance.errorHandler`), it
 * first makes itself the reply's handler again: a failure of its answer must come back here, not
 * to the custom handler that delegated to it.
 */
export function defaultErrorHandler(this: unknown, error: unknown, _request: unknown, reply: ErrorPathReply): void {
  let last = reply[kErrorHandler];
  while (last.parent !== null) last = last.parent;
  reply[kErrorHandler] = last;
  sendDefaultError(reply, error);
}

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
function sendDefaultError(reply: ErrorPathReply, thrown: unknown): void {
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
  if (defaultAnswerStarted.has(reply)) {
    // The error response itself failed on its way out (an onSend hook, an invalid payload):
    // answer with this last error, without running the hooks again.
    logSafely(reply.log, 'error', { err: error }, 'sending the error response failed');
    const payload = JSON.stringify(body);
    reply[kSent] = true;
    reply.raw.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(payload)) });
    reply.raw.end(payload);
    return;
  }
  defaultAnswerStarted.add(reply);
  writeLogLine(reply, (controller, request, publicReply) => controller.defaultErrorLog(error, request, publicReply));
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
    writeLogLine(reply, (controller, request, publicReply) => controller.serializerError(serializationError as Error, request, publicReply, { statusCode }));
    payload = serializationFailure(reply, new errorCodes.FST_ERR_FAILED_ERROR_SERIALIZATION(String(readSafely(serializationError, 'message')), message));
  }
  const headers = reply[kHeaders];
  headers['content-type'] = routerError ? FIXED_ANSWER_TYPE : 'application/json; charset=utf-8';
  delete headers['content-length'];
  reply[kSent] = true;
  runOnSend(reply, payload);
}
