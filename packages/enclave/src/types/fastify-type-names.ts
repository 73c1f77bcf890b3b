// Fastify 5's remaining public type names, each written in terms of Enclave's own types, with
// Fastify's generic parameter lists (names and arities are interface: an app or plugin that
// writes `FastifyBodyParser<string>` or `FastifyServerFactory<Server>` compiles unchanged).
// test/api-surface-types.test.ts derives Fastify's list from the installed fastify and checks
// that every name is here or elsewhere in the public types. Only types.ts imports this file.
import type { FastifyBodyParser } from './content-type-parser.js';
import type { FastifySchemaValidationError } from './errors.js';
import type { ContextConfigDefault, FastifyBaseLogger, FastifyTypeProvider, RawServerBase, RawServerDefault } from './fastify-names.js';
import type { FastifyInstance } from './instance.js';
import type { RegisterOptionsArgument } from './plugin.js';
import type { RouteConfig } from './request.js';

/** What a body parser does with prototype poisoning (`__proto__`) and constructor poisoning. */
export type ProtoAction = 'error' | 'remove' | 'ignore';
/** What a body parser does with a `constructor.prototype` key. */
export type ConstructorAction = 'error' | 'remove' | 'ignore';

/** The instance's `hasContentTypeParser` method. */
export type hasContentTypeParser = (contentType: string | RegExp) => boolean;
/** The instance's `getDefaultJsonParser` method. */
export type getDefaultJsonParser = (onProtoPoisoning: ProtoAction, onConstructorPoisoning: ConstructorAction) => FastifyBodyParser<string>;

/** A route's configuration as the deprecated `request.context` / `reply.context` carried it. */
export interface FastifyRequestContext<ContextConfig = ContextConfigDefault> {
  config: RouteConfig & ContextConfig;
}
/** A route's configuration as the deprecated `reply.context` carried it. */
export interface FastifyReplyContext<ContextConfig = ContextConfigDefault> {
  config: RouteConfig & ContextConfig;
}

/** The options `register()` takes beside the plugin: its own and `prefix`/`logLevel`, or a function of the parent returning them. */
export type FastifyRegisterOptions<Options> = RegisterOptionsArgument<FastifyInstance, Options>;
/** The instance's `register` method (Fastify's type parameters, by Fastify's names, accepted). */
// biome-ignore-start lint/correctness/noUnusedVariables: accepted for compatibility.
export type FastifyRegister<
  T = void,
  RawServer extends RawServerBase = RawServerDefault,
  TypeProviderDefault extends FastifyTypeProvider = FastifyTypeProvider,
  LoggerDefault extends FastifyBaseLogger = FastifyBaseLogger,
> = FastifyInstance<RawServer>['register'];
// biome-ignore-end lint/correctness/noUnusedVariables: accepted for compatibility.

/** Options for `printRoutes()`. */
export interface PrintRoutesOptions {
  method?: string;
  includeMeta?: boolean | (string | symbol)[];
  commonPrefix?: boolean;
  includeHooks?: boolean;
}

/** A validation failure as the schema error formatter sees it. */
export type ValidationResult = FastifySchemaValidationError;
