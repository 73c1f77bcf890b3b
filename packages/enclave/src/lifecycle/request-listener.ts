// The server's request listener: from the raw request to a route (rewriteUrl, the closing answer,
// query parsing, find-my-way and its bad-URL and over-long-parameter reports, the not-found
// route), then handle-request.ts runs the route's lifecycle.
import { type IncomingMessage, METHODS, type ServerResponse } from 'node:http';
import { parse as parseQuerystring } from 'fast-querystring';
import type { FindResult, HTTPMethod, HTTPVersion } from 'find-my-way';
import { errorCodes } from '../errors.js';
import { closeSessionOf } from '../http/http2-sessions.js';
import { ignoreIfLingering, lingerIfBodyUnread, lingeringCount } from '../http/lingering-close.js';
import type { RouterHooks } from '../routing/router-hooks.js';
import type { CompiledRoute, RootState, RouteRecord } from '../state/application.js';
import { type RequestSettings, runRoute } from './handle-request.js';
import { NullObject } from './null-object.js';
import { ASYNC_CONSTRAINT_BODY, CLOSING_BODY, FIXED_ANSWER_TYPE, markRouterError } from './router-error-answer.js';

const KNOWN_METHODS = new Set(METHODS);

/** Requests made by `inject()` (light-my-request's), dispatched synchronously after ready. */
const injected = new WeakSet<object>();

export function markInjected(raw: object): void {
  injected.add(raw);
}

/**
 * An error raised before the request has a reply is answered 500, so a client cannot take the
 * process down; an injected request's caller gets the application's own misconfiguration (a
 * child-logger factory returning no logger) thrown at it, as Fastify's inject() does.
 */
function surfacesToInjector(raw: object, error: unknown): boolean {
  return injected.has(raw) && (error as { code?: unknown } | null)?.code === 'FST_ERR_LOG_INVALID_LOGGER';
}

/**
 * What find-my-way matched: a route (its store is the route's record), or a store-less answer
 * whose handler gives the error (a bad URL, an over-long parameter; see createApplication).
 */
type RouterMatch = Pick<FindResult<HTTPVersion.V1>, 'handler' | 'params'> & { store: RouteRecord | null };

/** The part of find-my-way's constrainer the listener uses (not in its published types). */
interface Constrainer {
  readonly asyncStrategiesInUse: Set<string>;
  deriveSyncConstraints(raw: IncomingMessage, ctx: undefined): unknown;
  deriveConstraints(raw: IncomingMessage, ctx: undefined, done: (error: unknown, constraints: unknown) => void): void;
}

