// Normalizes the ways a route can be declared (route(), shorthands) into one options object and
// validates it, so mistakes surface at registration with a coded error naming the route.
import { errorCodes } from '../errors.js';
import { requestHookNames } from '../lifecycle/hook-names.js';
import { validateHook } from '../lifecycle/hooks.js';
import type { RouteOptions } from '../state/application.js';
import type { MethodSets } from './http-methods.js';

function normalizeMethods(method: unknown, supported: MethodSets): string[] {
  // One method (the shorthands' case) needs no list to map over: this runs twice per route.
  if (!Array.isArray(method)) return [normalizeMethod(method, supported)];
  if (method.length === 0) throw new errorCodes.FST_ERR_ROUTE_METHOD_INVALID('an empty array');
  return method.map((entry) => normalizeMethod(entry, supported));
}

function normalizeMethod(entry: unknown, supported: MethodSets): string {
  if (typeof entry !== 'string') throw new errorCodes.FST_ERR_ROUTE_METHOD_INVALID(`a ${typeof entry}`);
  const upper = entry.toUpperCase();
  if (!supported.bodyless.has(upper) && !supported.withBody.has(upper)) throw new errorCodes.FST_ERR_ROUTE_METHOD_NOT_SUPPORTED(upper);
  return upper;
}

/** Builds route options from `(path, handler)`, `(path, options, handler)` or `(path, options)`. */
export function shorthandOptions(method: string | string[], path: unknown, options: unknown, handler: unknown): Record<string, unknown> {
  if (typeof options === 'function' && handler === undefined) return { method, url: path, handler: options };
  // Only a plain object is options (Fastify's check): an array or a Map is a mistake, not options.
  // Beside a handler, a missing options argument (`get(url, undefined, handler)`) is one too.
  if ((options !== undefined || handler !== undefined) && Object.prototype.toString.call(options) !== '[object Object]') {
    throw new errorCodes.FST_ERR_ROUTE_OPTIONS_NOT_OBJ(method, path);
  }
  const given = (options ?? {}) as Record<string, unknown>;
  if (handler !== undefined && given.handler !== undefined) {
    throw new errorCodes.FST_ERR_ROUTE_DUPLICATED_HANDLER(method, path);
  }
  return { ...given, method, url: path, handler: handler ?? given.handler };
}

/** A route's checked URL and its methods, upper-cased. */
export interface CheckedRoute {
  url: string;
  methods: string[];
}

/**
 * Checks options and returns their URL and upper-cased methods (no copy of the options: this
 * runs for every route, before and after the onRoute hooks). The checks run in Fastify's order,
 * so that a route with several mistakes fails with the error Fastify reports; messages name the
 * method as it was given, as Fastify's do. Route hooks are checked only once the onRoute hooks
 * have run (`checkHooks`), as in Fastify: an onRoute hook may replace a declared
 * `onRequest: null` with its own hooks (@fastify/compress does). `url` is the URL to check in
 * place of the options' own.
 */
export function checkRouteOptions(
  options: Readonly<Record<string, unknown>>,
  supported: MethodSets,
  checkHooks: boolean,
  url: unknown = options?.url ?? options?.path,
): CheckedRoute {
  if (options === null || typeof options !== 'object') throw new errorCodes.FST_ERR_ROUTE_OPTIONS_NOT_OBJ('?', '?');
  const { method, handler } = options;
  if (handler === undefined) throw new errorCodes.FST_ERR_ROUTE_MISSING_HANDLER(method, url ?? '');
  if (typeof handler !== 'function') throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN(method, url ?? '', 'handler');
  if (options.errorHandler !== undefined && typeof options.errorHandler !== 'function') {
    throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN(method, url ?? '', 'errorHandler');
  }
  const { bodyLimit, handlerTimeout } = options;
  if (bodyLimit !== undefined && !isPositiveInteger(bodyLimit)) throw new errorCodes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(bodyLimit);
  if (handlerTimeout !== undefined && !isPositiveInteger(handlerTimeout)) {
    throw new errorCodes.FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT(handlerTimeout);
  }
  if (typeof url !== 'string') throw new errorCodes.FST_ERR_INVALID_URL(typeof url);
  const methods = normalizeMethods(method, supported);
  const { schema } = options;
  const body = schema !== null && typeof schema === 'object' ? (schema as { body?: unknown }).body : undefined;
  if (body !== undefined) {
    for (const method of methods) {
      if (supported.bodyless.has(method)) {
        throw new errorCodes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED(method, url);
      }
    }
  }
  if (checkHooks) {
    for (const hookName of requestHookNames) {
      const hooks = options[hookName];
      if (hooks === undefined) continue;
      for (const hook of Array.isArray(hooks) ? hooks : [hooks]) validateHook(hookName, hook);
    }
  }
  return { url, methods };
}

/**
 * Checks options (`checkRouteOptions`, hooks included) under `url` in place of their own (their
 * `path` when `url` is undefined) and returns a copy with `url` and `methods` set.
 */
export function validateRouteOptions(options: Readonly<Record<string, unknown>>, supported: MethodSets, url: unknown): RouteOptions {
  const { url: checkedUrl, methods } = checkRouteOptions(options, supported, true, url ?? options?.path);
  // The checks make the members RouteOptions types what it says: a function as handler and
  // errorHandler (the user's, called with our request and reply), positive integers, a string URL.
  return { ...options, url: checkedUrl, methods } as RouteOptions;
}

function isPositiveInteger(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) > 0;
}
