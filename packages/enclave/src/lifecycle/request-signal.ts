// `request.signal` and the `handlerTimeout` option. The signal aborts when the client goes away
// or, with a handler timeout, when the timeout fires; its controller is created only when asked
// for (or when a timeout needs it), so routes that use neither pay nothing.
import { errorCodes } from '../errors.js';
import type { CompiledRoute, LifecycleReply, LifecycleRequest } from '../state/application.js';
import { handleError } from './error-handling.js';
import { kHijacked, kReply, kSent } from './symbols.js';

const controllers = new WeakMap<object, AbortController>();

function controllerOf(request: LifecycleRequest): AbortController {
  let controller = controllers.get(request);
  if (controller === undefined) {
    const created = new AbortController();
    controller = created;
    controllers.set(request, created);
    // The request closes when the client goes away, but also after a normal response: only the
    // first, before the reply was sent (or hijacked), aborts the signal, as in Fastify.
    request.raw.once('close', () => {
      if (!created.signal.aborted && request[kReply]?.sent !== true) created.abort();
    });
  }
  return controller;
}

/** The `signal` getter of every request. */
export function requestSignal(request: LifecycleRequest): AbortSignal {
  return controllerOf(request).signal;
}

/**
 * Starts the route's handler timeout: when it fires before the reply is sent, the request's
 * signal aborts with FST_ERR_HANDLER_TIMEOUT and, unless a signal listener answered, the
 * error goes to the error handlers (503), or the response is cut if it had started.
 */
export function startHandlerTimeout(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply): void {
  const controller = controllerOf(request);
  // Finished (flushed, not just ended: a payload still being written to a slow client or an
  // HTTP/2 stream out of flow-control window is cut by the timeout too), or in other hands.
  const settled = () => reply[kHijacked] === true || reply.raw.writableFinished === true;
  const timer = setTimeout(() => {
    if (settled()) return;
    const error = new errorCodes.FST_ERR_HANDLER_TIMEOUT(route.handlerTimeout, route.routeOptions.url);
    controller.abort(error);
    if (settled()) return;
    // A stream still flowing after its head went out: cut it (an error response cannot follow).
    if (reply.raw.headersSent) reply.raw.destroy(error);
    else if (reply[kSent] !== true) handleError(reply, error);
  }, route.handlerTimeout);
  const clear = () => clearTimeout(timer);
  reply.raw.once('finish', clear);
  reply.raw.once('close', clear);
}
