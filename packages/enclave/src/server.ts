// The factory: normalizes options, creates the router, the HTTP server and the root context.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { parse as parseQuerystring } from 'fast-querystring';
import Router from 'find-my-way';
import proxyAddr from 'proxy-addr';
import { findNotFoundRoute, Milestone } from './boot.js';
import { errorCodes, invalidOption } from './errors.js';
import { ContentTypeParserStore } from './http/content-type-parser.js';
import { listenForClientErrors } from './http/client-error.js';
import { trackSockets } from './http/close.js';
import { trackHttp2Sessions } from './http/http2-sessions.js';
import { instancePrototype } from './instance.js';
import { createRequestListener } from './lifecycle/request-listener.js';
import { publishInitialization } from './lifecycle/diagnostics.js';
import { replyBasePrototype } from './lifecycle/reply.js';
import { extendRequestAndReply } from './lifecycle/request-reply-extras.js';
import { requestBasePrototype } from './lifecycle/request.js';
import { LogController } from './log-controller.js';
import { createLogger } from './logger.js';
import { defaultPrettyMeta } from './routing/pretty-meta.js';
import { createCountingGenerator, createIdGenerator, type RequestIdGenerator } from './request-id.js';
import { createRootContext } from './scope/context.js';
import type { NormalizedOptions, RootState } from './scope/root-state.js';
import { SchemaCache } from './schema/schema-cache.js';
import { SchemaController } from './schema/schema-controller.js';
import type { EnclaveInstance, EnclaveOptions } from './types.js';
import { type ChildLoggerFactory, setContextSetting } from './scope/context-settings.js';
import { routerHooks } from './routing/router-hooks.js';

// Once, before any application exists (a call, not a bare import: the package is sideEffects: false).
extendRequestAndReply();

const unusedSearchParams = Object.freeze({});

const poisoningActions = new Set(['error', 'remove', 'ignore']);

function option<T>(options: Record<string, any>, name: string, fallback: T, valid: (value: any) => boolean, expected: string): T {
  // As in Fastify, routerOptions wins over the (deprecated) top-level router option.
  const value = options.routerOptions?.[name] ?? options[name];
  if (value === undefined) return fallback;
  if (!valid(value)) throw invalidOption(name, expected, value);
  return value;
}

// What Fastify's option schema says of a wrong value (Ajv's words), for FST_ERR_INIT_OPTS_INVALID.
const BOOLEAN = 'must be boolean';
const FUNCTION = 'must be a function';
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isPositiveInteger = (value: unknown) => Number.isInteger(value) && (value as number) > 0;
const isFunction = (value: unknown) => typeof value === 'function';

/** The querystring parser given (its own code when it is not a function, as in Fastify), else fast-querystring's. */
function readQuerystringParser(options: Record<string, any>): NormalizedOptions['querystringParser'] {
  const parser = options.routerOptions?.querystringParser ?? options.querystringParser;
  if (parser === undefined) return parseQuerystring as NormalizedOptions['querystringParser'];
  if (typeof parser !== 'function') throw new errorCodes.FST_ERR_QSP_NOT_FN(typeof parser);
  return parser;
}

function compileTrust(trustProxy: unknown): NormalizedOptions['trustProxy'] {
  if (trustProxy === undefined || trustProxy === false) return null;
  if (trustProxy === true) return () => true;
  // A hop count cannot tell the proxy from a client that reaches the server directly and sends
  // enough X-Forwarded-For entries itself: as Fastify 5.12 does, it trusts no one (fails closed).
  if (typeof trustProxy === 'number') return trustProxy === 0 ? null : () => false;
  if (typeof trustProxy === 'function') return trustProxy as NormalizedOptions['trustProxy'];
  if (typeof trustProxy === 'string') return proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  if (Array.isArray(trustProxy)) return proxyAddr.compile(trustProxy);
  throw invalidOption('trustProxy', 'must be boolean, number, string, array or function', trustProxy);
}

