// What the request path reads and writes on its request and reply objects: the public members
// it uses and its private slots. The objects themselves are built per context (request.ts,
// reply.ts) with the user's decorators on top; these are the parts the lifecycle relies on.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorHandlerEntry } from '../scope/context.js';
import type { CompiledRoute } from './compiled-route.js';
import type { ErrorPathLogger } from './error-safety.js';
import type { kErrorHandler, kHeaders, kHijacked, kInHandler, kInOnErrorHooks, kMediaType, kOnErrorDone, kReply, kRoute, kSent, kSerializer, kTrailers } from './symbols.js';

/** The request as the lifecycle sees it. */
export interface LifecycleRequest {
  readonly raw: IncomingMessage;
  readonly method: string;
  readonly url: string;
  readonly log: ErrorPathLogger;
  readonly query: unknown;
  readonly params: unknown;
  readonly headers: unknown;
  body: unknown;
  validationError?: Error;
  /** Its reply (a slot: cheaper per request than a WeakMap entry). */
  [kReply]: LifecycleReply | null;
  [kRoute]: CompiledRoute;
  [kMediaType]: string | undefined;
}

/** The reply as the lifecycle sees it. */
export interface LifecycleReply {
  readonly raw: ServerResponse;
  readonly request: LifecycleRequest;
  readonly log: ErrorPathLogger;
  readonly sent: boolean;
  readonly statusCode: number;
  readonly elapsedTime: number;
  code(statusCode: number): LifecycleReply;
  headers(values: Record<string, unknown>): unknown;
  send(payload?: unknown): unknown;
  [kSent]: boolean;
  [kHijacked]: boolean;
  /** While the route handler runs synchronously (an unsendable payload then throws to it). */
  [kInHandler]: boolean;
  [kRoute]: CompiledRoute;
  [kErrorHandler]: ErrorHandlerEntry | null;
  [kOnErrorDone]: boolean;
  /** While its onError hooks run (a send from one is refused). */
  [kInOnErrorHooks]: boolean;
  /** The trailers `reply.trailer()` declared, null until the first. */
  [kTrailers]: Map<string, unknown> | null;
  [kHeaders]: Record<string, unknown>;
  [kSerializer]: ((payload: unknown) => unknown) | null;
}

/** A context's reply constructor (built at ready with the reply decorators visible there). */
export type ReplyConstructor = new (raw: ServerResponse, request: LifecycleRequest, log: ErrorPathLogger, route: CompiledRoute) => LifecycleReply;
