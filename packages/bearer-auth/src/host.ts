import type { IncomingHttpHeaders } from 'node:http';

// The few parts of the framework this plugin touches, written as structural interfaces so
// the package builds and type-checks without the core's types (any Enclave or Fastify 5
// instance, request and reply satisfies them). Return types the plugin never reads are
// `unknown`, so the framework's richer, chainable signatures stay assignable.

/** What the plugin reads from a request: its headers, and its logger for server-side failures. */
export interface BearerAuthRequest {
  readonly headers: IncomingHttpHeaders;
  readonly log: { error(details: unknown, message?: string): void };
}

/** What the plugin does to a reply: set the status and headers, then send the error body. */
export interface BearerAuthReply {
  code(statusCode: number): unknown;
  header(name: string, value: string): unknown;
  send(payload?: unknown): unknown;
}

/** The callback a callback-style hook is given; an error ends the request through the error handler. */
export type HookDone = (error?: Error) => void;

/**
 * The function decorated as `verifyBearerAuth` when `addHook: false`. Use it as a route's
 * `onRequest` or `preHandler` hook: it calls `done()` when the token is accepted, and
 * `done(error)` (with `error.statusCode` 401 or 500) when it is not.
 */
export type VerifyBearerAuth = (request: BearerAuthRequest, reply: BearerAuthReply, done: HookDone) => void;

/** The asynchronous `onRequest` hook installed when `addHook` is true. */
export type BearerAuthHook = (request: BearerAuthRequest, reply: BearerAuthReply) => Promise<unknown>;

/** The instance the plugin is registered on. */
export interface BearerAuthInstance {
  addHook(name: 'onRequest', hook: BearerAuthHook): unknown;
  decorate(name: 'verifyBearerAuth', value: VerifyBearerAuth): unknown;
}
