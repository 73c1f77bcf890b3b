// The factory's options checked and given their defaults (NormalizedOptions, what every later
// module reads), and `initialConfig` as Fastify reports it. Wrong values throw Fastify's errors
// with the words of its option schema.
import { parse as parseQuerystring } from 'fast-querystring';
import proxyAddr from 'proxy-addr';
import { errorCodes, invalidOption } from './errors.js';
import { type GivenOptions, routerOption } from './factory-options.js';
import { LogController } from './log-controller.js';
import { createCountingGenerator, createIdGenerator, type RequestIdGenerator } from './request-id.js';
import type { NormalizedOptions } from './state/options.js';

const poisoningActions = new Set<unknown>(['error', 'remove', 'ignore']);
const isPoisoningAction = (value: unknown) => poisoningActions.has(value);

/**
 * A factory option, checked by `valid` (which says what a valid value is: the caller's `T`), else
 * the fallback. As in Fastify, routerOptions wins over the (deprecated) top-level router option.
 */
export function option<T>(options: GivenOptions, name: string, fallback: T, valid: (value: unknown) => boolean, expected: string): T {
  const value = routerOption(options, name);
  if (value === undefined) return fallback;
  if (!valid(value)) throw invalidOption(name, expected, value);
  return value as T;
}

// What Fastify's option schema says of a wrong value (Ajv's words), for FST_ERR_INIT_OPTS_INVALID.
const BOOLEAN = 'must be boolean';
export const FUNCTION = 'must be a function';
const ONE_OF_ALLOWED = 'must be equal to one of the allowed values';
const isBoolean = (value: unknown) => typeof value === 'boolean';
export const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isPositiveInteger = (value: unknown) => Number.isInteger(value) && (value as number) > 0;
export const isFunction = (value: unknown) => typeof value === 'function';

/** The querystring parser given (its own code when it is not a function, as in Fastify), else fast-querystring's. */
function readQuerystringParser(options: GivenOptions): NormalizedOptions['querystringParser'] {
  const parser = routerOption(options, 'querystringParser');
  if (parser === undefined) return parseQuerystring as NormalizedOptions['querystringParser'];
  if (typeof parser !== 'function') throw new errorCodes.FST_ERR_QSP_NOT_FN(typeof parser);
  return parser as NormalizedOptions['querystringParser'];
}

function compileTrust(trustProxy: unknown): NormalizedOptions['trustProxy'] {
  if (trustProxy === undefined || trustProxy === false) return null;
  if (trustProxy === true) return () => true;
  // A hop count cannot tell the proxy from a client that reaches the server directly and sends
  // enough X-Forwarded-For entries itself: as Fastify 5.12 does, it trusts no one (fails closed).
  if (typeof trustProxy === 'number') return trustProxy === 0 ? null : () => false;
  if (typeof trustProxy === 'function') return trustProxy as NormalizedOptions['trustProxy'];
  if (typeof trustProxy === 'string') return proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  if (Array.isArray(trustProxy)) return proxyAddr.compile(trustProxy);
  throw invalidOption('trustProxy', 'must be boolean, number, string, array or function', trustProxy);
}

/** The `logController` given, else the default one, built from the two top-level options. */
function readLogController(options: GivenOptions, disableRequestLogging: NormalizedOptions['disableRequestLogging'], requestIdLogLabel: string): LogController {
  const controller = options.logController;
  if (controller === undefined || controller === null) return new LogController({ disableRequestLogging, requestIdLogLabel });
  if (!(controller instanceof LogController)) throw new errorCodes.FST_ERR_LOG_INVALID_LOG_CONTROLLER(typeof controller);
  return controller;
}

