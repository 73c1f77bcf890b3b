// The handler phase: the route's handler, its sync or async answer, and the preHandler failure it
// would have answered, each traced on the diagnostics channel when someone subscribes.
import { type HandlerTrace, runTraced, startTrace, thenTraced, traceError } from './diagnostics.js';
import { handleError } from './error-handling.js';
import { logSafely } from './error-safety.js';
import type { CompiledRoute, LifecycleReply, LifecycleRequest } from '../state/application.js';
import { sendPayload, warnAlreadySent } from './send.js';
import { kHijacked, kInHandler, kRoute, kSent } from './symbols.js';
import { readSafely } from '../thrown-values.js';

/** A preHandler hook's error is traced as the handler's own, as Fastify does. */
export function preHandlerFailed(reply: LifecycleReply, error: unknown): void {
  const route = reply[kRoute] as CompiledRoute;
  const request = reply.request;
  const trace = startTrace(route, request, reply);
  if (trace === null) {
    handleError(reply, error);
    return;
  }
  runTraced(trace, () => {
    traceError(trace, error);
    handleError(reply, error);
  });
}

export function callHandler(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply): void {
  const trace = startTrace(route, request, reply);
  if (trace === null) runHandler(route, request, reply, null);
  else runTraced(trace, () => runHandler(route, request, reply, trace));
}

function runHandler(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply, trace: HandlerTrace | null): void {
  let result: unknown;
  // While the handler runs synchronously, an unsendable payload throws from reply.send() to it,
  // as in Fastify; a throw it does not catch comes back here.
  reply[kInHandler] = true;
  try {
    result = route.handlerLexicalThis ? route.handler(request, reply) : route.handler.call(route.context.instance, request, reply);
  } catch (err) {
    reply[kInHandler] = false;
    if (trace !== null) traceError(trace, err);
    if (reply.sent) {
      // Thrown after the answer left or the reply was hijacked: Fastify's word for it is a
      // second send; the error itself is kept in the log too.
      warnAlreadySent(reply);
      logSafely(reply.log, 'error', { err }, 'the handler threw after the reply was sent');
      return;
    }
    handleError(reply, err);
    return;
  }
  reply[kInHandler] = false;
  if (result === undefined || result === reply) return;
  // Read once, guarded: a handler may return anything, a revoked Proxy included.
  const then = readSafely(result, 'then');
  if (typeof then !== 'function') {
    sendPayload(reply, result);
    return;
  }
  thenTraced(
    trace,
    result as PromiseLike<unknown>,
    (value: unknown) => {
      if (reply[kHijacked] || value === reply) return;
      if (reply[kSent] && value === undefined) return;
      // An async handler that resolves without sending answers with what it resolved to
      // (undefined: an empty body), so a request never hangs on a forgotten send. A value
      // resolved after a send is a second send: sendPayload ignores it with a warning.
      sendPayload(reply, value);
    },
    (err: unknown) => {
      if (reply.sent) logSafely(reply.log, 'error', { err }, 'Promise errored, but reply.sent = true was set');
      else handleError(reply, err);
    },
  );
}
