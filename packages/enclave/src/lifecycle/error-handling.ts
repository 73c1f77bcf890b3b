// Errors on the request path. onError hooks see the first error once; then the error handler of
// the route's context runs, and an error it throws (or sends) goes to its parent's handler, up
// to the default one, which answers `{ statusCode, code, error, message }`.
import { STATUS_CODES } from 'node:http';
import { errorCodes } from '../errors.js';
import type { ErrorHandlerEntry } from '../scope/context.js';
import type { CompiledRoute } from './compiled-route.js';
import { runObserverHooks } from './hooks.js';
import { runOnSend, sendPayload } from './send.js';
import { kErrorHandler, kHeaders, kHijacked, kOnErrorDone, kRoute, kSent } from './symbols.js';

function statusOf(error: any, current: number): number {
  // A numeric string ('404') counts too: libraries set it either way.
  const status = Number(error?.statusCode ?? error?.status);
  if (Number.isInteger(status) && status >= 400 && status <= 599) return status;
  return current >= 400 ? current : 500;
}

/** Handles an error thrown, rejected or sent anywhere on the request path. */
export function handleError(reply: any, error: unknown): void {
  if (reply[kHijacked]) return;
  if (reply[kSent]) {
    // The answer is already on its way (a handler threw or rejected after sending): it must
    // arrive whole, so the error is only logged.
    reply.log.error({ err: error }, 'an error occurred after the reply was sent');
    return;
  }
  const res = reply.raw;
  if (res.headersSent) {
    reply.log.error({ err: error }, 'an error occurred after the response headers were sent');
    res.destroy?.();
    return;
  }
  reply[kSent] = false;
  if (error === undefined) error = new errorCodes.FST_ERR_SEND_UNDEFINED_ERR();
  const route = reply[kRoute] as CompiledRoute;
  // A thrown value that is not an Error takes the same path, as in Fastify: onError hooks and
  // error handlers see it (@fastify/rate-limit throws a plain object with a statusCode), and the
  // default handler sends it as the payload, with its `statusCode` when valid, else 500.
  res.statusCode = statusOf(error, error instanceof Error ? res.statusCode : 500);
  if (!reply[kOnErrorDone] && route.hooks.onError !== null) {
    reply[kOnErrorDone] = true;
    runObserverHooks(
      route.hooks.onError,
      [reply.request, reply, error],
      (hookError) => reply.log.error({ err: hookError }, 'an onError hook failed'),
      () => callErrorHandler(reply, error),
    );
    return;
  }
  reply[kOnErrorDone] = true;
  callErrorHandler(reply, error);
}

function callErrorHandler(reply: any, error: unknown): void {
  const entry = reply[kErrorHandler] as ErrorHandlerEntry;
  if (entry.fn === null) {
    sendDefaultError(reply, error);
    return;
  }
  // An error raised by this handler goes to the next one up.
  reply[kErrorHandler] = entry.parent;
  let result: any;
  try {
    result = entry.fn.call(entry.instance, error, reply.request, reply);
  } catch (thrown) {
    handleError(reply, thrown);
    return;
  }
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    result.then(
      (value: unknown) => {
        // An async handler that resolves without sending answers with what it resolved to
        // (undefined: an empty body), so the request never hangs.
        if (value !== reply && !reply.sent) reply.send(value);
      },
      (rejected: unknown) => handleError(reply, rejected),
    );
  } else if (result !== undefined && result !== reply && !reply.sent) {
    reply.send(result);
  }
}

function logError(reply: any, error: Error, statusCode: number): void {
  const controller = (reply[kRoute] as CompiledRoute).context.root.options.logController;
  if (controller !== null) controller.defaultErrorLog(error, reply.request, reply);
  else if (statusCode >= 500) reply.log.error({ req: reply.request, res: reply, err: error }, error.message);
  else reply.log.info({ res: reply, err: error }, error.message);
}

/** Replies whose error response already went through onSend once (a hook failing again). */
const defaultErrorSent = new WeakSet<object>();

/** The default handler: log at the right level, serialize `{ statusCode, code, error, message }`. */
export function sendDefaultError(reply: any, error: unknown): void {
  if (!(error instanceof Error)) {
    sendPayload(reply, error);
    return;
  }
  const statusCode: number = reply.raw.statusCode;
  const code = (error as { code?: unknown }).code;
  const body = {
    statusCode,
    code: typeof code === 'string' ? code : undefined,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message: error.message,
  };
  if (defaultErrorSent.has(reply)) {
    // The error response itself failed on its way out (an onSend hook, an invalid payload):
    // answer with this last error, without running the hooks again.
    reply.log.error({ err: error }, 'sending the error response failed');
    const payload = JSON.stringify(body);
    reply.raw.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(payload)) });
    reply.raw.end(payload);
    return;
  }
  defaultErrorSent.add(reply);
  logError(reply, error, statusCode);
  const route = reply[kRoute] as CompiledRoute;
  let payload: string;
  try {
    const serialize = route.serializerFor?.(statusCode, 'application/json');
    payload = serialize ? serialize(body) : JSON.stringify(body);
  } catch (serializationError) {
    const failure = new errorCodes.FST_ERR_FAILED_ERROR_SERIALIZATION(
      (serializationError as Error).message,
      error.message,
    );
    reply.log.error({ err: failure }, failure.message);
    reply.raw.statusCode = 500;
    payload = JSON.stringify({ statusCode: 500, code: failure.code, error: STATUS_CODES[500], message: failure.message });
  }
  const headers = reply[kHeaders];
  // An error may carry the headers its answer needs (e.g. WWW-Authenticate on a 401).
  const errorHeaders = (error as { headers?: unknown }).headers;
  if (errorHeaders !== null && typeof errorHeaders === 'object') {
    try {
      reply.headers(errorHeaders);
    } catch (headerError) {
      reply.log.warn({ err: headerError }, 'an error carried a header that cannot be sent');
    }
  }
  headers['content-type'] = 'application/json; charset=utf-8';
  delete headers['content-length'];
  reply[kSent] = true;
  runOnSend(reply, payload);
}
