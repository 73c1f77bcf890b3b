// printRoutes({ includeMeta, includeHooks }): what find-my-way prints under each route. A
// route's store is its RouteRecord, which links to its whole context (find-my-way's default,
// a copy of the store, could not even be printed), so the meta is built as Fastify's is: the
// route's error handler, log level and serializers, and its request hooks.
import type { RouteRecord } from '../state/application.js';

/** The hooks printRoutes({ includeHooks: true }) lists, in Fastify's order. */
const printedHooks = [
  'onTimeout',
  'onRequest',
  'preParsing',
  'preValidation',
  'preSerialization',
  'preHandler',
  'onSend',
  'onResponse',
  'onError',
  'onRequestAbort',
] as const;

/** `includeHooks: true` is short for every hook name, before any `includeMeta` keys. */
export function printRoutesOptions(options: Record<string, unknown>): Record<string, unknown> {
  if (!options.includeHooks) return options;
  const extra = Array.isArray(options.includeMeta) ? options.includeMeta : [];
  return { ...options, includeMeta: [...printedHooks, ...extra] };
}

/** The default `buildPrettyMeta`: Fastify's keys, from the compiled route once ready. */
export function defaultPrettyMeta(route: { store?: unknown }): Record<string, unknown> {
  const record = route.store as RouteRecord | undefined;
  if (record === undefined || record === null) return {};
  const compiled = record.compiled;
  const instance = record.context.instance as { errorHandler?: unknown };
  const meta: Record<string, unknown> = {
    errorHandler: compiled?.errorHandler.fn ?? instance.errorHandler,
    logLevel: compiled?.routeOptions.logLevel || record.options.logLevel || undefined,
    logSerializers: compiled?.logOptions?.serializers ?? record.options.logSerializers,
  };
  for (const name of printedHooks) {
    const entries = compiled?.hooks[name];
    meta[name] = entries ? entries.map((entry) => entry.fn) : null;
  }
  return meta;
}
