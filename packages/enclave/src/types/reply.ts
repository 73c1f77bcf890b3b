// The reply: its members (`ReplyApi`), Fastify's augmentable `FastifyReply` and Enclave's
// `EnclaveReply`. The `server` member is added by instance.ts and `routeOptions` by route.ts,
// which sit above this file.
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Logger } from '../logger.js';
import type { SerializeFunction } from '../schema/contracts.js';
import type {
  ContextConfigDefault,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from './fastify-names.js';
import type { EnclaveRequest } from './request.js';
import type { FastifySchema, ReplyPayload, RouteGeneric } from './schema-inference.js';

/** Computes a trailer's value from the sent payload: return it (or a promise), or call `done`. */
export type TrailerFunction = (reply: EnclaveReply, payload: unknown, done: (error: Error | null, value?: string) => void) => unknown;

/** Anything a reply can carry besides a typed payload: an error, a pre-serialized string, bytes, a stream. */
export type RawPayload = Error | string | Uint8Array | Readable;

/**
 * Members of every reply. `send` and the handler's return value are checked against
 * the route's reply type; `code(status)` narrows it to the payload declared for that status.
 */
export interface ReplyApi<Route extends RouteGeneric = RouteGeneric, Status extends number = never> extends PromiseLike<void> {
  raw: ServerResponse;
  request: EnclaveRequest<Route>;
  log: Logger;
  statusCode: number;
  sent: boolean;
  readonly elapsedTime: number;
  code<Code extends number>(statusCode: Code): EnclaveReply<Route, Code>;
  status<Code extends number>(statusCode: Code): EnclaveReply<Route, Code>;
  header(name: string, value: unknown): this;
  headers(values: Record<string, unknown>): this;
  getHeader(name: string): number | string | string[] | undefined;
  getHeaders(): Record<string, number | string | string[] | undefined>;
  hasHeader(name: string): boolean;
  removeHeader(name: string): this;
  type(contentType: string): this;
  send(payload?: ReplyPayload<Route['Reply'], Status> | RawPayload): this;
  serializer(serialize: (payload: unknown) => string): this;
  serialize(payload: unknown): string;
  redirect(url: string, code?: number): this;
  callNotFound(): this;
  hijack(): this;
  getSerializationFunction(schemaOrStatus: object | number | string, contentType?: string): SerializeFunction | undefined;
  compileSerializationSchema(schema: object, httpStatus?: string, contentType?: string): SerializeFunction;
  serializeInput(input: unknown, schemaOrStatus: object | number | string, httpStatus?: string, contentType?: string): string;
  /** The essence of the reply's Content-Type header, once set. */
  readonly mediaType: string | undefined;
  trailer(name: string, fn: TrailerFunction): this;
  hasTrailer(name: string): boolean;
  removeTrailer(name: string): this;
  /** Sends a 103 Early Hints response before the final one. */
  writeEarlyHints(hints: Record<string, string | string[]>, callback?: () => void): this;
  /** A reply decorator by name (functions bound to this reply); throws FST_ERR_DEC_UNDECLARED. */
  getDecorator<Value = unknown>(name: string): Value;
}

/** Fastify's name for a reply; plugins add to it. */
// Fastify's type parameters, by Fastify's names: a plugin's augmentation repeats them.
// biome-ignore-start lint/correctness/noUnusedVariables: accepted for compatibility.
export interface FastifyReply<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ReplyType = unknown,
> extends ReplyApi<RouteGeneric> {}
// biome-ignore-end lint/correctness/noUnusedVariables: accepted for compatibility.

/**
 * A reply. `Route['Reply']` is the payload type (or status map) that `send` checks;
 * `Status` is the status set by `reply.code()`. Augment the interface to type reply decorators.
 */
export interface EnclaveReply<Route extends RouteGeneric = RouteGeneric, Status extends number = never>
  extends ReplyApi<Route, Status>,
    Omit<FastifyReply, keyof ReplyApi> {}
