// The factory and its options. Top floor of the public types: adds `initialConfig` to the
// instance below.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { LogController } from '../log-controller.js';
import type { Logger } from '../logger.js';
import type { SchemaErrorFormatter } from '../schema/contracts.js';
import type { EnclaveError, ErrorCodes } from './errors.js';
import type { ChildLoggerFactory, EnclaveInstance } from './instance.js';
import type { EnclaveReply } from './reply.js';
import type { EnclaveRequest } from './request.js';

declare module './instance.js' {
  interface InstanceApi<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
    readonly initialConfig: Readonly<EnclaveOptions>;
  }
}

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
