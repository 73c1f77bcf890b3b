// Fastify's utility type names (servers, raw requests and replies, loggers, type providers, route
// generics), for code and plugins' declarations written against Fastify. Bottom floor: the
// augmentable interfaces (`FastifyInstance`, …) are declared in instance.ts, request.ts,
// reply.ts and route.ts. The server, logger and type provider parameters are accepted for
// compatibility; the raw request and reply follow the server type as in Fastify.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server, Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
import type { Readable } from 'node:stream';
import type { Bindings, ChildLoggerOptions } from 'pino';
import type { Logger } from '../logger.js';
import type { RouteGeneric } from './schema-inference.js';

/** The Node.js servers an application can run on. */
export type RawServerBase = Server | HttpsServer | Http2Server | Http2SecureServer;
/** The default server: `node:http`'s. */
export type RawServerDefault = Server;
/** The raw request of a server type (`IncomingMessage`, or HTTP/2's request). */
export type RawRequestDefaultExpression<RawServer extends RawServerBase = RawServerDefault> = RawServer extends Server | HttpsServer
  ? IncomingMessage
  : RawServer extends Http2Server | Http2SecureServer
    ? Http2ServerRequest
    : never;
/** The raw reply of a server type (`ServerResponse`, or HTTP/2's response). */
export type RawReplyDefaultExpression<RawServer extends RawServerBase = RawServerDefault> = RawServer extends Server | HttpsServer
  ? ServerResponse
  : RawServer extends Http2Server | Http2SecureServer
    ? Http2ServerResponse
    : never;
/** A log method: pino's call forms, `(message)` or `(details, message)`. */
export type FastifyLogFn = Logger['info'];
/** The levels a logger has a method for (pino's, with `silent`). */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * The logger type of `app.log`, `request.log` and `reply.log` (a pino logger fits, as does any
 * object with these methods): the methods Enclave calls (`Logger`'s), and `silent` too, so that
 * `log[level]` is callable for any `LogLevel`; `child`'s options are pino's, so a misspelt option
 * is a type error.
 */
export interface FastifyBaseLogger extends Pick<Logger, 'level' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'> {
  silent(...args: unknown[]): void;
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger;
}

/** The HTTP methods, upper or lower case (other strings are accepted too, for added methods). */
export type HTTPMethods = Uppercase<StandardMethod> | Lowercase<StandardMethod> | (string & Record<never, never>);
type StandardMethod =
  | 'DELETE'
  | 'GET'
  | 'HEAD'
  | 'PATCH'
  | 'POST'
  | 'PUT'
  | 'OPTIONS'
  | 'QUERY'
  | 'PROPFIND'
  | 'PROPPATCH'
  | 'MKCOL'
  | 'COPY'
  | 'MOVE'
  | 'LOCK'
  | 'UNLOCK'
  | 'TRACE'
  | 'SEARCH'
  | 'REPORT'
  | 'MKCALENDAR';

/** A type provider's shape; Enclave infers request types from JSON Schema without one. */
export interface FastifyTypeProvider {
  readonly schema: unknown;
  readonly validator: unknown;
  readonly serializer: unknown;
}
/** The type provider of an instance that has none: Enclave's own inference applies. */
export interface FastifyTypeProviderDefault extends FastifyTypeProvider {}

export type ContextConfigDefault = unknown;
export type RequestBodyDefault = unknown;
export type RequestQuerystringDefault = unknown;
export type RequestParamsDefault = unknown;
export type RequestHeadersDefault = unknown;
export type ReplyDefault = unknown;

/** The request parts of a route generic. */
export interface RequestGenericInterface {
  Body?: RequestBodyDefault;
  Querystring?: RequestQuerystringDefault;
  Params?: RequestParamsDefault;
  Headers?: RequestHeadersDefault;
}
/** The reply part of a route generic. */
export interface ReplyGenericInterface {
  Reply?: ReplyDefault;
}
export type RouteGenericInterface = RouteGeneric;
// any: Fastify's type, so a plugin's options interface without an index signature still fits.
export type FastifyPluginOptions = Record<string, any>;

/** A promise-like value that may be left unawaited (Fastify's mark for `ready()`, `register()`, …). */
export type SafePromiseLike<Value> = PromiseLike<Value> & { __linterBrands: 'SafePromiseLike' };

/** The `done` of a callback-style hook: call it once, with an error (or nothing, or `null`) to go on. */
export type HookHandlerDoneFunction = <ErrorType extends Error = Error>(error?: ErrorType | null) => void;
/** The `done` of `preSerialization` and `onSend`: nothing, an error, or `null` and the replacement payload. */
export interface DoneFuncWithErrOrRes {
  (): void;
  <ErrorType extends Error = Error>(error: ErrorType): void;
  (error: null, payload: unknown): void;
}
/** The request body stream a `preParsing` hook receives and may replace. */
export interface RequestPayload extends Readable {
  receivedEncodedLength?: number;
}

/** What Fastify hands a schema compiler for one schema (`schema` is the route part's schema). */
export interface FastifyRouteSchemaDef<Schema> {
  schema: Schema;
  method: string;
  url: string;
  httpPart?: string;
  httpStatus?: string;
  contentType?: string;
}

/** A compiled validation function, Fastify's shape: Ajv-style boolean with `errors`, or `{ value }` / `{ error }`. */
export interface FastifyValidationResult {
  // any: Fastify's shape, which validators of any library (Ajv, Zod, TypeBox) are written against.
  (data: any): boolean | SafePromiseLike<any> | { error?: Error | ValidationIssueShape[]; value?: any };
  errors?: ValidationIssueShape[] | null;
}
type ValidationIssueShape = { keyword: string; instancePath: string; schemaPath: string; params: Record<string, unknown>; message?: string };

/** Fastify's validator compiler type for schemas of type `Schema` (type providers declare theirs with it). */
export type FastifySchemaCompiler<Schema> = (routeSchema: FastifyRouteSchemaDef<Schema>) => FastifyValidationResult;
/** Fastify's serializer compiler type for schemas of type `Schema`. */
// any: Fastify's shape; a serializer takes whatever a handler returns.
export type FastifySerializerCompiler<Schema> = (routeSchema: FastifyRouteSchemaDef<Schema>) => (data: any) => string;

/**
 * A logger's serializers by field name, on top of the inherited ones.
 */
// any: each serializer names the type of the field it formats (`(req: FastifyRequest) => …`),
// which a parameter of `unknown` would refuse (parameter contravariance).
export type LogSerializers = Record<string, (value: any) => unknown>;

/** The `url` and `method` every route's `config` carries (Fastify's name). */
export interface FastifyRouteConfig {
  url: string;
  method: HTTPMethods | HTTPMethods[];
}
