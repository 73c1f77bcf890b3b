// The factory's options, by server type (Fastify's FastifyServerOptions and its http, https and
// http2 variants), and the factory's type. Top floor of the public types: adds `initialConfig`
// to the instance below.
import type { ServerOptions as HttpServerOptions, Server } from 'node:http';
import type { Http2SecureServer, Http2Server, SecureServerOptions } from 'node:http2';
import type { Server as HttpsServer, ServerOptions as HttpsServerOptions } from 'node:https';
import type { Socket } from 'node:net';
import type { Config as RouterConfig } from 'find-my-way';
import type { LogController } from '../log-controller.js';
import type { SchemaErrorFormatter } from '../schema/contracts.js';
import type { AjvFactoryOptions } from '../schema/schema-controller.js';
import type { ErrorCodes } from '../errors.js';
import type { EnclaveError } from './errors.js';
import type { FastifyBaseLogger, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './fastify-names.js';
import type { ChildLoggerFactory, EnclaveInstance, FastifyInstance, FindMyWayVersion } from './instance.js';
import type { FastifySchemaControllerOptions } from './schema-controller.js';
import type { FastifyLoggerOptions, PinoLoggerOptions } from './logger-options.js';
import type { EnclaveReply } from './reply.js';
import type { EnclaveRequest, FastifyRequest } from './request.js';

declare module './instance.js' {
  interface InstanceApi<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
    readonly initialConfig: InitialConfig<RawServer>;
  }
}

/** The options that shape the server, with their defaults filled in (`instance.initialConfig`). */
export type InitialConfig<RawServer extends RawServerBase = RawServerDefault> = Readonly<{
  connectionTimeout?: number;
  keepAliveTimeout?: number;
  forceCloseConnections?: boolean;
  bodyLimit?: number;
  caseSensitive?: boolean;
  allowUnsafeRegex?: boolean;
  http2?: boolean;
  https?: boolean | Readonly<{ allowHTTP1: boolean }>;
  ignoreTrailingSlash?: boolean;
  ignoreDuplicateSlashes?: boolean;
  disableRequestLogging?: boolean | ((req: FastifyRequest) => boolean);
  maxParamLength?: number;
  onProtoPoisoning?: 'error' | 'remove' | 'ignore';
  onConstructorPoisoning?: 'error' | 'remove' | 'ignore';
  pluginTimeout?: number;
  requestIdHeader?: string | false;
  requestIdLogLabel?: string;
  http2SessionTimeout?: number;
  useSemicolonDelimiter?: boolean;
  routerOptions?: FastifyRouterOptions<RawServer>;
}>;

/** find-my-way's options, with the callbacks typed by the server's raw request and reply. */
export type FastifyRouterOptions<RawServer extends RawServerBase> = Omit<
  RouterConfig<FindMyWayVersion<RawServer>>,
  'defaultRoute' | 'onBadUrl' | 'onMaxParamLength' | 'querystringParser'
> & {
  compile?: boolean;
  defaultRoute?: (req: RawRequestDefaultExpression<RawServer>, res: RawReplyDefaultExpression<RawServer>) => void;
  onBadUrl?: (path: string, req: RawRequestDefaultExpression<RawServer>, res: RawReplyDefaultExpression<RawServer>) => void;
  onMaxParamLength?: (path: string, req: RawRequestDefaultExpression<RawServer>, res: RawReplyDefaultExpression<RawServer>) => void;
  querystringParser?: (query: string) => Record<string, unknown>;
};

/** The request listener a `serverFactory` attaches to the server it creates. */
export type FastifyServerFactoryHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
> = (request: RawRequestDefaultExpression<RawServer> & RawRequest, response: RawReplyDefaultExpression<RawServer> & RawReply) => void;

/** The `serverFactory` option: creates the server, given the request listener and the factory's options. */
export type FastifyServerFactory<RawServer extends RawServerBase = RawServerDefault> = (
  handler: FastifyServerFactoryHandler<RawServer>,
  options: Record<string, unknown>,
) => RawServer;

/** What a client connection's `clientError` event carries (Node's HTTP parser errors). */
export interface ConnectionError extends Error {
  code: string;
  bytesParsed: number;
  rawPacket: { type: string; data: number[] };
}

