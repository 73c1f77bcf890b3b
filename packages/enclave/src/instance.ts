// The public instance surface (SPEC §3–§8). One prototype shared by every context's instance;
// each method finds its context through the single private key.
import { errorCodes } from './errors.js';
import { getDefaultJsonParser } from './http/content-type-parser.js';
import { formatAddress } from './http/listen.js';
import { sendDefaultError } from './lifecycle/error-handling.js';
import { type HookName, requestHookNames } from './lifecycle/hook-names.js';
import { addHookToContext, validateHook } from './lifecycle/hooks.js';
import { kErrorHandler } from './lifecycle/symbols.js';
import { addRoute } from './routing/routes.js';
import type { RouteRecord } from './routing/route-record.js';
import { contextOf } from './scope/context.js';
import { addDecorator, getDecorator, hasDecorator } from './scope/decorators.js';
import { loadPending, pendingLoad, queueAfter, queuePlugin } from './scope/plugin-loader.js';
import { isRegisteredInChain } from './scope/plugin-meta.js';
import { printPlugins } from './scope/print-plugins.js';
import { extraMethods, extraProperties, shorthand, throwIfBooted } from './instance-extras.js';
import { markErrorHandlerSet } from './scope/context-settings.js';
import { asDisposeHook, lifecycleMethods, resolveWithInstance } from './server-lifecycle.js';
import { printRoutesOptions } from './routing/pretty-meta.js';

/** The package version, reported as `instance.version`. */
export const VERSION = '0.1.0';

const shorthandMethods: Record<string, string> = {
  get: 'GET',
  head: 'HEAD',
  post: 'POST',
  put: 'PUT',
  delete: 'DELETE',
  options: 'OPTIONS',
  patch: 'PATCH',
};

