// The request path: route lookup, then each phase of SPEC §4.2 as a plain continuation. Every
// decision that can be made at boot was made in compileRoute; phases without hooks cost one
// null check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { isHeaderRefusal, parseRequestBody } from '../http/content-type-parser.js';
import { lingerAfterResponse } from '../http/lingering-close.js';
import { isBodylessMethod } from '../routing/http-methods.js';
import { handleError } from './error-handling.js';
import { callHandler, preHandlerFailed } from './call-handler.js';
import { readSafely } from '../thrown-values.js';
import { runObserverHooks, runRequestHooks, runValueHooks } from './hooks.js';
import { type ErrorPathLogger, logSafely } from './error-safety.js';
import { kMediaType, kReply, kRoute } from './symbols.js';
import type { EnclaveInstance, FastifyBaseLogger } from '../types.js';
import type { LogController } from '../log-controller.js';
import { isLogger } from '../logger.js';
import { startHandlerTimeout } from './request-signal.js';
import { writeLogLine, writeStreamError } from './log-lines.js';
import { hasOpenSource, prematureClose } from './stream-source.js';
import type { CompiledRoute, LifecycleReply, LifecycleRequest, RootState } from '../state/application.js';

function logHookError(request: LifecycleRequest) {
  return (error: unknown) => logSafely(request.log, 'error', { err: error }, 'a hook failed after the response');
}

/** What the request path reads from the options, resolved once when the listener is built. */
export interface RequestSettings {
  readonly requestIdLogLabel: string;
  /** A real logger is set: each request gets a child logger with its id. */
  readonly logging: boolean;
  /** Writes the incoming and completed lines; null when logging is off. */
  readonly controller: LogController | null;
}

/** The request's logger: the custom child-logger factory's, or a pino child with the id. */
function requestLogger(settings: RequestSettings, root: RootState, route: CompiledRoute, id: string, raw: IncomingMessage): ErrorPathLogger {
  if (route.childLoggerFactory !== null) {
    const options = route.logOptions === undefined ? {} : { ...route.logOptions };
    // The factory's type names Fastify's logger (silent required): the root logger is the one the
    // application was given, whose type said so (a JavaScript caller's may lack silent, as in Fastify).
    const parent = root.log as FastifyBaseLogger;
    const child = route.childLoggerFactory.call(route.context.instance as EnclaveInstance, parent, { [settings.requestIdLogLabel]: id }, options, raw);
    // Refused here, before anything logs through it: FST_ERR_LOG_INVALID_LOGGER names what it lacks.
    isLogger(child, true);
    return child;
  }
  return settings.logging ? root.log.child({ [settings.requestIdLogLabel]: id }, route.logOptions) : root.log;
}

function trackCompletion(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply, logged: boolean, onTimeout: (() => void) | null): void {
  const res = reply.raw;
  let done = false;
  // The event says whether the response completed: `writableFinished` is not reliable here
  // (light-my-request's response never flushes to a socket, so it stays false).
  // The completion line comes after the onResponse hooks, as in Fastify, so that it can carry
  // the first hook failure ('request errored', at error level); the others are logged apart.
  const logCompleted = (error: unknown) => {
    if (logged)
      writeLogLine(reply, (controller, publicRequest, publicReply) =>
        controller.requestCompleted(error === undefined ? null : (error as Error), publicRequest, publicReply),
      );
  };
  const onDone = (completed: boolean) => {
    if (done) return;
    done = true;
    // A keep-alive socket outlives the request: its timeout must not reach this request's hooks.
    if (onTimeout !== null) request.raw.socket?.removeListener('timeout', onTimeout);
    if (!completed) {
      if (route.hooks.onRequestAbort !== null) runObserverHooks(route.hooks.onRequestAbort, [request], logHookError(request));
      // A stream payload cut short by the client is logged as such (Fastify's 'stream closed
      // prematurely', through the controller's streamError); a response abandoned otherwise has
      // no line, as in Fastify.
      if (logged && hasOpenSource(reply)) writeStreamError(reply, prematureClose());
      return;
    }
    if (route.hooks.onResponse === null) {
      logCompleted(undefined);
      return;
    }
    let firstError: unknown;
    runObserverHooks(
      route.hooks.onResponse,
      [request, reply],
      (error) => {
        if (firstError === undefined) firstError = error;
        else logHookError(request)(error);
      },
      () => logCompleted(firstError),
    );
  };
  res.once('finish', () => onDone(true));
  res.once('close', () => onDone(res.writableFinished));
}

