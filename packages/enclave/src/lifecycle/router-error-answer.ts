// The answers Fastify writes itself, before any route, byte for byte: its router's errors (a
// malformed URL, an over-long parameter, a failing constraint strategy) and its 503 while closing. Fastify sends them with
// `content-type: application/json` (no charset) and the keys in the order error, code, message,
// statusCode, unlike its error handler's answers. Clients and snapshot tests compare those bytes,
// so Enclave's default answers are the same ones (issue 32). Enclave still lets the router's
// errors reach the error handlers (docs/differences.md): only the default answer is fixed.

/** The content type of these answers (Fastify's, without a charset). */
export const FIXED_ANSWER_TYPE = 'application/json';

/** Errors the router raised for a request, as opposed to the same codes thrown by a handler. */
const routerErrors = new WeakSet<object>();

/** Records `error` as the router's own, so the default error handler answers it as Fastify does. */
export function markRouterError<T>(error: T): T {
  if (error !== null && typeof error === 'object') routerErrors.add(error);
  return error;
}

/** Whether `error` is one the router raised (see markRouterError). */
export function isRouterError(error: unknown): boolean {
  return error !== null && typeof error === 'object' && routerErrors.has(error);
}

/** Fastify's body for a router error: `{ error, code, message, statusCode }`, in that order. */
export function routerErrorBody(body: { statusCode: number; code: string | undefined; error: string | undefined; message: string }): string {
  return JSON.stringify({ error: body.error, code: body.code, message: body.message, statusCode: body.statusCode });
}

/** Fastify's 503 while closing, written before any route runs. */
export const CLOSING_BODY = '{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}';

/** Fastify's 500 when a constraint strategy's derivation failed (no route, no error handler owns it). */
export const ASYNC_CONSTRAINT_BODY = '{"error":"Internal Server Error","message":"Unexpected error from async constraint","statusCode":500}';
