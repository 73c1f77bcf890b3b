// The status an error is answered with by the default error handler, shared with the
// diagnostics channel, which must report that status before the error handlers run.
import { readSafely } from '../thrown-values.js';

/** Fastify's rule: a 4xx/5xx already set stays, else 500; an error's own 4xx/5xx wins. */
export function errorStatus(error: unknown, current: number): number {
  // A numeric string ('404') counts too: libraries set it either way.
  for (const key of ['statusCode', 'status']) {
    const status = Number(readSafely(error, key));
    if (Number.isInteger(status) && status >= 400 && status <= 599) return status;
  }
  return current >= 400 && current <= 599 ? current : 500;
}
