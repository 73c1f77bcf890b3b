// Everything the request path needs for one route, built once at ready: hooks flattened per
// phase (null when a phase has none, so the path skips it with one check), validators and
// serializers compiled, constructors and limits resolved.
import type { ContentTypeParserStore } from '../http/content-type-parser.js';
import type { RouteRecord } from '../routing/route-record.js';
import type { CompiledRouteSchemas } from '../schema/contracts.js';
import type { Context, ErrorHandlerEntry, HookEntry } from '../scope/context.js';
import type { RequestHookName } from './hook-names.js';
import { buildReplyClass } from './reply.js';
import { buildRequestClass } from './request.js';

export type RouteHooks = Record<RequestHookName, HookEntry[] | null>;

export interface CompiledRoute {
  readonly context: Context;
  readonly handler: (this: any, request: any, reply: any) => unknown;
  readonly hooks: RouteHooks;
  readonly validate: CompiledRouteSchemas['validate'];
  readonly serializerFor: CompiledRouteSchemas['serializerFor'];
  readonly partValidators: Record<string, (data: unknown) => unknown>;
  readonly bodyLimit: number;
  readonly attachValidation: boolean;
  readonly errorHandler: ErrorHandlerEntry;
  readonly parsers: ContentTypeParserStore;
  readonly isNotFound: boolean;
  /** The public, read-only view exposed as `request.routeOptions`. */
  readonly routeOptions: Readonly<Record<string, unknown>>;
  readonly Request: new (...args: any[]) => any;
  readonly Reply: new (...args: any[]) => any;
}

const phases: RequestHookName[] = [
  'onRequest',
  'preParsing',
  'preValidation',
  'preHandler',
  'preSerialization',
  'onSend',
  'onResponse',
  'onError',
  'onTimeout',
  'onRequestAbort',
];

function flattenHooks(context: Context, options: Record<string, any>): RouteHooks {
  const hooks = {} as RouteHooks;
  for (const phase of phases) {
    const own = options[phase];
    const routeLevel: HookEntry[] = (own === undefined ? [] : Array.isArray(own) ? own : [own]).map((fn: any) => ({
      fn,
      instance: context.instance,
    }));
    const all = [...(context.hooks.get(phase) ?? []), ...routeLevel];
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
  const method = record.methods.join(',');
  const schemas = context.schemas.compileRoute(
    {
      method: record.methods[0] as string,
      url: record.url,
      schema: options.schema,
      validatorCompiler: options.validatorCompiler,
      serializerCompiler: options.serializerCompiler,
      schemaErrorFormatter: options.schemaErrorFormatter,
    },
    context.instance,
  );
  const errorHandler: ErrorHandlerEntry =
    typeof options.errorHandler === 'function'
      ? { fn: options.errorHandler, instance: context.instance, parent: context.errorHandler }
      : context.errorHandler;
  const bodyLimit = options.bodyLimit ?? context.root.options.bodyLimit;
  const config = { ...(options.config ?? {}), url: options.routePath, method };
  const routeOptions = Object.freeze({
    method,
    url: record.url,
    bodyLimit,
    attachValidation: options.attachValidation === true,
    logLevel: options.logLevel,
    exposeHeadRoute: options.exposeHeadRoute,
    prefixTrailingSlash: options.prefixTrailingSlash,
    version: options.constraints?.version,
    config,
    schema: options.schema,
    handler: options.handler,
  });
  return {
    context,
    handler: options.handler,
    hooks: flattenHooks(context, options),
    validate: schemas.validate,
    serializerFor: schemas.serializerFor,
    partValidators: {},
    bodyLimit,
    attachValidation: options.attachValidation === true,
    errorHandler,
    parsers: context.parsers,
    isNotFound: false,
    routeOptions,
    ...constructorsOf(context),
  };
}

/** Compiles a not-found handler set in `context` (or the default one at the root). */
export function compileNotFoundRoute(
  context: Context,
  handler: (request: any, reply: any) => unknown,
  options: Record<string, any>,
): CompiledRoute {
  const routeOptions = Object.freeze({ method: '*', url: `${context.prefix}/*`, bodyLimit: context.root.options.bodyLimit, config: {} });
  return {
    context,
    handler,
    hooks: flattenHooks(context, { preValidation: options.preValidation, preHandler: options.preHandler }),
    validate: null,
    serializerFor: null,
    partValidators: {},
    bodyLimit: context.root.options.bodyLimit,
    attachValidation: false,
    errorHandler: context.errorHandler,
    parsers: context.parsers,
    isNotFound: true,
    routeOptions,
    ...constructorsOf(context),
  };
}
