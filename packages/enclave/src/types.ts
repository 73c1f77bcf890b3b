// The public types, gathered from types/ (one concern per file, every import pointing down:
// errors, inject, fastify-names and schema-inference at the bottom; request, reply, instance;
// hooks, route, application hooks, plugins, type providers; options at the top). index.ts
// re-exports them from its namespace. Route data is inferred from the route's schema
// (types/schema-inference.ts) or named Fastify-style (`app.post<{ Body: User }>(...)`), and is
// `unknown` otherwise, never `any`.
export type * from './log-controller.js';
export type * from './logger.js';
export type * from './schema/contracts.js';
export type * from './types/application-hooks.js';
export type * from './types/content-type-parser.js';
export type * from './types/decorators.js';
export type * from './types/errors.js';
export type * from './types/fastify-names.js';
export type * from './types/fastify-plugin-names.js';
export type * from './types/fastify-type-names.js';
export type * from './types/hooks.js';
export type * from './types/inject.js';
export type * from './types/instance.js';
export type * from './types/logger-options.js';
export type * from './types/options.js';
export type * from './types/plugin.js';
export type * from './types/reply.js';
export type * from './types/request.js';
export type * from './types/route.js';
export type * from './types/schema-controller.js';
export type * from './types/schema-inference.js';
export type * from './types/type-provider.js';

// Declared beside `errorCodes` (errors.ts), whose value they describe; aliased here because a
// namespace alias in index.ts cannot reference an `export type { … }` re-export.
/** `errorCodes`: one constructor per `FST_ERR_*` code. */
export type ErrorCodes = import('./errors.js').ErrorCodes;
/** Fastify's name for `errorCodes`' type. */
export type FastifyErrorCodes = ErrorCodes;
