import { b64TokenPattern, type SchemeMatching, tokenPattern } from './authorization-header';
import {
  type BearerAuthError,
  createInvalidKeyFormatError,
  createInvalidKeysOptionError,
  createInvalidKeyTypeError,
  createInvalidOptionError,
  createInvalidSpecError,
} from './errors';
import type { BearerAuthRequest } from './host';

/**
 * Decides whether a presented token is accepted. Return `true` or `false`, or a promise of
 * one; anything else, a throw or a rejection answers 500 and never lets the request through.
 */
export type BearerAuthFunction = (key: string, request: BearerAuthRequest) => boolean | Promise<boolean>;

/** Options of `@enclavejs/bearer-auth`. Give `keys`, or `auth`, or both (then `auth` decides). */
export interface BearerAuthOptions {
  /** The accepted tokens. Required unless `auth` is given. Each must be an RFC 6750 `b64token`. */
  keys?: readonly string[] | ReadonlySet<string>;
  /** Your own check, called with the presented token; replaces `keys`. */
  auth?: BearerAuthFunction;
  /** The scheme name expected in the Authorization header and sent in WWW-Authenticate. Default `'Bearer'`. */
  bearerType?: string;
  /**
   * How the scheme name is matched: `'rfc6750'` (default) case-insensitively, as HTTP
   * defines auth-scheme; `'rfc6749'` exactly as `bearerType` is spelt.
   */
  specCompliance?: 'rfc6750' | 'rfc6749';
  /** Builds the body of a rejection from its error. Default `(error) => ({ error: error.message })`. */
  errorResponse?: (error: BearerAuthError) => unknown;
  /** The Content-Type of the rejection body, when it is not JSON. */
  contentType?: string;
  /**
   * `true` (default): protect every route of the registering context with an `onRequest`
   * hook. `false`: install no hook; decorate the instance with `verifyBearerAuth` instead.
   */
  addHook?: boolean;
}

/** The options after validation, with defaults applied and keys prepared. */
export interface ResolvedOptions {
  readonly keys: readonly string[];
  readonly auth: BearerAuthFunction | undefined;
  readonly bearerType: string;
  readonly schemeMatching: SchemeMatching;
  readonly errorResponse: (error: BearerAuthError) => unknown;
  readonly contentType: string | undefined;
  readonly addHook: boolean;
}

const defaultErrorResponse = (error: BearerAuthError): unknown => ({ error: error.message });

/** Validates the registration options, throwing a coded error that says what is wrong. */
export function resolveOptions(options: unknown): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw createInvalidOptionError('options', 'an object', options);
  }
  const given = options as Record<keyof BearerAuthOptions, unknown>;
  const auth = optional(given.auth, 'auth', 'a function', isFunction<BearerAuthFunction>);
  const specCompliance = given.specCompliance ?? 'rfc6750';
  if (specCompliance !== 'rfc6750' && specCompliance !== 'rfc6749') throw createInvalidSpecError(specCompliance);
  return {
    keys: resolveKeys(given.keys, auth !== undefined),
    auth,
    bearerType: optional(given.bearerType, 'bearerType', 'an HTTP auth-scheme name such as "Bearer"', isToken) ?? 'Bearer',
    schemeMatching: specCompliance === 'rfc6750' ? 'case-insensitive' : 'exact',
    errorResponse: optional(given.errorResponse, 'errorResponse', 'a function', isFunction<ResolvedOptions['errorResponse']>) ?? defaultErrorResponse,
    contentType: optional(given.contentType, 'contentType', 'a non-empty string', isNonEmptyString),
    addHook: optional(given.addHook, 'addHook', 'a boolean', isBoolean) ?? true,
  };
}

function resolveKeys(keys: unknown, hasAuth: boolean): string[] {
  if (keys === undefined && hasAuth) return [];
  if (!Array.isArray(keys) && !(keys instanceof Set)) throw createInvalidKeysOptionError();
  const list: unknown[] = [...keys];
  list.forEach((key, index) => {
    if (typeof key !== 'string') throw createInvalidKeyTypeError(index, key);
    // A key outside the b64token grammar could never be presented, so it is a mistake.
    if (!b64TokenPattern.test(key)) throw createInvalidKeyFormatError(index);
  });
  return list as string[];
}

function optional<Value>(value: unknown, name: string, expected: string, isValid: (value: unknown) => value is Value): Value | undefined {
  if (value === undefined) return undefined;
  if (!isValid(value)) throw createInvalidOptionError(name, expected, value);
  return value;
}

function isFunction<Callable extends Function>(value: unknown): value is Callable {
  return typeof value === 'function';
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isToken(value: unknown): value is string {
  return typeof value === 'string' && tokenPattern.test(value);
}
