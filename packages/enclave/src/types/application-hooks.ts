// biome-ignore-all lint/suspicious/noConfusingVoidType: a callback's `void` return (as in Fastify's types) accepts a function returning anything; `undefined` would refuse `() => void` callbacks and expression-bodied arrows.
// Application hooks (`onRoute`, `onRegister`, `onReady`, …) and `addHook`, which takes them and
// the lifecycle hooks of hooks.ts. Adds `addHook` and `onClose` to the instance below.
import type { HookDone, LifecycleHooks, OnSendHook, PreSerializationHook, SerializedPayload } from './hooks.js';
import type { FastifyPluginOptions } from './fastify-names.js';
import type { EnclaveInstance as Instance } from './instance.js';
import type { RegisterOptions } from './plugin.js';
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
  /** Runs synchronously when a plugin creates a child context, with the options given to `register()`. */
  onRegister: (this: Self, instance: Instance, options: RegisterOptions & FastifyPluginOptions) => void;
  onReady: (this: Self, done: HookDone) => void | Promise<unknown>;
  onListen: (this: Self, done: HookDone) => void | Promise<unknown>;
  preClose: (this: Self, done: HookDone) => void | Promise<unknown>;
  onClose: (this: Self, instance: Self, done: HookDone) => void | Promise<unknown>;
}

/** The hooks that take `(request, reply, done)`. */
type RequestHookName = 'onRequest' | 'preValidation' | 'preHandler' | 'onResponse' | 'onTimeout';

/** Named in the error when an async hook also declares `done`. */
interface AsyncHookWithDone {
  readonly 'an async hook does not take done: return (or throw) instead': never;
}

/**
 * Refuses `hook` (the function given, `Fn`) when it returns a promise and declares as many
 * parameters as the full signature `Full`, its last one `done`: Enclave would wait for a `done` that
 * an async hook never needs (and Fastify refuses it, at run time and in its types). One signature
 * per hook stays, so an inline hook's parameters are still typed from it.
 */
type NoDoneWhenAsync<Fn, Full> = Fn extends (...args: infer Given) => PromiseLike<unknown>
  ? // Only a hook whose last parameter is `done` (not `onRoute`, `onRegister`).
    Full extends (...args: infer All) => unknown
    ? All extends [...unknown[], (...args: never) => void]
      ? Given['length'] extends All['length']
        ? AsyncHookWithDone
        : unknown
      : unknown
    : unknown
  : unknown;

type Lifecycle<Name extends keyof LifecycleHooks, Route extends RouteGeneric = RouteGeneric> = LifecycleHooks<Route>[Name];

/**
 * `addHook`: on an instance `Self`, returning `Self` (so an instance typed by
 * `withTypeProvider()` keeps its provider along a chain).
 */
export interface AddHook<Self> {
  <Name extends keyof LifecycleHooks, Fn extends Lifecycle<Name> = Lifecycle<Name>>(name: Name, hook: Fn & NoDoneWhenAsync<Fn, Lifecycle<Name>>): Self;
  <Name extends keyof ApplicationHooks, Fn extends ApplicationHooks<Self>[Name] = ApplicationHooks<Self>[Name]>(
    name: Name,
    hook: Fn & NoDoneWhenAsync<Fn, ApplicationHooks<Self>[Name]>,
  ): Self;
  // Fastify's forms with the route generic given first, `addHook<{ Body: Order }>('preHandler', …)`
  // (for `preSerialization` and `onSend`, the payload type comes first, then the route generic):
  // one signature per hook shape, since a given generic stops TypeScript inferring the name.
  <Route extends RouteGeneric = RouteGeneric, Fn extends Lifecycle<'onRequest', Route> = Lifecycle<'onRequest', Route>>(
    name: RequestHookName,
    hook: Fn & NoDoneWhenAsync<Fn, Lifecycle<'onRequest', Route>>,
  ): Self;
  <Route extends RouteGeneric = RouteGeneric, Fn extends Lifecycle<'preParsing', Route> = Lifecycle<'preParsing', Route>>(
    name: 'preParsing',
    hook: Fn & NoDoneWhenAsync<Fn, Lifecycle<'preParsing', Route>>,
  ): Self;
  <Payload = unknown, Route extends RouteGeneric = RouteGeneric, Fn extends PreSerializationHook<Route, Payload> = PreSerializationHook<Route, Payload>>(
    name: 'preSerialization',
    hook: Fn & NoDoneWhenAsync<Fn, PreSerializationHook<Route, Payload>>,
  ): Self;
  <Payload = SerializedPayload, Route extends RouteGeneric = RouteGeneric, Fn extends OnSendHook<Route, Payload> = OnSendHook<Route, Payload>>(
    name: 'onSend',
    hook: Fn & NoDoneWhenAsync<Fn, OnSendHook<Route, Payload>>,
  ): Self;
  <Route extends RouteGeneric = RouteGeneric, Fn extends Lifecycle<'onError', Route> = Lifecycle<'onError', Route>>(
    name: 'onError',
    hook: Fn & NoDoneWhenAsync<Fn, Lifecycle<'onError', Route>>,
  ): Self;
  <Route extends RouteGeneric = RouteGeneric, Fn extends Lifecycle<'onRequestAbort', Route> = Lifecycle<'onRequestAbort', Route>>(
    name: 'onRequestAbort',
    hook: Fn & NoDoneWhenAsync<Fn, Lifecycle<'onRequestAbort', Route>>,
  ): Self;
  /** A disposable object as an onClose hook: disposed when the application closes. */
  (name: 'onClose', hook: AsyncDisposable | Disposable): Self;
}
