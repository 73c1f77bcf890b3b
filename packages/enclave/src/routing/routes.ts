// route() and its shorthands. Routes go into find-my-way at once (so a duplicate fails where it
// is declared) with their record as the store; everything the request path needs is compiled
// from the record at ready.
import { errorCodes } from '../errors.js';
import { requestHookNames } from '../lifecycle/hook-names.js';
import { contextSetting } from '../scope/context-settings.js';
import type { Context, RouteOptions, RouteRecord } from '../state/application.js';
import type { HTTPMethod } from 'find-my-way';
import { methodSets } from './http-methods.js';
import { checkRouteOptions, validateRouteOptions } from './route-options.js';

// find-my-way wants a handler per route; Enclave dispatches itself and reads only the store.
const unusedHandler = () => {};

/** One path a declared route is matched at: the full `url`, and the part the plugin gave. */
interface Placement {
  url: string;
  routePath: string;
}

/**
 * Joins a route's path to its context's prefix as Fastify does (plugins and generated
 * documents rely on the exact result): no slash is added or removed except to avoid a double
 * one (`'/v1/' + '/x'` is `/v1/x`, `'/prefix' + '*'` is `/prefix*`). A `'/'` route under a
 * prefix answers at the prefix itself and, unless told otherwise, at the prefix plus `/`.
 */
function placementsOf(context: Context, url: string, methods: string[], trailing: string): Placement[] {
  const { prefix } = context;
  const { ignoreTrailingSlash, ignoreDuplicateSlashes } = context.root.options;
  if (prefix === '') return [{ url: url === '' ? '/' : url, routePath: url }];
  const headOnly = methods.length === 1 && methods[0] === 'HEAD';
  if (url === '/' && !headOnly) {
    if (trailing === 'slash') return [{ url: `${prefix}/`, routePath: '/' }];
    const bare = { url: prefix, routePath: '' };
    if (trailing === 'no-slash' || ignoreTrailingSlash || (ignoreDuplicateSlashes && prefix.endsWith('/'))) return [bare];
    return [bare, { url: `${prefix}/`, routePath: '/' }];
  }
  if (url.startsWith('/') && prefix.endsWith('/')) return [{ url: prefix + url.slice(1), routePath: url.slice(1) }];
  return [{ url: prefix + url, routePath: url }];
}

/** A route's method as Fastify's messages show it: upper-cased, an array when one was declared. */
function methodLabel(methods: string[], declared: unknown): string | string[] {
  return Array.isArray(declared) ? methods : (methods[0] ?? '');
}

function addToRouter(context: Context, methods: string[], path: string, options: RouteOptions, record: RouteRecord): void {
  const routerOptions = options.constraints ? { constraints: constraintsOf(options) } : {};
  try {
    // The methods were checked against the application's (addHttpMethod may add to find-my-way's list).
    context.root.router.on(methods as HTTPMethod[], path, routerOptions, unusedHandler, record);
  } catch (error) {
    if (error instanceof Error && /already declared/.test(error.message)) {
      throw new errorCodes.FST_ERR_DUPLICATED_ROUTE(methodLabel(methods, options.method), path);
    }
    throw error;
  }
}

/** A route's `constraints` as given (none: `{}`): find-my-way checks them itself. */
function constraintsOf(options: RouteOptions): Record<string, unknown> {
  return (options.constraints ?? {}) as Record<string, unknown>;
}

/** The options onRoute hooks see: the declaration plus where it lands. */
function announce(context: Context, declared: Readonly<Record<string, unknown>>, placement: Placement, methods?: string[]): Record<string, unknown> {
  // A declared route's options list its upper-cased `methods` after its own (a HEAD twin's do not).
  const { url, routePath } = placement;
  const routeOptions: Record<string, unknown> =
    methods === undefined
      ? { ...declared, url, path: url, routePath, prefix: context.prefix }
      : { ...declared, url, methods, path: url, routePath, prefix: context.prefix };
  // As in Fastify, `this` is the instance the route is declared on, not the one that added the
  // hook: @fastify/otel names its spans after `this.pluginName`.
  const hooks = context.hooks.get('onRoute');
  if (hooks !== undefined) for (const hook of hooks) hook.fn.call(context.instance, routeOptions);
  return routeOptions;
}

/** Fastify's words for a root route without a path (its router's assertion), with our URL code. */
function emptyPathError(): Error {
  return Object.assign(new TypeError('The path could not be empty'), { code: errorCodes.FST_ERR_INVALID_URL.code, statusCode: 500 });
}