export const instancePrototype: Record<PropertyKey, any> = {
  register(this: any, plugin: unknown, options?: unknown) {
    queuePlugin(contextOf(this), plugin, options);
    return this;
  },
  after(this: any, callback?: (...args: any[]) => unknown) {
    const context = contextOf(this);
    if (callback === undefined) return loadPending(context);
    queueAfter(context, callback as any);
    return this;
  },
  ...lifecycleMethods,
  route(this: any, options: Record<string, any>) {
    addRoute(contextOf(this), options);
    return this;
  },
  addHook(this: any, name: string, fn: (...args: any[]) => any) {
    const context = contextOf(this);
    if (name === 'onClose') fn = asDisposeHook(fn) ?? fn;
    validateHook(name, fn);
    // An onReady hook added by an onReady hook is accepted and not run, as in Fastify.
    const late = name === 'onClose' || name === 'preClose' || name === 'onListen' || (name === 'onReady' && context.root.runningReadyHooks);
    if (!late) {
      // While onReady hooks run, loading is over: Fastify's loader refuses a new hook with this
      // code (applications and Fastify's own tests check for it).
      if (context.root.runningReadyHooks) {
        throw Object.assign(new Error(`Cannot add a "${name}" hook from an onReady hook: the application has finished loading`), { code: 'AVV_ERR_ROOT_PLG_BOOTED' });
      }
      throwIfBooted(context, 'addHook');
    }
    // Request hooks (and onRegister) take effect after what was registered before them has
    // loaded, as in Fastify: a plugin registered first runs its hooks first.
    if (name === 'onRoute' || name === 'onReady' || name === 'onListen' || name === 'preClose' || name === 'onClose') {
      addHookToContext(context, name as HookName, fn);
    } else queueAfter(context, () => addHookToContext(context, name as HookName, fn));
    return this;
  },
  decorate(this: any, name: string, value: unknown, dependencies?: string[]) {
    addDecorator(contextOf(this), 'instance', name, value, dependencies);
    return this;
  },
  decorateRequest(this: any, name: string, value: unknown, dependencies?: string[]) {
    addDecorator(contextOf(this), 'request', name, value, dependencies);
    return this;
  },
  decorateReply(this: any, name: string, value: unknown, dependencies?: string[]) {
    addDecorator(contextOf(this), 'reply', name, value, dependencies);
    return this;
  },
  hasDecorator(this: any, name: string) {
    return hasDecorator(contextOf(this), 'instance', name);
  },
  hasRequestDecorator(this: any, name: string) {
    return hasDecorator(contextOf(this), 'request', name);
  },
  hasReplyDecorator(this: any, name: string) {
    return hasDecorator(contextOf(this), 'reply', name);
  },
  getDecorator(this: any, name: string) {
    return getDecorator(contextOf(this), name);
  },
  hasPlugin(this: any, name: string) {
    // The context's own name chain ('fastify' at the root, a plugin's name in its context), or a
    // metadata name registered here or above: what Fastify answers, so a plugin's checks agree.
    const context = contextOf(this);
    return context.pluginNames.includes(name) || isRegisteredInChain(context, name);
  },
  setErrorHandler(this: any, handler: (error: any, request: any, reply: any) => unknown) {
    const context = contextOf(this);
    throwIfBooted(context, 'setErrorHandler');
    if (typeof handler !== 'function') throw new errorCodes.FST_ERR_ERROR_HANDLER_NOT_FN();
    if (markErrorHandlerSet(context) && !context.root.options.allowErrorHandlerOverride) {
      throw new errorCodes.FST_ERR_ERROR_HANDLER_ALREADY_SET();
    }
    context.errorHandler = { fn: handler, instance: this, parent: context.errorHandler };
    return this;
  },
  setNotFoundHandler(this: any, options: any, handler?: (request: any, reply: any) => unknown) {
    const context = contextOf(this);
    throwIfBooted(context, 'setNotFoundHandler');
    if (typeof options === 'function') {
      handler = options;
      options = {};
    }
    if (typeof handler !== 'function') throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN('*', `${context.prefix}/*`);
    for (const name of requestHookNames) {
      const hooks = options?.[name];
      // A falsy hook option (`preHandler: null`, a plugin's `cond && hook`) means none, as in Fastify.
      if (hooks) for (const hook of [hooks].flat()) validateHook(name, hook);
    }
    // One not-found handler per prefix: a second one (same context, or a context sharing the
    // prefix) would silently shadow the first.
    if (context.root.contexts.some((other) => other.notFound !== null && other.prefix === context.prefix)) {
      throw new Error(`A not-found handler is already set for the prefix '${context.prefix || '/'}'`);
    }
    context.notFound = { handler, options: options ?? {}, context };
    return this;
  },
  setReplySerializer(this: any, serializer: (payload: unknown, statusCode: number) => string) {
    const context = contextOf(this);
    throwIfBooted(context, 'setReplySerializer');
    if (typeof serializer !== 'function') throw new TypeError('The reply serializer must be a function');
    context.replySerializer = serializer;
    return this;
  },
  addSchema(this: any, schema: any) {
    const context = contextOf(this);
    throwIfBooted(context, 'addSchema');
    context.schemas.addSchema(schema);
    return this;
  },
  getSchemas(this: any) {
    return contextOf(this).schemas.getSchemas();
  },
  getSchema(this: any, id: string) {
    return contextOf(this).schemas.getSchema(id);
  },
  setValidatorCompiler(this: any, compiler: any) {
    const context = contextOf(this);
    throwIfBooted(context, 'setValidatorCompiler');
    context.schemas.setValidatorCompiler(compiler);
    return this;
  },
  setSerializerCompiler(this: any, compiler: any) {
    const context = contextOf(this);
    throwIfBooted(context, 'setSerializerCompiler');
    context.schemas.setSerializerCompiler(compiler);
    return this;
  },
  setSchemaErrorFormatter(this: any, formatter: any) {
    const context = contextOf(this);
    throwIfBooted(context, 'setSchemaErrorFormatter');
    context.schemas.setSchemaErrorFormatter(formatter);
    return this;
  },
  /** The built-in JSON parser with the given poisoning actions, to reuse for other media types. */
  getDefaultJsonParser(this: any, onProtoPoisoning?: 'error' | 'remove' | 'ignore', onConstructorPoisoning?: 'error' | 'remove' | 'ignore') {
    return getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  },
  addContentTypeParser(this: any, matcher: any, options: any, parser?: any) {
    const context = contextOf(this);
    if (context.root.booted) throw new errorCodes.FST_ERR_CTP_INSTANCE_ALREADY_STARTED('addContentTypeParser');
    if (typeof options === 'function') {
      parser = options;
      options = {};
    }
    context.parsers.add(matcher, options ?? {}, parser, this);
    return this;
  },
  hasContentTypeParser(this: any, matcher: any) {
    return contextOf(this).parsers.has(matcher);
  },
  removeContentTypeParser(this: any, matcher: any) {
    const context = contextOf(this);
    if (context.root.booted) throw new errorCodes.FST_ERR_CTP_INSTANCE_ALREADY_STARTED('removeContentTypeParser');
    context.parsers.remove(matcher);
    return this;
  },
  removeAllContentTypeParsers(this: any) {
    const context = contextOf(this);
    if (context.root.booted) throw new errorCodes.FST_ERR_CTP_INSTANCE_ALREADY_STARTED('removeAllContentTypeParsers');
    context.parsers.removeAll();
    return this;
  },
  hasRoute(this: any, { method, url, constraints }: { method: string; url: string; constraints?: Record<string, unknown> }) {
    return contextOf(this).root.router.hasRoute(String(method).toUpperCase() as any, url, constraints ?? {});
  },
  /**
   * Matches `url` as a request URL would be (so `/users/:id` yields `{ id: ':id' }`). Only
   * copies leave: the route's record (its store) stays private, and what the caller changes
   * on the answer cannot reach the router.
   */
  findRoute(this: any, { method, url, constraints }: { method: string; url: string; constraints?: Record<string, unknown> }) {
    if (typeof method !== 'string') return null;
    const found = contextOf(this).root.router.find(method.toUpperCase() as any, url ?? '', constraints ?? {});
    if (found === null || found.store === null) return null;
    const record = found.store as unknown as RouteRecord;
    return { handler: record.options.handler, params: { ...found.params }, searchParams: { ...found.searchParams } };
  },
  printRoutes(this: any, options?: Record<string, unknown>) {
    return contextOf(this).root.router.prettyPrint(printRoutesOptions(options ?? {}));
  },
  printPlugins(this: any) {
    return printPlugins(contextOf(this));
  },
  addresses(this: any) {
    const address = contextOf(this).root.server.address();
    // A Unix socket or pipe is reported by its path, as in Fastify.
    return address === null ? [] : [address];
  },
};

