// What ready() does, once: load every plugin, then compile every route (hooks, validators,
// serializers, constructors) and the not-found handlers, then run onReady hooks.
import { compileNotFoundRoute, compileRoute } from './lifecycle/compiled-route.js';
import { runApplicationHooks } from './application-hooks.js';
import { writeLogLine } from './lifecycle/log-lines.js';
import { notFoundBody } from './lifecycle/send.js';
import { loadAll } from './scope/plugin-loader.js';
import type { CompiledRoute, Context, LifecycleReply, LifecycleRequest, RootState } from './state/application.js';

function defaultNotFoundHandler(request: LifecycleRequest, reply: LifecycleReply): void {
  writeLogLine(reply, (controller, publicRequest, publicReply) => controller.routeNotFound(publicRequest, publicReply));
  const body = notFoundBody(request);
  // Fastify's handler sends an object and keeps a content type set before it: after
  // reply.type('text/html') and reply.callNotFound() that object is an invalid payload (500).
  if (reply.hasHeader('content-type')) reply.code(404).send(JSON.parse(body));
  else reply.code(404).type('application/json; charset=utf-8').send(body);
}

function compileNotFoundRoutes(root: RootState, rootContext: Context): void {
  const entries = root.contexts
    .filter((context) => context.notFound !== null)
    .map((context) => ({
      prefix: context.prefix,
      route: compileNotFoundRoute(context, context.notFound!.handler, context.notFound!.options),
    }));
  // The default handler is the fallback: a plugin without a prefix that sets its own handler
  // takes over the root's paths (as in Fastify), so the default goes first, to end up last.
  if (rootContext.notFound === null) {
    entries.unshift({ prefix: '', route: compileNotFoundRoute(rootContext, defaultNotFoundHandler, {}) });
  }
  // Longest prefix first; among equal prefixes the deepest context (added last) wins.
  root.notFoundRoutes = entries.reverse().sort((a, b) => b.prefix.length - a.prefix.length);
  // As in Fastify, the request frameworkErrors gets belongs to no route: its routeOptions name
  // no method and no URL.
  const { bodyLimit } = root.options;
  const routeOptions = Object.freeze({ method: undefined, url: undefined, bodyLimit, config: {} });
  root.frameworkErrorRoute = { ...compileNotFoundRoute(rootContext, defaultNotFoundHandler, {}), routeOptions };
}

async function loadAndCompile(root: RootState): Promise<void> {
  await loadAll(root);
  root.booted = true;
  const rootContext = root.contexts[0] as Context;
  // The schema cache (issue 29), awaited only when there is one: without it, ready() takes no
  // extra turn of the microtask queue (plugins' ready callbacks keep their order).
  const { schemaCache } = root;
  if (schemaCache !== null) await schemaCache.prepare();
  for (const record of root.routes) record.compiled ??= compileRoute(record);
  compileNotFoundRoutes(root, rootContext);
  // Every route's schemas are compiled: what was new is written for the next start, after ready()
  // resolves (a cold start of 1,000 routes spent a tenth of its ready() encoding, checksumming
  // and writing 10 MB); close() waits for it.
  if (schemaCache !== null) schemaCache.finish();
}

/**
 * Loads, compiles, then runs onReady hooks. The `ready()` calls plugins made while loading are
 * answered between the two, as Fastify does: once everything is loaded, before onReady hooks.
 */
export async function bootApplication(root: RootState, runReadyHooks = true): Promise<void> {
  try {
    await loadAndCompile(root);
  } catch (error) {
    root.loaded.settle(true, error);
    throw error;
  }
  root.loaded.settle(false);
  // close() before ready() loads the plugins (so their onClose hooks exist) but readies nothing.
  if (!runReadyHooks) return;
  // The plugins' ready() callbacks, and what they chained, run before the onReady hooks. They
  // are promise continuations of the settle above; a tick queued from here runs only once the
  // microtask queue is empty, so they have all run by then. A tick, not setImmediate: boot then
  // waits on no timer, so an app tested under fake timers (node:test's mock.timers, or
  // @sinonjs/fake-timers told to leave ticks alone, without which Fastify cannot boot either)
  // still boots (issue 32).
  await new Promise<void>((resolve) => process.nextTick(resolve));
  root.runningReadyHooks = true;
  try {
    // A copy: an onReady hook added by an onReady hook does not run (Fastify's behaviour).
    await runApplicationHooks('onReady', root.applicationHooks.onReady.slice(), () => [], { timeout: root.options.pluginTimeout });
  } finally {
    root.runningReadyHooks = false;
  }
}

/** The not-found route owning `url`: the longest matching prefix, else the root's. */
export function findNotFoundRoute(root: RootState, url: string): CompiledRoute {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  for (const entry of root.notFoundRoutes) {
    const { prefix } = entry;
    if (prefix === '' || path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) return entry.route;
  }
  return (root.notFoundRoutes[root.notFoundRoutes.length - 1] as { route: CompiledRoute }).route;
}
