// Thrown values, read without trusting them. Anything can be thrown: an Error whose getters
// throw, a revoked Proxy (every operation on it throws), an object without a prototype, a Symbol,
// or nothing at all. The request path reads such values only through these helpers, so it cannot
// itself throw and take the process down (issue 17); what cannot be read counts as absent.
import { errorCodes } from './errors.js';

/** `value[key]`, or `undefined` when the read throws (a hostile getter, a revoked Proxy). */
export function readSafely(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** `value instanceof Error`, false when even that throws (a revoked Proxy's prototype). */
export function isErrorValue(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/**
 * What a hook's failure becomes. Every value a hook throws or passes to `done` is an error, `0`,
 * `false` and `''` included (they used to slip through a truthiness check and let the handler
 * run); only a missing value (`throw undefined`, `throw null`) has nothing to show, so it
 * becomes FST_ERR_SEND_UNDEFINED_ERR.
 */
export function thrownAsError(thrown: unknown): unknown {
  return thrown === undefined || thrown === null ? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR() : thrown;
}

/**
 * A rejection without a truthy reason says nothing about what failed: like Fastify, it becomes
 * FST_ERR_SEND_UNDEFINED_ERR (a 500), and is never mistaken for success.
 */
export function rejectionAsError(rejected: unknown): unknown {
  return rejected ? rejected : new errorCodes.FST_ERR_SEND_UNDEFINED_ERR();
}

/** Words for a thrown value in a message: its message when it is an Error, else its text. */
export function describeThrown(value: unknown): string {
  if (isErrorValue(value)) {
    const message = readSafely(value, 'message');
    if (typeof message === 'string') return message;
  }
  try {
    return String(value);
  } catch {
    // A null-prototype object has no toString; a revoked Proxy refuses every operation.
    return 'a value that cannot be read';
  }
}
