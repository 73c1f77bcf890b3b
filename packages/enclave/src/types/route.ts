// Routes: handlers, route options and the shorthand methods. Adds the route methods,
// `setNotFoundHandler` and `findRoute` to the instance, which sits below this file.
import type { ChildLoggerFactory, EnclaveInstance, ErrorHandler } from './instance.js';
import type { EnclaveError } from './errors.js';
import type { LifecycleHooks, RouteHooks } from './hooks.js';
import type { EnclaveReply, RawPayload, ReplyApi } from './reply.js';
import type { EnclaveRequest, RouteConfig } from './request.js';
import type { ReplyPayload, ResolveRoute, RouteGeneric, RouteSchema } from './schema-inference.js';
import type { SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler } from '../schema/contracts.js';

declare module './instance.js' {
  interface InstanceApi {
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
    setNotFoundHandler(handler: RouteHandler): this;
    setNotFoundHandler(
      options: { preValidation?: LifecycleHooks['preValidation'] | LifecycleHooks['preValidation'][]; preHandler?: LifecycleHooks['preHandler'] | LifecycleHooks['preHandler'][] },
      handler: RouteHandler,
    ): this;
    /** The route `url` would reach, matched as a request URL (`/users/:id` gives `{ id: ':id' }`). */
    findRoute(route: { method: string; url: string; constraints?: Record<string, unknown> }): {
      handler: RouteHandler;
      params: Record<string, string | undefined>;
      searchParams: Record<string, string>;
    } | null;
  }
}

type MaybePromise<Value> = Value | Promise<Value>;

/** What a handler may return: the payload (checked against the route's reply type), the reply, or nothing. */
type HandlerResult<Route extends RouteGeneric> = MaybePromise<ReplyPayload<Route['Reply']> | RawPayload | ReplyApi<any, any> | undefined | void>;

/**
 * A route handler: return the payload, return the reply, or call `reply.send`.
 * With a declared reply type, the returned value is checked against it. `this` is the instance
 * the route was declared on, with the decorators its type carries.
 */
export type RouteHandler<Route extends RouteGeneric = RouteGeneric, Instance = EnclaveInstance> = (
  this: Instance,
  request: EnclaveRequest<Route>,
  reply: EnclaveReply<Route>,
) => HandlerResult<Route>;

/**
 * The handler slot of the route methods: a `RouteHandler` under another name, so that a handler
 * declared apart (`const h: RouteHandler<{ Params: P }>`) is compared member by member with the
 * route's resolved types. Between two `RouteHandler`s TypeScript compares the type arguments
 * alone, by a variance it measures inside the circle instance → route → handler → request, and
 * that measure depends on the order in which a program meets the types.
 */
type HandlerSlot<Route extends RouteGeneric, Instance> = (
  this: Instance,
  request: EnclaveRequest<Route>,
  reply: EnclaveReply<Route>,
) => HandlerResult<Route>;

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
  | [handler: HandlerSlot<Route, Instance>]
  | [options: RouteShorthandOptions<Route, Schema, Instance>, handler: HandlerSlot<Route, Instance>]
  | [options: RouteShorthandOptions<Route, Schema, Instance> & { handler: HandlerSlot<Route, Instance> }];

