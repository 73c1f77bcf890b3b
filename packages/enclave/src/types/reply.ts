// The reply: its members (`ReplyApi`), Fastify's augmentable `FastifyReply` and Enclave's
// `EnclaveReply`. The `server` member is added by instance.ts and `routeOptions` by route.ts,
// which sit above this file.
import type { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import type { SerializeFunction } from '../schema/contracts.js';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from './fastify-names.js';
import type { EnclaveRequest } from './request.js';
import type { FastifySchema, ReplyPayload } from './schema-inference.js';

/**
 * Computes a trailer's value from the serialized payload (`null` for a stream): resolve a
 * promise with it, or take `done` and call it (a value returned otherwise is not read).
 */
export type TrailerFunction =
  | ((reply: EnclaveReply, payload: string | Buffer | null) => Promise<string>)
  | ((reply: EnclaveReply, payload: string | Buffer | null, done: (error: Error | null, value?: string) => void) => void);

/** Anything a reply can carry besides a typed payload: an error, a pre-serialized string, bytes, a stream. */
export type RawPayload = Error | string | Uint8Array | Readable;

/**
 * What `send` takes: with a declared reply type, its payload (or a raw one), required unless the
 * type admits `undefined`; without one, anything or nothing.
 */
// One conditional: without a reply type (`unknown`), `undefined extends ReplyType` holds and the
// optional `unknown | RawPayload` is `unknown`.
type SendArguments<ReplyType> = undefined extends ReplyType ? [payload?: ReplyType | RawPayload] : [payload: ReplyType | RawPayload];

/**
 * Members of every reply, with Fastify's type parameters. `ReplyType` is the payload `send`
 * checks (by default the route's reply type, `RouteGeneric['Reply']`, or the union of its
 * success payloads for a status map); `code(status)` narrows it to the payload declared for that
 * status. The methods that keep the payload type return `this` (the reply they are called on, as
 * Fastify's do), which costs less to check than re-instantiating the eight-parameter reply (−1,504
 * instantiations in bench/types); `code`/`status` return the reply with the narrowed payload, and
 * `send` returns the route's reply with its default payload type, as Fastify's does
 * (`reply.code(400).send` returns `typeof reply`).
 */
// biome-ignore-start lint/correctness/noUnusedVariables: Fastify's type parameters; not every one is read.
export interface ReplyApi<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  // Unconstrained: a route handler's reply takes its instance's raw reply type by lookup (and
  // checking the constraints cost instantiations on every route, bench/types).
  RawServer = RawServerDefault,
  RawRequest = RawRequestDefaultExpression<RawServer & RawServerBase>,
  RawReply = RawReplyDefaultExpression<RawServer & RawServerBase>,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ReplyType = ReplyPayload<RouteGeneric['Reply']>,
> {
  raw: RawReply;
  request: EnclaveRequest<RouteGeneric>;
  log: FastifyBaseLogger;
  statusCode: number;
  sent: boolean;
  readonly elapsedTime: number;
  code<Code extends number>(
    statusCode: Code,
  ): EnclaveReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider, ReplyPayload<RouteGeneric['Reply'], Code>>;
  status<Code extends number>(
    statusCode: Code,
  ): EnclaveReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider, ReplyPayload<RouteGeneric['Reply'], Code>>;
  header(name: string, value: unknown): this;
  headers(values: Record<string, unknown>): this;
  getHeader(name: string): number | string | string[] | undefined;
  getHeaders(): Record<string, number | string | string[] | undefined>;
  hasHeader(name: string): boolean;
  removeHeader(name: string): this;
  type(contentType: string): this;
  send(...payload: SendArguments<ReplyType>): EnclaveReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>;
  serializer(
    // any: a serializer written for the route's payload type fits, as in Fastify.
    serialize: (payload: any) => string,
  ): this;
  serialize(payload: unknown): string;
  redirect(url: string, code?: number): this;
  /** Runs the not-found handler of the request's context, which sends the reply (nothing to chain). */
  callNotFound(): void;
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
  writeEarlyHints(hints: Record<string, string | string[]>, callback?: () => void): void;
  /** Calls `fulfilled` once the response has been written out, `rejected` if it failed (not a promise: returns nothing). */
  then(fulfilled: () => void, rejected: (err: Error) => void): void;
  /** A reply decorator by name (functions bound to this reply); throws FST_ERR_DEC_UNDECLARED. */
  getDecorator<Value = unknown>(name: string): Value;
}
// biome-ignore-end lint/correctness/noUnusedVariables: Fastify's type parameters; not every one is read.

/** Fastify's name for a reply; plugins add to it. */
// Fastify's type parameters, by Fastify's names: a plugin's augmentation repeats them.
export interface FastifyReply<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ReplyType = ReplyPayload<RouteGeneric['Reply']>,
> extends ReplyApi<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider, ReplyType> {}

/**
 * A reply, with Fastify's type parameters (`EnclaveReply<Route>` for a route's resolved types).
 * Augment the interface to type reply decorators.
 */
export interface EnclaveReply<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  // Unconstrained: a route handler's reply takes its instance's raw reply type by lookup (and
  // checking the constraints cost instantiations on every route, bench/types).
  RawServer = RawServerDefault,
  RawRequest = RawRequestDefaultExpression<RawServer & RawServerBase>,
  RawReply = RawReplyDefaultExpression<RawServer & RawServerBase>,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ReplyType = ReplyPayload<RouteGeneric['Reply']>,
> extends ReplyApi<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider, ReplyType>,
    Omit<FastifyReply, keyof ReplyApi> {}
