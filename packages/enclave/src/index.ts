// The public entry. `require('enclavejs')` returns the factory itself (callable), which also
// carries `default`, `enclave` and `errorCodes` for ESM and named-import users.
import { errorCodes as codes } from './errors.js';
import { LogController } from './log-controller.js';
import { createApplication } from './server.js';
import type * as Types from './types.js';
import type * as FastifyNames from './types/fastify-names.js';

/**
 * Creates an Enclave application.
 *
 * @example
 * const enclave = require('enclavejs')
 * const app = enclave()
 * app.get('/', async () => ({ hello: 'world' }))
 */
const enclave = createApplication as unknown as Types.EnclaveFactory;
enclave.default = enclave;
enclave.enclave = enclave;
// Fastify's own named export, so `import { fastify } from 'enclavejs'` is the only change an app needs.
enclave.fastify = enclave;
enclave.errorCodes = codes;
enclave.LogController = LogController;

// The public types ride on a namespace merged with the factory, because `export =` (which makes
// `require('enclavejs')` return the factory itself) allows no other exports. The interfaces users
// augment (`declare module 'enclavejs' { interface EnclaveInstance { db: Db } }`) are DECLARED here,
// not aliased: an alias cannot merge ("Duplicate identifier"). Their members live in types.ts.
// Keep esm/index.d.mts listing every name (test/exports.test.ts checks).
declare namespace enclave {
  /**
   * An application or plugin context. Augment it to type a decorator on every instance; or let
   * `register()`/`decorate()` type it where it exists, through the instance they return.
   *
   * @example
   * ```ts
   * declare module 'enclavejs' {
   *   interface EnclaveInstance {
   *     config: { port: number };
   *   }
   * }
   * ```
   */
  export interface EnclaveInstance extends FastifyInstance {}
  /**
   * A request. `Route` holds the route's resolved types (`Params`, `Querystring`, `Body`,
   * `Headers`); augment the interface to type request decorators.
   *
   * @example
   * ```ts
   * declare module 'enclavejs' {
   *   interface EnclaveRequest {
   *     user: { id: string } | null;
   *   }
   * }
   * ```
   */
  export interface EnclaveRequest<Route extends Types.RouteGeneric = Types.RouteGeneric>
    extends Types.RequestApi<Route>,
      Omit<FastifyRequest, keyof Types.RequestApi> {}
  /**
   * A reply. `Route['Reply']` is the payload type (or status map) that `send` checks;
   * `Status` is the status set by `reply.code()`. Augment the interface to type reply decorators.
   */
  export interface EnclaveReply<Route extends Types.RouteGeneric = Types.RouteGeneric, Status extends number = never>
    extends Types.ReplyApi<Route, Status>,
      Omit<FastifyReply, keyof Types.ReplyApi> {}

