// Everything the request path needs for one route, built once at ready: hooks flattened per
// phase (null when a phase has none, so the path skips it with one check), validators and
// serializers compiled, constructors and limits resolved.
import { canCarryBody } from '../http/body-methods.js';
import type { ContentTypeParserStore } from '../http/content-type-parser.js';
import { type MethodSets, methodSets } from '../routing/http-methods.js';
import type { RouteRecord } from '../routing/route-record.js';
import type { CompiledRouteSchemas } from '../schema/contracts.js';
import { prepareRouteSchemaObject } from '../schema/normalize-schema.js';
import type { Context, ErrorHandlerEntry, HookEntry } from '../scope/context.js';
import { type ChildLoggerFactory, contextSetting, type LogSerializers, logSerializersOf } from '../scope/context-settings.js';
import { type RequestHookName, requestHookNames } from './hook-names.js';
import { hasLexicalThis } from './hooks.js';
import type { ReplyConstructor } from './lifecycle-types.js';
import { buildReplyClass } from './reply.js';
import { buildRequestClass } from './request.js';

export type RouteHooks = Record<RequestHookName, HookEntry[] | null>;

export interface CompiledRoute {
  readonly context: Context;
  readonly handler: (this: any, request: any, reply: any) => unknown;
  /** The handler is an arrow function: called directly, not through Function.prototype.call. */
  readonly handlerLexicalThis: boolean;
  readonly hooks: RouteHooks;
  readonly validate: CompiledRouteSchemas['validate'];
  /** For routes with both body and body-less methods: the validator for the body-less ones. */
  readonly validateWithoutBody?: CompiledRouteSchemas['validate'] | undefined;
  readonly serializerFor: CompiledRouteSchemas['serializerFor'];
  readonly partValidators: Record<string, (data: unknown) => unknown>;
  readonly bodyLimit: number;
  /** The route declared `bodyLimit` itself: it then wins over a parser's own limit. */
  readonly ownBodyLimit?: boolean;
  readonly attachValidation: boolean;
  readonly errorHandler: ErrorHandlerEntry;
  readonly parsers: ContentTypeParserStore;
  readonly isNotFound: boolean;
  /** The HEAD route derived from a GET route: an empty answer still announces `Content-Length: 0`. */
  readonly isHeadTwin?: boolean;
  /** Options for the request's child logger: the level and serializers of the route or its plugins. */
  readonly logOptions: Readonly<LogOptions> | undefined;
  /** The public, read-only view exposed as `request.routeOptions`. */
  readonly routeOptions: Readonly<Record<string, unknown>>;
  readonly Request: new (...args: any[]) => any;
  readonly Reply: ReplyConstructor;
  /** The request-id generator of the route's context (`setGenReqId`), else the factory's. */
  readonly genReqId: (raw: any) => string;
  /** A child-logger factory set with `setChildLoggerFactory` or the option; null: the default. */
  readonly childLoggerFactory: ChildLoggerFactory | null;
  /** Milliseconds before FST_ERR_HANDLER_TIMEOUT; 0 for none. */
  readonly handlerTimeout: number;
  /**
   * The application's method sets (body-less: GET, HEAD, TRACE and those `addHttpMethod`
   * declared so): the live sets themselves, so a request asks them rather than the WeakMap of
   * every app's (through isBodylessMethod).
   */
  readonly methodSets: MethodSets;
}

interface LogOptions {
  level?: string;
  serializers?: LogSerializers;
}

/** The route's `logLevel`, else its plugins' (an empty level inherits the application's). */
function logLevelOf(context: Context, options: Record<string, any>): string {
  return options.logLevel || contextSetting(context, 'logLevel') || '';
}

/**
 * The request logger's options: the level of the route or its plugins, and the serializers of
 * its plugins with the route's own on top. Undefined when there are none, so the common route
 * makes a plain child logger (a level passed to pino rebuilds every log method of the child).
 */