/** The `logController` given, else the default one, built from the two top-level options. */
function readLogController(options: Record<string, any>, disableRequestLogging: NormalizedOptions['disableRequestLogging'], requestIdLogLabel: string): LogController {
  const controller = options.logController;
  if (controller === undefined || controller === null) return new LogController({ disableRequestLogging, requestIdLogLabel });
  if (!(controller instanceof LogController)) throw new errorCodes.FST_ERR_LOG_INVALID_LOG_CONTROLLER(typeof controller);
  return controller;
}

function normalizeOptions(options: Record<string, any>): NormalizedOptions {
  // `true` is Fastify's shorthand for the 'request-id' header.
  const idHeader = option<string | boolean>(options, 'requestIdHeader', false, (v) => isBoolean(v) || typeof v === 'string', 'must be string');
  const requestIdHeader = idHeader === true ? 'request-id' : idHeader === '' ? false : idHeader;
  const genReqId = option<RequestIdGenerator>(options, 'genReqId', createCountingGenerator(), isFunction, FUNCTION);
  const disableRequestLogging = option<NormalizedOptions['disableRequestLogging']>(options, 'disableRequestLogging', false, (v) => isBoolean(v) || isFunction(v), BOOLEAN);
  const requestIdLogLabel = option(options, 'requestIdLogLabel', 'reqId', (v) => typeof v === 'string', 'must be string');
  const logController = readLogController(options, disableRequestLogging, requestIdLogLabel);
  return {
    bodyLimit: option(options, 'bodyLimit', 1024 * 1024, isPositiveInteger, 'must be integer'),
    pluginTimeout: option(options, 'pluginTimeout', 10_000, isCount, 'must be integer'),
    exposeHeadRoutes: option(options, 'exposeHeadRoutes', true, isBoolean, BOOLEAN),
    prefixTrailingSlash: 'both',
    maxParamLength: option(options, 'maxParamLength', 100, isPositiveInteger, 'must be integer'),
    caseSensitive: option(options, 'caseSensitive', true, isBoolean, BOOLEAN),
    ignoreTrailingSlash: option(options, 'ignoreTrailingSlash', false, isBoolean, BOOLEAN),
    ignoreDuplicateSlashes: option(options, 'ignoreDuplicateSlashes', false, isBoolean, BOOLEAN),
    return503OnClosing: option(options, 'return503OnClosing', true, isBoolean, BOOLEAN),
    disableRequestLogging,
    allowErrorHandlerOverride: option(options, 'allowErrorHandlerOverride', true, isBoolean, BOOLEAN),
    handlerTimeout: option(options, 'handlerTimeout', 0, isCount, 'must be integer'),
    rewriteUrl: option(options, 'rewriteUrl', null, isFunction, FUNCTION),
    frameworkErrors: option(options, 'frameworkErrors', null, isFunction, FUNCTION),
    useSemicolonDelimiter: option(options, 'useSemicolonDelimiter', false, isBoolean, BOOLEAN),
    logController,
    requestIdHeader: requestIdHeader === false ? false : requestIdHeader.toLowerCase(),
    requestIdLogLabel,
    genReqId: createIdGenerator(requestIdHeader === false ? false : requestIdHeader.toLowerCase(), genReqId),
    querystringParser: readQuerystringParser(options),
    trustProxy: compileTrust(options.trustProxy),
    onProtoPoisoning: option(options, 'onProtoPoisoning', 'error', (v) => poisoningActions.has(v), 'must be equal to one of the allowed values'),
    onConstructorPoisoning: option(options, 'onConstructorPoisoning', 'error', (v) => poisoningActions.has(v), 'must be equal to one of the allowed values'),
    forceCloseConnections: option(options, 'forceCloseConnections', 'idle', (v) => v === 'idle' || isBoolean(v), 'must be equal to one of the allowed values'),
  };
}

/**
 * `initialConfig`: the options that shape the server with their defaults filled in, as Fastify
 * reports them (@fastify/multipart takes its default file size from `bodyLimit` there), plus
 * whatever else the factory was given.
 */