  // Fastify's augmentable interfaces, under Fastify's names and type parameters (a plugin's
  // `declare module 'fastify' { interface FastifyInstance<RawServer, …> { … } }` must repeat
  // them exactly). With Enclave installed as `fastify`, plugins' additions land here and reach
  // Enclave's instance, request and reply through the interfaces above.
  /** Fastify's name for the instance: Enclave's instance API, plus what plugins declare. */
  export interface FastifyInstance<
    RawServer = FastifyNames.RawServerDefault,
    RawRequest = FastifyNames.RawRequestDefaultExpression<RawServer>,
    RawReply = FastifyNames.RawReplyDefaultExpression<RawServer>,
    Logger = FastifyNames.FastifyBaseLogger,
    TypeProvider = FastifyNames.FastifyTypeProviderDefault,
  > extends Types.InstanceApi {}
  /** Fastify's name for a request (the route types are its first parameter); plugins add to it. */
  export interface FastifyRequest<
    RouteGeneric extends Types.RouteGeneric = Types.RouteGeneric,
    RawServer = FastifyNames.RawServerDefault,
    RawRequest = FastifyNames.RawRequestDefaultExpression<RawServer>,
    SchemaCompiler = FastifySchema,
    TypeProvider = FastifyNames.FastifyTypeProviderDefault,
    ContextConfig = FastifyNames.ContextConfigDefault,
    Logger = FastifyNames.FastifyBaseLogger,
    RequestType = unknown,
  > extends Types.RequestApi<RouteGeneric> {}
  /** Fastify's name for a reply; plugins add to it. */
  export interface FastifyReply<
    RouteGeneric extends Types.RouteGeneric = Types.RouteGeneric,
    RawServer = FastifyNames.RawServerDefault,
    RawRequest = FastifyNames.RawRequestDefaultExpression<RawServer>,
    RawReply = FastifyNames.RawReplyDefaultExpression<RawServer>,
    ContextConfig = FastifyNames.ContextConfigDefault,
    SchemaCompiler = FastifySchema,
    TypeProvider = FastifyNames.FastifyTypeProviderDefault,
    ReplyType = unknown,
  > extends Types.ReplyApi<RouteGeneric> {}
  /** A route's `schema` option under Fastify's name; plugins add keywords (@fastify/swagger's `tags`). */
  export interface FastifySchema extends Types.RouteSchema {}
  /** A route's `config` option under Fastify's name; plugins add keys (@fastify/rate-limit's `rateLimit`). */
  // biome-ignore lint/suspicious/noEmptyInterface: plugins add the keys, by interface merging.
  export interface FastifyContextConfig {}
  export type RawServerBase = FastifyNames.RawServerBase;
  export type RawServerDefault = FastifyNames.RawServerDefault;
  export type RawRequestDefaultExpression<RawServer = RawServerDefault> = FastifyNames.RawRequestDefaultExpression<RawServer>;
  export type RawReplyDefaultExpression<RawServer = RawServerDefault> = FastifyNames.RawReplyDefaultExpression<RawServer>;
  export type FastifyBaseLogger = FastifyNames.FastifyBaseLogger;
  export type LogLevel = FastifyNames.LogLevel;
  export type FastifyTypeProvider = FastifyNames.FastifyTypeProvider;
  export type FastifyTypeProviderDefault = FastifyNames.FastifyTypeProviderDefault;
  export type ContextConfigDefault = FastifyNames.ContextConfigDefault;
  export type RouteGenericInterface = FastifyNames.RouteGenericInterface;
  export type FastifyPluginOptions = FastifyNames.FastifyPluginOptions;
  export type FastifyPluginCallback<
    Options extends FastifyNames.FastifyPluginOptions = Record<never, never>,
    Server = RawServerDefault,
    TypeProvider = FastifyTypeProviderDefault,
    Logger = FastifyBaseLogger,
  > = FastifyNames.FastifyPluginWith<false, Options, Server, TypeProvider, Logger>;
  export type FastifyPluginAsync<
    Options extends FastifyNames.FastifyPluginOptions = Record<never, never>,
    Server = RawServerDefault,
    TypeProvider = FastifyTypeProviderDefault,
    Logger = FastifyBaseLogger,
  > = FastifyNames.FastifyPluginWith<true, Options, Server, TypeProvider, Logger>;
  export type HookHandlerDoneFunction = FastifyNames.HookHandlerDoneFunction;
  // Fastify's hook handler types take its eight type parameters (plugins pass all of them).
  export type onRequestHookHandler<
    RawServer = RawServerDefault,
    RawRequest = RawRequestDefaultExpression<RawServer>,
    RawReply = RawReplyDefaultExpression<RawServer>,
    RouteGeneric extends Types.RouteGeneric = Types.RouteGeneric,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler = FastifySchema,
    TypeProvider = FastifyTypeProviderDefault,
    Logger = FastifyBaseLogger,
  > = FastifyNames.HookHandlerWith<false, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>;
  export type onRequestAsyncHookHandler<
    RawServer = RawServerDefault,
    RawRequest = RawRequestDefaultExpression<RawServer>,
    RawReply = RawReplyDefaultExpression<RawServer>,
    RouteGeneric extends Types.RouteGeneric = Types.RouteGeneric,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler = FastifySchema,
    TypeProvider = FastifyTypeProviderDefault,
    Logger = FastifyBaseLogger,
  > = FastifyNames.HookHandlerWith<true, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>;
  export type preHandlerHookHandler<
    RawServer = RawServerDefault,
    RawRequest = RawRequestDefaultExpression<RawServer>,
    RawReply = RawReplyDefaultExpression<RawServer>,
    RouteGeneric extends Types.RouteGeneric = Types.RouteGeneric,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler = FastifySchema,
    TypeProvider = FastifyTypeProviderDefault,
    Logger = FastifyBaseLogger,
  > = FastifyNames.HookHandlerWith<false, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>;
  export type preHandlerAsyncHookHandler<
    RawServer = RawServerDefault,
    RawRequest = RawRequestDefaultExpression<RawServer>,
    RawReply = RawReplyDefaultExpression<RawServer>,
    RouteGeneric extends Types.RouteGeneric = Types.RouteGeneric,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler = FastifySchema,
    TypeProvider = FastifyTypeProviderDefault,
    Logger = FastifyBaseLogger,
  > = FastifyNames.HookHandlerWith<true, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>;
  /**
   * Static types for another schema library's schemas, tried before TypeBox and JSON Schema
   * inference. Each entry maps `Schema` to its type, or to `never` when it is not that library's.
   *
   * @example
   * ```ts
   * import type { ZodType, infer as ZodInfer } from 'zod';
   *
   * declare module 'enclavejs' {
   *   interface SchemaTypeResolvers<Schema> {
   *     zod: Schema extends ZodType ? ZodInfer<Schema> : never;
   *   }
   * }
   * ```
   */
  // biome-ignore lint/suspicious/noEmptyInterface: users add the entries, by interface merging.
  export interface SchemaTypeResolvers<Schema> {}
  /** A route's `config` option, as handlers read it in `request.routeOptions.config`; augment it to type your keys. */
  export interface RouteConfig extends FastifyContextConfig {
    [key: string]: unknown;
  }

