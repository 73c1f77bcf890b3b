// The factory: normalizes options, creates the router, the HTTP server and the root context.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import Router from 'find-my-way';
import { findNotFoundRoute } from './boot.js';
import { Milestone } from './milestone.js';
import { errorCodes } from './errors.js';
import { type GivenOptions, routerOption } from './factory-options.js';
import { createInitialConfig, FUNCTION, isCount, isFunction, normalizeOptions, option } from './normalize-options.js';
import { ContentTypeParserStore } from './http/content-type-parser.js';
import { listenForClientErrors } from './http/client-error.js';
import { trackSockets } from './http/close.js';
import { trackHttp2Sessions } from './http/http2-sessions.js';
import { instancePrototype } from './instance.js';
import { createRequestListener } from './lifecycle/request-listener.js';
import { defaultErrorHandler } from './lifecycle/default-error-answer.js';
import { publishInitialization } from './lifecycle/diagnostics.js';
import { replyBasePrototype } from './lifecycle/reply.js';
import { extendRequestAndReply } from './lifecycle/request-reply-extras.js';
import { requestBasePrototype } from './lifecycle/request.js';
import { createLogger } from './logger.js';
import { defaultPrettyMeta } from './routing/pretty-meta.js';
import { createRootContext } from './scope/context.js';
import type { RootState } from './state/application.js';
import { SchemaCache } from './schema/schema-cache.js';
import { SchemaController, type SchemaControllerOptions } from './schema/schema-controller.js';
import type { EnclaveInstance, EnclaveOptions } from './types.js';
import { type ChildLoggerFactory, setContextSetting } from './scope/context-settings.js';
import { routerHooks } from './routing/router-hooks.js';

// Once, before any application exists (a call, not a bare import: the package is sideEffects: false).
extendRequestAndReply();

const unusedSearchParams = Object.freeze({});