function createInitialConfig(given: Record<string, any>, normalized: NormalizedOptions): Readonly<Record<string, unknown>> {
  return Object.freeze({
    connectionTimeout: 0,
    keepAliveTimeout: 72_000,
    maxRequestsPerSocket: 0,
    requestTimeout: 0,
    bodyLimit: normalized.bodyLimit,
    caseSensitive: normalized.caseSensitive,
    allowUnsafeRegex: false,
    ignoreTrailingSlash: normalized.ignoreTrailingSlash,
    ignoreDuplicateSlashes: normalized.ignoreDuplicateSlashes,
    disableRequestLogging: normalized.disableRequestLogging,
    maxParamLength: normalized.maxParamLength,
    onProtoPoisoning: normalized.onProtoPoisoning,
    onConstructorPoisoning: normalized.onConstructorPoisoning,
    pluginTimeout: normalized.pluginTimeout,
    requestIdLogLabel: normalized.requestIdLogLabel,
    http2SessionTimeout: 72_000,
    exposeHeadRoutes: normalized.exposeHeadRoutes,
    handlerTimeout: normalized.handlerTimeout,
    useSemicolonDelimiter: normalized.useSemicolonDelimiter,
    ...given,
    // Normalized as Fastify reports it: '' and false are false, true is 'request-id'.
    requestIdHeader: normalized.requestIdHeader,
  });
}

function createHttpServer(options: Record<string, any>, listener: http.RequestListener): http.Server {
  if (typeof options.serverFactory === 'function') {
    const custom = options.serverFactory(listener, options);
    if (options.forceCloseConnections === 'idle' && typeof custom?.closeIdleConnections !== 'function') {
      throw new errorCodes.FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE();
    }
    trackSockets(custom);
    return custom;
  }
  const timeouts = {
    requestTimeout: option(options, 'requestTimeout', 0, isCount, 'must be integer'),
    keepAliveTimeout: option(options, 'keepAliveTimeout', 72_000, isCount, 'must be integer'),
    connectionTimeout: option(options, 'connectionTimeout', 0, isCount, 'must be integer'),
  };
  let server: any;
  if (options.http2) {
    server = options.https
      ? http2.createSecureServer({ allowHTTP1: true, ...options.https }, listener as any)
      : http2.createServer(listener as any);
    // As in Fastify: the server's timeout is connectionTimeout; an idle session is closed
    // (gracefully) after http2SessionTimeout.
    server.setTimeout(timeouts.connectionTimeout);
    const sessionTimeout = option(options, 'http2SessionTimeout', 72_000, isCount, 'must be integer');
    server.on('session', (session: http2.ServerHttp2Session) => session.setTimeout(sessionTimeout, () => session.close()));
    trackHttp2Sessions(server);
    trackSockets(server);
    return server;
  }
  // Node derives headersTimeout from requestTimeout, so Fastify's default requestTimeout of 0
  // would leave a client that trickles its headers (slowloris) unbounded; keep 60 s for headers.
  const headersTimeout = option(options, 'headersTimeout', timeouts.requestTimeout > 0 ? Math.min(60_000, timeouts.requestTimeout) : 60_000, isCount, 'must be integer');
  const serverOptions: http.ServerOptions = {
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    headersTimeout,
  };
  // Node checks request timeouts on a timer (30 s by default): a shorter requestTimeout needs a
  // shorter period to be honoured at all.
  if (timeouts.requestTimeout > 0) {
    serverOptions.connectionsCheckingInterval = Math.min(30_000, Math.max(50, Math.floor(timeouts.requestTimeout / 4)));
  }
  // `http`: Node's own server options (e.g. `requireHostHeader`), as Fastify passes them on.
  const nodeOptions = { ...options.http, ...serverOptions };
  server = options.https ? https.createServer({ ...options.https, ...nodeOptions }, listener) : http.createServer(nodeOptions, listener);
  trackSockets(server);
  server.setTimeout(timeouts.connectionTimeout);
  if (options.maxRequestsPerSocket !== undefined) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}