  export type EnclaveOptions = Types.EnclaveOptions;
  export type EnclaveFactory = Types.EnclaveFactory;
  export type EnclaveError = Types.EnclaveError;
  export type ValidationIssue = Types.ValidationIssue;
  export type ValidationContext = Types.ValidationContext;
  export type ErrorCodes = Types.ErrorCodes;
  export type ErrorHandler<ErrorType extends Error = Types.EnclaveError, Route extends Types.RouteGeneric = Types.RouteGeneric> =
    Types.ErrorHandler<ErrorType, Route>;

  export type RouteGeneric = Types.RouteGeneric;
  export type RouteSchema = Types.RouteSchema;
  export type ResolveRoute<RouteTypes extends Types.RouteGeneric, Schema> = Types.ResolveRoute<RouteTypes, Schema>;
  export type SchemaToType<Schema> = Types.SchemaToType<Schema>;
  export type ReplyPayload<Reply, Status extends number = never> = Types.ReplyPayload<Reply, Status>;
  export type RouteOptions<
    Route extends Types.RouteGeneric = Types.RouteGeneric,
    Schema = Types.RouteSchema,
    Instance = EnclaveInstance,
  > = Types.RouteOptions<Route, Schema, Instance>;
  // An interface, not an alias, so that plugins can augment it under this name (@fastify/swagger).
  export interface RouteShorthandOptions<
    Route extends Types.RouteGeneric = Types.RouteGeneric,
    Schema = Types.RouteSchema,
    Instance = EnclaveInstance,
  > extends Types.RouteShorthandOptions<Route, Schema, Instance> {}
  export type RouteShorthand<Self> = Types.RouteShorthand<Self>;
  export type ShorthandArguments<Route extends Types.RouteGeneric, Schema, Instance = EnclaveInstance> = Types.ShorthandArguments<
    Route,
    Schema,
    Instance
  >;
  export type RouteHandler<Route extends Types.RouteGeneric = Types.RouteGeneric, Instance = EnclaveInstance> = Types.RouteHandler<
    Route,
    Instance
  >;
  export type RouteHooks<Route extends Types.RouteGeneric = Types.RouteGeneric> = Types.RouteHooks<Route>;

