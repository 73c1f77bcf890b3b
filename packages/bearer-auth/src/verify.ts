import { readBearerToken } from './authorization-header';
import { createKeyMatcher } from './constant-time';
import { type BearerAuthError, createAuthFunctionError, createInvalidHeaderError, createMissingHeaderError } from './errors';
import type { BearerAuthHook, BearerAuthReply, BearerAuthRequest, VerifyBearerAuth } from './host';
import type { ResolvedOptions } from './options';

/** Decides one request: `undefined` when it may pass, else the error that answers it. */
export type CheckRequest = (request: BearerAuthRequest) => Promise<BearerAuthError | undefined>;

/**
 * Builds the request check from resolved options: header parsing, then either the
 * constant-time key match or the user's `auth` function.
 *
 * @example
 * const check = createRequestCheck(resolveOptions({ keys: ['k'] }));
 * await check(request) // undefined when `Authorization: Bearer k`
 */
export function createRequestCheck(options: ResolvedOptions): CheckRequest {
  const { auth, bearerType, schemeMatching } = options;
  const matchesKey = createKeyMatcher(options.keys);
  const accepts =
    auth === undefined
      ? async (token: string): Promise<boolean> => matchesKey(token)
      : async (token: string, request: BearerAuthRequest): Promise<boolean> => {
          const verdict: unknown = await auth(token, request);
          if (typeof verdict !== 'boolean') {
            throw new TypeError(`the auth function must return a boolean or a promise of one, got ${typeof verdict}`);
          }
          return verdict;
        };

  return async (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return createMissingHeaderError();
    const token = typeof header === 'string' ? readBearerToken(header, bearerType, schemeMatching) : undefined;
    if (token === undefined) return createInvalidHeaderError();
    try {
      return (await accepts(token, request)) ? undefined : createInvalidHeaderError();
    } catch (cause) {
      // A broken `auth` is a server fault: log it where operators look, never let it pass.
      const error = createAuthFunctionError(cause);
      request.log.error({ err: cause }, '@enclavejs/bearer-auth: the auth function failed');
      return error;
    }
  };
}

/**
 * Sets the status and headers of a rejection. RFC 6750 §3: a 401 carries a
 * WWW-Authenticate challenge; §3.1: a request with no credentials gets no error code,
 * a rejected token gets `error="invalid_token"`.
 */
function prepareRejection(reply: BearerAuthReply, error: BearerAuthError, options: ResolvedOptions): void {
  reply.code(error.statusCode);
  if (error.statusCode === 401) {
    const isMissing = error.code === 'FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER';
    reply.header('www-authenticate', isMissing ? options.bearerType : `${options.bearerType} error="invalid_token"`);
  }
}

/**
 * The `onRequest` hook installed when `addHook` is true: answers a rejected request itself
 * with the `errorResponse` body, which ends the request before routing work continues.
 */
export function createBearerAuthHook(check: CheckRequest, options: ResolvedOptions): BearerAuthHook {
  return async (request, reply) => {
    const error = await check(request);
    if (error === undefined) return;
    prepareRejection(reply, error, options);
    if (options.contentType !== undefined) reply.header('content-type', options.contentType);
    reply.send(options.errorResponse(error));
    return reply;
  };
}

/**
 * The `verifyBearerAuth` decorator installed when `addHook` is false: reports a rejection
 * through `done(error)` instead of answering, so the route's error handler (or a helper
 * that tries several checks in turn) decides what happens next.
 */
export function createVerifyBearerAuth(check: CheckRequest, options: ResolvedOptions): VerifyBearerAuth {
  return (request, reply, done) => {
    void check(request).then((error) => {
      if (error === undefined) return done();
      prepareRejection(reply, error, options);
      done(error);
    });
  };
}
