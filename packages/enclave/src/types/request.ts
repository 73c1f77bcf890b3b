// The request: its members (`RequestApi`), Fastify's augmentable `FastifyRequest` and Enclave's
// `EnclaveRequest`. The `server` member is added by instance.ts, which sits above this file.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { HttpPart, ValidationFunction } from '../schema/contracts.js';
import type { EnclaveError } from './errors.js';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from './fastify-names.js';
import type { FastifySchema, RouteGeneric } from './schema-inference.js';

/** A route's `config` option under Fastify's name; plugins add keys (@fastify/rate-limit's `rateLimit`). */
// biome-ignore lint/suspicious/noEmptyInterface: plugins add the keys, by interface merging.
export interface FastifyContextConfig {}

/** A route's `config` option, as handlers read it in `request.routeOptions.config`; augment it to type your keys. */
export interface RouteConfig extends FastifyContextConfig {
  [key: string]: unknown;
}

/**
 * A type-only key (no run-time property) of a request: its route types, so that a route method
 * infers its route generic from a handler whose request is typed `FastifyRequest<…>`, as
 * Fastify's does (the members alone read the route types through lookups, which inference cannot
 * follow back).
 */
export declare const requestRoute: unique symbol;

/**
 * Members of every request. `Route` carries the resolved types of the route's parts; `RawRequest`,
 * `ContextConfig` and `Logger` are the instance's raw request, the route's `config` and the
 * instance's logger type. route.ts adds `routeOptions` (its type names the handler type, which
 * sits above this file).
 */
// biome-ignore-start lint/correctness/noUnusedVariables: ContextConfig is read by route.ts's augmentation.
export interface RequestApi<
  Route extends RouteGeneric = RouteGeneric,
  RawRequest = IncomingMessage,
  ContextConfig = ContextConfigDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
> {
  // biome-ignore-end lint/correctness/noUnusedVariables: ContextConfig is read by route.ts's augmentation.
  /** Type-only: the route types (see `requestRoute`). */
  readonly [requestRoute]?: Route;
  id: string;
  params: Route['Params'];
  query: Route['Querystring'];
  body: Route['Body'];
  headers: Route['Headers'] & IncomingHttpHeaders;
  raw: RawRequest;
  log: Logger;
  /** The client's address (from the socket, or forwarding headers under `trustProxy`); untrusted input. */
  readonly ip: string;
  readonly ips: string[] | undefined;
  readonly host: string;
  readonly hostname: string;
  readonly port: number | null;
  readonly protocol: 'http' | 'https';
  readonly method: string;
  readonly url: string;
  readonly originalUrl: string;
  readonly is404: boolean;
  readonly socket: IncomingMessage['socket'];
  /** With `attachValidation: true`: the validation error, or undefined when the request is valid. */
  validationError?: EnclaveError;
  getValidationFunction(partOrSchema: HttpPart | object): ValidationFunction | undefined;
  compileValidationSchema(schema: object, httpPart?: HttpPart): ValidationFunction;
  validateInput(input: unknown, schemaOrPart: object | HttpPart, httpPart?: HttpPart): unknown;
  /** The essence of the Content-Type header (`application/json`), when it is a valid one. */
  readonly mediaType: string | undefined;
  /** Aborts when the client goes away, or with FST_ERR_HANDLER_TIMEOUT when `handlerTimeout` fires. */
  readonly signal: AbortSignal;
  /** A request decorator by name (functions bound to this request); throws FST_ERR_DEC_UNDECLARED. */
  getDecorator<Value = unknown>(name: string): Value;
  /** Sets a declared request decorator on this request; throws FST_ERR_DEC_UNDECLARED. */
  setDecorator<Value = unknown>(name: string | symbol, value: Value): void;
}

/** Fastify's name for a request (the route types are its first parameter); plugins add to it. */
// Fastify's type parameters, by Fastify's names: a plugin's augmentation repeats them.
// biome-ignore-start lint/correctness/noUnusedVariables: accepted for compatibility.
export interface FastifyRequest<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ContextConfig = ContextConfigDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  RequestType = unknown,
> extends RequestApi<RouteGeneric, RawRequest, ContextConfig, Logger> {}
// biome-ignore-end lint/correctness/noUnusedVariables: accepted for compatibility.

/**
 * A request. `Route` holds the route's resolved types (`Params`, `Querystring`, `Body`,
 * `Headers`); a route's handler also gets its instance's raw request and logger types and the
 * route's `config` type. Augment the interface to type request decorators.
 *
 * @example
 * ```ts
 * declare module 'enclavejs' {
 *   interface EnclaveRequest {
 *     user: { id: string } | null;
 *   }
 * }
 * ```
 */
// Fastify's members come from `FastifyRequest` with the route's config and logger types (a
// plugin's augmentation may read them, as Fastify's own tests do) but not the route's types, so
// that the mapped type is computed once per config and logger type, not once per route.
export interface EnclaveRequest<
  Route extends RouteGeneric = RouteGeneric,
  RawRequest = IncomingMessage,
  ContextConfig = ContextConfigDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
> extends RequestApi<Route, RawRequest, ContextConfig, Logger>,
    Omit<
      FastifyRequest<RouteGenericInterface, RawServerDefault, IncomingMessage, FastifySchema, FastifyTypeProviderDefault, ContextConfig, Logger>,
      keyof RequestApi
    > {}
