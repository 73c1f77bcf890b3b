// The instance methods of the server lifecycle (SPEC §4.10): ready(), listen(), close() and
// inject(), with Fastify's forms (promise and callback) and timing.
import type { DispatchFunc, InjectOptions, Response } from 'light-my-request';
import { bootApplication } from './boot.js';
import { errorCodes } from './errors.js';
import { close } from './http/close.js';
import { checkSignal, listen } from './http/listen.js';
import { contextOf } from './scope/context.js';
import type { Context } from './state/application.js';
import { markInjected } from './lifecycle/request-listener.js';
import type { ListenOptions } from './types.js';

type ListenCallback = (error: Error | null, address?: string | null) => void;
/** Called as light-my-request calls back (`undefined` for no error) and as settle() does (`null`). */
type InjectCallback = (error: Error | null | undefined, response?: Response) => void;

function settle<T>(promise: Promise<T>, callback: ((error: Error | null, value?: T) => void) | undefined): Promise<T> | undefined {
  if (typeof callback !== 'function') return promise;
  promise.then(
    (value) => callback(null, value),
    (error) => callback(error),
  );
  return undefined;
}

/** Resolves a promise with an instance without the instance's own `then` being followed. */
export function resolveWithInstance(context: Context, resolve: (value: unknown) => void): void {
  context.root.thenGuard = true;
  try {
    resolve(context.instance);
  } finally {
    context.root.thenGuard = false;
  }
}

type LightMyRequest = typeof import('light-my-request');
let loadedLightMyRequest: LightMyRequest | undefined;
/**
 * light-my-request, loaded on the first inject(), as Fastify loads it: a server that is never
 * injected into does not load it. That first load is also a `require('node:http')` made after
 * start-up, which is where an OpenTelemetry HTTP instrumentation enabled late (after the
 * framework was loaded, as @fastify/otel's own suite does) gets to patch `http.Server`: Fastify's
 * users meet their request spans from then on, and so do Enclave's.
 */
function lightMyRequest(): LightMyRequest {
  loadedLightMyRequest ??= require('light-my-request') as LightMyRequest;
  return loadedLightMyRequest;
}

/** Applications whose boot completed: inject() dispatches into them at once, as Fastify's does. */
const started = new WeakSet<object>();

function ready(context: Context): Promise<void> {
  const { root } = context;
  root.readyPromise ??= bootApplication(root).then(() => {
    if (root.compileRouter) root.router.compile();
    started.add(root);
  });
  return root.readyPromise;
}

/**
 * What `ready()` waits for: the whole boot (onReady hooks included) for the root; for a plugin's
 * instance, only the loading, as avvio does, so a plugin's ready callbacks run before onReady.
 */
function readyOf(context: Context): Promise<void> {
  const booting = ready(context);
  if (context.parent === null) return booting;
  // The root's ready() is there to report a boot failure; this one reports it too.
  booting.catch(() => {});
  return new Promise((resolve, reject) => context.root.loaded.wait((failed, error) => (failed ? reject(error) : resolve())));
}

/** Injecting into a closing or closed application fails, as Fastify's does. */
function rejectIfClosing(context: Context): Promise<void> {
  const { root } = context;
  if (root.closing || root.closed) return Promise.reject(new errorCodes.FST_ERR_REOPENED_CLOSE_SERVER());
  return ready(context);
}

/**
 * An onClose "hook" may be a disposable resource, as in Fastify: closing disposes of it
 * (Symbol.asyncDispose preferred over Symbol.dispose).
 */
export function asDisposeHook(resource: unknown): (() => Promise<void>) | undefined {
  if (resource === null || typeof resource !== 'object') return undefined;
  const holder = resource as Record<symbol, unknown>;
  const dispose = (Symbol.asyncDispose && holder[Symbol.asyncDispose]) ?? (Symbol.dispose && holder[Symbol.dispose]);
  if (typeof dispose !== 'function') return undefined;
  return async function disposeResource() {
    await dispose.call(resource);
  };
}

/** Fastify's FSTWRN003: a rejection of an async listen() callback is nobody's to handle. */
function warnAsyncListenCallback(): void {
  process.emitWarning('listen() was given an async callback: mixing the callback and async styles can leave a rejection unhandled; use one style', {
    type: 'FastifyWarning',
    code: 'FSTWRN003',
  });
}

export const lifecycleMethods: Record<string, (this: object, ...args: never[]) => unknown> = {
  ready(this: object, callback?: (error: Error | null, instance?: unknown) => void) {
    const context = contextOf(this);
    const booting = readyOf(context);
    const promise = new Promise((resolve, reject) => booting.then(() => resolveWithInstance(context, resolve), reject));
    if (typeof callback !== 'function') return promise;
    // Through the same promise as the promise form, so that callbacks and promises mixed in
    // any order are answered in the order of their ready() calls, as in Fastify.
    promise.then(
      () => callback(null, context.instance),
      (error) => callback(error),
    );
    return undefined;
  },
  listen(this: object, options?: ListenOptions | ListenCallback, callback?: ListenCallback) {
    const context = contextOf(this);
    if (typeof options === 'function') {
      callback = options;
      options = {};
    }
    if (typeof callback === 'function' && callback.constructor.name === 'AsyncFunction') warnAsyncListenCallback();
    // An invalid signal throws at once, in both forms, as in Fastify.
    if (options !== null && typeof options === 'object') checkSignal(options.signal);
    const promise = listen(
      context.root,
      () => ready(context),
      options ?? {},
      () => close(context.root),
    );
    if (typeof callback !== 'function') return promise;
    // Fastify calls back (error, null) when listening failed, and not at all when the signal
    // was aborted before the server listened (the promise form resolves with undefined).
    promise.then(
      (address) => address !== undefined && callback(null, address),
      (error) => callback(error, null),
    );
    return undefined;
  },
  close(this: object, callback?: (error?: Error | null) => void) {
    const { root } = contextOf(this);
    // At once, so an inject() or a request made right after close() is refused.
    root.closing = true;
    // Closing an application that was never readied still loads its plugins: their onClose
    // hooks have to run.
    root.readyPromise ??= bootApplication(root, false);
    const promise = root.readyPromise.catch(() => {}).then(() => close(root));
    return settle(promise, callback);
  },
  inject(this: object, options?: string | InjectOptions, callback?: InjectCallback) {
    const context = contextOf(this);
    const { root } = context;
    const open = () => started.has(root) && !root.closing && !root.closed;
    // Straight to the request listener, as Fastify's inject() calls its handler: not through
    // `server.emit('request')`, where an injected request would meet whatever wraps the server's
    // emit (an OpenTelemetry HTTP instrumentation then traces it as a network request) or the
    // other 'request' listeners of a custom server.
    const dispatch: DispatchFunc = (req, res) => {
      markInjected(req);
      // Once ready, synchronously, as in Fastify: what the request path throws before it has a
      // reply reaches the caller (see surfacesToInjector).
      if (open()) {
        root.requestListener(req, res);
        return;
      }
      rejectIfClosing(context).then(
        () => root.requestListener(req, res),
        // light-my-request rejects the chained form's promise with a response error.
        (error) => res.emit('error', error),
      );
    };
    if (options === undefined) return lightMyRequest()(dispatch);
    // The callback form, once ready, validates the options and dispatches at once: an invalid
    // option (an unknown method) throws to the caller, as Fastify's inject() does.
    if (typeof callback === 'function' && open()) {
      lightMyRequest()(dispatch, options, callback);
      return undefined;
    }
    const promise = rejectIfClosing(context).then(() => lightMyRequest()(dispatch, options));
    return settle(promise, callback);
  },
};
