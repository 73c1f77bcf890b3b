// Fastify's utility type names (servers, loggers, type providers), for code and plugins' declarations
// written against Fastify. Bottom floor: the augmentable interfaces (`FastifyInstance`, …) are
// declared in instance.ts, request.ts and reply.ts. The server, logger and type provider
// parameters are accepted for compatibility and change nothing.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
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

export type HookHandlerDoneFunction = (error?: Error) => void;
