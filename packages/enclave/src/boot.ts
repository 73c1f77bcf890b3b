// What ready() does, once: load every plugin, then compile every route (hooks, validators,
// serializers, constructors) and the not-found handlers, then run onReady hooks.
import { compileNotFoundRoute, compileRoute } from './lifecycle/compiled-route.js';
import { runApplicationHooks } from './lifecycle/hooks.js';
import { notFoundBody } from './lifecycle/send.js';
import { addHeadTwins } from './routing/routes.js';
import type { Context } from './scope/context.js';
import { loadPending } from './scope/plugin-loader.js';
import type { RootState } from './scope/root-state.js';

function defaultNotFoundHandler(request: any, reply: any): void {
  reply.code(404).type('application/json; charset=utf-8').send(notFoundBody(request));
}

function compileNotFoundRoutes(root: RootState, rootContext: Context): void {
  const entries = root.contexts
    .filter((context) => context.notFound !== null)
    .map((context) => ({
      prefix: context.prefix,
      route: compileNotFoundRoute(context, context.notFound!.handler, context.notFound!.options),
    }));
  if (rootContext.notFound === null) {
    entries.push({ prefix: '', route: compileNotFoundRoute(rootContext, defaultNotFoundHandler, {}) });
  }
  // Longest prefix first; among equal prefixes the deepest context (added last) wins.
  root.notFoundRoutes = entries.reverse().sort((a, b) => b.prefix.length - a.prefix.length);
}

export async function bootApplication(root: RootState): Promise<void> {
  await loadPending(root);
  root.booted = true;
  const rootContext = root.contexts[0] as Context;
  addHeadTwins(rootContext);
  for (const record of root.routes) record.compiled ??= compileRoute(record);
  compileNotFoundRoutes(root, rootContext);
  await runApplicationHooks(root.applicationHooks.onReady, () => []);
}

/** The not-found route owning `url`: the longest matching prefix, else the root's. */
export function findNotFoundRoute(root: RootState, url: string) {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  for (const entry of root.notFoundRoutes) {
    const { prefix } = entry;
    if (prefix === '' || path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) return entry.route;
  }
  return (root.notFoundRoutes[root.notFoundRoutes.length - 1] as { route: any }).route;
}
