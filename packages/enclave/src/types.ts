// The public types. The instance, request and reply interfaces users augment live in
// the `enclave` namespace of index.ts (so that `declare module 'enclavejs' { interface
// EnclaveInstance { … } }` merges from CommonJS and ESM alike); their members are declared here
// as `InstanceApi`, `RequestApi` and `ReplyApi`. Route data is inferred from the route's schema
// (types/schema-inference.ts) or named Fastify-style (`app.post<{ Body: User }>(...)`), and is
// `unknown` otherwise, never `any`.
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { errorCodes } from './errors.js';
import type enclave = require('./index.js');
import type { LogController } from './log-controller.js';
import type { Logger } from './logger.js';
import type {
  HttpPart,
  SchemaErrorFormatter,
  SerializeFunction,
  SerializerCompiler,
  SerializerCompilerInput,
  ValidationFunction,
  ValidatorCompiler,
  ValidatorCompilerInput,
} from './schema/contracts.js';
import type { AddHook, ApplicationHooks, LifecycleHooks, RouteHooks } from './types/hooks.js';
import type { PluginModule, RegisterOptionsArgument } from './types/plugin.js';
import type { ReplyPayload, ResolveRoute, RouteGeneric, RouteSchema } from './types/schema-inference.js';
import type { TypeProviderShape, WithTypeProvider } from './types/type-provider.js';

export type {
  HttpPart,
  Logger,
  SchemaErrorFormatter,
  SerializeFunction,
  SerializerCompiler,
  SerializerCompilerInput,
  ValidationFunction,
  ValidatorCompiler,
  ValidatorCompilerInput,
};
export type * from './types/hooks.js';
export type * from './types/plugin.js';
export type * from './types/schema-inference.js';
export type * from './types/type-provider.js';

/** The application or plugin context (declared in index.ts so that it can be augmented). */
export type EnclaveInstance = enclave.EnclaveInstance;
export type EnclaveRequest<Route extends RouteGeneric = RouteGeneric> = enclave.EnclaveRequest<Route>;
export type EnclaveReply<Route extends RouteGeneric = RouteGeneric, Status extends number = never> = enclave.EnclaveReply<Route, Status>;

/** One raw validation issue (Ajv's shape; `ajv-i18n` and `ajv-errors` work on these). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  [detail: string]: unknown;
}

/** Which request part failed validation. */
export type ValidationContext = 'body' | 'params' | 'querystring' | 'headers';

/**
 * An error raised by Enclave: a stable `code` to test for and the HTTP status it answers
 * with; validation errors also carry the raw issues and the part that failed.
 *
 * @example
 * ```ts
 * app.setErrorHandler((error, request, reply) => {
 *   if (error.validation) return reply.code(422).send({ part: error.validationContext, issues: error.validation });
 *   return reply.send(error);
 * });
 * ```
 */
export interface EnclaveError extends Error {
  code: string;
  statusCode: number;
  /** The raw issues, present on `FST_ERR_VALIDATION`. */
  validation?: ValidationIssue[];
  validationContext?: ValidationContext;
}

/** `errorCodes`: one constructor per `FST_ERR_*` code. */
export type ErrorCodes = typeof errorCodes;

