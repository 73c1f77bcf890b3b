/** An error raised by the plugin: a stable `code` to test for and the HTTP status it stands for. */
export interface BearerAuthError extends Error {
  readonly code: string;
  readonly statusCode: number;
}

function createError(code: string, message: string, statusCode: number, cause?: unknown): BearerAuthError {
  const error = new Error(message, cause === undefined ? undefined : { cause }) as Error & {
    code: string;
    statusCode: number;
  };
  error.name = 'BearerAuthError';
  error.code = code;
  error.statusCode = statusCode;
  return error;
}

// Option errors are thrown at registration, so `ready()` fails and names the plugin. The
// codes follow the `FST_BEARER_AUTH_*` names users of the Fastify plugin already test for.

/** `keys` is missing (and there is no `auth`), or is neither an array nor a Set. */
export function createInvalidKeysOptionError(): BearerAuthError {
  return createError(
    'FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE',
    '@enclavejs/bearer-auth: option "keys" must be an array or a Set of strings (or give an "auth" function instead)',
    500,
  );
}

/** An entry of `keys` is not a string. */
export function createInvalidKeyTypeError(index: number, value: unknown): BearerAuthError {
  return createError(
    'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE',
    `@enclavejs/bearer-auth: every entry of option "keys" must be a string; entry ${index} is ${describe(value)}`,
    500,
  );
}

/** An entry of `keys` could never be sent as a bearer token (RFC 6750 section 2.1 `b64token`). */
export function createInvalidKeyFormatError(index: number): BearerAuthError {
  return createError(
    'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_FORMAT',
    `@enclavejs/bearer-auth: entry ${index} of option "keys" is not a valid bearer token ` +
      '(RFC 6750 b64token: one or more of A-Z a-z 0-9 - . _ ~ + /, then optional trailing "=")',
    500,
  );
}

/** `specCompliance` is not one of the supported values. */
export function createInvalidSpecError(value: unknown): BearerAuthError {
  return createError(
    'FST_BEARER_AUTH_INVALID_SPEC',
    `@enclavejs/bearer-auth: option "specCompliance" must be 'rfc6750' or 'rfc6749', got ${describe(value)}`,
    500,
  );
}

/** Any other option has the wrong type or form. */
export function createInvalidOptionError(name: string, expected: string, value: unknown): BearerAuthError {
  return createError('FST_BEARER_AUTH_INVALID_OPTION', `@enclavejs/bearer-auth: option "${name}" must be ${expected}, got ${describe(value)}`, 500);
}

// Request-time errors. Their messages are the response bodies' `error` field by default.

/** The request has no Authorization header. */
export function createMissingHeaderError(): BearerAuthError {
  return createError('FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER', 'missing authorization header', 401);
}

/** The Authorization header is malformed, uses another scheme, or carries an unknown token. */
export function createInvalidHeaderError(): BearerAuthError {
  return createError('FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER', 'invalid authorization header', 401);
}

/**
 * The `auth` function threw, rejected or returned something other than a boolean. The
 * message stays generic because it may reach the client; the real failure is the `cause`.
 */
export function createAuthFunctionError(cause: unknown): BearerAuthError {
  return createError('FST_BEARER_AUTH_AUTH_FUNCTION_FAILED', 'internal server error', 500, cause);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'object' ? `an object (${Object.prototype.toString.call(value)})` : typeof value;
}