/** Runs one request through `route`. With `error`, goes straight to the error handlers. */
export function runRoute(
  settings: RequestSettings,
  root: RootState,
  route: CompiledRoute,
  raw: IncomingMessage,
  res: ServerResponse,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
  error?: unknown,
  frameworkError = false,
): void {
  const id = route.genReqId(raw);
  const log = requestLogger(settings, root, route, id, raw);
  const request: LifecycleRequest = new route.Request(raw, params, query, id, log, route);
  const reply: LifecycleReply = new route.Reply(res, request, log, route);
  // A slot rather than a WeakMap entry: a WeakMap.set per request costs ~700 instructions
  // (an identity hash, an ephemeron-table insert and its rehashes) and work for every GC.
  request[kReply] = reply;
  const logged = settings.controller !== null;
  if (logged) writeLogLine(reply, (controller, publicRequest, publicReply) => controller.incomingRequest(publicRequest, publicReply));
  if (frameworkError && root.options.frameworkErrors !== null) {
    // As in Fastify: the incoming line only; the user's answer is the whole response.
    answerFrameworkError(root.options.frameworkErrors, error, request, reply);
    return;
  }
  let onTimeout: (() => void) | null = null;
  if (route.hooks.onTimeout !== null && raw.socket) {
    const hooks = route.hooks.onTimeout;
    onTimeout = () => runObserverHooks(hooks, [request, reply], logHookError(request));
    raw.socket.once('timeout', onTimeout);
  }
  if (logged || route.hooks.onResponse !== null || route.hooks.onRequestAbort !== null || onTimeout !== null) {
    trackCompletion(route, request, reply, logged, onTimeout);
  }
  if (route.handlerTimeout > 0) startHandlerTimeout(route, request, reply);
  if (error !== undefined) {
    handleError(reply, error);
    return;
  }
  if (route.hooks.onRequest === null) preParsing(route, request, reply);
  else runRequestHooks(route.hooks.onRequest, route, request, reply, preParsing, handleError);
}

/**
 * What the body parsers read after the preParsing hooks. A hook resolving with nothing usable
 * (`null`, `false`: easy to do by accident in an async hook) leaves the request's own stream, as
 * Fastify's body reader does; any other value that is not a stream cannot be read, and is the
 * hook's error (a 500), not a crash of the body reader.
 */
function payloadAfterPreParsing(request: LifecycleRequest, payload: unknown): Readable | Error {
  if (!payload) return request.raw;
  if (typeof readSafely(payload, 'on') === 'function' && typeof readSafely(payload, 'pipe') === 'function') return payload as Readable;
  return new Error('A preParsing hook must resolve with a readable stream or nothing');
}

function preParsing(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply): void {
  if (route.hooks.preParsing === null) {
    parseBody(route, request, reply, request.raw);
    return;
  }
  runValueHooks(route.hooks.preParsing, request, reply, request.raw, afterPreParsing, handleError, true);
}

function afterPreParsing(reply: LifecycleReply, payload: unknown): void {
  if (reply.sent) return;
  const stream = payloadAfterPreParsing(reply.request, payload);
  if (stream instanceof Error) handleError(reply, stream);
  else parseBody(reply[kRoute] as CompiledRoute, reply.request, reply, stream);
}

