// The instance: its core members (`InstanceApi`), Fastify's augmentable `FastifyInstance` and
// Enclave's `FastifyInstance`. The files above this one add their own members by augmentation
// (route.ts the route methods, application-hooks.ts `addHook`, plugin.ts `register`,
// type-provider.ts `withTypeProvider`, options.ts `initialConfig`), so that every import points
// down and none back up here (issue 31). This file adds `server` to the request and the reply.
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { HTTPVersion } from 'find-my-way';
import type { AddressInfo } from 'node:net';
import type { SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler } from '../schema/contracts.js';
import type { AddContentTypeParser, ContentTypeMatcher, FastifyBodyParser } from './content-type-parser.js';
import type { DecorationMethod, DeclaredDecorator, GetterSetter } from './decorators.js';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from './fastify-names.js';
import type { enclaveInstanceBrand, InstanceTypes, instanceTypes, NotProvided } from './instance-marks.js';
import type { FastifySchemaControllerOptions } from './schema-controller.js';
import type { InjectChain, InjectOptions, InjectResponse, LightMyRequestCallback, ListenOptions } from './inject.js';
import type { EnclaveReply, FastifyReply } from './reply.js';
import type { EnclaveRequest, FastifyRequest } from './request.js';
import type { FastifySchema, ResolveRoute, RouteGeneric } from './schema-inference.js';

declare module './request.js' {
  interface RequestApi<Route, RawRequest, ContextConfig, Logger> {
    readonly server: FastifyInstance;
  }
}

declare module './reply.js' {
  interface ReplyApi<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider, ReplyType> {
    readonly server: FastifyInstance;
  }
}

/**
 * An error handler; `ErrorType` names what your handlers throw. It defaults to `unknown`, as
 * Fastify's does: a handler or hook may throw anything, and a plain `Error` reaches the error
 * handler without a `statusCode`.
 */
export type ErrorHandler<ErrorType = unknown, Route extends RouteGeneric = RouteGeneric, ContextConfig = ContextConfigDefault> = (
  this: FastifyInstance,
  error: ErrorType,
  request: EnclaveRequest<Route, IncomingMessage, ContextConfig>,
  reply: EnclaveReply<Route>,
) => unknown;

/** find-my-way's HTTP version for a server type (Fastify's name): its router options and constraint strategies are typed by it. */
export type FindMyWayVersion<RawServer extends RawServerBase> = RawServer extends HttpServer ? HTTPVersion.V1 : HTTPVersion.V2;

// The instance's type-only keys live in instance-marks.ts; re-exported so that their importers
// keep one path.
export type {
  enclaveInstanceBrand,
  InstanceTypes,
  InstanceTypesOf,
  instanceTypes,
  NotProvided,
  providedInstanceBrand,
} from './instance-marks.js';

/**
 * The members of an application or plugin context. Methods that change the context return
 * `this`, so decorators typed on an instance stay on the chain. Internal: users and plugins
 * augment `FastifyInstance`, which extends it. The polymorphic `this` lives here because
 * TypeScript loses it on an interface that is augmented through a re-export (as plugins
 * augment `FastifyInstance` through the module `fastify`): members of such an interface
 * returned an uninstantiated `this` once a plugin's declarations were loaded.
 */