/** Factory options (Fastify 5's names). */
export interface EnclaveOptions {
  logger?: boolean | Record<string, unknown> | Logger;
  loggerInstance?: Logger;
  bodyLimit?: number;
  pluginTimeout?: number;
  exposeHeadRoutes?: boolean;
  maxParamLength?: number;
  caseSensitive?: boolean;
  ignoreTrailingSlash?: boolean;
  ignoreDuplicateSlashes?: boolean;
  return503OnClosing?: boolean;
  /** `true`, or a function that decides per request whether to skip its log lines. */
  disableRequestLogging?: boolean | ((request: EnclaveRequest) => boolean);
  requestIdHeader?: string | boolean;
  /** Milliseconds a handler may take before the request answers 503 FST_ERR_HANDLER_TIMEOUT (0: none). */
  handlerTimeout?: number;
  /** Rewrites the URL before routing; `request.originalUrl` keeps the one sent. */
  rewriteUrl?: (this: EnclaveInstance, raw: IncomingMessage) => string;
  /** Answers the router's own errors (FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH) instead of the error handlers. */
  frameworkErrors?: (error: EnclaveError, request: EnclaveRequest, reply: EnclaveReply) => unknown;
  /** `;` also starts the query string. */
  useSemicolonDelimiter?: boolean;
  /** `false`: a second setErrorHandler() in the same context throws FST_ERR_ERROR_HANDLER_ALREADY_SET. */
  allowErrorHandlerOverride?: boolean;
  childLoggerFactory?: ChildLoggerFactory;
  /** Options for fast-json-stringify, the default response serializer. */
  serializerOpts?: Record<string, unknown>;
  /** Writes the per-request log lines (an instance of `LogController` or of a subclass). */
  logController?: LogController;
  /** Node's own server options (passed to `http.createServer`). */
  http?: Record<string, unknown>;
  requestIdLogLabel?: string;
  genReqId?: (raw: IncomingMessage) => string;
  querystringParser?: (query: string) => Record<string, unknown>;
  trustProxy?: boolean | number | string | string[] | ((address: string, hop: number) => boolean);
  onProtoPoisoning?: 'error' | 'remove' | 'ignore';
  onConstructorPoisoning?: 'error' | 'remove' | 'ignore';
  forceCloseConnections?: boolean | 'idle';
  connectionTimeout?: number;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  /** Deadline for a request's headers in ms (default 60 s, or requestTimeout when shorter). */
  headersTimeout?: number;
  maxRequestsPerSocket?: number;
  http2SessionTimeout?: number;
  https?: Record<string, unknown>;
  http2?: boolean;
  serverFactory?: (handler: (req: IncomingMessage, res: ServerResponse) => void, options: EnclaveOptions) => Server;
  /**
   * Answers a request Node's HTTP parser refused (malformed, oversized headers, too slow), with
   * the application as `this`. The default writes a JSON 400, 408 or 431 and closes the socket.
   */
  clientErrorHandler?: (this: EnclaveInstance, error: Error & { code?: string }, socket: Socket) => void;
  ajv?: { customOptions?: Record<string, unknown>; plugins?: unknown[] };
  schemaErrorFormatter?: SchemaErrorFormatter;
  schemaController?: Record<string, unknown>;
  /**
   * A directory where compiled validators and serializers are kept between starts (Enclave's own;
   * `ENCLAVE_SCHEMA_CACHE` when absent, `false` to refuse it): the guide "The schema cache".
   */
  schemaCache?: string | false | null;
  constraints?: Record<string, unknown>;
  allowUnsafeRegex?: boolean;
  routerOptions?: Record<string, unknown>;
}

type RouteConfig = enclave.RouteConfig;

/** Members of every request. `Route` carries the resolved types of the route's parts. */
export interface RequestApi<Route extends RouteGeneric = RouteGeneric> {
  id: string;
  params: Route['Params'];
  query: Route['Querystring'];
  body: Route['Body'];
  headers: Route['Headers'] & IncomingHttpHeaders;
  raw: IncomingMessage;
  log: Logger;
  readonly server: EnclaveInstance;
  readonly ip: string | undefined;
  readonly ips: string[] | undefined;
  readonly host: string | undefined;
  readonly hostname: string | undefined;
  readonly port: number | null;
  readonly protocol: 'http' | 'https';
  readonly method: string;
  readonly url: string;
  readonly originalUrl: string;
  readonly is404: boolean;
  readonly socket: IncomingMessage['socket'];
  readonly routeOptions: Readonly<{
    method: string | string[];
    url: string | undefined;
    bodyLimit: number;
    config: RouteConfig;
    schema?: RouteSchema;
    attachValidation?: boolean;
  }>;
  /** With `attachValidation: true`: the validation error, or undefined when the request is valid. */
  validationError?: EnclaveError;
  getValidationFunction(partOrSchema: HttpPart | object): ValidationFunction | undefined;
  compileValidationSchema(schema: object, httpPart?: HttpPart): ValidationFunction;
  validateInput(input: unknown, schemaOrPart: object | HttpPart, httpPart?: HttpPart): unknown;
  /** The essence of the Content-Type header (`application/json`), when it is a valid one. */
  readonly mediaType: string | undefined;
  /** Aborts when the client goes away, or with FST_ERR_HANDLER_TIMEOUT when `handlerTimeout` fires. */
  readonly signal: AbortSignal;
  /** A request decorator by name (functions bound to this request); throws FST_ERR_DEC_UNDECLARED. */
  getDecorator<Value = unknown>(name: string): Value;
  /** Sets a declared request decorator on this request; throws FST_ERR_DEC_UNDECLARED. */
  setDecorator(name: string, value: unknown): void;
}

