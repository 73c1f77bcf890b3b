// The factory: normalizes options, creates the router, the HTTP server and the root context.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { parse as parseQuerystring } from 'fast-querystring';
import Router from 'find-my-way';
import proxyAddr from 'proxy-addr';
import { findNotFoundRoute } from './boot.js';
import { errorCodes } from './errors.js';
import { ContentTypeParserStore } from './http/content-type-parser.js';
import { trackHttp2Sessions } from './http/listen.js';
import { instancePrototype } from './instance.js';
import { createRequestListener } from './lifecycle/handle-request.js';
import { replyBasePrototype } from './lifecycle/reply.js';
import { requestBasePrototype } from './lifecycle/request.js';
import { createLogger } from './logger.js';
import { createRootContext } from './scope/context.js';
import type { NormalizedOptions, RootState } from './scope/root-state.js';
import { SchemaController } from './schema/schema-controller.js';
import type { EnclaveInstance, EnclaveOptions } from './types.js';

const unusedSearchParams = Object.freeze({});

const poisoningActions = new Set(['error', 'remove', 'ignore']);

function option<T>(options: Record<string, any>, name: string, fallback: T, valid: (value: any) => boolean): T {
  const value = options[name] ?? options.routerOptions?.[name];
  if (value === undefined) return fallback;
  if (!valid(value)) throw new errorCodes.FST_ERR_INIT_OPTS_INVALID(`${name}: ${JSON.stringify(value)}`);
  return value;
}

const isBoolean = (value: unknown) => typeof value === 'boolean';
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

function compileTrust(trustProxy: unknown): NormalizedOptions['trustProxy'] {
  if (trustProxy === undefined || trustProxy === false) return null;
  if (trustProxy === true) return () => true;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  if (typeof trustProxy === 'function') return trustProxy as NormalizedOptions['trustProxy'];
  if (typeof trustProxy === 'string') return proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  if (Array.isArray(trustProxy)) return proxyAddr.compile(trustProxy);
  throw new errorCodes.FST_ERR_INIT_OPTS_INVALID(`trustProxy: ${String(trustProxy)}`);
}

const base36Digits = '0123456789abcdefghijklmnopqrstuvwxyz';

function createCountingGenerator(): (raw: any) => string {
  let next = 0;
  // `req-` and the counter in base 36. Number#toString(36) is a runtime call of ~440
  // instructions, most of a request id's cost: it only runs when the counter's higher digits
  // change, once every 36 ids; the last digit is appended from a table.
  let high = 0;
  let prefix = 'req-';
  return () => {
    next = (next + 1) % Number.MAX_SAFE_INTEGER;
    const nextHigh = Math.floor(next / 36);
    if (nextHigh !== high) {
      high = nextHigh;
      prefix = nextHigh === 0 ? 'req-' : `req-${nextHigh.toString(36)}`;
    }
    return prefix + (base36Digits[next % 36] as string);
  };
}

/** The id of a request: from `requestIdHeader` when the client sent one, else generated. */
function createIdGenerator(header: string | false, generate: (raw: any) => string): (raw: any) => string {
  if (header === false) return generate;
  return (raw) => {
    const value = raw.headers[header];
    // A client-chosen id is bounded so it cannot bloat every log line.
    if (typeof value === 'string' && value !== '' && value.length <= 256) return value;
    return generate(raw);
  };
}

