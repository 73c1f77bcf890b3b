// Fastify's names for plugin and hook function types, with its type parameter lists (plugins'
// declarations pass all of them). Only the route types reach the request and the reply; the
// server, logger and type provider parameters are accepted and change nothing.
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyPluginOptions,
  FastifyTypeProviderDefault,
  HookHandlerDoneFunction,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from './fastify-names.js';
import type { FastifyInstance } from './instance.js';
import type { FastifyReply } from './reply.js';
import type { FastifyRequest } from './request.js';
import type { FastifySchema, RouteGeneric } from './schema-inference.js';

/** A plugin typed as Fastify types it (the instance is Enclave's); `Async` picks the promise form. */
export type FastifyPluginWith<
  Async extends boolean,
  Options extends FastifyPluginOptions = Record<never, never>,
  Server = RawServerDefault,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = (
  instance: FastifyInstance<Server, RawRequestDefaultExpression<Server>, RawReplyDefaultExpression<Server>, Logger, TypeProvider>,
  options: Options,
  ...done: Async extends true ? [] : [done: (error?: Error) => void]
) => Async extends true ? Promise<void> : void;

/** Fastify's callback plugin type. */
export type FastifyPluginCallback<
  Options extends FastifyPluginOptions = Record<never, never>,
  Server = RawServerDefault,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = FastifyPluginWith<false, Options, Server, TypeProvider, Logger>;

/** Fastify's async plugin type. */
export type FastifyPluginAsync<
  Options extends FastifyPluginOptions = Record<never, never>,
  Server = RawServerDefault,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = FastifyPluginWith<true, Options, Server, TypeProvider, Logger>;

/**
 * A hook handler with Fastify's eight type parameters (in its order): only the route types reach
 * the request and reply; `Async` picks the promise form over the `done` form.
 */
export type HookHandlerWith<
  Async extends boolean,
  RawServer = RawServerDefault,
  _RawRequest = RawRequestDefaultExpression<RawServer>,
  _RawReply = RawReplyDefaultExpression<RawServer>,
  RouteTypes extends RouteGeneric = RouteGeneric,
  _ContextConfig = ContextConfigDefault,
  _SchemaCompiler = unknown,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = (
  this: FastifyInstance<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, Logger, TypeProvider>,
  request: FastifyRequest<RouteTypes>,
  reply: FastifyReply<RouteTypes>,
  ...done: Async extends true ? [] : [done: HookHandlerDoneFunction]
) => Async extends true ? Promise<unknown> : void;

/** Fastify's `onRequest` hook type (callback form). */
export type onRequestHookHandler<
  RawServer = RawServerDefault,
  RawRequest = RawRequestDefaultExpression<RawServer>,
  RawReply = RawReplyDefaultExpression<RawServer>,
  RouteTypes extends RouteGeneric = RouteGeneric,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler = FastifySchema,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = HookHandlerWith<false, RawServer, RawRequest, RawReply, RouteTypes, ContextConfig, SchemaCompiler, TypeProvider, Logger>;

/** Fastify's `onRequest` hook type (async form). */
export type onRequestAsyncHookHandler<
  RawServer = RawServerDefault,
  RawRequest = RawRequestDefaultExpression<RawServer>,
  RawReply = RawReplyDefaultExpression<RawServer>,
  RouteTypes extends RouteGeneric = RouteGeneric,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler = FastifySchema,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = HookHandlerWith<true, RawServer, RawRequest, RawReply, RouteTypes, ContextConfig, SchemaCompiler, TypeProvider, Logger>;

/** Fastify's `preHandler` hook type (callback form). */
export type preHandlerHookHandler<
  RawServer = RawServerDefault,
  RawRequest = RawRequestDefaultExpression<RawServer>,
  RawReply = RawReplyDefaultExpression<RawServer>,
  RouteTypes extends RouteGeneric = RouteGeneric,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler = FastifySchema,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = HookHandlerWith<false, RawServer, RawRequest, RawReply, RouteTypes, ContextConfig, SchemaCompiler, TypeProvider, Logger>;

/** Fastify's `preHandler` hook type (async form). */
export type preHandlerAsyncHookHandler<
  RawServer = RawServerDefault,
  RawRequest = RawRequestDefaultExpression<RawServer>,
  RawReply = RawReplyDefaultExpression<RawServer>,
  RouteTypes extends RouteGeneric = RouteGeneric,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler = FastifySchema,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = HookHandlerWith<true, RawServer, RawRequest, RawReply, RouteTypes, ContextConfig, SchemaCompiler, TypeProvider, Logger>;
