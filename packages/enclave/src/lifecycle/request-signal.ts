// `request.signal` and the `handlerTimeout` option. The signal aborts when the client goes away
// or, with a handler timeout, when the timeout fires; its controller is created only when asked
// for (or when a timeout needs it), so routes that use neither pay nothing.
import { errorCodes } from '../errors.js';
import type { CompiledRoute } from './compiled-route.js';
import { handleError } from './error-handling.js';

const controllers = new WeakMap<object, AbortController>();

function controllerOf(request: any): AbortController {
  let controller = controllers.get(request);
  if (controller === undefined) {
    const created = new AbortController();
    controller = created;
    controllers.set(request, created);
    request.raw.once('close', () => {
      if (!created.signal.aborted) created.abort();
    });
  }
  return controller;
}

/** The `signal` getter of every request. */
export function requestSignal(request: object): AbortSignal {
  return controllerOf(request).signal;
}

/**
 * Starts the route's handler timeout: when it fires before the reply is sent, the request's
 * signal aborts with FST_ERR_HANDLER_TIMEOUT and, unless a signal listener answered, the
 * error goes to the error handlers (503), or the response is cut if it had started.
 */
export function startHandlerTimeout(route: CompiledRoute, request: any, reply: any): void {
  const controller = controllerOf(request);
  const timer = setTimeout(() => {
    if (reply.sent) return;
    const error = new errorCodes.FST_ERR_HANDLER_TIMEOUT(route.handlerTimeout, route.routeOptions.url);
    controller.abort(error);
    if (reply.sent) return;
    if (reply.raw.headersSent) reply.raw.destroy(error);
    else handleError(reply, error);
  }, route.handlerTimeout);
  const clear = () => clearTimeout(timer);
  reply.raw.once('finish', clear);
  reply.raw.once('close', clear);
}