function normalizeOptions(options: Record<string, any>): NormalizedOptions {
  const requestIdHeader = option<string | false>(options, 'requestIdHeader', false, (v) => v === false || typeof v === 'string');
  const genReqId = option<(raw: any) => string>(options, 'genReqId', createCountingGenerator(), (v) => typeof v === 'function');
  return {
    bodyLimit: option(options, 'bodyLimit', 1024 * 1024, (v) => Number.isInteger(v) && v > 0),
    pluginTimeout: option(options, 'pluginTimeout', 10_000, isCount),
    exposeHeadRoutes: option(options, 'exposeHeadRoutes', true, isBoolean),
    prefixTrailingSlash: 'both',
    maxParamLength: option(options, 'maxParamLength', 100, (v) => Number.isInteger(v) && v > 0),
    caseSensitive: option(options, 'caseSensitive', true, isBoolean),
    ignoreTrailingSlash: option(options, 'ignoreTrailingSlash', false, isBoolean),
    ignoreDuplicateSlashes: option(options, 'ignoreDuplicateSlashes', false, isBoolean),
    return503OnClosing: option(options, 'return503OnClosing', true, isBoolean),
    disableRequestLogging: option(options, 'disableRequestLogging', false, isBoolean),
    requestIdHeader,
    requestIdLogLabel: option(options, 'requestIdLogLabel', 'reqId', (v) => typeof v === 'string'),
    genReqId: createIdGenerator(typeof requestIdHeader === 'string' ? requestIdHeader.toLowerCase() : false, genReqId),
    querystringParser: option(options, 'querystringParser', parseQuerystring as any, (v) => typeof v === 'function'),
    trustProxy: compileTrust(options.trustProxy),
    onProtoPoisoning: option(options, 'onProtoPoisoning', 'error', (v) => poisoningActions.has(v)),
    onConstructorPoisoning: option(options, 'onConstructorPoisoning', 'error', (v) => poisoningActions.has(v)),
    forceCloseConnections: option(options, 'forceCloseConnections', 'idle', (v) => v === 'idle' || isBoolean(v)),
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
    requestIdHeader: false,
    requestIdLogLabel: normalized.requestIdLogLabel,
    http2SessionTimeout: 72_000,
    exposeHeadRoutes: normalized.exposeHeadRoutes,
    ...given,
  });
}

function createHttpServer(options: Record<string, any>, listener: http.RequestListener): http.Server {
  if (typeof options.serverFactory === 'function') return options.serverFactory(listener, options);
  const timeouts = {
    requestTimeout: option(options, 'requestTimeout', 0, isCount),
    keepAliveTimeout: option(options, 'keepAliveTimeout', 72_000, isCount),
    connectionTimeout: option(options, 'connectionTimeout', 0, isCount),
  };
  let server: any;
  if (options.http2) {
    server = options.https
      ? http2.createSecureServer({ allowHTTP1: true, ...options.https }, listener as any)
      : http2.createServer(listener as any);
    server.setTimeout(option(options, 'http2SessionTimeout', 72_000, isCount));
    trackHttp2Sessions(server);
    return server;
  }
  // Node derives headersTimeout from requestTimeout, so Fastify's default requestTimeout of 0
  // would leave a client that trickles its headers (slowloris) unbounded; keep 60 s for headers.
  const headersTimeout = option(options, 'headersTimeout', timeouts.requestTimeout > 0 ? Math.min(60_000, timeouts.requestTimeout) : 60_000, isCount);
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
  server = options.https ? https.createServer({ ...options.https, ...serverOptions }, listener) : http.createServer(serverOptions, listener);
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
    allowUnsafeRegex: given.allowUnsafeRegex ?? given.routerOptions?.allowUnsafeRegex ?? false,
    constraints: given.constraints ?? given.routerOptions?.constraints,
    // find-my-way answers these with a store-less match; the request path turns it into the error.
    onBadUrl: (path: string) => new errorCodes.FST_ERR_BAD_URL(path),
    onMaxParamLength: () => new errorCodes.FST_ERR_URL_TOO_LONG(),
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
    rootPlugin: { name: 'root', queue: [] },
    loadingStack: [],
    readyPromise: null,
    booted: false,
    listening: false,
    closing: false,
    closed: false,
    thenGuard: false,
  } as unknown as RootState & { server: http.Server };
  const schemas = SchemaController.createRoot({
    ajv: given.ajv,
    schemaErrorFormatter: given.schemaErrorFormatter,
    schemaController: given.schemaController,
  });
  const parsers = ContentTypeParserStore.createRoot({
    bodyLimit: normalized.bodyLimit,
    onProtoPoisoning: normalized.onProtoPoisoning,
    onConstructorPoisoning: normalized.onConstructorPoisoning,
  });
  const context = createRootContext(root, instancePrototype, requestBasePrototype, replyBasePrototype, schemas, parsers);
  root.contexts.push(context);
  (root as { server: http.Server }).server = createHttpServer(given, createRequestListener(root));
  return context.instance as EnclaveInstance;
}
