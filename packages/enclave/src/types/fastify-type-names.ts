// Fastify 5's remaining public type names, each written in terms of Enclave's own types, with
// Fastify's generic parameter lists (names and arities are interface: an app or plugin that
// writes `FastifyBodyParser<string>` or `FastifyServerFactory<Server>` compiles unchanged).
// test/api-surface-types.test.ts derives Fastify's list from the installed fastify and checks
// that every name is here or elsewhere in the public types. Only types.ts imports this file.
import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import type { Logger } from '../logger.js';
import type { ErrorCodes, FastifySchemaValidationError } from './errors.js';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from './fastify-names.js';
import type { InjectChain, InjectResponse, ListenOptions } from './inject.js';
import type { FastifyInstance } from './instance.js';
import type { EnclaveOptions } from './options.js';
import type { RegisterOptionsArgument } from './plugin.js';
import type { FastifyRequest, RouteConfig } from './request.js';
import type { FastifySchema } from './schema-inference.js';

/** What a body parser does with prototype poisoning (`__proto__`) and constructor poisoning. */
export type ProtoAction = 'error' | 'remove' | 'ignore';
/** What a body parser does with a `constructor.prototype` key. */
export type ConstructorAction = 'error' | 'remove' | 'ignore';

/** The callback a callback-style body parser ends with. */
type ParserDone = (error: Error | null, body?: unknown) => void;

// Fastify's type parameters, by Fastify's names (accepted; Enclave's request type reads the route types).
// biome-ignore-start lint/correctness/noUnusedVariables: accepted for compatibility.
/** A body parser given the body already read (`parseAs: 'string'` or `'buffer'`). */
export type FastifyBodyParser<
  RawBody extends string | Buffer,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
> =
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, rawBody: RawBody, done: ParserDone) => void)
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, rawBody: RawBody) => Promise<unknown>);

/** A body parser given the raw request stream. */
export type FastifyContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
> =
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, payload: RawRequest) => Promise<unknown>)
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, payload: RawRequest, done: ParserDone) => void);

/** The instance's `addContentTypeParser` method. */
export type AddContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
> = FastifyInstance<RawServer>['addContentTypeParser'];

/** The instance's `hasContentTypeParser` method. */
export type hasContentTypeParser = (contentType: string | RegExp) => boolean;
/** The instance's `getDefaultJsonParser` method. */
export type getDefaultJsonParser = (onProtoPoisoning: ProtoAction, onConstructorPoisoning: ConstructorAction) => FastifyBodyParser<string>;

/** The request listener a `serverFactory` is given. */
export type FastifyServerFactoryHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
> = (request: RawRequest, response: RawReply) => void;

/** The `serverFactory` option: builds the server that Enclave listens with. */
export type FastifyServerFactory<RawServer extends RawServerBase = RawServerDefault> = (
  handler: FastifyServerFactoryHandler<RawServer>,
  options: Record<string, unknown>,
) => RawServer;

/** The factory's options (Enclave reads the same options for every kind of server). */
export type FastifyServerOptions<RawServer extends RawServerBase = RawServerDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger> = EnclaveOptions;
/** The factory's options for an HTTP/1.1 server. */
export type FastifyHttpOptions<RawServer extends Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> = EnclaveOptions & { http2?: false };
/** The factory's options for an HTTPS server. */
export type FastifyHttpsOptions<RawServer extends HttpsServer, Logger extends FastifyBaseLogger = FastifyBaseLogger> = EnclaveOptions & { http2?: false };
/** The factory's options for a cleartext HTTP/2 server. */
export type FastifyHttp2Options<RawServer extends Http2Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> = EnclaveOptions & { http2: true };
/** The factory's options for an HTTP/2 server over TLS. */
export type FastifyHttp2SecureOptions<RawServer extends Http2SecureServer, Logger extends FastifyBaseLogger = FastifyBaseLogger> = EnclaveOptions & {
  http2: true;
  https: object;
};
/** The router's options (`routerOptions` of the factory). */
export type FastifyRouterOptions<RawServer extends RawServerBase> = NonNullable<EnclaveOptions['routerOptions']>;
/** The `logger` option when it is an options object rather than a logger. */
export type FastifyLoggerOptions<RawServer extends RawServerBase = RawServerDefault, RawRequest = unknown, RawReply = unknown> = Exclude<
  NonNullable<EnclaveOptions['logger']>,
  boolean | Logger
>;

/** A route's configuration as the deprecated `request.context` / `reply.context` carried it. */
export interface FastifyRequestContext<ContextConfig = ContextConfigDefault> {
  config: RouteConfig & ContextConfig;
}
/** A route's configuration as the deprecated `reply.context` carried it. */
export interface FastifyReplyContext<ContextConfig = ContextConfigDefault> {
  config: RouteConfig & ContextConfig;
}

/** The options `register()` takes beside the plugin: its own and `prefix`/`logLevel`, or a function of the parent returning them. */
export type FastifyRegisterOptions<Options> = RegisterOptionsArgument<FastifyInstance, Options>;
/** The instance's `register` method. */
export type FastifyRegister<
  T = void,
  RawServer extends RawServerBase = RawServerDefault,
  TypeProviderDefault extends FastifyTypeProvider = FastifyTypeProvider,
  LoggerDefault extends FastifyBaseLogger = FastifyBaseLogger,
> = FastifyInstance<RawServer>['register'];
// biome-ignore-end lint/correctness/noUnusedVariables: accepted for compatibility.

/** `listen()`'s options. */
export interface FastifyListenOptions extends ListenOptions {}
/** Options for `printRoutes()`. */
export interface PrintRoutesOptions {
  method?: string;
  includeMeta?: boolean | (string | symbol)[];
  commonPrefix?: boolean;
  includeHooks?: boolean;
}
/** A client connection error (`clientError`'s error): Node's parser error with the bytes it read. */
export interface ConnectionError extends Error {
  code: string;
  bytesParsed: number;
  rawPacket: { type: string; data: number[] };
}

/** Fastify's older name for the logger type. */
export type FastifyLoggerInstance = FastifyBaseLogger;
/** One of the logger's level methods. */
export type FastifyLogFn = Logger['info'];
/** The table of error constructors (`errorCodes`). */
export type FastifyErrorCodes = ErrorCodes;
/** A validation failure as the schema error formatter sees it. */
export type ValidationResult = FastifySchemaValidationError;

/** `inject()` without a callback, before it is awaited (light-my-request's chain). */
export type LightMyRequestChain = InjectChain;
/** What `inject()` resolves with (light-my-request's response). */
export type LightMyRequestResponse = InjectResponse;
