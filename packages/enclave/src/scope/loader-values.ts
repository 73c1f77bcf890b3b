// How the plugin loader reads the values it is handed: what a value passed to `done` (or thrown,
// or rejected) means, and how to name, in a message, something that is not what it should be.
import { attachHint, errorCodes } from '../errors.js';

/**
 * Whether a value passed to a plugin's or an `after` callback's `done` means success: only none
 * (`undefined`, `null`) does. `0`, `false` and `''` are failures, as for hooks (a documented
 * difference from Fastify): Fastify's loader takes them for success, so a plugin that reports its
 * failure that way boots half set up.
 */
export function isSuccess(value: unknown): boolean {
  return value === undefined || value === null;
}

/**
 * A failure as an Error: an Error as it is, anything else (`0`, `''`, a string, `undefined`) a
 * coded error saying who failed with what.
 */
export function toError(value: unknown, who = 'A plugin'): Error {
  if (value instanceof Error) return value;
  const error = new errorCodes.FST_ERR_PLUGIN_NOT_VALID(`${who} failed with a non-Error value: ${describe(value)}`);
  if (value === 0 || value === false || value === '') {
    attachHint(
      error,
      `0, false and '' passed to done, thrown or rejected are failures in Enclave (Fastify's loader lets one passed to done or rejected count as success): call done() or done(null) to succeed, done(new Error('…')) to fail`,
    );
  }
  return error;
}

/** How Fastify's loader names what a plugin is when it is none: 'array', 'null' or its type. */
export function kindOf(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

/** A value in words, for messages: `null`, `an array`, `the string 'x'`, `number 0`, … */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string '${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (typeof value === 'object' && 'default' in value) return `a module whose default export is ${describe(value.default)}`;
  return typeof value;
}
