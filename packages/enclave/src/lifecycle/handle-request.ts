// The request path: route lookup, then each phase of SPEC §4.2 as a plain continuation. Every
// decision that can be made at boot was made in compileRoute; phases without hooks cost one
// null check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { BODYLESS_METHODS } from '../http/body-methods.js';
import { parseRequestBody } from '../http/content-type-parser.js';
import type { RootState } from '../scope/root-state.js';
import type { CompiledRoute } from './compiled-route.js';
import { NullObject } from './null-object.js';
import { handleError } from './error-handling.js';
import { readSafely } from '../thrown-values.js';
import { runObserverHooks, runRequestHooks, runValueHooks } from './hooks.js';
import { sendPayload } from './send.js';
import { kHijacked, kMediaType, kRoute, kSent } from './symbols.js';

function logHookError(request: any) {
  return (error: unknown) => request.log.error({ err: error }, 'a hook failed after the response');
}

/** What the request path reads from the options, resolved once when the listener is built. */
interface RequestSettings {
  readonly genReqId: (raw: IncomingMessage) => string;
  readonly requestIdLogLabel: string;
  /** A real logger is set: each request gets a child logger with its id. */
  readonly logging: boolean;
  /** Log the incoming/completed pair (logging on, `disableRequestLogging` off). */
  readonly logRequests: boolean;
}

function trackCompletion(route: CompiledRoute, request: any, reply: any, logRequests: boolean, onTimeout: (() => void) | null): void {
  const res = reply.raw as ServerResponse;
  let done = false;
  // The event says whether the response completed: `writableFinished` is not reliable here
  // (light-my-request's response never flushes to a socket, so it stays false).
  const onDone = (completed: boolean) => {
    if (done) return;
    done = true;
    // A keep-alive socket outlives the request: its timeout must not reach this request's hooks.
    if (onTimeout !== null) request.raw.socket?.removeListener('timeout', onTimeout);
    if (!completed && route.hooks.onRequestAbort !== null) {
      runObserverHooks(route.hooks.onRequestAbort, [request], logHookError(request));
    }
    if (logRequests) {
      request.log.info({ res: reply, responseTime: reply.elapsedTime }, completed ? 'request completed' : 'request aborted');
    }
    if (completed && route.hooks.onResponse !== null) {
      runObserverHooks(route.hooks.onResponse, [request, reply], logHookError(request));
    }
  };
  res.once('finish', () => onDone(true));
  res.once('close', () => onDone(res.writableFinished));
}

/** Runs one request through `route`. With `error`, goes straight to the error handlers. */
function runRoute(
  settings: RequestSettings,
  root: RootState,
  route: CompiledRoute,
  raw: IncomingMessage,
  res: ServerResponse,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
  error?: unknown,
): void {
  const id = settings.genReqId(raw);
  const log = settings.logging ? root.log.child({ [settings.requestIdLogLabel]: id }, route.logOptions) : root.log;
  const request = new route.Request(raw, params, query, id, log, route);
  const reply = new route.Reply(res, request, log, route);
  let onTimeout: (() => void) | null = null;
  if (route.hooks.onTimeout !== null && raw.socket) {
    const hooks = route.hooks.onTimeout;
    onTimeout = () => runObserverHooks(hooks, [request, reply], logHookError(request));
    raw.socket.once('timeout', onTimeout);
  }
  if (settings.logRequests || route.hooks.onResponse !== null || route.hooks.onRequestAbort !== null || onTimeout !== null) {
    if (settings.logRequests) log.info({ req: request }, 'incoming request');
    trackCompletion(route, request, reply, settings.logRequests, onTimeout);
  }
  if (error !== undefined) {
    handleError(reply, error);
    return;
  }
  if (route.hooks.onRequest === null) preParsing(route, request, reply);
  else runRequestHooks(route.hooks.onRequest, request, reply, () => preParsing(route, request, reply), failWith(reply));
}