/** A route's log level must be one the logger knows (when the logger says which it knows). */
function checkLogLevel(context: Context, level: unknown, methods: string[], declared: unknown, url: string): void {
  if (level === undefined || level === null || level === '') return;
  const known = context.root.log.levels?.values;
  if (known === undefined || known === null) return;
  if (typeof level !== 'string' || !Object.hasOwn(known, level)) {
    throw new errorCodes.FST_ERR_ROUTE_LOG_LEVEL_INVALID(methodLabel(methods, declared), url, String(level));
  }
}

/** Registers a route in `context`: validation, onRoute hooks, prefixing, router insertion. */
export function addRoute(context: Context, given: Readonly<Record<string, unknown>>): void {
  const { root } = context;
  if (root.booted) throw new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot add route!');
  const first = checkRouteOptions(given, methodSets(root), false);
  // An empty path means the prefix itself inside a plugin; at the root there is nothing to mean.
  if (first.url === '' && context.prefix === '') throw emptyPathError();
  const trailing = typeof given.prefixTrailingSlash === 'string' ? given.prefixTrailingSlash : root.options.prefixTrailingSlash;
  const announcedAt = placementsOf(context, first.url, first.methods, trailing);
  const announced = announcedAt[0] as Placement;
  const hooked = (context.hooks.get('onRoute')?.length ?? 0) > 0;
  const routeOptions = announce(context, given, announced, first.methods);
  let options: RouteOptions;
  let placements: Placement[];
  if (!hooked && announcedAt.length === 1) {
    // No hook saw or holds routeOptions, and nothing changes it later (one placement): it is the
    // record's options as it is, once its route hooks are checked (a copy per route saved).
    checkRouteOptions(routeOptions, methodSets(root), true, first.url);
    options = routeOptions as RouteOptions;
    placements = announcedAt;
  } else {
    // onRoute hooks may change the options (`routePath` included); check them again.
    const declaredUrl = routeOptions.routePath === announced.routePath ? first.url : routeOptions.routePath;
    options = validateRouteOptions(routeOptions, methodSets(root), declaredUrl);
    placements = placementsOf(context, options.url, options.methods, trailing);
  }
  const url = (placements[0] as Placement).url;
  checkLogLevel(context, options.logLevel || contextSetting(context, 'logLevel'), options.methods, options.method, url);
  // `options` is routeOptions or a fresh copy of it: the record keeps it, placed.
  (options as { url: string }).url = url;
  const record: RouteRecord = {
    methods: options.methods,
    url,
    options,
    context,
    compiled: null,
    isHeadTwin: false,
  };
  for (const placement of placements) addToRouter(context, options.methods, placement.url, options, record);
  root.routes.push(record);
  // Fastify announces a '/' route under a prefix once, at the prefix, then reuses the same
  // options object for the prefix plus '/': hooks that keep the object (@fastify/swagger) end
  // up describing `/prefix/`. The same object, changed the same way, keeps documents equal.
  const last = placements[placements.length - 1] as Placement;
  if (placements.length > 1) Object.assign(routeOptions, { url: last.url, path: last.url, routePath: last.routePath });
  declareHeadTwins(context, given, record, placements);
}

/**
 * The HEAD route Fastify derives from a GET route is a route of its own, added right after the
 * GET route (so `printRoutes()` lists its methods in Fastify's order). It is announced to the
 * onRoute hooks with fresh options (a copy of the declaration, hook arrays included), so what a
 * hook attaches to it (@fastify/rate-limit's counters) is not shared with the GET route. It takes
 * its place in the router at once, as in Fastify: a HEAD route declared for the same path later
 * is a duplicate (FST_ERR_DUPLICATED_ROUTE), one declared earlier wins over the twin.
 */
function declareHeadTwins(context: Context, given: Readonly<Record<string, unknown>>, record: RouteRecord, placements: Placement[]): void {
  const { root } = context;
  if (!record.methods.includes('GET') || record.methods.includes('HEAD')) return;
  if ((record.options.exposeHeadRoute ?? root.options.exposeHeadRoutes) === false) return;
  const constraints = constraintsOf(record.options);
  for (const placement of placements) {
    if (root.router.hasRoute('HEAD', placement.url, constraints)) continue;
    const declared: Record<string, unknown> = { ...given, method: 'HEAD' };
    for (const name of requestHookNames) {
      const hooks = declared[name];
      if (Array.isArray(hooks)) declared[name] = [...hooks];
    }
    const headOptions = announce(context, declared, placement);
    const options = validateRouteOptions(headOptions, methodSets(root), placement.url);
    const twin: RouteRecord = {
      methods: ['HEAD'],
      url: placement.url,
      options,
      context,
      compiled: null,
      isHeadTwin: true,
    };
    addToRouter(context, ['HEAD'], placement.url, twin.options, twin);
    root.routes.push(twin);
  }
}
