// Type-only keys of an instance (no run-time property): the mark that tells Enclave's instance
// from a Fastify-typed one, and the raw server, request, reply and logger types its routes carry.
// Bottom floor beside fastify-names.ts: instance.ts re-exports them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, RawServerDefault } from './fastify-names.js';

/**
 * A type-only mark of Enclave's instance (no run-time property): now that Enclave's instance has
 * Fastify's whole surface, `withTypeProvider` alone no longer tells a Fastify-typed plugin apart.
 */
export declare const enclaveInstanceBrand: unique symbol;

/**
 * A type-only key (no run-time property) of an instance: its raw server, request and reply types
 * and its logger type, which the requests and replies of its routes carry. A route handler reads
 * them from the instance it is declared on (its `this`), so that they cost nothing per route.
 */
export declare const instanceTypes: unique symbol;

/** What an instance's {@link instanceTypes} key holds. */
export interface InstanceTypes<
  RawServer = RawServerDefault,
  RawRequest = IncomingMessage,
  RawReply = ServerResponse,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
> {
  rawServer: RawServer;
  rawRequest: RawRequest;
  rawReply: RawReply;
  logger: Logger;
}

/** The {@link InstanceTypes} of an instance type (the defaults for a type that is not an instance). */
export type InstanceTypesOf<Instance> = Instance extends { readonly [instanceTypes]: infer Types extends InstanceTypes<unknown, unknown, unknown> }
  ? Types
  : InstanceTypes;

/**
 * A type-only mark of an instance typed with a type provider (`withTypeProvider()`,
 * type-provider.ts). Such an instance is its provided route methods intersected with the
 * instance itself; the instance's own route signatures take no arguments there, so that a
 * handler the provider's types refuse is not accepted by Enclave's own inference instead.
 */
export declare const providedInstanceBrand: unique symbol;

/**
 * The `this` an instance's own route signatures require: an instance not typed with a provider.
 * A `this` check rather than a conditional type, so that it costs a cached relation per instance
 * type, not an instantiation per route (bench/types).
 */
export interface NotProvided {
  readonly [enclaveInstanceBrand]: true;
  readonly [providedInstanceBrand]?: never;
}