/** The failure continuation of every request phase. */
function failWith(reply: any): (error: unknown) => void {
  return (error) => handleError(reply, error);
}

/**
 * What the body parsers read after the preParsing hooks. A hook resolving with nothing usable
 * (`null`, `false`: easy to do by accident in an async hook) leaves the request's own stream, as
 * Fastify's body reader does; any other value that is not a stream cannot be read, and is the
 * hook's error (a 500), not a crash of the body reader.
 */
function payloadAfterPreParsing(request: any, payload: unknown): Readable | Error {
  if (!payload) return request.raw;
  if (typeof readSafely(payload, 'on') === 'function' && typeof readSafely(payload, 'pipe') === 'function') return payload as Readable;
  return new Error('A preParsing hook must resolve with a readable stream or nothing');
}

function preParsing(route: CompiledRoute, request: any, reply: any): void {
  if (route.hooks.preParsing === null) {
    parseBody(route, request, reply, request.raw);
    return;
  }
  runValueHooks(
    route.hooks.preParsing,
    request,
    reply,
    request.raw,
    (payload) => {
      if (reply.sent) return;
      const stream = payloadAfterPreParsing(request, payload);
      if (stream instanceof Error) handleError(reply, stream);
      else parseBody(route, request, reply, stream);
    },
    failWith(reply),
  );
}