function logOptionsOf(context: Context, options: Record<string, any>): Readonly<LogOptions> | undefined {
  const level = logLevelOf(context, options);
  const inherited = logSerializersOf(context);
  const own = options.logSerializers !== null && typeof options.logSerializers === 'object' ? options.logSerializers : undefined;
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
  options: Record<string, any>,
): Pick<CompiledRoute, 'genReqId' | 'childLoggerFactory' | 'handlerTimeout' | 'methodSets'> {
  const { handlerTimeout, childLoggerFactory } = options;
  return {
    methodSets: methodSets(context.root),
    genReqId: contextSetting(context, 'genReqId') ?? context.root.options.genReqId,
    // A route's own childLoggerFactory option wins over its context's.
    childLoggerFactory: typeof childLoggerFactory === 'function' ? childLoggerFactory : (contextSetting(context, 'childLoggerFactory') ?? null),
    handlerTimeout: typeof handlerTimeout === 'number' ? handlerTimeout : context.root.options.handlerTimeout,
  };
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
function flattenHooks(context: Context, options: Record<string, any>): RouteHooks {
  const hooks = {} as RouteHooks;
  const chain = chainOf(context);
  // Every entry of a route has the same fields, so the runners' reads of them stay monomorphic.
  const routeEntry = (fn: HookEntry['fn'], lexicalThis: boolean): HookEntry => ({ fn, instance: context.instance, order: 0, lexicalThis });
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
    const all = inherited.map((entry) => routeEntry(entry.fn, entry.lexicalThis === true));
    const own = options[phase];
    for (const fn of own === undefined ? [] : Array.isArray(own) ? own : [own]) all.push(routeEntry(fn, hasLexicalThis(fn)));
    hooks[phase] = all.length > 0 ? all : null;
  }
  return hooks;
}

function constructorsOf(context: Context): { Request: CompiledRoute['Request']; Reply: CompiledRoute['Reply'] } {
  context.Request ??= buildRequestClass(context);
  context.Reply ??= buildReplyClass(context);
  return { Request: context.Request, Reply: context.Reply };
}

/** Compiles a declared route. Schema build errors propagate to ready(). */
export function compileRoute(record: RouteRecord): CompiledRoute {
  const { context, options } = record;
  prepareRouteSchemaObject(options.schema);
  const method = record.methods.join(',');
  const compileFor = (routeMethod: string) =>
    context.schemas.compileRoute(
      {
        method: routeMethod,
        url: record.url,
        schema: options.schema,
        validatorCompiler: options.validatorCompiler,
        serializerCompiler: options.serializerCompiler,
        schemaErrorFormatter: options.schemaErrorFormatter,
      },
      context.instance,
    );
  // A route answering both body and body-less methods (e.g. ['GET', 'POST']) gets a second
  // validator without the body part, picked by the request's method.
  const withBody = record.methods.find((each) => canCarryBody(each));
  const withoutBody = record.methods.find((each) => !canCarryBody(each));
  const schemas = compileFor(withBody ?? (record.methods[0] as string));
  const bodyless = withBody !== undefined && withoutBody !== undefined ? compileFor(withoutBody).validate : undefined;
  const errorHandler: ErrorHandlerEntry =
    typeof options.errorHandler === 'function'
      ? { fn: options.errorHandler, instance: context.instance, parent: context.errorHandler }
      : context.errorHandler;
  const bodyLimit = options.bodyLimit ?? context.root.options.bodyLimit;
  // As declared, uppercased: an array of methods stays an array, in routeOptions.method and in
  // config.method alike (Fastify's; @fastify/http-proxy reads config.method) (issue 32).
  const declaredMethod = Array.isArray(options.method) && !record.isHeadTwin ? Object.freeze([...record.methods]) : method;
  const config = { ...(options.config ?? {}), url: record.url, method: declaredMethod };
  const routeOptions = Object.freeze({
    method: declaredMethod,
    url: record.url,
    bodyLimit,
    attachValidation: options.attachValidation === true,
    logLevel: logLevelOf(context, options),
    handlerTimeout: options.handlerTimeout ?? context.root.options.handlerTimeout,
    exposeHeadRoute: options.exposeHeadRoute ?? context.root.options.exposeHeadRoutes,
    prefixTrailingSlash: options.prefixTrailingSlash ?? context.root.options.prefixTrailingSlash,
    version: options.constraints?.version,
    config,
    schema: options.schema,
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
    ...constructorsOf(context),
    ...contextSettingsOf(context, options),
  };
}

/** Compiles a not-found handler set in `context` (or the default one at the root). */
export function compileNotFoundRoute(
  context: Context,
  handler: (request: any, reply: any) => unknown,
  options: Record<string, any>,
): CompiledRoute {
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
    errorHandler:
      typeof options.errorHandler === 'function'
        ? { fn: options.errorHandler, instance: context.instance, parent: context.errorHandler }
        : context.errorHandler,
    parsers: context.parsers,
    isNotFound: true,
    logOptions: logOptionsOf(context, {}),
    routeOptions,
    ...constructorsOf(context),
    ...contextSettingsOf(context, {}),
  };
}