/** Factory options every server type takes (Fastify 5's names). */
export interface FastifyServerOptions<RawServer extends RawServerBase = RawServerDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger> {
  /** `true`, or pino's options (a logger instance goes in `loggerInstance`). */
  logger?: boolean | (FastifyLoggerOptions<RawServer> & PinoLoggerOptions);
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
  rewriteUrl?: (
    this: FastifyInstance<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, Logger>,
    raw: RawRequestDefaultExpression<RawServer>,
  ) => string;
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
  requestIdLogLabel?: string;
  genReqId?: (raw: RawRequestDefaultExpression<RawServer>) => string;
  querystringParser?: (query: string) => Record<string, unknown>;
  /**
   * Which proxies' forwarding headers to believe. No hop count: a number trusts nobody at run time
   * (as in Fastify 5.12, whose types refuse it too), since a count cannot tell a proxy from a client.
   */
  trustProxy?: boolean | string | string[] | ((address: string, hop: number) => boolean);
  onProtoPoisoning?: 'error' | 'remove' | 'ignore';
  onConstructorPoisoning?: 'error' | 'remove' | 'ignore';
  forceCloseConnections?: boolean | 'idle';
  connectionTimeout?: number;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  /** Deadline for a request's headers in ms (default 60 s, or requestTimeout when shorter). */
  headersTimeout?: number;
  maxRequestsPerSocket?: number;
  serverFactory?: FastifyServerFactory<RawServer>;
  /**
   * Answers a request Node's HTTP parser refused (malformed, oversized headers, too slow), with
   * the application as `this`. The default writes a JSON 400, 408 or 431 and closes the socket.
   */
  clientErrorHandler?: (this: EnclaveInstance, error: ConnectionError, socket: Socket) => void;
  ajv?: AjvFactoryOptions;
  schemaErrorFormatter?: SchemaErrorFormatter;
  schemaController?: FastifySchemaControllerOptions;
  /**
   * A directory where compiled validators and serializers are kept between starts (Enclave's own;
   * `ENCLAVE_SCHEMA_CACHE` when absent, `false` to refuse it): the guide "The schema cache".
   */
  schemaCache?: string | false | null;
  constraints?: Record<string, unknown>;
  allowUnsafeRegex?: boolean;
  routerOptions?: FastifyRouterOptions<RawServer>;
}

/** Options of an HTTP/1 server (the default). */
export type FastifyHttpOptions<Server extends RawServerDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger> = FastifyServerOptions<Server, Logger> & {
  http?: HttpServerOptions | null;
  http2?: false;
};
/** Options of an HTTPS server: `https` holds the TLS options. */
export type FastifyHttpsOptions<Server extends HttpsServer, Logger extends FastifyBaseLogger = FastifyBaseLogger> = FastifyServerOptions<Server, Logger> & {
  https: HttpsServerOptions | null;
  http2?: false;
};
/** Options of a cleartext HTTP/2 server. */
export type FastifyHttp2Options<Server extends Http2Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> = FastifyServerOptions<Server, Logger> & {
  http2: true;
  http2SessionTimeout?: number;
};
/** Options of an HTTP/2 server over TLS. */
export type FastifyHttp2SecureOptions<Server extends Http2SecureServer, Logger extends FastifyBaseLogger = FastifyBaseLogger> = FastifyServerOptions<
  Server,
  Logger
> & { http2: true; https: SecureServerOptions; http2SessionTimeout?: number };

/** Factory options, every server type's (what the factory reads at run time). */
export interface EnclaveOptions extends FastifyServerOptions<RawServerBase> {
  /** Node's own server options (passed to `http.createServer`). */
  http?: HttpServerOptions | null;
  https?: HttpsServerOptions | SecureServerOptions | null;
  http2?: boolean;
  http2SessionTimeout?: number;
}

/** The factory, as `require('enclavejs')` and `import enclave from 'enclavejs'` return it. */
export interface EnclaveFactory {
  (options?: FastifyHttpOptions<Server>): EnclaveInstance;
  default: EnclaveFactory;
  enclave: EnclaveFactory;
  /** The same factory under Fastify's name. */
  fastify: EnclaveFactory;
  /** Decides the per-request log lines; subclass it and pass an instance as `logController`. */
  LogController: typeof LogController;
  errorCodes: ErrorCodes;
}
