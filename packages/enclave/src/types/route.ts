// biome-ignore-all lint/suspicious/noConfusingVoidType: a callback's `void` return (as in Fastify's types) accepts a function returning anything; `undefined` would refuse `() => void` callbacks and expression-bodied arrows.
// Routes: handlers, route options and the route methods, under Fastify's names and type
// parameter lists (plugins augment `RouteShorthandOptions`, `RouteOptions` and
// `RouteShorthandMethod`, repeating the parameters by name). `RouteGeneric` holds the route's
// resolved types (the route methods resolve them from the explicit generic and the schema), and
// a trailing `Instance` parameter, Enclave's, types a handler's `this`. Adds the route methods,
// `setNotFoundHandler` and `findRoute` to the instance, which sits below this file.
import type { IncomingMessage } from 'node:http';
import type { SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler } from '../schema/contracts.js';
import type { FastifyError } from './errors.js';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyTypeProvider,
  FastifyRouteConfig,
  FastifyTypeProviderDefault,
  HTTPMethods,
  LogSerializers,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from './fastify-names.js';
import type { LifecycleHooks, RouteHooks } from './hooks.js';
import type { ChildLoggerFactory, EnclaveInstance, ErrorHandler, FastifyInstance, InstanceTypes, InstanceTypesOf, NotProvided } from './instance.js';
import type { EnclaveReply, RawPayload, ReplyApi } from './reply.js';
import type { EnclaveRequest, RouteConfig } from './request.js';
import type { FastifySchema, ResolveRoute, ReturnPayload, RouteGeneric } from './schema-inference.js';

declare module './request.js' {
  interface RequestApi<Route, RawRequest, ContextConfig, Logger> {
    /** The options of the route that matched (a not-found request's name no method or URL). */
    readonly routeOptions: Readonly<RequestRouteOptions<ContextConfig>>;
  }
}

declare module './reply.js' {
  interface ReplyApi<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider, ReplyType> {
    /** The options of the route that matched, as `request.routeOptions`. */
    readonly routeOptions: Readonly<RequestRouteOptions<ContextConfig>>;
  }
}

declare module './instance.js' {
  interface RouteOptionsLookup<RawServer, RawRequest, RawReply, Route, ContextConfig, SchemaCompiler, TypeProvider, Logger, Instance> {
    options: RouteOptions<RawServer, RawRequest, RawReply, Route, ContextConfig, SchemaCompiler, TypeProvider, Logger, Instance>;
  }

  interface InstanceApi<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
    get: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    head: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    post: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    put: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    delete: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    options: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    patch: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    all: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    trace: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    /** The QUERY method (a safe request with a body). */
    query: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    // The WebDAV and other methods Fastify's types name on every instance: the shorthand exists
    // once `addHttpMethod` has added the method (as in Fastify, where the types list them too).
    propfind: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    proppatch: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    mkcalendar: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    mkcol: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    copy: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    move: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    lock: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    unlock: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    report: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    search: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger, this>;
    setNotFoundHandler(handler: RouteHandler): this;
    setNotFoundHandler(
      options: {
        preValidation?: LifecycleHooks['preValidation'] | LifecycleHooks['preValidation'][];
        preHandler?: LifecycleHooks['preHandler'] | LifecycleHooks['preHandler'][];
      },
      handler: RouteHandler,
    ): this;
    /** The route `url` would reach, matched as a request URL (`/users/:id` gives `{ id: ':id' }`). */
    findRoute(route: { method: HTTPMethods; url: string; constraints?: Record<string, unknown> }): {
      handler: RouteHandler;
      params: Record<string, string | undefined>;
      searchParams: Record<string, string>;
    } | null;
  }
}

/** What `request.routeOptions` and `reply.routeOptions` show of the route that matched. */
export interface RequestRouteOptions<ContextConfig = ContextConfigDefault, SchemaCompiler = FastifySchema> {
  method: HTTPMethods | HTTPMethods[];
  url: string | undefined;
  bodyLimit: number;
  handlerTimeout: number;
  attachValidation: boolean;
  logLevel: string;
  exposeHeadRoute: boolean;
  prefixTrailingSlash: string;
  config: RouteConfig & FastifyRouteConfig & ContextConfig;
  /** Absent for a not-found request. */
  schema?: SchemaCompiler;
  handler: RouteHandlerMethod;
  /** The route's `constraints.version`, when it has one. */
  version?: string;
}

type MaybePromise<Value> = Value | Promise<Value>;

/** What a handler may return: the payload (checked against the route's reply type), the reply, or nothing. */
type HandlerResult<Route extends RouteGeneric> = MaybePromise<ReturnPayload<Route['Reply']> | RawPayload | ReplyApi<any, any> | undefined | void>;

/**
 * A route handler (Fastify's name, with its type parameters): return the payload, return the
 * reply, or call `reply.send`. With a declared reply type, the returned value is checked against
 * it. In the route methods, `this` is the instance the route was declared on, with the
 * decorators its type carries.
 */
export type RouteHandler<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  ContextConfig = ContextConfigDefault,
  _SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
> = HandlerSlot<RouteGeneric, FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>, ContextConfig>;

/** Fastify's other name for a handler, with the server's parameters first. */
export type RouteHandlerMethod<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  _SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  Instance = FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
> = HandlerSlot<RouteGeneric, Instance, ContextConfig>;

