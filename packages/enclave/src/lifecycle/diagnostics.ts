// node:diagnostics_channel publication, under Fastify's channel names so that tracing tools built
// for Fastify (OpenTelemetry's instrumentation, APMs) see Enclave applications unchanged:
// - `fastify.initialization`: `{ fastify }`, once per application, when the factory returns it;
// - the TracingChannel `fastify.request.handler` around each route handler (and the preHandler
//   failure it would answer), with one context object per request.
// Nothing is built and nothing is published while no one subscribes: the request path pays one
// `hasSubscribers` read.
import diagnostics from 'node:diagnostics_channel';
import type { CompiledRoute } from './compiled-route.js';
import { errorStatus } from './error-status.js';
import type { LifecycleReply, LifecycleRequest } from './lifecycle-types.js';

/** The context object every event of one request's trace carries (the same object each time). */
export interface HandlerTrace {
  readonly request: LifecycleRequest;
  readonly reply: LifecycleReply;
  /** Set once the handler (or an error handler) returned a promise: asyncStart/asyncEnd follow. */
  async: boolean;
  /** The route as declared: its URL and its method, or its methods' array (Fastify's `config`). */
  readonly route: { readonly url: string; readonly method: string | readonly string[] };
  /** What the handler threw or rejected with, set before the `error` event. */
  error?: unknown;
}

const initialization = diagnostics.channel('fastify.initialization');
const handlerChannels = diagnostics.tracingChannel<HandlerTrace, HandlerTrace>('fastify.request.handler');

/** Each traced reply's context, so the error handlers' promises join its trace. */
const traces = new WeakMap<object, HandlerTrace>();

export function publishInitialization(instance: object): void {
  if (initialization.hasSubscribers) initialization.publish({ fastify: instance });
}

/**
 * A new trace for this request when someone subscribes, else null. Not-found routes are not
 * traced, as in Fastify (a `callNotFound` stays inside the calling route's trace).
 */
export function startTrace(route: CompiledRoute, request: LifecycleRequest, reply: LifecycleReply): HandlerTrace | null {
  if (!handlerChannels.hasSubscribers || route.isNotFound) return null;
  const { url, method } = route.routeOptions.config as HandlerTrace['route'];
  const trace: HandlerTrace = { request, reply, async: false, route: { url, method } };
  traces.set(reply, trace);
  return trace;
}

/** Runs `body` between the `start` and `end` events, with `start`'s bound stores active. */
export function runTraced(trace: HandlerTrace, body: () => void): void {
  try {
    handlerChannels.start.runStores(trace, body);
  } finally {
    handlerChannels.end.publish(trace);
  }
}

/**
 * The `error` event. The reply's status is set first to the one the default error handler will
 * answer with, so subscribers read it there (a custom error handler may still choose another).
 */
export function traceError(trace: HandlerTrace, error: unknown): void {
  trace.error = error;
  const res = trace.reply.raw;
  if (!res.headersSent) res.statusCode = errorStatus(error, res.statusCode);
  handlerChannels.error.publish(trace);
}

/**
 * Continues with `onValue` or `onError` once `promise` (what the handler or an error handler
 * returned) settles; when traced, each runs between `asyncStart` and `asyncEnd`, and a rejection
 * publishes `error` first.
 */
export function thenTraced(
  trace: HandlerTrace | null | undefined,
  promise: PromiseLike<unknown>,
  onValue: (value: unknown) => void,
  onError: (error: unknown) => void,
): void {
  if (!trace) {
    Promise.resolve(promise).then(onValue, onError);
    return;
  }
  trace.async = true;
  const settle = (continuation: (value: unknown) => void, rejected: boolean) => (value: unknown) => {
    if (rejected) traceError(trace, value);
    handlerChannels.asyncStart.publish(trace);
    try {
      continuation(value);
    } finally {
      handlerChannels.asyncEnd.publish(trace);
    }
  };
  Promise.resolve(promise).then(settle(onValue, false), settle(onError, true));
}

/** The trace of a reply whose handler was traced, else undefined. */
export function traceOf(reply: object): HandlerTrace | undefined {
  return traces.get(reply);
}
