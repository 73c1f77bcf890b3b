// Instance members beyond the core of instance.ts: router extensions (constraint strategies,
// HTTP methods, `routing`), per-context settings (request ids, child loggers, schema
// controller) and the type-provider hook. Merged into the shared instance prototype.
import { errorCodes } from './errors.js';
import { parseTextBody } from './http/builtin-parsers.js';
import { createIdGenerator, type RequestIdGenerator } from './request-id.js';
import { addHttpMethod, supportedMethods } from './routing/http-methods.js';
import { shorthandOptions } from './routing/route-options.js';
import { addRoute } from './routing/routes.js';
import { type Context, contextOf } from './scope/context.js';
import { type ChildLoggerFactory, contextSetting, defaultChildLoggerFactory, setContextSetting } from './scope/context-settings.js';
import { kRegisteredPlugins, registeredPluginNames } from './scope/plugin-meta.js';

export function throwIfBooted(context: Context, what: string): void {
  if (context.root.booted) throw new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING(`Cannot call "${what}"!`);
}

function requireFunction(value: unknown, what: string): void {
  if (typeof value !== 'function') throw new TypeError(`${what} must be a function, got ${typeof value}`);
}

/** What these methods use of the instance they are called on, beyond its context. */
interface InstanceSelf {
  readonly [member: string]: unknown;
  decorate(name: string, value: unknown): unknown;
  addHook(name: string, fn: (...args: never[]) => unknown): unknown;
}

/** A route shorthand for one method, or for the methods `method(context)` lists at call time. */
export function shorthand(method: string | ((context: Context) => string[])) {
  return function route(this: object, path: string, options?: unknown, handler?: unknown) {
    const context = contextOf(this);
    const methods = typeof method === 'function' ? method(context) : method;
    addRoute(context, shorthandOptions(methods, path, options, handler));
    return this;
  };
}

export const extraMethods: Record<string, (this: InstanceSelf, ...args: never[]) => unknown> = {
  /** Types only: the instance itself, typed with the provider (docs/typescript.md). */
  withTypeProvider(this: InstanceSelf) {
    return this;
  },
  trace: shorthand('TRACE'),
  query: shorthand('QUERY'),
  all: shorthand((context) => supportedMethods(context.root)),
  addHttpMethod(this: InstanceSelf, method: unknown, options?: { hasBody?: boolean; overrideExisting?: boolean }) {
    const name = addHttpMethod(contextOf(this).root, method, options?.hasBody === true, options?.overrideExisting === true);
    if (typeof this[name] !== 'function') this.decorate(name, shorthand(method as string));
    return this;
  },
  addConstraintStrategy(this: InstanceSelf, strategy: unknown) {
    const context = contextOf(this);
    throwIfBooted(context, 'addConstraintStrategy');
    context.root.router.addConstraintStrategy(strategy as Parameters<typeof context.root.router.addConstraintStrategy>[0]);
    return this;
  },
  hasConstraintStrategy(this: InstanceSelf, name: string) {
    return contextOf(this).root.router.hasConstraintStrategy(name);
  },
  setGenReqId(this: InstanceSelf, generate: RequestIdGenerator) {
    const context = contextOf(this);
    throwIfBooted(context, 'setGenReqId');
    requireFunction(generate, 'setGenReqId()');
    setContextSetting(context, 'genReqId', createIdGenerator(context.root.options.requestIdHeader, generate));
    return this;
  },
  setChildLoggerFactory(this: InstanceSelf, factory: ChildLoggerFactory) {
    const context = contextOf(this);
    throwIfBooted(context, 'setChildLoggerFactory');
    requireFunction(factory, 'setChildLoggerFactory()');
    setContextSetting(context, 'childLoggerFactory', factory);
    return this;
  },
  setSchemaController(this: InstanceSelf, options: unknown) {
    const context = contextOf(this);
    throwIfBooted(context, 'setSchemaController');
    context.schemas.setControllerOptions(options);
    return this;
  },
  /** Avvio's spelling of `addHook('onClose', fn)`. */
  onClose(this: InstanceSelf, fn: (...args: never[]) => unknown) {
    return this.addHook('onClose', fn);
  },
};

export const extraProperties: PropertyDescriptorMap = {
  /** The request listener itself, for plugins that route a request by hand (@fastify/websocket). */
  routing: {
    get() {
      return contextOf(this).root.requestListener;
    },
  },
  supportedMethods: {
    get() {
      return supportedMethods(contextOf(this).root);
    },
  },
  genReqId: {
    get() {
      const context = contextOf(this);
      return contextSetting(context, 'genReqId') ?? context.root.options.genReqId;
    },
  },
  childLoggerFactory: {
    get() {
      return contextSetting(contextOf(this), 'childLoggerFactory') ?? defaultChildLoggerFactory;
    },
  },
  validatorCompiler: {
    get() {
      return contextOf(this).schemas.currentValidatorCompiler();
    },
  },
  serializerCompiler: {
    get() {
      return contextOf(this).schemas.currentSerializerCompiler();
    },
  },
  defaultTextParser: { value: parseTextBody, writable: true, configurable: true },
  /** Fastify's list of the plugin names registered here and above (see plugin-meta.ts). */
  [kRegisteredPlugins]: {
    get() {
      return registeredPluginNames(contextOf(this));
    },
  },
};
