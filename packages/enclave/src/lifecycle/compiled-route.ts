// Everything the request path needs for one route, built once at ready: hooks flattened per
// phase (null when a phase has none, so the path skips it with one check), validators and
// serializers compiled, constructors and limits resolved.
import { canCarryBody } from '../http/body-methods.js';
import { methodSets } from '../routing/http-methods.js';
import { prepareRouteSchemaObject } from '../schema/normalize-schema.js';
import { contextSetting, logSerializersOf } from '../scope/context-settings.js';
import type { SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler } from '../schema/contracts.js';
import type { ChildLoggerFactory } from '../scope/context-settings.js';
import type { CompiledRoute, Context, ErrorHandlerEntry, ErrorHandlerFunction, RouteHandler, RouteHooks, RouteRecord } from '../state/application.js';
import type { HookEntry, HookFunction } from '../state/entries.js';
import type { LogOptions, LogSerializers } from '../state/options.js';
import { type RequestHookName, requestHookNames } from './hook-names.js';
import { hasLexicalThis } from './hooks.js';
import { buildReplyClass } from './reply.js';
import { buildRequestClass } from './request.js';

/** Route options read by name: a route's as declared, or a not-found handler's. */
type DeclaredOptions = Readonly<Record<string, unknown>>;

/** The route's `logLevel`, else its plugins' (an empty level inherits the application's). */
function logLevelOf(context: Context, options: DeclaredOptions): string {
  const own = options.logLevel;
  return (typeof own === 'string' && own) || contextSetting(context, 'logLevel') || '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/**
 * The request logger's options: the level of the route or its plugins, and the serializers of
 * its plugins with the route's own on top. Undefined when there are none, so the common route
 * makes a plain child logger (a level passed to pino rebuilds every log method of the child).
 */
function logOptionsOf(context: Context, options: DeclaredOptions): Readonly<LogOptions> | undefined {
  const level = logLevelOf(context, options);
  const inherited = logSerializersOf(context);
  // The route's own serializers, handed to the logger as given (pino calls each with its field).
  const own = isObject(options.logSerializers) ? (options.logSerializers as LogSerializers) : undefined;
  const serializers = inherited === undefined && own === undefined ? undefined : { ...inherited, ...own };
  if (level === '' && serializers === undefined) return undefined;
  const logOptions: LogOptions = {};
  if (level !== '') logOptions.level = level;
  if (serializers !== undefined) logOptions.serializers = serializers;
  return Object.freeze(logOptions);
}

/** The per-context settings every compiled route carries. */
function contextSettingsOf(
  context: Context,
  options: DeclaredOptions,
): Pick<CompiledRoute, 'genReqId' | 'childLoggerFactory' | 'handlerTimeout' | 'methodSets'> {
  const { handlerTimeout } = options;
  return {
    methodSets: methodSets(context.root),
    genReqId: genReqIdOf(context),
    childLoggerFactory: childLoggerFactoryOf(context, options),
    handlerTimeout: typeof handlerTimeout === 'number' ? handlerTimeout : context.root.options.handlerTimeout,
  };
}

function genReqIdOf(context: Context): CompiledRoute['genReqId'] {
  return contextSetting(context, 'genReqId') ?? context.root.options.genReqId;
}

/** A route's own childLoggerFactory option wins over its context's; it is the user's function. */
function childLoggerFactoryOf(context: Context, options: DeclaredOptions): ChildLoggerFactory | null {
  const own = options.childLoggerFactory;
  return typeof own === 'function' ? (own as ChildLoggerFactory) : (contextSetting(context, 'childLoggerFactory') ?? null);
}

const phases: readonly RequestHookName[] = requestHookNames;

/** The contexts from the root down to `context`. */
function chainOf(context: Context): Context[] {
  const chain: Context[] = [];
  for (let current: Context | null = context; current !== null; current = current.parent) chain.unshift(current);
  return chain;
}

/**
 * The hooks of one phase for a route: those added in the context and its ancestors (whenever
 * they were added before ready, SPEC §3.2: "registered in itself and its ancestors") in the
 * order they took effect, then the route's own. As in Fastify, a hook added after a register()
 * call takes effect once that plugin has loaded, so the plugin's own hooks come first. A
 * context's own hooks are the entries it added (their `instance` is its own), so a hook a parent
 * adds after a child was created still reaches the child's routes.
 */
function flattenHooks(context: Context, options: DeclaredOptions): RouteHooks {
  const inheritedHooks = inheritedHooksOf(context);
  // A route without hooks of its own shares its context's object (the runners only read it).
  if (phases.every((phase) => options[phase] === undefined)) return inheritedHooks;
  const hooks = {} as RouteHooks;
  for (const phase of phases) {
    const inherited = inheritedHooks[phase];
    // The route's own hooks, each checked to be a function when the route was declared.
    const own = options[phase] as HookFunction | HookFunction[] | undefined;
    if (own === undefined) {
      // Shared by the context's routes: the runners only read these arrays.
      hooks[phase] = inherited;
      continue;
    }
    const all = inherited === null ? [] : [...inherited];
    for (const fn of Array.isArray(own) ? own : [own]) all.push(routeEntry(context, fn, hasLexicalThis(fn)));
    hooks[phase] = all.length > 0 ? all : null;
  }
  return hooks;
}

// Every entry of a route has the same fields, so the runners' reads of them stay monomorphic.
function routeEntry(context: Context, fn: HookFunction, lexicalThis: boolean): HookEntry {
  return { fn, instance: context.instance, order: 0, lexicalThis };
}

// The hooks a context's routes inherit, per phase, built once per context at ready (when no hook
// can be added any more): a thousand routes of one plugin used to walk its chain of contexts and
// sort its hooks a thousand times.
const inheritedByContext = new WeakMap<Context, RouteHooks>();

function inheritedHooksOf(context: Context): RouteHooks {
  let hooks = inheritedByContext.get(context);
  if (hooks !== undefined) return hooks;
  hooks = {} as RouteHooks;
  const chain = chainOf(context);
  for (const phase of phases) {
    const inherited: HookEntry[] = [];
    for (const link of chain) {
      for (const entry of link.hooks.get(phase) ?? []) {
        // `this` in a request hook is the route's own instance, whoever added it (Fastify binds
        // every lifecycle hook to the instance the route was declared on).
        if (entry.instance === link.instance) inherited.push(entry);
      }
    }
    inherited.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    hooks[phase] = inherited.length > 0 ? inherited.map((entry) => routeEntry(context, entry.fn, entry.lexicalThis === true)) : null;
  }
  inheritedByContext.set(context, hooks);
  return hooks;
}

function constructorsOf(context: Context): { Request: CompiledRoute['Request']; Reply: CompiledRoute['Reply'] } {
  context.Request ??= buildRequestClass(context);
  context.Reply ??= buildReplyClass(context);
  return { Request: context.Request, Reply: context.Reply };
}

/** The error-handler chain of a route: its own `errorHandler` (checked when declared) first. */
function errorHandlerOf(context: Context, own: unknown): ErrorHandlerEntry {
  if (typeof own !== 'function') return context.errorHandler;
  return { fn: own as ErrorHandlerFunction, instance: context.instance, parent: context.errorHandler };
}

/** A route's schemas compiled for one of its methods, with the compilers and formatter it gave. */
function compileSchemasFor(record: RouteRecord, method: string) {
  const { context, options } = record;
  const { schema } = options;
  return context.schemas.compileRoute(
    {
      method,
      url: record.url,
      schema: isObject(schema) ? schema : undefined,
      validatorCompiler: options.validatorCompiler as ValidatorCompiler | undefined,
      serializerCompiler: options.serializerCompiler as SerializerCompiler | undefined,
      schemaErrorFormatter: options.schemaErrorFormatter as SchemaErrorFormatter | undefined,
    },
    context.instance,
  );
}

/** Compiles a declared route. Schema build errors propagate to ready(). */
export function compileRoute(record: RouteRecord): CompiledRoute {
  const { context, options } = record;
  const { schema } = options;
  prepareRouteSchemaObject(schema);
  const { methods } = record;
  const method = methods.length === 1 ? (methods[0] as string) : methods.join(',');
  // A route answering both body and body-less methods (e.g. ['GET', 'POST']) gets a second
  // validator without the body part, picked by the request's method.
  const withBody = methods.find(canCarryBody);
  const withoutBody = withBody === undefined ? undefined : methods.find((each) => !canCarryBody(each));
  const schemas = compileSchemasFor(record, withBody ?? (methods[0] as string));
  const bodyless = withoutBody !== undefined ? compileSchemasFor(record, withoutBody).validate : undefined;
  const errorHandler = errorHandlerOf(context, options.errorHandler);
  const bodyLimit = options.bodyLimit ?? context.root.options.bodyLimit;
  // As declared, uppercased: an array of methods stays an array, in routeOptions.method and in
  // config.method alike (Fastify's; @fastify/http-proxy reads config.method) (issue 32).
  const declaredMethod = Array.isArray(options.method) && !record.isHeadTwin ? Object.freeze([...record.methods]) : method;
  const config = { ...(isObject(options.config) ? options.config : {}), url: record.url, method: declaredMethod };
  const routeOptions = Object.freeze({
    method: declaredMethod,
    url: record.url,
    bodyLimit,
    attachValidation: options.attachValidation === true,
    logLevel: logLevelOf(context, options),
    handlerTimeout: options.handlerTimeout ?? context.root.options.handlerTimeout,
    exposeHeadRoute: options.exposeHeadRoute ?? context.root.options.exposeHeadRoutes,
    prefixTrailingSlash: options.prefixTrailingSlash ?? context.root.options.prefixTrailingSlash,
    version: isObject(options.constraints) ? options.constraints.version : undefined,
    config,
    schema,
    handler: options.handler,
  });
  return {
    context,
    handler: options.handler,
    handlerLexicalThis: hasLexicalThis(options.handler),
    hooks: flattenHooks(context, options),
    validate: schemas.validate,
    validateWithoutBody: bodyless,
    serializerFor: schemas.serializerFor,
    partValidators: {},
    bodyLimit,
    ownBodyLimit: options.bodyLimit !== undefined,
    attachValidation: options.attachValidation === true,
    errorHandler,
    parsers: context.parsers,
    isNotFound: false,
    isHeadTwin: record.isHeadTwin,
    logOptions: logOptionsOf(context, options),
    routeOptions,
    // Set one by one rather than spread from the helpers' objects: two objects fewer per route.
    Request: (context.Request ??= buildRequestClass(context)),
    Reply: (context.Reply ??= buildReplyClass(context)),
    methodSets: methodSets(context.root),
    genReqId: genReqIdOf(context),
    childLoggerFactory: childLoggerFactoryOf(context, options),
    handlerTimeout: routeOptions.handlerTimeout,
  };
}

/** Compiles a not-found handler set in `context` (or the default one at the root). */
export function compileNotFoundRoute(context: Context, handler: RouteHandler, options: DeclaredOptions): CompiledRoute {
  // As in Fastify, a not-found request belongs to no declared route: its routeOptions name no
  // method and no URL (@fastify/otel leaves http.route out of the span when the URL is unset).
  const routeOptions = Object.freeze({ method: undefined, url: undefined, bodyLimit: context.root.options.bodyLimit, config: {} });
  return {
    context,
    handler,
    handlerLexicalThis: hasLexicalThis(handler),
    hooks: flattenHooks(context, { preValidation: options.preValidation || undefined, preHandler: options.preHandler || undefined }),
    validate: null,
    serializerFor: null,
    partValidators: {},
    bodyLimit: context.root.options.bodyLimit,
    attachValidation: false,
    // setNotFoundHandler({ errorHandler }, …): the not-found route's own handler comes first.
    errorHandler: errorHandlerOf(context, options.errorHandler),
    parsers: context.parsers,
    isNotFound: true,
    logOptions: logOptionsOf(context, {}),
    routeOptions,
    ...constructorsOf(context),
    ...contextSettingsOf(context, {}),
  };
}