for (const [name, method] of Object.entries(shorthandMethods)) instancePrototype[name] = shorthand(method);

// `await using app = enclave()` closes the application, as in Fastify (where Node has the symbol).
if (typeof Symbol.asyncDispose === 'symbol') {
  instancePrototype[Symbol.asyncDispose] = function dispose(this: any) {
    return this.close();
  };
}

Object.assign(instancePrototype, extraMethods);
Object.defineProperties(instancePrototype, extraProperties);
Object.defineProperties(instancePrototype, {
  // The instance is awaitable: `await app.register(p)` loads what is queued so far.
  then: {
    get(this: any) {
      const context = contextOf(this);
      if (context.root.thenGuard) return undefined;
      const load = pendingLoad(context);
      return (resolve: (value: any) => void, reject: (error: unknown) => void) =>
        load().then(() => resolveWithInstance(context, resolve), reject);
    },
  },
  prefix: { get() { return contextOf(this).prefix; } },
  pluginName: { get() { return contextOf(this).pluginName; } },
  version: { get() { return VERSION; } },
  server: { get() { return contextOf(this).root.server; } },
  log: { get() { return contextOf(this).root.log; } },
  initialConfig: { get() { return contextOf(this).root.initialConfig; } },
  listeningOrigin: {
    get() {
      const { root } = contextOf(this);
      return formatAddress(root.server.address() as any, Boolean(root.initialConfig.https));
    },
  },
  errorHandler: {
    get() {
      // The context's current handler, as in Fastify: the one set here or inherited, else the
      // default one (for custom handlers that want to fall back to it).
      const current = contextOf(this).errorHandler.fn;
      if (current !== null) return current;
      const instance = this;
      // Named as Fastify's: printRoutes({ includeMeta }) shows it as "defaultErrorHandler()".
      return function defaultErrorHandler(error: Error, _request: unknown, reply: any) {
        reply[kErrorHandler] = { fn: null, instance, parent: null };
        sendDefaultError(reply, error);
      };
    },
  },
});
