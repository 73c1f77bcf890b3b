// The public instance surface (SPEC §3–§8). One prototype shared by every context's instance;
// each method finds its context through the single private key.
import type { HTTPMethod } from 'find-my-way';
import { errorCodes, loaderErrors, notFoundHandlerAlreadySet } from './errors.js';
import { getDefaultJsonParser } from './http/content-type-parser.js';
import type { ContentTypeParserFunction, ContentTypeParserOptions } from './http/content-type-store.js';
import { formatAddress } from './http/listen.js';
import { type HookName, requestHookNames } from './lifecycle/hook-names.js';
import { addHookToContext, validateHook } from './lifecycle/hooks.js';
import { addRoute } from './routing/routes.js';
import { contextOf } from './scope/context.js';
import type { ErrorHandlerFunction, NotFoundEntry, RouteHandler, RouteRecord } from './state/application.js';
import type { AfterCallback } from './state/plugins.js';
import { addDecorator, getDecorator, hasDecorator } from './scope/decorators.js';
import { loadPending, pendingLoad, queueAfter, queuePlugin } from './scope/plugin-loader.js';
import { isRegisteredInChain } from './scope/plugin-meta.js';
import { printPlugins } from './scope/print-plugins.js';
import { extraMethods, extraProperties, shorthand, throwIfBooted } from './instance-extras.js';
import { markErrorHandlerSet } from './scope/context-settings.js';
import { asDisposeHook, lifecycleMethods, resolveWithInstance } from './server-lifecycle.js';
import { printRoutesOptions } from './routing/pretty-meta.js';
import type { SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler } from './schema/contracts.js';

type ParserMatcher = string | RegExp | Array<string | RegExp>;
/** `addContentTypeParser(matcher, parser)` passes the parser where the options go. */
type ParserOptionsOrParser = ContentTypeParserOptions | ContentTypeParserFunction | undefined;

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