/** Computes a trailer's value from the sent payload: return it (or a promise), or call `done`. */
export type TrailerFunction = (reply: EnclaveReply, payload: unknown, done: (error: Error | null, value?: string) => void) => unknown;

/** Anything a reply can carry besides a typed payload: an error, a pre-serialized string, bytes, a stream. */
type RawPayload = Error | string | Uint8Array | Readable;

/**
 * Members of every reply. `send` and the handler's return value are checked against
 * the route's reply type; `code(status)` narrows it to the payload declared for that status.
 */
export interface ReplyApi<Route extends RouteGeneric = RouteGeneric, Status extends number = never> extends PromiseLike<void> {
  raw: ServerResponse;
  request: EnclaveRequest<Route>;
  log: Logger;
  readonly server: EnclaveInstance;
  statusCode: number;
  sent: boolean;
  readonly elapsedTime: number;
  code<Code extends number>(statusCode: Code): EnclaveReply<Route, Code>;
  status<Code extends number>(statusCode: Code): EnclaveReply<Route, Code>;
  header(name: string, value: unknown): this;
  headers(values: Record<string, unknown>): this;
  getHeader(name: string): number | string | string[] | undefined;
  getHeaders(): Record<string, number | string | string[] | undefined>;
  hasHeader(name: string): boolean;
  removeHeader(name: string): this;
  type(contentType: string): this;
  send(payload?: ReplyPayload<Route['Reply'], Status> | RawPayload): this;
  serializer(serialize: (payload: unknown) => string): this;
  serialize(payload: unknown): string;
  redirect(url: string, code?: number): this;
  callNotFound(): this;
  hijack(): this;
  getSerializationFunction(schemaOrStatus: object | number | string, contentType?: string): SerializeFunction | undefined;
  compileSerializationSchema(schema: object, httpStatus?: string, contentType?: string): SerializeFunction;
  serializeInput(input: unknown, schemaOrStatus: object | number | string, httpStatus?: string, contentType?: string): string;
  /** The essence of the reply's Content-Type header, once set. */
  readonly mediaType: string | undefined;
  trailer(name: string, fn: TrailerFunction): this;
  hasTrailer(name: string): boolean;
  removeTrailer(name: string): this;
  /** Sends a 103 Early Hints response before the final one. */
  writeEarlyHints(hints: Record<string, string | string[]>, callback?: () => void): this;
  /** A reply decorator by name (functions bound to this reply); throws FST_ERR_DEC_UNDECLARED. */
  getDecorator<Value = unknown>(name: string): Value;
}

type MaybePromise<Value> = Value | Promise<Value>;

/**
 * A route handler: return the payload, return the reply, or call `reply.send`.
 * With a declared reply type, the returned value is checked against it. `this` is the instance
 * the route was declared on, with the decorators its type carries.
 */
export type RouteHandler<Route extends RouteGeneric = RouteGeneric, Instance = EnclaveInstance> = (
  this: Instance,
  request: EnclaveRequest<Route>,
  reply: EnclaveReply<Route>,
) => MaybePromise<ReplyPayload<Route['Reply']> | RawPayload | ReplyApi<any, any> | undefined | void>;

/** An error handler; `ErrorType` names what your handlers throw. */
export type ErrorHandler<ErrorType extends Error = EnclaveError, Route extends RouteGeneric = RouteGeneric> = (
  this: EnclaveInstance,
  error: ErrorType,
  request: EnclaveRequest<Route>,
  reply: EnclaveReply<Route>,
) => unknown;