function createHttpServer(options: GivenOptions, listener: http.RequestListener): http.Server {
  const { serverFactory } = options;
  if (typeof serverFactory === 'function') {
    // The user's factory: whatever it returns is used as the server (Fastify's contract).
    const custom = serverFactory(listener, options) as http.Server;
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
  // `https` and `http` are Node's own server options, handed to Node as given (it checks them).
  const tls = options.https as https.ServerOptions | undefined;
  if (options.http2) {
    // Node's compatibility API gives HTTP/2 requests and responses the HTTP/1 members the
    // listener reads; the rest of the application uses what both servers have.
    const http2Listener = listener as unknown as (request: http2.Http2ServerRequest, response: http2.Http2ServerResponse) => void;
    const server = tls ? http2.createSecureServer({ allowHTTP1: true, ...tls }, http2Listener) : http2.createServer(http2Listener);
    // As in Fastify: the server's timeout is connectionTimeout; an idle session is closed
    // (gracefully) after http2SessionTimeout.
    server.setTimeout(timeouts.connectionTimeout);
    const sessionTimeout = option(options, 'http2SessionTimeout', 72_000, isCount, 'must be integer');
    server.on('session', (session: http2.ServerHttp2Session) => session.setTimeout(sessionTimeout, () => session.close()));
    trackHttp2Sessions(server);
    trackSockets(server);
    return server as unknown as http.Server;
  }
  // Node derives headersTimeout from requestTimeout, so Fastify's default requestTimeout of 0
  // would leave a client that trickles its headers (slowloris) unbounded; keep 60 s for headers.
  const headersTimeout = option(
    options,
    'headersTimeout',
    timeouts.requestTimeout > 0 ? Math.min(60_000, timeouts.requestTimeout) : 60_000,
    isCount,
    'must be integer',
  );
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
  const nodeOptions = { ...(options.http as http.ServerOptions | undefined), ...serverOptions };
  const server = tls ? https.createServer({ ...tls, ...nodeOptions }, listener) : http.createServer(nodeOptions, listener);
  trackSockets(server);
  server.setTimeout(timeouts.connectionTimeout);
  if (options.maxRequestsPerSocket !== undefined) server.maxRequestsPerSocket = options.maxRequestsPerSocket as number;
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
  // Read by name and checked where it is used: the options as the user gave them.
  const given = options as GivenOptions;
  const normalized = normalizeOptions(given);
  const { log, enabled } = createLogger(given.logger, given.loggerInstance);
  // find-my-way also reads `buildPrettyMeta` (its types leave it out). `allowUnsafeRegex`,
  // `constraints` and `buildPrettyMeta` go to it as the user gave them: it checks them.
  const constraints = routerOption(given, 'constraints');
  const routerConfig: Router.Config<Router.HTTPVersion.V1> & { buildPrettyMeta: unknown } = {
    caseSensitive: normalized.caseSensitive,
    ignoreTrailingSlash: normalized.ignoreTrailingSlash,
    ignoreDuplicateSlashes: normalized.ignoreDuplicateSlashes,
    maxParamLength: normalized.maxParamLength,
    allowUnsafeRegex: (routerOption(given, 'allowUnsafeRegex') ?? false) as boolean,
    ...(constraints === undefined ? {} : { constraints: constraints as Router.Config<Router.HTTPVersion.V1>['constraints'] & object }),
    // find-my-way answers these with a store-less match; the request path turns it into the error.
    onBadUrl: (path: string) => new errorCodes.FST_ERR_BAD_URL(path),
    onMaxParamLength: (path: string) => new errorCodes.FST_ERR_MAX_PARAM_LENGTH(path),
    buildPrettyMeta: routerOption(given, 'buildPrettyMeta') ?? defaultPrettyMeta,
    // The request path parses the query itself (with the user's parser, its errors made 400s)
    // and never reads find-my-way's `searchParams`: without this, find-my-way built an unused
    // `{}` for every request.
    querystringParser: () => unusedSearchParams,
  };
  const router = Router(routerConfig);
  // The request listener and the server need the root state, and it holds them: they are set
  // below, once it exists (requestListener, compileRouter, server).
  // Issue 29: compiled validators and serializers kept between starts, when asked for.
  const schemaCache = SchemaCache.fromOptions(given.schemaCache, process.env.ENCLAVE_SCHEMA_CACHE, log);
  const partialRoot: Omit<RootState, 'requestListener' | 'compileRouter' | 'server'> = {
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
    schemaCache,
    readyPromise: null,
    loaded: new Milestone(),
    runningReadyHooks: false,
    booted: false,
    listening: false,
    closing: false,
    closed: false,
    closePromise: null,
    thenGuard: false,
  };
  const root = partialRoot as RootState;
  // As given: the schema controller checks them (readSchemaControllerOptions).
  const schemas = SchemaController.createRoot({
    ajv: given.ajv as SchemaControllerOptions['ajv'],
    schemaErrorFormatter: given.schemaErrorFormatter as SchemaControllerOptions['schemaErrorFormatter'],
    schemaController: given.schemaController as SchemaControllerOptions['schemaController'],
    serializerOpts: given.serializerOpts as SchemaControllerOptions['serializerOpts'],
    schemaCache,
  });
  const parsers = ContentTypeParserStore.createRoot({
    bodyLimit: normalized.bodyLimit,
    onProtoPoisoning: normalized.onProtoPoisoning,
    onConstructorPoisoning: normalized.onConstructorPoisoning,
  });
  const context = createRootContext(root, {
    instancePrototype,
    requestPrototype: requestBasePrototype,
    replyPrototype: replyBasePrototype,
    schemas,
    parsers,
    defaultErrorHandler,
  });
  root.contexts.push(context);
  const childLoggerFactory = option<ChildLoggerFactory | null>(given, 'childLoggerFactory', null, isFunction, FUNCTION);
  if (childLoggerFactory !== null) setContextSetting(context, 'childLoggerFactory', childLoggerFactory);
  const hooks = routerHooks(given);
  const listener = createRequestListener(root, hooks);
  Object.assign(root, { requestListener: listener, compileRouter: hooks.compile, server: createHttpServer(given, listener) });
  listenForClientErrors(root.server, given.clientErrorHandler, context.instance);
  publishInitialization(context.instance);
  return context.instance;
}