  export type Plugin<Options extends Types.PluginOptions = Record<string, unknown>, Decorations extends object = {}> = Types.Plugin<
    Options,
    Decorations
  >;
  export type PluginOptions = Types.PluginOptions;
  export type PluginFunction<Instance, Options, Decorations> = Types.PluginFunction<Instance, Options, Decorations>;
  export type PluginModule<Instance, Options, Decorations> = Types.PluginModule<Instance, Options, Decorations>;
  export type PluginDone = Types.PluginDone;
  export type RegisterOptions = Types.RegisterOptions;
  export type DecoratorsOf<PluginValue> = Types.DecoratorsOf<PluginValue>;
  export type FastifyTyped<Instance, Self = never> = Types.FastifyTyped<Instance, Self>;
  export type DecoratorAccessors<Value, Target> = Types.DecoratorAccessors<Value, Target>;

  export type HookDone = Types.HookDone;
  export type RequestHook<Route extends Types.RouteGeneric = Types.RouteGeneric> = Types.RequestHook<Route>;
  export type PreParsingHook<Route extends Types.RouteGeneric = Types.RouteGeneric> = Types.PreParsingHook<Route>;
  export type PreSerializationHook<Route extends Types.RouteGeneric = Types.RouteGeneric> = Types.PreSerializationHook<Route>;
  export type OnSendHook<Route extends Types.RouteGeneric = Types.RouteGeneric> = Types.OnSendHook<Route>;
  export type OnErrorHook<Route extends Types.RouteGeneric = Types.RouteGeneric> = Types.OnErrorHook<Route>;
  export type OnRequestAbortHook<Route extends Types.RouteGeneric = Types.RouteGeneric> = Types.OnRequestAbortHook<Route>;
  export type LifecycleHooks<Route extends Types.RouteGeneric = Types.RouteGeneric> = Types.LifecycleHooks<Route>;
  export type ApplicationHooks<Self = EnclaveInstance> = Types.ApplicationHooks<Self>;
  export type RouteRegistration = Types.RouteRegistration;
  export type RequestPayload = Types.RequestPayload;
  export type SerializedPayload = Types.SerializedPayload;

  export type InjectOptions = Types.InjectOptions;
  export type InjectResponse = Types.InjectResponse;
  export type InjectChain = Types.InjectChain;
  export type ListenOptions = Types.ListenOptions;
  export type Logger = Types.Logger;
  export type HttpPart = Types.HttpPart;
  export type ValidatorCompiler = Types.ValidatorCompiler;
  export type ValidatorCompilerInput = Types.ValidatorCompilerInput;
  export type ValidationFunction = Types.ValidationFunction;
  export type SerializerCompiler = Types.SerializerCompiler;
  export type SerializerCompilerInput = Types.SerializerCompilerInput;
  export type SerializeFunction = Types.SerializeFunction;
  export type SchemaErrorFormatter = Types.SchemaErrorFormatter;

  export type TypeProviderShape = Types.TypeProviderShape;
  export type WithTypeProvider<Instance, Provider extends Types.TypeProviderShape> = Types.WithTypeProvider<Instance, Provider>;
  export type ResolveProvidedRoute<Provider extends Types.TypeProviderShape, RouteTypes extends Types.RouteGeneric, Schema> =
    Types.ResolveProvidedRoute<Provider, RouteTypes, Schema>;
  export type ChildLoggerFactory = Types.ChildLoggerFactory;
  export type TrailerFunction = Types.TrailerFunction;
  export type LogController = import('./log-controller.js').LogController;
  export type LogControllerOptions = import('./log-controller.js').LogControllerOptions;
}

export = enclave;