// biome-ignore-start lint/correctness/noUnusedVariables: Fastify's type parameters; not every one is read.
export interface InstanceApi<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
> {
  // biome-ignore-end lint/correctness/noUnusedVariables: Fastify's type parameters; not every one is read.
  /** Type-only: marks an Enclave instance (see `FastifyTyped`). */
  readonly [enclaveInstanceBrand]: true;
  /** Type-only: the types its routes' requests and replies carry (see `instanceTypes`). */
  readonly [instanceTypes]: InstanceTypes<RawServer, RawRequest, RawReply, Logger>;
  /** Loads what is queued so far; resolves with `undefined` (as Fastify's). */
  after(): Promise<undefined>;
  after(callback: (error: Error | null, done: (error?: Error | null) => void) => unknown): this;
  ready(): Promise<this>;
  ready(callback: (error: Error | null, instance?: this) => void): undefined;
  listen(options?: ListenOptions): Promise<string>;
  listen(options: ListenOptions, callback: (error: Error | null, address?: string) => void): void;
  listen(callback: (error: Error | null, address?: string) => void): void;
  /** Closes the server and runs the onClose hooks; resolves with `undefined` (as Fastify's). */
  close(): Promise<undefined>;
  close(callback: (error?: Error | null) => void): undefined;
  /** `await using app = enclave()` closes the application when the scope ends (where Node has the symbol). */
  [Symbol.asyncDispose](): Promise<undefined>;
  inject(options: InjectOptions | string): Promise<InjectResponse>;
  inject(options: InjectOptions | string, callback: (error: Error | null, response?: InjectResponse) => void): undefined;
  inject(options: InjectOptions | string, callback: LightMyRequestCallback): undefined;
  inject(): InjectChain;
  /** Adds an HTTP method (from `require('node:http').METHODS`) and its shorthand. */
  addHttpMethod(method: string, options?: { hasBody?: boolean; overrideExisting?: boolean }): this;
  readonly supportedMethods: string[];
  /** The request listener: routes a raw request/response pair as the server does. */
  readonly routing: (raw: IncomingMessage, res: ServerResponse) => void;
  /** Returns nothing in the types, as in Fastify (whose type tests check it). */
  addConstraintStrategy(strategy: {
    name: string;
    storage: () => { get(value: unknown): unknown; set(value: unknown, store: unknown): void };
    deriveConstraint(raw: IncomingMessage, context?: unknown): unknown;
    mustMatchWhenDerived?: boolean;
    validate?(value: unknown): void;
  }): void;
  hasConstraintStrategy(name: string): boolean;
  /** Request ids for the routes of this context and its descendants. */
  setGenReqId(generate: (raw: IncomingMessage) => string): this;
  readonly genReqId: (raw: IncomingMessage) => string;
  setChildLoggerFactory(factory: ChildLoggerFactory): this;
  readonly childLoggerFactory: ChildLoggerFactory;
  /** This context's schema bucket and compiler builders; what it leaves out stays the parent's. */
  setSchemaController(options: FastifySchemaControllerOptions): this;
  /**
   * The compiler this context's routes use when they set none: the one set with
   * `setValidatorCompiler`, else (from ready, once a route here or in an ancestor has compiled
   * a schema with it) the shared Ajv-based one; undefined before that.
   */
  // Fastify's types (its type tests compare them by identity); any: as in Fastify, the schema type
  // of whichever compiler is in effect is not known here.
  readonly validatorCompiler: FastifySchemaCompiler<any> | undefined;
  /** The response serializer compiler, by the same rules as `validatorCompiler`. */
  readonly serializerCompiler: FastifySerializerCompiler<any> | undefined;
  /** The built-in text/plain parser, to register for other media types. */
  readonly defaultTextParser: FastifyBodyParser<string>;
  /**
   * Adds an instance decorator; the returned instance is typed with it. A name already declared
   * on `FastifyInstance` (by interface merging) must be given a value of its declared type; a
   * function value gets the instance as `this`. Fastify's order of type parameters: the value's
   * type, then the name (`decorate<string>('greeting', 'hello')`).
   */
  decorate<
    Value extends DeclaredDecorator<FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>, Name>,
    Name extends string | symbol = string | symbol,
  >(
    name: Name,
    value: GetterSetter<FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>, Value>,
    dependencies?: string[],
  ): string extends Name ? this : this & { [Key in Name]: Value };
  /** Declares a decorator without a value (`null` until set), for the dependency check. */
  decorate(name: string | symbol): this;
  decorate(name: string | symbol, value: null | undefined, dependencies: string[]): this;
  /** Adds a request decorator; type it with `declare module 'enclavejs' { interface EnclaveRequest { … } }`. */
  decorateRequest: DecorationMethod<FastifyRequest, this>;
  /** Adds a reply decorator; type it with `declare module 'enclavejs' { interface EnclaveReply { … } }`. */
  decorateReply: DecorationMethod<FastifyReply, this>;
  hasDecorator(name: string): boolean;
  hasRequestDecorator(name: string): boolean;
  hasReplyDecorator(name: string): boolean;
  getDecorator<Value = unknown>(name: string): Value;
  hasPlugin(name: string): boolean;
  /** `ErrorType` names what your handlers throw; `Route` types the request and reply, as a route's generic does. */
  setErrorHandler<ErrorType = unknown, Route extends RouteGenericInterface = RouteGenericInterface>(
    // The route generic as given (an error handler has no schema to resolve): its reply reads as
    // Fastify's `FastifyReply<Route>`, which Fastify's type tests compare by identity.
    handler: ErrorHandler<ErrorType, Route>,
  ): this;
  setReplySerializer(serializer: (payload: unknown, statusCode: number) => string): this;
  /** Adds a shared schema (JSON Schema with an `$id`, or a fluent-schema builder; checked at run time). */
  addSchema(schema: object): this;
  getSchemas(): Record<string, unknown>;
  getSchema(id: string): unknown;
  setValidatorCompiler(compiler: ValidatorCompiler): this;
  /** Fastify's form, naming the schema type the compiler receives. */
  setValidatorCompiler<Schema = FastifySchema>(compiler: FastifySchemaCompiler<Schema>): this;
  setSerializerCompiler(compiler: SerializerCompiler): this;
  /** Fastify's form, naming the schema type the compiler receives. */
  setSerializerCompiler<Schema = FastifySchema>(compiler: FastifySerializerCompiler<Schema>): this;
  setSchemaErrorFormatter(formatter: SchemaErrorFormatter): this;
  // Returns nothing in the types, as in Fastify (content-type-parser.ts).
  addContentTypeParser: AddContentTypeParser<RawServer, RawRequest>;
  hasContentTypeParser(matcher: string | RegExp): boolean;
  /** The built-in JSON parser (parseAs 'string'), to register for other JSON media types. */
  getDefaultJsonParser(onProtoPoisoning?: 'error' | 'remove' | 'ignore', onConstructorPoisoning?: 'error' | 'remove' | 'ignore'): FastifyBodyParser<string>;
  removeContentTypeParser(matcher: ContentTypeMatcher): void;
  removeAllContentTypeParsers(): void;
  hasRoute(route: { method: HTTPMethods; url: string; constraints?: Record<string, unknown> }): boolean;
  printRoutes(options?: Record<string, unknown>): string;
  printPlugins(): string;
  /** The listening addresses: one per socket (a Unix socket's is its path). */
  addresses(): Array<AddressInfo | string>;
  readonly prefix: string;
  readonly pluginName: string;
  readonly version: string;
  readonly server: RawServer;
  readonly log: Logger;
  readonly listeningOrigin: string;
  /** The error handler in effect here; call it to answer an error as this context would. */
  readonly errorHandler: (this: FastifyInstance, error: unknown, request: EnclaveRequest, reply: EnclaveReply) => void;
}

