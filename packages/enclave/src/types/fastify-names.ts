// Fastify's type names, for applications that install Enclave under the name `fastify` (an npm
// alias, docs/migrating-from-fastify.md). Plugins' declarations import these names from
// `fastify` and augment its interfaces (`FastifyInstance`, `FastifyRequest`, …); the augmentable
// ones are declared in index.ts, where Enclave's own interfaces extend them, so what a plugin
// adds shows on Enclave's objects. The rest are kept shallow: the server, logger and type
// provider parameters are accepted for compatibility and change nothing.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
import type enclave = require('../index.js');
import type { Logger } from '../logger.js';
import type { RouteGeneric } from './schema-inference.js';

export type RawServerBase = Server | HttpsServer | Http2Server | Http2SecureServer;
export type RawServerDefault = Server;
export type RawRequestDefaultExpression<_RawServer = RawServerDefault> = IncomingMessage;
export type RawReplyDefaultExpression<_RawServer = RawServerDefault> = ServerResponse;
export type FastifyBaseLogger = Logger;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' | (string & {});

/** A type provider's shape; Enclave infers request types from JSON Schema without one. */
export interface FastifyTypeProvider {
  readonly schema: unknown;
  readonly validator: unknown;
  readonly serializer: unknown;
}
export type FastifyTypeProviderDefault = FastifyTypeProvider;
export type ContextConfigDefault = unknown;
export type RouteGenericInterface = RouteGeneric;
export type FastifyPluginOptions = Record<string, any>;

/** A plugin typed as Fastify types it (the instance is Enclave's); `Async` picks the promise form. */
export type FastifyPluginWith<
  Async extends boolean,
  Options extends FastifyPluginOptions = Record<never, never>,
  Server = RawServerDefault,
  TypeProvider = FastifyTypeProviderDefault,
  Logger = FastifyBaseLogger,
> = (
  instance: enclave.FastifyInstance<Server, RawRequestDefaultExpression<Server>, RawReplyDefaultExpression<Server>, Logger, TypeProvider>,
  options: Options,
  ...done: Async extends true ? [] : [done: (error?: Error) => void]
) => Async extends true ? Promise<void> : void;

export type HookHandlerDoneFunction = (error?: Error) => void;

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
  this: enclave.FastifyInstance<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, Logger, TypeProvider>,
  request: enclave.FastifyRequest<RouteTypes>,
  reply: enclave.FastifyReply<RouteTypes>,
  ...done: Async extends true ? [] : [done: HookHandlerDoneFunction]
) => Async extends true ? Promise<unknown> : void;