/**
 * The handler slot of the route methods: a handler under its own name, so that a handler
 * declared apart (`const h: RouteHandler<{ Params: P }>`) is compared member by member with the
 * route's resolved types. Between two instantiations of one alias TypeScript compares the type
 * arguments alone, by a variance it measures inside the circle instance → route → handler →
 * request, and that measure depends on the order in which a program meets the types. The raw
 * request and reply and the logger types come from the instance (its `InstanceTypes`; the route
 * methods look them up once per instance), the `config` type from the route. The reply's server
 * and raw request parameters, which none of its members reads, keep their defaults: each type
 * argument costs an instantiation per route (bench/types).
 */
type HandlerSlot<
  Route extends RouteGeneric,
  Instance,
  ContextConfig = ContextConfigDefault,
  Types extends InstanceTypes<unknown, unknown, unknown> = InstanceTypesOf<Instance>,
> = (
  this: Instance,
  request: EnclaveRequest<Route, Types['rawRequest'], ContextConfig, Types['logger']>,
  reply: EnclaveReply<Route, RawServerDefault, IncomingMessage, Types['rawReply'], ContextConfig>,
) => HandlerResult<Route>;

/** Route options besides method, URL and handler. */
export interface RouteShorthandOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  Instance = FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
> extends RouteHooks<RouteGeneric, SchemaCompiler> {
  schema?: SchemaCompiler;
  attachValidation?: boolean;
  validatorCompiler?: ValidatorCompiler;
  serializerCompiler?: SerializerCompiler;
  schemaErrorFormatter?: SchemaErrorFormatter;
  bodyLimit?: number;
  config?: RouteConfig & ContextConfig;
  constraints?: Record<string, unknown>;
  exposeHeadRoute?: boolean;
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both';
  /** The level of this route's request logger (one of the logger's levels). */
  logLevel?: string;
  /** Serializers of this route's request logger, on top of its plugins' (by field name). */
  logSerializers?: LogSerializers;
  /** Builds this route's request loggers, instead of its context's factory. */
  childLoggerFactory?: ChildLoggerFactory;
  /** Milliseconds this route's handler may take before a 503 FST_ERR_HANDLER_TIMEOUT. */
  handlerTimeout?: number;
  /** This route's error handler; its error is typed as Fastify types it (`FastifyError`), so a Fastify route's handler moves unchanged. */
  errorHandler?: ErrorHandler<FastifyError, RouteGeneric, ContextConfig>;
  handler?: HandlerSlot<RouteGeneric, Instance, ContextConfig>;
}

/** Route options with the handler among them (`app.get(path, { handler })`). */
export interface RouteShorthandOptionsWithHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  Instance = FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
> extends RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger, Instance> {
  handler: HandlerSlot<RouteGeneric, Instance, ContextConfig>;
}

/** A full route declaration for `app.route()`. */
export interface RouteOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  Instance = FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
> extends RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger, Instance> {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  handler: HandlerSlot<RouteGeneric, Instance, ContextConfig>;
}

/**
 * `get`, `post`, …: `(path, handler)`, `(path, options, handler)` or `(path, options-with-handler)`.
 * `SchemaCompiler` is inferred from `options.schema` (a `const` type parameter, so no `as const`
 * is needed inline); `RouteGeneric` may be given explicitly instead. `Instance` (Enclave's) is
 * what the method returns and a handler's `this`.
 *
 * One signature whose rest parameter is a union of the three argument lists, rather than three
 * overloads: with overloads, TypeScript checks a call twice (a subtype pass, then an
 * assignability pass) whenever the handler returns an object that omits an optional property,
 * which doubled the type-check cost of a route (bench/types/README.md).
 */
// An interface (plugins add overloads to it: @fastify/websocket's `websocket: true` routes).
export interface RouteShorthandMethod<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  Instance = FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
> {
  // biome-ignore lint/style/useShorthandFunctionType: augmentable, see above.
  <
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    const SchemaCompiler extends FastifySchema = FastifySchema,
  >(
    this: NotProvided,
    path: string,
    ...rest: ArgumentLists<
      HandlerSlot<ResolveRoute<RouteGeneric, SchemaCompiler>, Instance, ContextConfig, InstanceTypesOf<Instance>>,
      ShorthandOptions<ResolveRoute<RouteGeneric, SchemaCompiler>, SchemaCompiler, Instance, ContextConfig>
    >
  ): Instance;
}

/** Enclave's earlier name for a route method on an instance `Self`. */
export type RouteShorthand<Self> = RouteShorthandMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyTypeProviderDefault,
  FastifyBaseLogger,
  Self
>;

type ShorthandOptions<Route extends RouteGeneric, Schema extends FastifySchema, Instance, ContextConfig> = RouteShorthandOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  Route,
  ContextConfig,
  Schema,
  FastifyTypeProviderDefault,
  FastifyBaseLogger,
  Instance
>;

/** The argument lists a route shorthand accepts after the path. */
export type ShorthandArguments<
  Route extends RouteGeneric,
  Schema extends FastifySchema,
  Instance = EnclaveInstance,
  ContextConfig = ContextConfigDefault,
> = ArgumentLists<HandlerSlot<Route, Instance, ContextConfig>, ShorthandOptions<Route, Schema, Instance, ContextConfig>>;

// The handler and options types are built once per route and handed in whole: each type
// argument a route's types pass costs an instantiation, and three lists share them.
type ArgumentLists<Handler, Options> = [handler: Handler] | [options: Options, handler: Handler] | [options: Options & { handler: Handler }];
