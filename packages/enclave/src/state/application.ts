// The state of one application, as types: its contexts, its root state, the plugins being
// loaded, its routes (declared and compiled), and the request and reply as the lifecycle sees
// them. They refer to one another (a context knows its root, the root its routes, a compiled
// route its context and its request and reply constructors), so they live in this one file, on
// the lowest floor: every module takes them from here, and this file takes only types, from
// modules that use none of these. The functions that build and use them sit above (scope/,
// lifecycle/, routing/, boot.ts).
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { ContentTypeParserStore } from '../http/content-type-parser.js';
import type { ErrorPathLogger } from '../lifecycle/error-safety.js';
import type { HookName, RequestHookName } from '../lifecycle/hook-names.js';
import type {
  kErrorHandler,
  kHeaders,
  kHijacked,
  kInHandler,
  kInOnErrorHooks,
  kMediaType,
  kOnErrorDone,
  kReply,
  kRoute,
  kSent,
  kSerializer,
  kTrailers,
} from '../lifecycle/symbols.js';
import type { Logger } from '../logger.js';
import type { Milestone } from '../milestone.js';
import type { MethodSets } from '../routing/http-methods.js';
import type { CompiledRouteSchemas } from '../schema/contracts.js';
import type { SchemaCache } from '../schema/schema-cache.js';
import type { SchemaController } from '../schema/schema-controller.js';
import type { ChildLoggerFactory, EnclaveInstance } from '../types.js';
import type { HookEntry } from './entries.js';
import type { LogOptions, NormalizedOptions } from './options.js';

/** A route handler (or a not-found handler): `this` is the route's instance. */
export type RouteHandler = (this: unknown, request: LifecycleRequest, reply: LifecycleReply) => unknown;

/** An error handler: `setErrorHandler`'s, a route's `errorHandler`, or the default one. */
export type ErrorHandlerFunction = (this: unknown, error: unknown, request: LifecycleRequest, reply: LifecycleReply) => unknown;

/** A link in the error-handler chain: a handler that rethrows passes the error to `parent`. */
export interface ErrorHandlerEntry {
  fn: ErrorHandlerFunction;
  instance: object;
  /** The next handler up; null only for the default handler, which ends every chain. */
  parent: ErrorHandlerEntry | null;
}

/** A not-found handler set with setNotFoundHandler, compiled like a route at ready. */
export interface NotFoundEntry {
  handler: RouteHandler;
  /** Its options as given (`preValidation`, `preHandler`, `errorHandler`), checked when set. */
  options: Readonly<Record<string, unknown>>;
  context: Context;
}

export interface DecoratorNames {
  instance: string[];
  request: string[];
  reply: string[];
}

export interface Context {
  readonly id: number;
  readonly parent: Context | null;
  readonly root: RootState;
  /** The public instance: `Object.create` of the parent's, so it inherits its decorators. */
  readonly instance: EnclaveInstance;
  /** The name shown in context paths and printPlugins: the plugin that created the context. */
  readonly name: string;
  /**
   * `instance.pluginName`: the context's own plugin name, followed by the wrapped plugins that
   * loaded into it, in boot order (`a -> b -> c`), as Fastify documents for wrapped plugins.
   */
  readonly pluginName: string;
  /** The names `pluginName` joins; wrapped plugins push theirs as they load. */
  readonly pluginNames: string[];
  readonly prefix: string;
  readonly children: Context[];
  /** Hooks visible here: a copy of the parent's at creation, plus this context's own. */
  readonly hooks: Map<HookName, HookEntry[]>;
  /** Names decorated in this context only (diagnostics and printPlugins). */
  readonly decorators: DecoratorNames;
  /** The prototypes of the context's requests and replies: the decorators visible here on them. */
  readonly requestPrototype: object;
  readonly replyPrototype: object;
  /**
   * Value decorators copied onto each request/reply so every request has its own slot: those of
   * the ancestors, then this context's. Read along the chain when asked (at ready, when the
   * constructors are built), so that a value decorator an ancestor adds after this context was
   * created is visible here, exactly like its function and getter decorators on the prototypes.
   */
  readonly requestFields: Array<[string, unknown]>;
  readonly replyFields: Array<[string, unknown]>;
  /** The value decorators added in this context itself. */
  readonly ownRequestFields: Array<[string, unknown]>;
  readonly ownReplyFields: Array<[string, unknown]>;
  readonly schemas: SchemaController;
  readonly parsers: ContentTypeParserStore;
  errorHandler: ErrorHandlerEntry;
  notFound: NotFoundEntry | null;
  replySerializer: ((payload: unknown, statusCode: number) => string) | null;
  /**
   * Metadata names of plugins registered from this context; `dependencies` checks and `hasPlugin`
   * look these up along the chain. A plugin's plain function name is not among them: as in
   * Fastify, it is visible to `hasPlugin` only in its own context (through `pluginNames`).
   */
  readonly registeredPlugins: string[];
  /**
   * Set once the plugin that created this context (and everything it registered) has loaded:
   * registering on it afterwards could never load in order, so it is refused.
   */
  loaded: boolean;
  /** Per-context request and reply constructors, built at ready. */
  Request: RequestConstructor | null;
  Reply: ReplyConstructor | null;
}