/** Route options besides method, URL and handler. */
export interface RouteShorthandOptions<Route extends RouteGeneric = RouteGeneric, Schema = RouteSchema, Instance = EnclaveInstance>
  extends RouteHooks<Route> {
  schema?: Schema;
  attachValidation?: boolean;
  validatorCompiler?: ValidatorCompiler;
  serializerCompiler?: SerializerCompiler;
  schemaErrorFormatter?: SchemaErrorFormatter;
  bodyLimit?: number;
  config?: RouteConfig;
  constraints?: Record<string, unknown>;
  exposeHeadRoute?: boolean;
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both';
  /** The level of this route's request logger (one of the logger's levels). */
  logLevel?: string;
  /** Serializers of this route's request logger, on top of its plugins' (by field name). */
  logSerializers?: Record<string, (value: any) => unknown>;
  /** Builds this route's request loggers, instead of its context's factory. */
  childLoggerFactory?: ChildLoggerFactory;
  /** Milliseconds this route's handler may take before a 503 FST_ERR_HANDLER_TIMEOUT. */
  handlerTimeout?: number;
  errorHandler?: ErrorHandler<EnclaveError, Route>;
  handler?: RouteHandler<Route, Instance>;
}

/** A full route declaration for `app.route()`. */
export interface RouteOptions<Route extends RouteGeneric = RouteGeneric, Schema = RouteSchema, Instance = EnclaveInstance>
  extends RouteShorthandOptions<Route, Schema, Instance> {
  method: string | string[];
  url: string;
  handler: RouteHandler<Route, Instance>;
}

/**
 * `get`, `post`, …: `(path, handler)`, `(path, options, handler)` or `(path, options-with-handler)`.
 * `Schema` is inferred from `options.schema` (a `const` type parameter, so no `as const` is
 * needed inline); `RouteTypes` may be given explicitly instead.
 *
 * One signature whose rest parameter is a union of the three argument lists, rather than three
 * overloads: with overloads, TypeScript checks a call twice (a subtype pass, then an
 * assignability pass) whenever the handler returns an object that omits an optional property,
 * which doubled the type-check cost of a route (bench/types/README.md).
 */
export type RouteShorthand<Self> = 
  <RouteTypes extends RouteGeneric = RouteGeneric, const Schema extends RouteSchema = RouteSchema>(
    path: string,
    ...rest: ShorthandArguments<ResolveRoute<RouteTypes, Schema>, Schema, Self>) => Self

/** The argument lists a route shorthand accepts after the path. */
export type ShorthandArguments<Route extends RouteGeneric, Schema, Instance = EnclaveInstance> =
  | [handler: RouteHandler<Route, Instance>]
  | [options: RouteShorthandOptions<Route, Schema, Instance>, handler: RouteHandler<Route, Instance>]
  | [options: RouteShorthandOptions<Route, Schema, Instance> & { handler: RouteHandler<Route, Instance> }];

/** `app.inject()` options (light-my-request's). */
export interface InjectOptions {
  method?: string;
  url?: string | { pathname: string; protocol?: string; hostname?: string; port?: string | number; query?: string | Record<string, unknown> };
  path?: string;
  query?: Record<string, unknown> | string;
  headers?: Record<string, string | string[] | number | undefined>;
  payload?: unknown;
  body?: unknown;
  cookies?: Record<string, string>;
  remoteAddress?: string;
  authority?: string;
  simulate?: { end?: boolean; split?: boolean; error?: boolean; close?: boolean };
  signal?: AbortSignal;
}

/** The response of `app.inject()`. `json()` is `any` unless you name the type: it is test tooling reading a body you wrote. */
export interface InjectResponse {
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string | string[] | number | undefined>;
  payload: string;
  body: string;
  rawPayload: Buffer;
  trailers: Record<string, string>;
  /** The body parsed as JSON; name the type you expect. */
  json<Body = any>(): Body;
  stream(): Readable;
  cookies: Array<{ name: string; value: string; [attribute: string]: unknown }>;
}

