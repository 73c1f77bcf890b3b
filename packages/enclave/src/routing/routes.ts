// route() and its shorthands. Routes go into find-my-way at once (so a duplicate fails where it
// is declared) with their record as the store; everything the request path needs is compiled
// from the record at ready.
import { errorCodes } from '../errors.js';
import { requestHookNames } from '../lifecycle/hook-names.js';
import type { Context } from '../scope/context.js';
import type { RouteRecord } from './route-record.js';
import { methodSets } from './http-methods.js';
import { validateRouteOptions } from './route-options.js';

// find-my-way wants a handler per route; Enclave dispatches itself and reads only the store.
const unusedHandler = () => {};

function routePaths(context: Context, url: string, trailing: 'slash' | 'no-slash' | 'both'): string[] {
  const { prefix } = context;
  if (prefix === '') return [url === '' ? '/' : url];
  if (url === '' ) return [prefix];
  if (url !== '/') return [prefix + (url.startsWith('/') ? url : `/${url}`)];
  if (context.root.options.ignoreTrailingSlash) return [prefix];
  if (trailing === 'slash') return [`${prefix}/`];
  if (trailing === 'no-slash') return [prefix];
  return [prefix, `${prefix}/`];
}

function addToRouter(context: Context, methods: string[], path: string, options: Record<string, any>, record: RouteRecord): void {
  const routerOptions = options.constraints ? { constraints: options.constraints } : {};
  try {
    context.root.router.on(methods as any, path, routerOptions, unusedHandler, record as any);
  } catch (error) {
    if (error instanceof Error && /already declared/.test(error.message)) {
      throw new errorCodes.FST_ERR_DUPLICATED_ROUTE(methods.join(','), path);
    }
    throw error;
  }
}

/** Registers a route in `context`: validation, onRoute hooks, prefixing, router insertion. */
export function addRoute(context: Context, given: Record<string, any>): void {
  const { root } = context;
  if (root.booted) throw new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot add a route once the application is ready');
  const first = validateRouteOptions(given, methodSets(root));
  const routeOptions: Record<string, any> = {
    ...first,
    routePath: first.url,
    prefix: context.prefix,
  };
  const trailing = routeOptions.prefixTrailingSlash ?? root.options.prefixTrailingSlash;
  // `url` and `path` are the full path (prefix included), `routePath` the one the plugin gave.
  routeOptions.url = routePaths(context, first.url, trailing)[0];
  routeOptions.path = routeOptions.url;
  for (const hook of context.hooks.get('onRoute') ?? []) hook.fn.call(hook.instance, routeOptions);
  // onRoute hooks may change the options; check them again before they reach the router.
  const options = validateRouteOptions({ ...routeOptions, url: routeOptions.routePath }, methodSets(root));
  const paths = routePaths(context, options.url, trailing);
  const record: RouteRecord = {
    methods: options.methods,
    url: paths[0] as string,
    options: { ...routeOptions, ...options, url: paths[0] },
    context,
    compiled: null,
    isHeadTwin: false,
  };
  for (const path of paths) addToRouter(context, options.methods, path, options, record);
  root.routes.push(record);
  announceHeadTwins(context, record, paths);
}

/**
 * Fastify announces the HEAD route it derives from a GET route to the onRoute hooks, and plugins
 * rely on it (@fastify/swagger's `exposeHeadRoutes` lists those operations). The twin itself is
 * added at ready and answers with the GET route's record, so a hook's changes to these options
 * are not applied; copying the hook arrays keeps them from reaching the GET route either.
 */
function announceHeadTwins(context: Context, record: RouteRecord, paths: string[]): void {
  const hooks = context.hooks.get('onRoute');
  if (hooks === undefined || hooks.length === 0) return;
  const { root } = context;
  if (!record.methods.includes('GET') || record.methods.includes('HEAD')) return;
  if ((record.options.exposeHeadRoute ?? root.options.exposeHeadRoutes) === false) return;
  const constraints = record.options.constraints ?? {};
  for (const path of paths) {
    if (root.router.hasRoute('HEAD' as any, path, constraints)) continue;
    const headOptions: Record<string, any> = { ...record.options, method: 'HEAD', url: path };
    for (const name of requestHookNames) {
      if (Array.isArray(headOptions[name])) headOptions[name] = [...headOptions[name]];
    }
    for (const hook of hooks) hook.fn.call(hook.instance, headOptions);
  }
}

/** For every GET route without an explicit HEAD route, answer HEAD with the same route. */
export function addHeadTwins(context: Context): void {
  const { root } = context;
  for (const record of root.routes.slice()) {
    if (!record.methods.includes('GET')) continue;
    if ((record.options.exposeHeadRoute ?? root.options.exposeHeadRoutes) === false) continue;
    const constraints = record.options.constraints ?? {};
    const trailing = record.options.prefixTrailingSlash ?? root.options.prefixTrailingSlash;
    for (const path of routePaths(record.context, record.options.routePath, trailing)) {
      if (root.router.hasRoute('HEAD' as any, path, constraints)) continue;
      addToRouter(record.context, ['HEAD'], path, record.options, record);
    }
  }
}
