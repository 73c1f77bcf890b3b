// biome-ignore-all lint/suspicious/noConfusingVoidType: a callback's `void` return (as in Fastify's types) accepts a function returning anything; `undefined` would refuse `() => void` callbacks and expression-bodied arrows.
// Application hooks (`onRoute`, `onRegister`, `onReady`, …) and `addHook`, which takes them and
// the lifecycle hooks of hooks.ts. Adds `addHook` and `onClose` to the instance below.
import type { HookDone, LifecycleHooks } from './hooks.js';
import type { EnclaveInstance as Instance } from './instance.js';
import type { RouteOptions } from './route.js';
import type { RouteGeneric } from './schema-inference.js';

declare module './instance.js' {
  interface InstanceApi<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
    /** Same as `addHook('onClose', hook)`. */
    onClose(hook: ApplicationHooks<this>['onClose']): this;
    addHook: AddHook<this>;
  }
}

/** What an `onRoute` hook receives (and may change) for each route as it is declared. */
export interface RouteRegistration extends RouteOptions {
  /** The URL as declared, before the context's prefix. */
  routePath: string;
  /** The URL with the prefix. */
  path: string;
  prefix: string;
}

/** The application hooks by name. `Self` is the instance `addHook` was called on. */
export interface ApplicationHooks<Self = Instance> {
  /** Runs synchronously for each route as it is declared. */
  onRoute: (this: Self, route: RouteRegistration) => void;
  /** Runs synchronously when a plugin creates a child context. */
  onRegister: (this: Self, instance: Instance, options: Record<string, unknown>) => void;
  onReady: (this: Self, done: HookDone) => void | Promise<unknown>;
  onListen: (this: Self, done: HookDone) => void | Promise<unknown>;
  preClose: (this: Self, done: HookDone) => void | Promise<unknown>;
  onClose: (this: Self, instance: Self, done: HookDone) => void | Promise<unknown>;
}

/** The hooks that take `(request, reply, done)`. */
type RequestHookName = 'onRequest' | 'preValidation' | 'preHandler' | 'onResponse' | 'onTimeout';

/**
 * `addHook`: on an instance `Self`, returning `Self` (so an instance typed by
 * `withTypeProvider()` keeps its provider along a chain).
 */
export interface AddHook<Self> {
  <Name extends keyof LifecycleHooks>(name: Name, hook: LifecycleHooks[Name]): Self;
  <Name extends keyof ApplicationHooks>(name: Name, hook: ApplicationHooks<Self>[Name]): Self;
  // Fastify's form with the route generic given first, `addHook<{ Body: Order }>('preHandler', …)`:
  // one signature per hook shape, since a given generic stops TypeScript inferring the name.
  <Route extends RouteGeneric = RouteGeneric>(name: RequestHookName, hook: LifecycleHooks<Route>['onRequest']): Self;
  <Route extends RouteGeneric = RouteGeneric>(name: 'preParsing', hook: LifecycleHooks<Route>['preParsing']): Self;
  <Route extends RouteGeneric = RouteGeneric>(name: 'preSerialization', hook: LifecycleHooks<Route>['preSerialization']): Self;
  <Route extends RouteGeneric = RouteGeneric>(name: 'onSend', hook: LifecycleHooks<Route>['onSend']): Self;
  <Route extends RouteGeneric = RouteGeneric>(name: 'onError', hook: LifecycleHooks<Route>['onError']): Self;
  <Route extends RouteGeneric = RouteGeneric>(name: 'onRequestAbort', hook: LifecycleHooks<Route>['onRequestAbort']): Self;
  /** A disposable object as an onClose hook: disposed when the application closes. */
  (name: 'onClose', hook: AsyncDisposable | Disposable): Self;
}