/** Builds a request's logger from the application's (`setChildLoggerFactory`). */
export type ChildLoggerFactory = (
  this: FastifyInstance,
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: Record<string, unknown>,
  raw: IncomingMessage,
) => FastifyBaseLogger;

/**
 * Where `route`'s options type comes from: route.ts adds `options` (its `RouteOptions`), so that
 * `FastifyInstance` declares `route` itself without importing route.ts. Enclave's own files must
 * not augment `FastifyInstance`: when a plugin's declarations load before Enclave's, TypeScript
 * keeps only one of two augmentations that reach the interface by different paths (the plugin's,
 * through `fastify`'s re-exports, and a sibling file's), and the plugin's decorators vanish.
 */
// biome-ignore-start lint/correctness/noUnusedVariables: the parameters are used by route.ts's augmentation.
// biome-ignore lint/suspicious/noEmptyInterface: empty here, filled by route.ts's augmentation (only an interface can be augmented).
export interface RouteOptionsLookup<
  RawServer extends RawServerBase,
  RawRequest extends RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer>,
  Route extends RouteGenericInterface,
  ContextConfig,
  SchemaCompiler extends FastifySchema,
  TypeProvider extends FastifyTypeProvider,
  Logger extends FastifyBaseLogger,
  Instance,
> {}
// biome-ignore-end lint/correctness/noUnusedVariables: the parameters are used by route.ts's augmentation.

/**
 * An application or plugin context, under Fastify's name and type parameters (a plugin's
 * augmentation repeats them). `route` is declared here, not inherited, so that a plugin's
 * augmentation adds overloads to it (@fastify/websocket's) rather than conflicting with a base
 * member; it takes the instance as a `this` parameter for the same reason as `InstanceApi`.
 */
export interface FastifyInstance<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
> extends InstanceApi<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
  route<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    const SchemaCompiler extends FastifySchema = FastifySchema,
    Self extends NotProvided = FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
  >(
    this: Self,
    options: RouteOptionsLookup<
      RawServer,
      RawRequest,
      RawReply,
      ResolveRoute<RouteGeneric, SchemaCompiler>,
      ContextConfig,
      SchemaCompiler,
      TypeProvider,
      Logger,
      Self
    >['options'],
  ): Self;
}

/**
 * Enclave's name for the instance: `FastifyInstance` with its defaults, and what users declare
 * on it. Augment it (or `FastifyInstance`, which plugins augment) to type a decorator on every
 * instance; or let `register()`/`decorate()` type it where it exists, through the instance they
 * return.
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