function parseBody(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply, payload: Readable): void {
  if (isBodylessMethod(route.methodSets, request.raw.method as string)) {
    preValidation(route, request, reply);
    return;
  }
  parseRequestBody(
    route.parsers,
    request,
    payload,
    route.bodyLimit,
    (err, body, mediaType) => {
      if (err !== null) {
        // A request for no route is answered 404 whatever its body: no parser for it is not the
        // news (Fastify skips the body of a 404 it cannot parse; the bytes were discarded).
        const refusedOnHeaders = isHeaderRefusal(err);
        if (route.isNotFound && !refusedOnHeaders && readSafely(err, 'code') === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
          preValidation(route, request, reply);
          return;
        }
        // A body refused before it all arrived (413, a bad length) is not read further, so the
        // connection cannot carry another request: it closes after this answer, lingering so that
        // the client, still sending, reads the answer rather than a reset (issue 28).
        if (!request.raw.complete && request.raw.httpVersionMajor === 1 && !reply.raw.headersSent) lingerAfterResponse(request.raw, reply.raw, route.bodyLimit);
        if (refusedOnHeaders) reply.code((err as { statusCode: number }).statusCode);
        handleError(reply, err);
        return;
      }
      request.body = body;
      request[kMediaType] = mediaType;
      preValidation(route, request, reply);
    },
    route.ownBodyLimit === true,
  );
}

function preValidation(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply): void {
  if (route.hooks.preValidation === null) validate(route, request, reply);
  else runRequestHooks(route.hooks.preValidation, route, request, reply, validate, handleError);
}

function validate(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply): void {
  const withoutBody = route.validateWithoutBody !== undefined && isBodylessMethod(route.methodSets, request.raw.method as string);
  const validator = withoutBody ? route.validateWithoutBody : route.validate;
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
    result.then(
      (err) => afterValidation(route, request, reply, err),
      (err) => handleError(reply, err),
    );
  } else {
    afterValidation(route, request, reply, result);
  }
}

function afterValidation(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply, error: Error | undefined): void {
  if (error !== undefined) {
    if (!route.attachValidation || (error as { code?: string }).code !== 'FST_ERR_VALIDATION') {
      handleError(reply, error);
      return;
    }
    request.validationError = error;
  }
  preHandler(route, request, reply);
}

function preHandler(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply): void {
  if (route.hooks.preHandler === null) callHandler(route, request, reply);
  else runRequestHooks(route.hooks.preHandler, route, request, reply, callHandler, preHandlerFailed);
}

/** `frameworkErrors`: the user's answer to a router error; its own failure goes to the error handlers. */
function answerFrameworkError(
  answer: NonNullable<RootState['options']['frameworkErrors']>,
  error: unknown,
  request: LifecycleRequest,
  reply: LifecycleReply,
): void {
  try {
    const result = answer(error as Error, request, reply);
    if (result !== null && typeof (result as PromiseLike<unknown>)?.then === 'function') {
      (result as PromiseLike<unknown>).then(undefined, (failure: unknown) => handleError(reply, failure));
    }
  } catch (failure) {
    handleError(reply, failure);
  }
}

/**
 * reply.callNotFound(): the not-found route that owns the request's path takes over, its
 * preHandler hooks first, then its handler, as in Fastify. Inside a not-found handler there is
 * nothing left to fall back to: a plain 404 and a warning, instead of calling itself forever.
 */
export function callNotFound(reply: LifecycleReply): void {
  const route = reply[kRoute] as CompiledRoute;
  if (route.isNotFound) {
    logSafely(reply.log, 'warn', {}, 'Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.');
    reply.code(404).send('404 Not Found');
    return;
  }
  const request = reply.request;
  const notFound = route.context.root.findNotFoundRoute(request.raw.url ?? '/');
  // From here the request is the not-found route's (as in Fastify: request.is404, its hooks,
  // and a second callNotFound meets the guard above).
  // The status is the not-found handler's to set, as in Fastify (@fastify/static's handlers
  // send a file with 200 from there); the default handler sets 404.
  request[kRoute] = notFound;
  reply[kRoute] = notFound;
  preHandler(notFound, request, reply);
}
