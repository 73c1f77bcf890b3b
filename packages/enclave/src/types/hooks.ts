// biome-ignore-all lint/suspicious/noConfusingVoidType: a callback's `void` return (as in Fastify's types) accepts a function returning anything; `undefined` would refuse `() => void` callbacks and expression-bodied arrows.
// Hook signatures. Each hook has ONE signature covering both forms: an
// async hook omits `done` and returns a promise; a callback hook takes `done` and returns
// nothing. A union of the two forms would stop TypeScript from typing an inline hook's
// parameters. (An async hook that also declares `done` is refused at registration, at run time.)
import type { Readable } from 'node:stream';
import type { FastifyError } from './errors.js';
import type {
  ContextConfigDefault,
  DoneFuncWithErrOrRes,
  HookHandlerDoneFunction,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RequestPayload,
} from './fastify-names.js';
import type { EnclaveInstance as Instance } from './instance.js';
import type { EnclaveReply as Reply } from './reply.js';
import type { EnclaveRequest as Request } from './request.js';
import type { FastifySchema, RouteGeneric } from './schema-inference.js';

// A hook's reply: a route-level hook's carries the route's schema (as `NoInfer`, as in Fastify).
type HookReply<Route extends RouteGeneric, Schema extends FastifySchema> = Reply<
  Route,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  ContextConfigDefault,
  Schema
>;

/** The callback of a callback-style hook: call it once, with an error to end the request (Fastify's `HookHandlerDoneFunction`). */
export type HookDone = HookHandlerDoneFunction;

/**
 * `onRequest`, `preValidation`, `preHandler`, `onResponse` and `onTimeout`.
 *
 * @example
 * ```ts
 * app.addHook('preHandler', async (request, reply) => {
 *   if (!request.headers.authorization) return reply.code(401).send({ error: 'no credentials' });
 * });
 * app.addHook('onResponse', (request, reply, done) => {
 *   request.log.info({ status: reply.statusCode }, 'done');
 *   done();
 * });
 * ```
 */
export type RequestHook<Route extends RouteGeneric = RouteGeneric, Schema extends FastifySchema = FastifySchema> = (
  this: Instance,
  request: Request<Route>,
  reply: HookReply<Route, Schema>,
  done: HookDone,
) => void | Promise<unknown>;

/** `preParsing`: sees the raw body stream; may return (or pass to `done`) a replacement stream. */
export type PreParsingHook<Route extends RouteGeneric = RouteGeneric, Schema extends FastifySchema = FastifySchema> = (
  this: Instance,
  request: Request<Route>,
  reply: HookReply<Route, Schema>,
  payload: RequestPayload,
  done: <TError extends Error = FastifyError>(err?: TError | null, res?: RequestPayload) => void,
) => void | Promise<RequestPayload | undefined | void>;

/** `preSerialization`: sees the handler's value before serialization; may return a replacement. */
export type PreSerializationHook<Route extends RouteGeneric = RouteGeneric, Payload = unknown, Schema extends FastifySchema = FastifySchema> = (
  this: Instance,
  request: Request<Route>,
  reply: HookReply<Route, Schema>,
  payload: Payload,
  done: DoneFuncWithErrOrRes,
) => void | Promise<unknown>;

/** What `onSend` sees: the serialized payload (or the stream, buffer, or nothing). */
export type SerializedPayload = string | Buffer | Readable | null | undefined;

/**
 * `onSend`: sees the serialized payload; may return (or pass to `done`) a replacement.
 * `Payload` is what `addHook<Payload>('onSend', …)` names, as in Fastify.
 */
export type OnSendHook<Route extends RouteGeneric = RouteGeneric, Payload = SerializedPayload, Schema extends FastifySchema = FastifySchema> = (
  this: Instance,
  request: Request<Route>,
  reply: HookReply<Route, Schema>,
  payload: Payload,
  done: DoneFuncWithErrOrRes,
) => void | Promise<Payload | void>;

/**
 * `onError`: observes the error before the error handler runs; it cannot send a reply. The error
 * is what was thrown (a plain `Error` from a handler has no `statusCode`), typed as Fastify types it.
 */
export type OnErrorHook<Route extends RouteGeneric = RouteGeneric, Schema extends FastifySchema = FastifySchema> = (
  this: Instance,
  request: Request<Route>,
  reply: HookReply<Route, Schema>,
  error: FastifyError,
  // Fastify's onError `done` takes nothing: the hook observes, it cannot replace the error.
  done: () => void,
) => void | Promise<unknown>;

/** `onRequestAbort`: the client went away before the response was written. */
export type OnRequestAbortHook<Route extends RouteGeneric = RouteGeneric> = (
  this: Instance,
  request: Request<Route>,
  done: HookDone,
) => void | Promise<unknown>;

/**
 * The request-lifecycle hooks by name, for `addHook` and for route options. `SendPayload` is what
 * `onSend` sees: `addHook` names the serialized payload; a route's own `onSend` takes `unknown`, as
 * Fastify types it there.
 */
export interface LifecycleHooks<Route extends RouteGeneric = RouteGeneric, Schema extends FastifySchema = FastifySchema, SendPayload = SerializedPayload> {
  onRequest: RequestHook<Route, Schema>;
  preParsing: PreParsingHook<Route, Schema>;
  preValidation: RequestHook<Route, Schema>;
  preHandler: RequestHook<Route, Schema>;
  preSerialization: PreSerializationHook<Route, unknown, Schema>;
  onSend: OnSendHook<Route, SendPayload, Schema>;
  onResponse: RequestHook<Route, Schema>;
  onError: OnErrorHook<Route, Schema>;
  onTimeout: RequestHook<Route, Schema>;
  onRequestAbort: OnRequestAbortHook<Route>;
}

/** Route-level hooks: one function or an array, run after the context's hooks of the same name. */
export type RouteHooks<Route extends RouteGeneric = RouteGeneric, Schema extends FastifySchema = FastifySchema> = {
  [Name in keyof LifecycleHooks]?: LifecycleHooks<Route, NoInfer<Schema>, unknown>[Name] | LifecycleHooks<Route, NoInfer<Schema>, unknown>[Name][];
};