/**
 * Creates an Enclave application: the root encapsulation context.
 *
 * @example
 * import enclave from 'enclavejs'
 * const app = enclave({ logger: true })
 * app.get('/', async () => ({ hello: 'world' }))
 * await app.listen({ port: 3000 })
 */
export function createApplication(options: EnclaveOptions = {}): EnclaveInstance {
  if (options === null || typeof options !== 'object') throw new errorCodes.FST_ERR_OPTIONS_NOT_OBJ(typeof options);
  const given = options as Record<string, any>;
  const normalized = normalizeOptions(given);
  const { log, enabled } = createLogger(given.logger, given.loggerInstance);
  const router = Router({
    caseSensitive: normalized.caseSensitive,
    ignoreTrailingSlash: normalized.ignoreTrailingSlash,
    ignoreDuplicateSlashes: normalized.ignoreDuplicateSlashes,
    maxParamLength: normalized.maxParamLength,
    allowUnsafeRegex: given.routerOptions?.allowUnsafeRegex ?? given.allowUnsafeRegex ?? false,
    constraints: given.routerOptions?.constraints ?? given.constraints,
    // find-my-way answers these with a store-less match; the request path turns it into the error.
    onBadUrl: (path: string) => new errorCodes.FST_ERR_BAD_URL(path),
    onMaxParamLength: (path: string) => new errorCodes.FST_ERR_MAX_PARAM_LENGTH(path),
    buildPrettyMeta: given.routerOptions?.buildPrettyMeta ?? given.buildPrettyMeta ?? defaultPrettyMeta,
    // The request path parses the query itself (with the user's parser, its errors made 400s)
    // and never reads find-my-way's `searchParams`: without this, find-my-way built an unused
    // `{}` for every request.
    querystringParser: () => unusedSearchParams,
  } as any);
  const root = {
    options: normalized,
    initialConfig: createInitialConfig(given, normalized),
    router,
    routes: [],
    contexts: [],
    log,
    logging: enabled,
    applicationHooks: { onReady: [], onListen: [], preClose: [], onClose: [] },
    notFoundRoutes: [],
    findNotFoundRoute: (url: string) => findNotFoundRoute(root, url),
    frameworkErrorRoute: null,
    rootPlugin: { name: 'root', queue: [] },
    loadingStack: [],
    runningBody: null,
    readyPromise: null,
    loaded: new Milestone(),
    runningReadyHooks: false,
    booted: false,
    listening: false,
    closing: false,
    closed: false,
    closePromise: null,
    thenGuard: false,
  } as unknown as RootState & { server: http.Server };
  // Issue 29: compiled validators and serializers kept between starts, when asked for.
  const schemaCache = SchemaCache.fromOptions(given.schemaCache, process.env.ENCLAVE_SCHEMA_CACHE, log);
  root.schemaCache = schemaCache;
  const schemas = SchemaController.createRoot({
    ajv: given.ajv,
    schemaErrorFormatter: given.schemaErrorFormatter,
    schemaController: given.schemaController,
    serializerOpts: given.serializerOpts,
    schemaCache,
  });
  const parsers = ContentTypeParserStore.createRoot({
    bodyLimit: normalized.bodyLimit,
    onProtoPoisoning: normalized.onProtoPoisoning,
    onConstructorPoisoning: normalized.onConstructorPoisoning,
  });
  const context = createRootContext(root, instancePrototype, requestBasePrototype, replyBasePrototype, schemas, parsers);
  root.contexts.push(context);
  const childLoggerFactory = option<ChildLoggerFactory | null>(given, 'childLoggerFactory', null, isFunction, FUNCTION);
  if (childLoggerFactory !== null) setContextSetting(context, 'childLoggerFactory', childLoggerFactory);
  const hooks = routerHooks(given);
  const listener = createRequestListener(root, hooks);
  Object.assign(root, { requestListener: listener, compileRouter: hooks.compile, server: createHttpServer(given, listener) });
  listenForClientErrors(root.server, given.clientErrorHandler, context.instance as { log: typeof log });
  publishInitialization(context.instance);
  return context.instance as EnclaveInstance;
}
