// Errors on the request path. onError hooks see the first error once; then the error handler of
// the route's context runs, and an error it throws (or sends) goes to its parent's handler, up
// to the default one (default-error-answer.ts), which sets the status and answers
// `{ statusCode, code, error, message }`. The default handler is the last entry of every chain,
// so this module calls it like any other and needs nothing of the send path: the send path
// fails into this one, never the other way round. The path is total: whatever was thrown, and
// whatever its getters do, the client gets an answer (a plain 500 at worst) and the process
// keeps serving (issue 17).
import { errorCodes } from '../errors.js';
import type { ErrorHandlerEntry, LifecycleReply } from '../state/application.js';
import { readSafely } from '../thrown-values.js';
import { defaultAnswerStarted } from './default-answer-started.js';
import { thenTraced, traceOf } from './diagnostics.js';
import { answerLastResort, logSafely } from './error-safety.js';
import { runObserverHooks } from './hooks.js';
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
  if (!defaultAnswerStarted.has(reply) || onErrorRanForDefaultAnswer.has(reply)) return false;
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
  if (entry.parent === null) {
    // The default handler, the end of every chain: it answers whatever it is given, and stays
    // the reply's handler, so a failure of its own answer comes back to it.
    entry.fn.call(entry.instance, error, reply.request, reply);
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
    thenTraced(traceOf(reply), result, sendResult, (rejected: unknown) =>
      handleError(reply, rejected ? rejected : new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()),
    );
  } else if (result !== undefined) {
    sendResult(result);
  }
}