/** The server's request listener. */
export function createRequestListener(root: RootState, hooks: RouterHooks): (raw: IncomingMessage, res: ServerResponse) => void {
  const { router, options } = root;
  const constrainer = (router as unknown as { constrainer: Constrainer }).constrainer;
  const settings: RequestSettings = {
    // A given logController's label wins over the top-level option, as in Fastify.
    requestIdLogLabel: options.logController.requestIdLogLabel,
    controller: root.logging ? options.logController : null,
    logging: root.logging,
  };
  const { querystringParser, useSemicolonDelimiter } = options;
  // A parser of the user's own sees every request, an empty query included, as in Fastify (it may
  // add defaults or count calls); the default one is skipped when there is nothing to parse.
  const parsesEmptyQuery = querystringParser !== parseQuerystring;

  /** find-my-way's answer for the derived constraints, then the matched or not-found route. */
  function dispatch(
    raw: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: Record<string, unknown>,
    queryError: Error | undefined,
    constraints: unknown,
  ): void {
    // Any method may reach find-my-way (HTTP/2 lets unknown ones through): it answers null then.
    let found: RouterMatch | null = router.find(raw.method as HTTPMethod, path, constraints as Record<string, unknown>);
    if (found === null && hooks.defaultRoute !== null) {
      hooks.defaultRoute(raw, res);
      return;
    }
    // A method Node's HTTP/1 parser would have refused (HTTP/2 lets any through) has no
    // not-found route either: the root's error handler answers FST_ERR_NOT_FOUND, as in Fastify.
    if (found === null && !KNOWN_METHODS.has(raw.method as string)) {
      runRoute(settings, root, root.findNotFoundRoute(''), raw, res, {}, query, new errorCodes.FST_ERR_NOT_FOUND());
      return;
    }
    // No route tree for the method: find-my-way did not look at the URL, but a malformed one
    // is still a bad URL (Fastify's not-found router reports it).
    if (found === null && isMalformedPath(path)) found = { store: null, handler: () => new errorCodes.FST_ERR_BAD_URL(path), params: {} };
    if (found === null || found.store === null) {
      // A store-less match is find-my-way reporting a bad URL or an over-long parameter.
      const error = found === null ? queryError : markRouterError((found.handler as () => unknown)());
      if (found !== null && answeredByRouterHook(hooks, error, path, raw, res)) return;
      const frameworkError = found !== null;
      const route = frameworkError && options.frameworkErrors !== null ? (root.frameworkErrorRoute as CompiledRoute) : root.findNotFoundRoute(path);
      runRoute(settings, root, route, raw, res, {}, query, error, frameworkError);
      return;
    }
    // A route's record is compiled at ready, before any request is served.
    const route = found.store.compiled as CompiledRoute;
    runRoute(settings, root, route, raw, res, found.params, query, queryError);
  }

  /**
   * A constraint strategy that derives its value through a callback failed: no route can be
   * chosen. `frameworkErrors` may answer; otherwise a fixed 500 (Fastify's body, which has no
   * `code`), since no route, and so no error handler, owns the request.
   */
  function constraintFailed(raw: IncomingMessage, res: ServerResponse, query: Record<string, unknown>): void {
    if (root.options.frameworkErrors !== null) {
      runRoute(settings, root, root.frameworkErrorRoute as CompiledRoute, raw, res, {}, query, new errorCodes.FST_ERR_ASYNC_CONSTRAINT(), true);
      return;
    }
    res.writeHead(500, { 'content-type': FIXED_ANSWER_TYPE, 'content-length': String(ASYNC_CONSTRAINT_BODY.length) });
    res.end(ASYNC_CONSTRAINT_BODY);
  }

  return function handleRequest(raw, res) {
    // A request on a connection that is closing lingering (issue 28) cannot be answered.
    if (lingeringCount.sockets !== 0 && ignoreIfLingering(raw)) return;
    if (options.rewriteUrl !== null && !rewriteUrl(root, raw)) return;
    if (root.closing && answerWhileClosing(root, raw, res)) return;
    try {
      const url = raw.url ?? '/';
      const queryStart = useSemicolonDelimiter ? queryStartWithSemicolon(url) : queryStartOf(url);
      const path = queryStart === -1 ? url : url.slice(0, queryStart);
      // A fresh object even when empty: validation may fill in defaults.
      let query = new NullObject();
      let queryError: Error | undefined;
      if (queryStart !== -1 || parsesEmptyQuery) {
        try {
          query = querystringParser(queryStart === -1 ? '' : url.slice(queryStart + 1));
        } catch (error) {
          // A parser (the user's own, maybe) refusing the query is the client's mistake.
          queryError = asBadRequest(error);
        }
      }
      // Only a strategy that answers by callback makes routing wait (checked per request: one
      // may be added by a route declared after the listener was built).
      if (constrainer.asyncStrategiesInUse.size === 0) {
        dispatch(raw, res, path, query, queryError, constrainer.deriveSyncConstraints(raw, undefined));
        return;
      }
      constrainer.deriveConstraints(raw, undefined, (error, constraints) => {
        try {
          // find-my-way reports success as `null`; any other value (`0`, `''` too) is a failure.
          if (error !== null) constraintFailed(raw, res, query);
          else dispatch(raw, res, path, query, queryError, constraints);
        } catch (failure) {
          answerUnrouted(root, res, failure);
        }
      });
    } catch (error) {
      if (surfacesToInjector(raw, error)) throw error;
      answerUnrouted(root, res, error);
    }
  };
}