/** The factory's options checked (FST_ERR_INIT_OPTS_INVALID and the coded errors Fastify throws), with their defaults. */
export function normalizeOptions(options: GivenOptions): NormalizedOptions {
  // `true` is Fastify's shorthand for the 'request-id' header.
  const idHeader = option<string | boolean>(options, 'requestIdHeader', false, (v) => isBoolean(v) || typeof v === 'string', 'must be string');
  const requestIdHeader = idHeader === true ? 'request-id' : idHeader === '' ? false : idHeader;
  const genReqId = option<RequestIdGenerator>(options, 'genReqId', createCountingGenerator(), isFunction, FUNCTION);
  const disableRequestLogging = option<NormalizedOptions['disableRequestLogging']>(
    options,
    'disableRequestLogging',
    false,
    (v) => isBoolean(v) || isFunction(v),
    BOOLEAN,
  );
  const requestIdLogLabel = option(options, 'requestIdLogLabel', 'reqId', (v) => typeof v === 'string', 'must be string');
  const logController = readLogController(options, disableRequestLogging, requestIdLogLabel);
  return {
    bodyLimit: option(options, 'bodyLimit', 1024 * 1024, isPositiveInteger, 'must be integer'),
    pluginTimeout: option(options, 'pluginTimeout', 10_000, isCount, 'must be integer'),
    exposeHeadRoutes: option(options, 'exposeHeadRoutes', true, isBoolean, BOOLEAN),
    prefixTrailingSlash: 'both',
    maxParamLength: option(options, 'maxParamLength', 100, isPositiveInteger, 'must be integer'),
    caseSensitive: option(options, 'caseSensitive', true, isBoolean, BOOLEAN),
    ignoreTrailingSlash: option(options, 'ignoreTrailingSlash', false, isBoolean, BOOLEAN),
    ignoreDuplicateSlashes: option(options, 'ignoreDuplicateSlashes', false, isBoolean, BOOLEAN),
    return503OnClosing: option(options, 'return503OnClosing', true, isBoolean, BOOLEAN),
    disableRequestLogging,
    allowErrorHandlerOverride: option(options, 'allowErrorHandlerOverride', true, isBoolean, BOOLEAN),
    handlerTimeout: option(options, 'handlerTimeout', 0, isCount, 'must be integer'),
    rewriteUrl: option(options, 'rewriteUrl', null, isFunction, FUNCTION),
    frameworkErrors: option(options, 'frameworkErrors', null, isFunction, FUNCTION),
    useSemicolonDelimiter: option(options, 'useSemicolonDelimiter', false, isBoolean, BOOLEAN),
    logController,
    requestIdHeader: requestIdHeader === false ? false : requestIdHeader.toLowerCase(),
    requestIdLogLabel,
    genReqId: createIdGenerator(requestIdHeader === false ? false : requestIdHeader.toLowerCase(), genReqId),
    querystringParser: readQuerystringParser(options),
    trustProxy: compileTrust(options.trustProxy),
    onProtoPoisoning: option(options, 'onProtoPoisoning', 'error', isPoisoningAction, ONE_OF_ALLOWED),
    onConstructorPoisoning: option(options, 'onConstructorPoisoning', 'error', isPoisoningAction, ONE_OF_ALLOWED),
    forceCloseConnections: option<NormalizedOptions['forceCloseConnections']>(
      options,
      'forceCloseConnections',
      'idle',
      (v) => v === 'idle' || isBoolean(v),
      ONE_OF_ALLOWED,
    ),
  };
}

/**
 * `initialConfig`: the options that shape the server with their defaults filled in, as Fastify
 * reports them (@fastify/multipart takes its default file size from `bodyLimit` there), plus
 * whatever else the factory was given.
 */
export function createInitialConfig(given: GivenOptions, normalized: NormalizedOptions): Readonly<Record<string, unknown>> {
  return Object.freeze({
    connectionTimeout: 0,
    keepAliveTimeout: 72_000,
    maxRequestsPerSocket: 0,
    requestTimeout: 0,
    bodyLimit: normalized.bodyLimit,
    caseSensitive: normalized.caseSensitive,
    allowUnsafeRegex: false,
    ignoreTrailingSlash: normalized.ignoreTrailingSlash,
    ignoreDuplicateSlashes: normalized.ignoreDuplicateSlashes,
    disableRequestLogging: normalized.disableRequestLogging,
    maxParamLength: normalized.maxParamLength,
    onProtoPoisoning: normalized.onProtoPoisoning,
    onConstructorPoisoning: normalized.onConstructorPoisoning,
    pluginTimeout: normalized.pluginTimeout,
    requestIdLogLabel: normalized.requestIdLogLabel,
    http2SessionTimeout: 72_000,
    exposeHeadRoutes: normalized.exposeHeadRoutes,
    handlerTimeout: normalized.handlerTimeout,
    useSemicolonDelimiter: normalized.useSemicolonDelimiter,
    ...given,
    // Normalized as Fastify reports it: '' and false are false, true is 'request-id'.
    requestIdHeader: normalized.requestIdHeader,
  });
}