function parseBody(route: CompiledRoute, request: any, reply: any, payload: any): void {
  if (BODYLESS_METHODS.has(request.raw.method)) {
    preValidation(route, request, reply);
    return;
  }
  parseRequestBody(route.parsers, request, payload, route.bodyLimit, (err, body, mediaType) => {
    if (err !== null) {
      // A request for no route is answered 404 whatever its body: no parser for it is not the
      // news (Fastify skips the body of a 404 it cannot parse; the bytes were discarded).
      if (route.isNotFound && readSafely(err, 'code') === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') preValidation(route, request, reply);
      else handleError(reply, err);
      return;
    }
    request.body = body;
    request[kMediaType] = mediaType;
    preValidation(route, request, reply);
  });
}

function preValidation(route: CompiledRoute, request: any, reply: any): void {
  if (route.hooks.preValidation === null) validate(route, request, reply);
  else runRequestHooks(route.hooks.preValidation, request, reply, () => validate(route, request, reply), failWith(reply));
}

function validate(route: CompiledRoute, request: any, reply: any): void {
  const validator = route.validateWithoutBody !== undefined && BODYLESS_METHODS.has(request.raw.method) ? route.validateWithoutBody : route.validate;
  if (validator === null) {
    preHandler(route, request, reply);
    return;
  }
  let result: Error | undefined | Promise<Error | undefined>;
  try {
    result = validator(request, request[kMediaType]);
  } catch (err) {
    handleError(reply, err);
    return;
  }
  if (result instanceof Promise) {
    result.then((err) => afterValidation(route, request, reply, err), (err) => handleError(reply, err));
  } else {
    afterValidation(route, request, reply, result);
  }
}

function afterValidation(route: CompiledRoute, request: any, reply: any, error: Error | undefined): void {
  if (error !== undefined) {
    if (!route.attachValidation || (error as { code?: string }).code !== 'FST_ERR_VALIDATION') {
      handleError(reply, error);
      return;
    }
    request.validationError = error;
  }
  preHandler(route, request, reply);
}

function preHandler(route: CompiledRoute, request: any, reply: any): void {
  if (route.hooks.preHandler === null) callHandler(route, request, reply);
  else runRequestHooks(route.hooks.preHandler, request, reply, () => callHandler(route, request, reply), failWith(reply));
}

function callHandler(route: CompiledRoute, request: any, reply: any): void {
  let result: unknown;
  try {
    result = route.handler.call(route.context.instance, request, reply);
  } catch (err) {
    handleError(reply, err);
    return;
  }
  if (result === undefined || result === reply) return;
  // Read once, guarded: a handler may return anything, a revoked Proxy included.
  const then = readSafely(result, 'then');
  if (typeof then !== 'function') {
    sendPayload(reply, result);
    return;
  }
  Promise.resolve(result as PromiseLike<unknown>).then(
    (value: unknown) => {
      if (reply[kHijacked] || value === reply) return;
      if (reply[kSent] && value === undefined) return;
      // An async handler that resolves without sending answers with what it resolved to
      // (undefined: an empty body), so a request never hangs on a forgotten send. A value
      // resolved after a send is a second send: sendPayload ignores it with a warning.
      sendPayload(reply, value);
    },
    (err: unknown) => handleError(reply, err),
  );
}

/**
 * reply.callNotFound(): the not-found route that owns the request's path takes over, its
 * preHandler hooks first, then its handler, as in Fastify. Inside a not-found handler there is
 * nothing left to fall back to: a plain 404 and a warning, instead of calling itself forever.
 */
export function callNotFound(reply: any): void {
  const route = reply[kRoute] as CompiledRoute;
  if (route.isNotFound) {
    reply.log.warn('Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.');
    reply.code(404).send('404 Not Found');
    return;
  }
  const request = reply.request;
  const notFound = route.context.root.findNotFoundRoute(request.raw.url ?? '/');
  // From here the request is the not-found route's (as in Fastify: request.is404, its hooks,
  // and a second callNotFound meets the guard above).
  request[kRoute] = notFound;
  reply[kRoute] = notFound;
  reply.code(404);
  preHandler(notFound, request, reply);
}

/** The server's request listener. */
export function createRequestListener(root: RootState): (raw: IncomingMessage, res: ServerResponse) => void {
  const { router, options } = root;
  const derive = (router as any).constrainer;
  const settings: RequestSettings = {
    genReqId: options.genReqId,
    requestIdLogLabel: options.requestIdLogLabel,
    logging: root.logging,
    logRequests: root.logging && !options.disableRequestLogging,
  };
  const { querystringParser } = options;
  return function handleRequest(raw, res) {
    if (root.closing && options.return503OnClosing) {
      const body = '{"statusCode":503,"error":"Service Unavailable","message":"Service Unavailable"}';
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
      // HTTP/2 has no Connection header (RFC 9113 §8.2.2); its sessions are closed by close().
      if (raw.httpVersionMajor < 2) headers.connection = 'close';
      res.writeHead(503, headers);
      res.end(body);
      return;
    }
    try {
      const url = raw.url ?? '/';
      const queryStart = url.indexOf('?');
      const path = queryStart === -1 ? url : url.slice(0, queryStart);
      // A fresh object even when empty: validation may fill in defaults.
      let query = new NullObject();
      let queryError: Error | undefined;
      if (queryStart !== -1) {
        try {
          query = querystringParser(url.slice(queryStart + 1));
        } catch (error) {
          // A parser (the user's own, maybe) refusing the query is the client's mistake.
          queryError = asBadRequest(error);
        }
      }
      const found = router.find(raw.method as any, path, derive.deriveSyncConstraints(raw, undefined));
      if (found === null || found.store === null) {
        // A store-less match is find-my-way reporting a bad URL or an over-long parameter.
        const error = found === null ? queryError : (found.handler as any)();
        runRoute(settings, root, root.findNotFoundRoute(path), raw, res, {}, query, error);
        return;
      }
      const route = (found.store as any).compiled as CompiledRoute;
      runRoute(settings, root, route, raw, res, found.params, query, queryError);
    } catch (error) {
      // Only code that runs before a reply exists lands here (genReqId, a constraint strategy):
      // answer 500 rather than let the exception take the process down.
      root.log.error({ err: error }, 'the request could not be routed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const body = '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}';
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) });
      res.end(body);
    }
  };
}

function asBadRequest(error: unknown): Error {
  const status = Number((error as { statusCode?: unknown } | null)?.statusCode);
  if (error instanceof Error && Number.isInteger(status) && status >= 400 && status < 500) return error;
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(message, { cause: error }), { statusCode: 400 });
}