/**
 * Only code that runs before a reply exists lands here (genReqId, a constraint strategy): answer
 * 500 rather than let the exception take the process down.
 */
function answerUnrouted(root: RootState, res: ServerResponse, error: unknown): void {
  root.log.error({ err: error }, 'the request could not be routed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}';
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) });
  res.end(body);
}

/**
 * A request arriving while the application closes: its response says `Connection: close` (so
 * the client does not reuse the connection and have its next request reset); with
 * return503OnClosing it is a 503, logged. Returns whether it was answered here.
 */
function answerWhileClosing(root: RootState, raw: IncomingMessage, res: ServerResponse): boolean {
  // HTTP/2 has no Connection header (RFC 9113 §8.2.2): its session is closed (gracefully).
  if (raw.httpVersionMajor < 2) (res as ServerResponse & { shouldKeepAlive: boolean }).shouldKeepAlive = false;
  else closeSessionOf((raw as IncomingMessage & { stream?: Parameters<typeof closeSessionOf>[0] }).stream);
  if (!root.options.return503OnClosing) return false;
  // A body still arriving is not read: the connection closes lingering, so the 503 is not lost.
  if (raw.complete === false) lingerIfBodyUnread(raw, res, root.options.bodyLimit);
  res.writeHead(503, { 'content-type': FIXED_ANSWER_TYPE, 'content-length': String(CLOSING_BODY.length) });
  res.end(CLOSING_BODY);
  // Written whatever disableRequestLogging says, as in Fastify; a failing controller is not the
  // request's business.
  if (root.logging) {
    try {
      root.options.logController.serviceUnavailable(root.log, root.contexts[0]?.instance);
    } catch (failure) {
      root.log.error({ err: failure }, 'the logController failed');
    }
  }
  return true;
}

function isMalformedPath(path: string): boolean {
  if (!path.includes('%')) return false;
  try {
    decodeURI(path);
    return false;
  } catch {
    return true;
  }
}

/**
 * Where the query starts: the first `?`, -1 for none. A short URL is scanned here: String#indexOf
 * is a builtin call of ~0.1k instructions even on `/`, a loop a few per character.
 */
function queryStartOf(url: string): number {
  if (url.length > 32) return url.indexOf('?');
  for (let index = 0; index < url.length; index++) {
    if (url.charCodeAt(index) === 0x3f) return index;
  }
  return -1;
}

/** With `useSemicolonDelimiter`, the query starts at the first `?` or `;`. */
function queryStartWithSemicolon(url: string): number {
  const question = url.indexOf('?');
  const semicolon = url.indexOf(';');
  if (semicolon === -1) return question;
  return question === -1 ? semicolon : Math.min(question, semicolon);
}

/** A router callback the app gave for this error (`routerOptions.onBadUrl`, `onMaxParamLength`). */
function answeredByRouterHook(hooks: RouterHooks, error: unknown, path: string, raw: IncomingMessage, res: ServerResponse): boolean {
  const hook = (error as { code?: unknown } | undefined)?.code === 'FST_ERR_BAD_URL' ? hooks.onBadUrl : hooks.onMaxParamLength;
  if (hook === null) return false;
  hook(path, raw, res);
  return true;
}

/** `rewriteUrl`: the URL the router sees; false when the rewrite failed (the request is dropped). */
function rewriteUrl(root: RootState, raw: IncomingMessage & { originalUrl?: string | undefined }): boolean {
  raw.originalUrl = raw.url;
  const rewritten = (root.options.rewriteUrl as NonNullable<RootState['options']['rewriteUrl']>).call(root.contexts[0]?.instance, raw);
  if (typeof rewritten === 'string') {
    raw.url = rewritten;
    return true;
  }
  raw.destroy(new errorCodes.FST_ERR_ROUTE_REWRITE_NOT_STR(raw.url, typeof rewritten));
  return false;
}

function asBadRequest(error: unknown): Error {
  const status = Number((error as { statusCode?: unknown } | null)?.statusCode);
  if (error instanceof Error && Number.isInteger(status) && status >= 400 && status < 500) return error;
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(message, { cause: error }), { statusCode: 400 });
}