/** `app.inject()` without arguments: a chain that builds the request and sends it on `end()` or `await`. */
export interface InjectChain extends PromiseLike<InjectResponse> {
  get(url: string): InjectChain;
  head(url: string): InjectChain;
  post(url: string): InjectChain;
  put(url: string): InjectChain;
  delete(url: string): InjectChain;
  options(url: string): InjectChain;
  patch(url: string): InjectChain;
  trace(url: string): InjectChain;
  body(payload: unknown): InjectChain;
  payload(payload: unknown): InjectChain;
  headers(headers: Record<string, string | string[] | number | undefined>): InjectChain;
  query(query: Record<string, unknown> | string): InjectChain;
  cookies(cookies: Record<string, string>): InjectChain;
  end(): Promise<InjectResponse>;
  end(callback: (error: Error | null, response?: InjectResponse) => void): void;
}

/** `listen()` options. */
export interface ListenOptions {
  port?: number | string;
  /** Default `'localhost'`. */
  host?: string;
  backlog?: number;
  /** A Unix socket (or Windows pipe) to listen on instead of a port. */
  path?: string;
  readableAll?: boolean;
  writableAll?: boolean;
  exclusive?: boolean;
  ipv6Only?: boolean;
  /** Aborting it closes the application. */
  signal?: AbortSignal;
  listenTextResolver?: (address: string) => string;
}

/** A decorator given as accessors; `this` is the decorated object. */
export interface DecoratorAccessors<Value, Target> {
  getter(this: Target): Value;
  setter?(this: Target, value: Value): void;
}

type ContentTypeParser = (
  this: EnclaveInstance,
  request: EnclaveRequest,
  body: any,
  done: (error: Error | null, body?: unknown) => void,
) => unknown;

/**
 * What `register()` asks of a plugin's instance type `Instance`: the registering instance
 * `Self` must be one (a plugin needing a decorator registers only where it exists), unless it
 * is Fastify's instance (its type has `withTypeProvider`): a plugin typed for Fastify loads
 * unmodified, its options checked, the decorators it adds untyped.
 */
export type FastifyTyped<Instance, Self = never> = [Self] extends [Instance]
  ? unknown
  : Instance extends { readonly [enclaveInstanceBrand]: true }
    ? PluginInstanceMismatch<Instance>
    : Instance extends { withTypeProvider: unknown }
      ? unknown
      : PluginInstanceMismatch<Instance>;

/**
 * A type-only mark of Enclave's instance (no run-time property): now that Enclave's instance has
 * Fastify's whole surface, `withTypeProvider` alone no longer tells a Fastify-typed plugin apart.
 */
export declare const enclaveInstanceBrand: unique symbol;

/** Named in the error when a plugin's instance needs what the registering instance lacks. */
interface PluginInstanceMismatch<Instance> {
  readonly 'the registering instance lacks what the plugin needs': Instance;
}

/**
 * Members of an application or plugin context. Methods that change the context
 * return `this`, so decorators typed on an instance stay on the chain.
 */
