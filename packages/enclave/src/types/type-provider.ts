// Fastify type providers (`app.withTypeProvider<TypeBoxTypeProvider>()`, `ZodTypeProvider`, …).
// A provider is an interface whose `validator` and `serializer` members read `this['schema']`;
// Enclave evaluates them the way Fastify does, by intersecting the provider with the schema.
// Only the shape is required, never Fastify's own types. Where a provider answers `unknown`
// (not its kind of schema), Enclave's own inference (schema-inference.ts) still applies.
import type { AddHook } from './application-hooks.js';
import type { providedInstanceBrand } from './instance.js';
import type { DefaultPluginInstance, FastifyTyped, PluginModule, RegisterOptionsArgument } from './plugin.js';
import type { RouteOptions, ShorthandArguments } from './route.js';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from './fastify-names.js';
import type { EntryToType, FastifySchema, LowercaseKeys, RouteGeneric } from './schema-inference.js';

declare module './instance.js' {
  interface InstanceApi<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
    /**
     * Types the routes declared through the returned instance with a Fastify type provider
     * (`@fastify/type-provider-typebox`, `fastify-type-provider-zod`, …). At run time it returns
     * this instance unchanged.
     */
    withTypeProvider<Provider extends TypeProviderShape>(): WithTypeProvider<this, Provider>;
  }
}

/** The shape of a Fastify type provider (Fastify's `FastifyTypeProvider`). */
export interface TypeProviderShape {
  readonly schema: unknown;
  readonly validator: unknown;
  readonly serializer: unknown;
}

type Member = 'validator' | 'serializer';

/** The provider's type for a schema, else Enclave's own inference. */
type ProvidedType<Provider extends TypeProviderShape, Schema, Which extends Member> = unknown extends (Provider & { schema: Schema })[Which]
  ? EntryToType<Schema>
  : (Provider & { schema: Schema })[Which];

type ProvidedPart<Provider extends TypeProviderShape, Schema, Key extends string> = Schema extends { readonly [K in Key]: infer Part }
  ? ProvidedType<Provider, Part, 'validator'>
  : unknown;

type Given<RouteTypes, Key extends keyof RouteGeneric, Fallback> = RouteTypes extends { readonly [K in Key]: infer Type } ? Type : Fallback;

type ProvidedResponses<Provider extends TypeProviderShape, Schema> = Schema extends { readonly response: infer Responses }
  ? Responses extends object
    ? { -readonly [Status in keyof Responses]: ProvidedType<Provider, Responses[Status], 'serializer'> }
    : unknown
  : unknown;

/** One route's types through a provider: explicit generics first, then the provider, then Enclave's inference. */
export interface ResolveProvidedRoute<Provider extends TypeProviderShape, RouteTypes extends RouteGeneric, Schema> {
  Params: Given<RouteTypes, 'Params', ProvidedPart<Provider, Schema, 'params'>>;
  Querystring: Given<
    RouteTypes,
    'Querystring',
    Schema extends { readonly querystring: unknown } ? ProvidedPart<Provider, Schema, 'querystring'> : ProvidedPart<Provider, Schema, 'query'>
  >;
  Body: Given<RouteTypes, 'Body', ProvidedPart<Provider, Schema, 'body'>>;
  Headers: LowercaseKeys<Given<RouteTypes, 'Headers', ProvidedPart<Provider, Schema, 'headers'>>>;
  Reply: Given<RouteTypes, 'Reply', ProvidedResponses<Provider, Schema>>;
}

/** A route shorthand on an instance typed with a Fastify type provider (`withTypeProvider()`). */
export type ProvidedRouteShorthand<Self, Provider extends TypeProviderShape> = <
  RouteTypes extends RouteGeneric = RouteGeneric,
  const Schema extends FastifySchema = FastifySchema,
>(
  path: string,
  ...rest: ShorthandArguments<ResolveProvidedRoute<Provider, RouteTypes, Schema>, Schema, Self>
) => Self;

/** The route methods of an instance typed with `Provider`. */
export interface ProvidedRoutes<Instance, Provider extends TypeProviderShape> {
  /** Type-only: the instance's own route signatures refuse its calls (see `NotProvided`). */
  readonly [providedInstanceBrand]: Provider;
  route<RouteTypes extends RouteGeneric = RouteGeneric, const Schema extends FastifySchema = FastifySchema>(
    options: RouteOptions<
      RawServerDefault,
      RawRequestDefaultExpression,
      RawReplyDefaultExpression,
      ResolveProvidedRoute<Provider, RouteTypes, Schema>,
      ContextConfigDefault,
      Schema,
      FastifyTypeProviderDefault,
      FastifyBaseLogger,
      WithTypeProvider<Instance, Provider>
    >,
  ): WithTypeProvider<Instance, Provider>;
  get: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  head: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  post: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  put: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  delete: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  options: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  patch: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  all: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  trace: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
  query: ProvidedRouteShorthand<WithTypeProvider<Instance, Provider>, Provider>;
}

/**
 * Methods that return the instance, kept typed with the provider as in Fastify, so that
 * `app.withTypeProvider<P>().register(plugin).addHook(…).get(…)` still routes through `P`.
 */
export interface ProvidedChain<Instance, Provider extends TypeProviderShape> {
  addHook: AddHook<WithTypeProvider<Instance, Provider>>;
  register<Options extends object, Decorations extends object = {}, PluginInstance = DefaultPluginInstance<Instance>>(
    plugin: PluginModule<PluginInstance, Options, Decorations> & FastifyTyped<PluginInstance, Instance>,
    options: RegisterOptionsArgument<Instance, Options>,
  ): WithTypeProvider<Instance & Decorations, Provider>;
  register<Decorations extends object = {}, PluginInstance = DefaultPluginInstance<Instance>>(
    plugin: PluginModule<PluginInstance, {}, Decorations> & FastifyTyped<PluginInstance, Instance>,
  ): WithTypeProvider<Instance & Decorations, Provider>;
}

/**
 * An instance whose routes take their types from a Fastify type provider. The provided members
 * come first, so their signatures are the ones tried first (and the chain stays typed with the
 * provider); the instance itself comes last rather than `Omit`ted, so that the result is
 * assignable to `FastifyInstance` the cheap way, by one constituent: comparing a mapped `Omit`
 * of the whole instance member by member hit TS2589 (excessively deep) in Fastify's type tests.
 */
export type WithTypeProvider<Instance, Provider extends TypeProviderShape> = ProvidedRoutes<Instance, Provider> & ProvidedChain<Instance, Provider> & Instance;
