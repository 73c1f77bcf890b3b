// The request path: route lookup, then each phase of SPEC §4.2 as a plain continuation. Every
// decision that can be made at boot was made in compileRoute; phases without hooks cost one
// null check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseRequestBody } from '../http/content-type-parser.js';
import type { RootState } from '../scope/root-state.js';
import type { CompiledRoute } from './compiled-route.js';
import { handleError } from './error-handling.js';
import { runObserverHooks, runRequestHooks, runValueHooks } from './hooks.js';
import { sendPayload } from './send.js';
import { kHijacked, kMediaType, kSent } from './symbols.js';

function logHookError(request: any) {
  return (error: unknown) => request.log.error({ err: error }, 'a hook failed after the response');
}

function trackCompletion(route: CompiledRoute, request: any, reply: any, logging: boolean): void {
  const res = reply.raw as ServerResponse;
  let done = false;
  const onDone = () => {
    if (done) return;
    done = true;
    const completed = res.writableFinished;
    if (!completed && route.hooks.onRequestAbort !== null) {
      runObserverHooks(route.hooks.onRequestAbort, [request], logHookError(request));
    }
    if (logging && !route.context.root.options.disableRequestLogging) {
      request.log.info({ res: reply, responseTime: reply.elapsedTime }, completed ? 'request completed' : 'request aborted');
    }
    if (completed && route.hooks.onResponse !== null) {
      runObserverHooks(route.hooks.onResponse, [request, reply], logHookError(request));
    }
  };
  res.once('finish', onDone);
  res.once('close', onDone);
}

/** Runs one request through `route`. With `error`, goes straight to the error handlers. */
export function runRoute(
  root: RootState,
  route: CompiledRoute,
  raw: IncomingMessage,
  res: ServerResponse,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
  error?: unknown,
): void {
  const id = root.options.genReqId(raw);
  const log = root.logging ? root.log.child({ [root.options.requestIdLogLabel]: id }) : root.log;
  const request = new route.Request(raw, params, query, id, log, route);
  const reply = new route.Reply(res, request, log, route);
  if (root.logging || route.hooks.onResponse !== null || route.hooks.onRequestAbort !== null) {
    if (root.logging && !root.options.disableRequestLogging) log.info({ req: request }, 'incoming request');
    trackCompletion(route, request, reply, root.logging);
  }
  if (route.hooks.onTimeout !== null) {
    const hooks = route.hooks.onTimeout;
    raw.socket?.once('timeout', () => runObserverHooks(hooks, [request, reply], logHookError(request)));
  }
  if (error !== undefined) {
    handleError(reply, error);
    return;
  }
  if (route.hooks.onRequest === null) preParsing(route, request, reply);
  else runRequestHooks(route.hooks.onRequest, request, reply, (err) => (err ? handleError(reply, err) : preParsing(route, request, reply)));
}

function preParsing(route: CompiledRoute, request: any, reply: any): void {
  if (route.hooks.preParsing === null) {
    parseBody(route, request, reply, request.raw);
    return;
  }
  runValueHooks(route.hooks.preParsing, request, reply, request.raw, (err, payload) => {
    if (err) handleError(reply, err);
    else if (!reply.sent) parseBody(route, request, reply, payload);
  });
}

function parseBody(route: CompiledRoute, request: any, reply: any, payload: any): void {
  const method = request.raw.method;
  if (method === 'GET' || method === 'HEAD') {
    preValidation(route, request, reply);
    return;
  }
  parseRequestBody(route.parsers, request, payload, route.bodyLimit, (err, body, mediaType) => {
    if (err) {
      handleError(reply, err);
      return;
    }
    request.body = body;
    request[kMediaType] = mediaType;
    preValidation(route, request, reply);
  });
}

function preValidation(route: CompiledRoute, request: any, reply: any): void {
  if (route.hooks.preValidation === null) validate(route, request, reply);
  else runRequestHooks(route.hooks.preValidation, request, reply, (err) => (err ? handleError(reply, err) : validate(route, request, reply)));
}

function validate(route: CompiledRoute, request: any, reply: any): void {
  if (route.validate === null) {
    preHandler(route, request, reply);
    return;
  }
  let result: Error | undefined | Promise<Error | undefined>;
  try {
    result = route.validate(request, request[kMediaType]);
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
  else runRequestHooks(route.hooks.preHandler, request, reply, (err) => (err ? handleError(reply, err) : callHandler(route, request, reply)));
}

function callHandler(route: CompiledRoute, request: any, reply: any): void {
  let result: any;
  try {
    result = route.handler.call(route.context.instance, request, reply);
  } catch (err) {
    handleError(reply, err);
    return;
  }
  if (result === undefined || result === reply) return;
  if (result !== null && typeof result.then === 'function') {
    result.then(
      (value: unknown) => {
        if (reply[kSent] || reply[kHijacked] || value === reply) return;
        // An async handler that resolves without sending answers with what it resolved to
        // (undefined: an empty body), so a request never hangs on a forgotten send.
        sendPayload(reply, value);
      },
      (err: unknown) => handleError(reply, err),
    );
    return;
  }
  if (!reply[kSent]) sendPayload(reply, result);
}

/** The server's request listener. */
export function createRequestListener(root: RootState): (raw: IncomingMessage, res: ServerResponse) => void {
  const { router, options } = root;
  const derive = (router as any).constrainer;
  return function handleRequest(raw, res) {
    if (root.closing && options.return503OnClosing) {
      const body = '{"statusCode":503,"code":"FST_ERR_SERVER_CLOSING","error":"Service Unavailable","message":"Service Unavailable"}';
      res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length), connection: 'close' });
      res.end(body);
      return;
    }
    const url = raw.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    // A fresh object even when empty: validation may fill in defaults.
    const query = queryStart === -1 ? Object.create(null) : options.querystringParser(url.slice(queryStart + 1));
    const found = router.find(raw.method as any, path, derive.deriveSyncConstraints(raw, undefined));
    if (found === null || found.store === null) {
      // A store-less match is find-my-way reporting a bad URL or an over-long parameter.
      const error = found === null ? undefined : (found.handler as any)();
      runRoute(root, root.findNotFoundRoute(path), raw, res, {}, query, error);
      return;
    }
    const route = (found.store as any).compiled as CompiledRoute;
    runRoute(root, route, raw, res, found.params, query);
  };
}