export interface InstanceApi {
  /** Type-only: marks an Enclave instance (see `FastifyTyped`). */
  readonly [enclaveInstanceBrand]: true;
  /**
   * Registers a plugin in a new child context. Returns this instance, typed with
   * the decorators the plugin declares (see `Plugin`). The instance is awaitable at run time
   * (`await app.register(p)` loads the queue and resolves with the instance), but its type is
   * deliberately not thenable: awaiting it keeps its type, and `async () => app` stays a
   * `Promise<EnclaveInstance>`.
   */
  register<Options extends object, Decorations extends object = {}, Instance = this>(
    plugin: PluginModule<Instance, Options, Decorations> & FastifyTyped<Instance, this>,
    options: RegisterOptionsArgument<this, Options>,
  ): this & Decorations;
  register<Decorations extends object = {}, Instance = this>(
    plugin: PluginModule<Instance, {}, Decorations> & FastifyTyped<Instance, this>,
  ): this & Decorations;
  /** Loads what is queued so far. */
  after(): Promise<void>;
  after(callback: (error: Error | null, done: (error?: Error | null) => void) => unknown): this;
  ready(): Promise<this>;
  ready(callback: (error: Error | null, instance?: this) => void): undefined;
  listen(options?: ListenOptions): Promise<string>;
  listen(options: ListenOptions, callback: (error: Error | null, address?: string) => void): undefined;
  listen(callback: (error: Error | null, address?: string) => void): undefined;
  close(): Promise<void>;
  close(callback: (error?: Error | null) => void): undefined;
  inject(options: InjectOptions | string): Promise<InjectResponse>;
  inject(options: InjectOptions | string, callback: (error: Error | null, response?: InjectResponse) => void): undefined;
  inject(): InjectChain;
  route<RouteTypes extends RouteGeneric = RouteGeneric, const Schema extends RouteSchema = RouteSchema>(
    options: RouteOptions<ResolveRoute<RouteTypes, Schema>, Schema, this>,
  ): this;
  get: RouteShorthand<this>;
  head: RouteShorthand<this>;
  post: RouteShorthand<this>;
  put: RouteShorthand<this>;
  delete: RouteShorthand<this>;
  options: RouteShorthand<this>;
  patch: RouteShorthand<this>;
  all: RouteShorthand<this>;
  trace: RouteShorthand<this>;
  /** The QUERY method (a safe request with a body). */
  query: RouteShorthand<this>;
  /**
   * Types the routes declared through the returned instance with a Fastify type provider
   * (`@fastify/type-provider-typebox`, `fastify-type-provider-zod`, …). At run time it returns
   * this instance unchanged.
   */
  withTypeProvider<Provider extends TypeProviderShape>(): WithTypeProvider<this, Provider>;
  /** Adds an HTTP method (from `require('node:http').METHODS`) and its shorthand. */
  addHttpMethod(method: string, options?: { hasBody?: boolean; overrideExisting?: boolean }): this;
  readonly supportedMethods: string[];
  /** The request listener: routes a raw request/response pair as the server does. */
  readonly routing: (raw: IncomingMessage, res: ServerResponse) => void;
  addConstraintStrategy(strategy: {
    name: string;
    storage: () => { get(value: unknown): unknown; set(value: unknown, store: unknown): void };
    deriveConstraint(raw: IncomingMessage, context?: unknown): unknown;
    mustMatchWhenDerived?: boolean;
    validate?(value: unknown): void;
  }): this;
  hasConstraintStrategy(name: string): boolean;
  /** Request ids for the routes of this context and its descendants. */
  setGenReqId(generate: (raw: IncomingMessage) => string): this;
  readonly genReqId: (raw: IncomingMessage) => string;
  setChildLoggerFactory(factory: ChildLoggerFactory): this;
  readonly childLoggerFactory: ChildLoggerFactory;
  /** This context's schema bucket and compiler builders; what it leaves out stays the parent's. */
  setSchemaController(options: Record<string, unknown>): this;
  /**
   * The compiler this context's routes use when they set none: the one set with
   * `setValidatorCompiler`, else (from ready, once a route here or in an ancestor has compiled
   * a schema with it) the shared Ajv-based one; undefined before that.
   */
  readonly validatorCompiler: ValidatorCompiler | undefined;
  /** The response serializer compiler, by the same rules as `validatorCompiler`. */
  readonly serializerCompiler: SerializerCompiler | undefined;
  /** The built-in text/plain parser, to register for other media types. */
  readonly defaultTextParser: ContentTypeParser;
  /** Same as `addHook('onClose', hook)`. */
  onClose(hook: ApplicationHooks<this>['onClose']): this;
  addHook: AddHook<this>;
  /**
   * Adds an instance decorator; the returned instance is typed with it. To type it on every
   * instance, declare it by interface merging instead.
   */
  decorate<Name extends string, Value>(name: Name, value: DecoratorAccessors<Value, this>, dependencies?: string[]): this & { [Key in Name]: Value };
  decorate<Name extends string, Value>(name: Name, value: Value, dependencies?: string[]): this & { [Key in Name]: Value };
  /** Adds a request decorator; type it with `declare module 'enclavejs' { interface EnclaveRequest { … } }`. */
  decorateRequest(name: string, value: unknown, dependencies?: string[]): this;
  /** Adds a reply decorator; type it with `declare module 'enclavejs' { interface EnclaveReply { … } }`. */
  decorateReply(name: string, value: unknown, dependencies?: string[]): this;
  hasDecorator(name: string): boolean;
  hasRequestDecorator(name: string): boolean;
  hasReplyDecorator(name: string): boolean;
  getDecorator<Value = unknown>(name: string): Value;
  hasPlugin(name: string): boolean;
  setErrorHandler<ErrorType extends Error = EnclaveError>(handler: ErrorHandler<ErrorType>): this;
  setNotFoundHandler(handler: RouteHandler): this;
  setNotFoundHandler(
    options: { preValidation?: LifecycleHooks['preValidation'] | LifecycleHooks['preValidation'][]; preHandler?: LifecycleHooks['preHandler'] | LifecycleHooks['preHandler'][] },
    handler: RouteHandler,
  ): this;
  setReplySerializer(serializer: (payload: unknown, statusCode: number) => string): this;
  addSchema(schema: { $id: string; [keyword: string]: unknown }): this;
  getSchemas(): Record<string, unknown>;
  getSchema(id: string): unknown;
  setValidatorCompiler(compiler: ValidatorCompiler): this;
  setSerializerCompiler(compiler: SerializerCompiler): this;
  setSchemaErrorFormatter(formatter: SchemaErrorFormatter): this;
  addContentTypeParser(matcher: string | RegExp | Array<string | RegExp>, parser: ContentTypeParser): this;
  addContentTypeParser(
    matcher: string | RegExp | Array<string | RegExp>,
    options: { parseAs?: 'string' | 'buffer'; bodyLimit?: number },
    parser: ContentTypeParser,
  ): this;
  hasContentTypeParser(matcher: string | RegExp): boolean;
  /** The built-in JSON parser (parseAs 'string'), to register for other JSON media types. */
  getDefaultJsonParser(onProtoPoisoning?: 'error' | 'remove' | 'ignore', onConstructorPoisoning?: 'error' | 'remove' | 'ignore'): ContentTypeParser;
  removeContentTypeParser(matcher: string | RegExp | Array<string | RegExp>): this;
  removeAllContentTypeParsers(): this;
  hasRoute(route: { method: string; url: string; constraints?: Record<string, unknown> }): boolean;
  /** The route `url` would reach, matched as a request URL (`/users/:id` gives `{ id: ':id' }`). */
  findRoute(route: { method: string; url: string; constraints?: Record<string, unknown> }): {
    handler: RouteHandler;
    params: Record<string, string | undefined>;
    searchParams: Record<string, string>;
  } | null;
  printRoutes(options?: Record<string, unknown>): string;
  printPlugins(): string;
  addresses(): Array<{ address: string; family: string; port: number }>;
  readonly prefix: string;
  readonly pluginName: string;
  readonly version: string;
  readonly server: Server;
  readonly log: Logger;
  readonly initialConfig: Readonly<EnclaveOptions>;
  readonly listeningOrigin: string;
  readonly errorHandler: ErrorHandler;
}

/** Builds a request's logger from the application's (`setChildLoggerFactory`). */
export type ChildLoggerFactory = (
  this: EnclaveInstance,
  logger: Logger,
  bindings: Record<string, unknown>,
  options: Record<string, unknown>,
  raw: IncomingMessage,
) => Logger;

/** The factory, as `require('enclavejs')` and `import enclave from 'enclavejs'` return it. */
export interface EnclaveFactory {
  (options?: EnclaveOptions): EnclaveInstance;
  default: EnclaveFactory;
  enclave: EnclaveFactory;
  /** The same factory under Fastify's name. */
  fastify: EnclaveFactory;
  /** Decides the per-request log lines; subclass it and pass an instance as `logController`. */
  LogController: typeof LogController;
  errorCodes: ErrorCodes;
}