export interface RootState {
  readonly options: NormalizedOptions;
  /** The options the factory was given (frozen), for `initialConfig`. */
  readonly initialConfig: Readonly<Record<string, unknown>>;
  readonly router: Router.Instance<Router.HTTPVersion.V1>;
  readonly routes: RouteRecord[];
  readonly contexts: Context[];
  readonly log: Logger;
  readonly server: Server;
  /** The server's request listener, also exposed as `instance.routing`. */
  readonly requestListener: (raw: IncomingMessage, res: ServerResponse) => void;
  /** `routerOptions.compile`: compile find-my-way's trees once every route is in (at ready). */
  readonly compileRouter: boolean;
  /** Application hooks that run once, in registration order, wherever they were added. */
  readonly applicationHooks: {
    onReady: HookEntry[];
    onListen: HookEntry[];
    preClose: HookEntry[];
    onClose: HookEntry[];
  };
  /** Not-found routes by prefix, longest first; the root's ('') is last. Built at ready. */
  notFoundRoutes: Array<{ prefix: string; route: CompiledRoute }>;
  findNotFoundRoute(url: string): CompiledRoute;
  /** What `frameworkErrors` answers through (a bad URL, an over-long parameter). Built at ready. */
  frameworkErrorRoute: CompiledRoute | null;
  /** Compiled schemas kept between starts (`schemaCache` / `ENCLAVE_SCHEMA_CACHE`), or null. */
  schemaCache: SchemaCache | null;
  /** Whether a real logger is set (per-request child loggers and request logs). */
  readonly logging: boolean;
  readyPromise: Promise<void> | null;
  /** While onReady hooks run (they may still decorate the instance). */
  runningReadyHooks: boolean;
  /** Settled once every plugin has loaded and routes are compiled, before onReady hooks. */
  readonly loaded: Milestone;
  /** Set once every plugin has loaded: no more plugins, routes, hooks or decorators. */
  booted: boolean;
  listening: boolean;
  closing: boolean;
  closed: boolean;
  /** The one close under way (or done): close() is idempotent. */
  closePromise: Promise<void> | null;
  /** While true, an instance's `then` reads as undefined (resolving a promise with it). */
  thenGuard: boolean;
}

export interface RouteRecord {
  methods: string[];
  /** The full path the router matches (prefix included). */
  url: string;
  /** The options after onRoute hooks ran (handler, schema, hooks, config, ...). */
  options: RouteOptions;
  context: Context;
  /** Built at ready; the request path reads only this. */
  compiled: CompiledRoute | null;
  /** True for the HEAD twin Enclave adds for a GET route. */
  isHeadTwin: boolean;
}

/**
 * A route's options as checked by validateRouteOptions (routing/route-options.ts): the members it
 * checks, typed; the others (schema, config, hooks, and whatever a plugin adds for its onRoute
 * hook to read) as given, read with a check where they are used.
 */
export interface RouteOptions {
  readonly [option: string]: unknown;
  /** As declared: a method or an array of them (`methods` holds them upper-cased). */
  readonly method?: unknown;
  readonly url: string;
  readonly methods: string[];
  readonly handler: RouteHandler;
  readonly errorHandler?: ErrorHandlerFunction | undefined;
  readonly bodyLimit?: number | undefined;
  readonly handlerTimeout?: number | undefined;
}

export type RouteHooks = Record<RequestHookName, HookEntry[] | null>;