export const instancePrototype: Record<PropertyKey, unknown> = {
  register(this: object, plugin: unknown, options?: unknown) {
    queuePlugin(contextOf(this), plugin, options);
    return this;
  },
  after(this: object, callback?: AfterCallback) {
    const context = contextOf(this);
    if (callback === undefined) return loadPending(context);
    queueAfter(context, callback);
    return this;
  },
  ...lifecycleMethods,
  route(this: object, options: Record<string, unknown>) {
    addRoute(contextOf(this), options);
    return this;
  },
  addHook(this: object, name: string, given: unknown) {
    const context = contextOf(this);
    // Fastify words a missing hook as it was given ('instead got undefined'), others by their tag.
    if (given === undefined || given === null) throw new errorCodes.FST_ERR_HOOK_INVALID_HANDLER(name, String(given));
    const fn = validateHook(name, name === 'onClose' ? (asDisposeHook(given) ?? given) : given);
    // An onReady hook added by an onReady hook is accepted and not run, as in Fastify.
    const late = name === 'onClose' || name === 'preClose' || name === 'onListen' || (name === 'onReady' && context.root.runningReadyHooks);
    if (!late) {
      // While onReady hooks run, loading is over: Fastify's loader refuses a new hook with this
      // code (applications and Fastify's own tests check for it).
      if (context.root.runningReadyHooks) {
        throw new loaderErrors.AVV_ERR_ROOT_PLG_BOOTED();
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
  decorate(this: object, name: string, value: unknown, dependencies?: string[]) {
    addDecorator(contextOf(this), 'instance', name, value, dependencies);
    return this;
  },
  decorateRequest(this: object, name: string, value: unknown, dependencies?: string[]) {
    addDecorator(contextOf(this), 'request', name, value, dependencies);
    return this;
  },
  decorateReply(this: object, name: string, value: unknown, dependencies?: string[]) {
    addDecorator(contextOf(this), 'reply', name, value, dependencies);
    return this;
  },
  hasDecorator(this: object, name: string) {
    return hasDecorator(contextOf(this), 'instance', name);
  },
  hasRequestDecorator(this: object, name: string) {
    return hasDecorator(contextOf(this), 'request', name);
  },
  hasReplyDecorator(this: object, name: string) {
    return hasDecorator(contextOf(this), 'reply', name);
  },
  getDecorator(this: object, name: string) {
    return getDecorator(contextOf(this), name);
  },
  hasPlugin(this: object, name: string) {
    // The context's own name chain ('fastify' at the root, a plugin's name in its context), or a
    // metadata name registered here or above: what Fastify answers, so a plugin's checks agree.
    const context = contextOf(this);
    return context.pluginNames.includes(name) || isRegisteredInChain(context, name);
  },
  setErrorHandler(this: object, handler: unknown) {
    const context = contextOf(this);
    throwIfBooted(context, 'setErrorHandler');
    if (typeof handler !== 'function') throw new errorCodes.FST_ERR_ERROR_HANDLER_NOT_FN();
    if (markErrorHandlerSet(context) && !context.root.options.allowErrorHandlerOverride) {
      throw new errorCodes.FST_ERR_ERROR_HANDLER_ALREADY_SET();
    }
    // The user's handler, called with the error, our request and our reply.
    context.errorHandler = { fn: handler as ErrorHandlerFunction, instance: this, parent: context.errorHandler };
    return this;
  },
  setNotFoundHandler(this: object, given: unknown, givenHandler?: unknown) {
    const context = contextOf(this);
    throwIfBooted(context, 'setNotFoundHandler');
    const handler = typeof given === 'function' ? given : givenHandler;
    const options = (typeof given === 'function' ? {} : given) as NotFoundEntry['options'] | null | undefined;
    if (typeof handler !== 'function') throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN('*', `${context.prefix}/*`, 'not-found handler');
    for (const name of requestHookNames) {
      const hooks = options?.[name];
      // A falsy hook option (`preHandler: null`, a plugin's `cond && hook`) means none, as in Fastify.
      if (hooks) for (const hook of [hooks].flat()) validateHook(name, hook);
    }
    // One not-found handler per prefix: a second one (same context, or a context sharing the
    // prefix) would silently shadow the first.
    if (context.root.contexts.some((other) => other.notFound !== null && other.prefix === context.prefix)) {
      throw notFoundHandlerAlreadySet(context.prefix || '/');
    }
    // The user's handler, called as a route handler is.
    context.notFound = { handler: handler as RouteHandler, options: options ?? {}, context };
    return this;
  },
  setReplySerializer(this: object, serializer: (payload: unknown, statusCode: number) => string) {
    const context = contextOf(this);
    throwIfBooted(context, 'setReplySerializer');
    if (typeof serializer !== 'function') throw new TypeError('The reply serializer must be a function');
    context.replySerializer = serializer;
    return this;
  },
  addSchema(this: object, schema: Record<string, unknown>) {
    const context = contextOf(this);
    throwIfBooted(context, 'addSchema');
    context.schemas.addSchema(schema);
    return this;
  },
  getSchemas(this: object) {
    return contextOf(this).schemas.getSchemas();
  },
  getSchema(this: object, id: string) {
    return contextOf(this).schemas.getSchema(id);
  },
  setValidatorCompiler(this: object, compiler: ValidatorCompiler) {
    const context = contextOf(this);
    throwIfBooted(context, 'setValidatorCompiler');
    context.schemas.setValidatorCompiler(compiler);
    return this;
  },
  setSerializerCompiler(this: object, compiler: SerializerCompiler) {
    const context = contextOf(this);
    throwIfBooted(context, 'setSerializerCompiler');
    context.schemas.setSerializerCompiler(compiler);
    return this;
  },
  setSchemaErrorFormatter(this: object, formatter: SchemaErrorFormatter) {
    const context = contextOf(this);
    throwIfBooted(context, 'setSchemaErrorFormatter');
    context.schemas.setSchemaErrorFormatter(formatter);
    return this;
  },
  /** The built-in JSON parser with the given poisoning actions, to reuse for other media types. */
  getDefaultJsonParser(this: object, onProtoPoisoning?: 'error' | 'remove' | 'ignore', onConstructorPoisoning?: 'error' | 'remove' | 'ignore') {
    return getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  },
  addContentTypeParser(this: object, matcher: ParserMatcher, options: ParserOptionsOrParser, parser?: ContentTypeParserFunction) {
    const context = contextOf(this);
    if (context.root.booted) throw new errorCodes.FST_ERR_CTP_INSTANCE_ALREADY_STARTED('addContentTypeParser');
    if (typeof options === 'function') {
      parser = options;
      options = {};
    }
    context.parsers.add(matcher, options ?? {}, parser, this);
    return this;
  },
  hasContentTypeParser(this: object, matcher: string | RegExp) {
    return contextOf(this).parsers.has(matcher);
  },
  removeContentTypeParser(this: object, matcher: ParserMatcher) {
    const context = contextOf(this);
    if (context.root.booted) throw new errorCodes.FST_ERR_CTP_INSTANCE_ALREADY_STARTED('removeContentTypeParser');
    context.parsers.remove(matcher);
    return this;
  },
  removeAllContentTypeParsers(this: object) {
    const context = contextOf(this);
    if (context.root.booted) throw new errorCodes.FST_ERR_CTP_INSTANCE_ALREADY_STARTED('removeAllContentTypeParsers');
    context.parsers.removeAll();
    return this;
  },
  hasRoute(this: object, { method, url, constraints }: { method: string; url: string; constraints?: Record<string, unknown> }) {
    return contextOf(this).root.router.hasRoute(String(method).toUpperCase() as HTTPMethod, url, constraints ?? {});
  },
  /**
   * Matches `url` as a request URL would be (so `/users/:id` yields `{ id: ':id' }`). Only
   * copies leave: the route's record (its store) stays private, and what the caller changes
   * on the answer cannot reach the router.
   */
  findRoute(this: object, { method, url, constraints }: { method: string; url: string; constraints?: Record<string, unknown> }) {
    if (typeof method !== 'string') return null;
    const found = contextOf(this).root.router.find(method.toUpperCase() as HTTPMethod, url ?? '', constraints ?? {});
    if (found === null || found.store === null) return null;
    const record = found.store as unknown as RouteRecord;
    return { handler: record.options.handler, params: { ...found.params }, searchParams: { ...found.searchParams } };
  },
  printRoutes(this: object, options?: Record<string, unknown>) {
    return contextOf(this).root.router.prettyPrint(printRoutesOptions(options ?? {}));
  },
  printPlugins(this: object) {
    return printPlugins(contextOf(this));
  },
  addresses(this: object) {
    const address = contextOf(this).root.server.address();
    // A Unix socket or pipe is reported by its path, as in Fastify.
    return address === null ? [] : [address];
  },
};

for (const [name, method] of Object.entries(shorthandMethods)) instancePrototype[name] = shorthand(method);

// `await using app = enclave()` closes the application, as in Fastify (where Node has the symbol).
if (typeof Symbol.asyncDispose === 'symbol') {
  instancePrototype[Symbol.asyncDispose] = function dispose(this: { close(): Promise<unknown> }) {
    return this.close();
  };
}

Object.assign(instancePrototype, extraMethods);
Object.defineProperties(instancePrototype, extraProperties);
Object.defineProperties(instancePrototype, {
  // The instance is awaitable: `await app.register(p)` loads what is queued so far.
  then: {
    get(this: object) {
      const context = contextOf(this);
      if (context.root.thenGuard) return undefined;
      const load = pendingLoad(context);
      return (resolve: (value: unknown) => void, reject: (error: unknown) => void) => load().then(() => resolveWithInstance(context, resolve), reject);
    },
  },
  prefix: {
    get() {
      return contextOf(this).prefix;
    },
  },
  pluginName: {
    get() {
      return contextOf(this).pluginName;
    },
  },
  version: {
    get() {
      return VERSION;
    },
  },
  server: {
    get() {
      return contextOf(this).root.server;
    },
  },
  log: {
    get() {
      return contextOf(this).root.log;
    },
  },
  initialConfig: {
    get() {
      return contextOf(this).root.initialConfig;
    },
  },
  listeningOrigin: {
    get() {
      const { root } = contextOf(this);
      return formatAddress(root.server.address(), Boolean(root.initialConfig.https));
    },
  },
  errorHandler: {
    get() {
      // The context's current handler, as in Fastify: the one set here or inherited, else the
      // default one (for custom handlers that want to fall back to it), named as Fastify's:
      // printRoutes({ includeMeta }) shows it as "defaultErrorHandler()".
      return contextOf(this).errorHandler.fn;
    },
  },
});