export interface CompiledRoute {
  readonly context: Context;
  readonly handler: RouteHandler;
  /** The handler is an arrow function: called directly, not through Function.prototype.call. */
  readonly handlerLexicalThis: boolean;
  readonly hooks: RouteHooks;
  readonly validate: CompiledRouteSchemas['validate'];
  /** For routes with both body and body-less methods: the validator for the body-less ones. */
  readonly validateWithoutBody?: CompiledRouteSchemas['validate'] | undefined;
  readonly serializerFor: CompiledRouteSchemas['serializerFor'];
  readonly partValidators: Record<string, (data: unknown) => unknown>;
  readonly bodyLimit: number;
  /** The route declared `bodyLimit` itself: it then wins over a parser's own limit. */
  readonly ownBodyLimit?: boolean;
  readonly attachValidation: boolean;
  readonly errorHandler: ErrorHandlerEntry;
  readonly parsers: ContentTypeParserStore;
  readonly isNotFound: boolean;
  /** The HEAD route derived from a GET route: an empty answer still announces `Content-Length: 0`. */
  readonly isHeadTwin?: boolean;
  /** Options for the request's child logger: the level and serializers of the route or its plugins. */
  readonly logOptions: Readonly<LogOptions> | undefined;
  /** The public, read-only view exposed as `request.routeOptions`. */
  readonly routeOptions: Readonly<Record<string, unknown>>;
  readonly Request: RequestConstructor;
  readonly Reply: ReplyConstructor;
  /** The request-id generator of the route's context (`setGenReqId`), else the factory's. */
  readonly genReqId: (raw: IncomingMessage) => string;
  /** A child-logger factory set with `setChildLoggerFactory` or the option; null: the default. */
  readonly childLoggerFactory: ChildLoggerFactory | null;
  /** Milliseconds before FST_ERR_HANDLER_TIMEOUT; 0 for none. */
  readonly handlerTimeout: number;
  /**
   * The application's method sets (body-less: GET, HEAD, TRACE and those `addHttpMethod`
   * declared so): the live sets themselves, so a request asks them rather than the WeakMap of
   * every app's (through isBodylessMethod).
   */
  readonly methodSets: MethodSets;
}

/** The request as the lifecycle sees it. */
export interface LifecycleRequest {
  readonly id: string;
  readonly raw: IncomingMessage;
  readonly method: string;
  readonly url: string;
  readonly log: ErrorPathLogger;
  readonly query: unknown;
  readonly params: unknown;
  readonly headers: unknown;
  body: unknown;
  validationError: Error | undefined;
  /** Its reply (a slot: cheaper per request than a WeakMap entry). */
  [kReply]: LifecycleReply | null;
  [kRoute]: CompiledRoute;
  [kMediaType]: string | undefined;
}

/** The reply as the lifecycle sees it. */
export interface LifecycleReply {
  readonly raw: ServerResponse;
  readonly request: LifecycleRequest;
  readonly log: ErrorPathLogger;
  readonly sent: boolean;
  readonly statusCode: number;
  readonly elapsedTime: number;
  code(statusCode: number): LifecycleReply;
  header(name: string, value: unknown): LifecycleReply;
  headers(values: Record<string, unknown>): unknown;
  hasHeader(name: string): boolean;
  type(contentType: string): LifecycleReply;
  send(payload?: unknown): unknown;
  [kSent]: boolean;
  [kHijacked]: boolean;
  /** While the route handler runs synchronously (an unsendable payload then throws to it). */
  [kInHandler]: boolean;
  [kRoute]: CompiledRoute;
  [kErrorHandler]: ErrorHandlerEntry;
  [kOnErrorDone]: boolean;
  /** While its onError hooks run (a send from one is refused). */
  [kInOnErrorHooks]: boolean;
  /** The trailers `reply.trailer()` declared, null until the first. */
  [kTrailers]: Map<string, TrailerFunction> | null;
  /** The headers set so far, by lower-cased name (written with the status in one writeHead). */
  [kHeaders]: OutgoingHttpHeaders;
  [kSerializer]: ((payload: unknown) => unknown) | null;
}

/** A trailer's function (`reply.trailer(name, fn)`): its value by callback or promise. */
export type TrailerFunction = (reply: LifecycleReply, payload: unknown, done: (error: unknown, value?: string) => void) => unknown;

/** A context's request constructor (built at ready with the request decorators visible there). */
export type RequestConstructor = new (
  raw: IncomingMessage,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
  id: string,
  log: ErrorPathLogger,
  route: CompiledRoute,
) => LifecycleRequest;

/** A context's reply constructor (built at ready with the reply decorators visible there). */
export type ReplyConstructor = new (raw: ServerResponse, request: LifecycleRequest, log: ErrorPathLogger, route: CompiledRoute) => LifecycleReply;
