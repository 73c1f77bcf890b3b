import { type EnclaveError, errorCodes } from '../errors.js';
import { describeThrown, isErrorValue, readSafely } from '../thrown-values.js';
import type { HttpPart, SchemaErrorFormatter, SchemaValidationIssue } from './contracts.js';
import type { ValidationIssue } from '../types/errors.js';

/**
 * The default schema error formatter: one `<part><instancePath> <message>` per error, joined
 * with ', ', e.g. `body must have required property 'name'` or `querystring/limit must be integer`.
 *
 * @example
 * defaultSchemaErrorFormatter([{ instancePath: '/limit', message: 'must be integer' }], 'querystring').message
 * // 'querystring/limit must be integer'
 */
export const defaultSchemaErrorFormatter: SchemaErrorFormatter = function defaultSchemaErrorFormatter(errors, dataVar) {
  let message = '';
  for (const error of errors) {
    if (message !== '') message += ', ';
    // Ajv's errors, or whatever a validator of the user's own put in `.errors`.
    const fields: { instancePath?: unknown; message?: unknown } = typeof error === 'object' && error !== null ? error : {};
    const path = typeof fields.instancePath === 'string' ? fields.instancePath : '';
    const text = typeof fields.message === 'string' ? fields.message : String(error);
    message += `${dataVar}${path} ${text}`;
  }
  const error = errorCodes.FST_ERR_VALIDATION(message === '' ? `${dataVar} is not valid` : message);
  // Fastify's default formatter makes a plain Error, and code that prints a validation error
  // (`'Invalid: ' + error`) shows 'Error: …' there; `instanceof errorCodes.FST_ERR_VALIDATION` still holds.
  Object.defineProperty(error, 'name', { value: 'Error', writable: true, configurable: true });
  return error;
};

/**
 * Checks a schema error formatter: it must be a function and must not be async, because the
 * validation step needs its Error synchronously. Throws `FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN`.
 *
 * @example
 * assertSchemaErrorFormatter(async () => new Error('x')) // throws
 */
export function assertSchemaErrorFormatter(formatter: unknown): asserts formatter is SchemaErrorFormatter {
  if (typeof formatter !== 'function') throw errorCodes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN(typeof formatter);
  if (formatter.constructor?.name === 'AsyncFunction') throw errorCodes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN('AsyncFunction');
}

// A formatter that breaks its contract is a server bug, not a client one: answer 500 and say
// what went wrong, rather than send whatever the formatter produced.
function formatterContractError(detail: string, cause?: unknown): Error {
  const error = new Error(`The schema error formatter must return an Error; ${detail}`, { cause }) as EnclaveError;
  error.statusCode = 500;
  return error;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const name = readSafely(readSafely(value, 'constructor'), 'name');
    return typeof name === 'string' ? name : 'object';
  }
  return typeof value;
}

/**
 * Builds the Error of a failed part from raw Ajv-style errors: runs the formatter with the route
 * context's instance as `this`, then marks its result with `statusCode` 400 and `code`
 * `FST_ERR_VALIDATION` (unless the formatter chose them), `validation` and `validationContext`.
 *
 * @example
 * createValidationError(defaultSchemaErrorFormatter, app, validate.errors, 'body')
 */
export function createValidationError(formatter: SchemaErrorFormatter, instance: unknown, errors: unknown[], part: HttpPart): Error {
  let error: unknown;
  try {
    // What the validator reported: Ajv's shape, as Fastify types the formatter's argument.
    error = formatter.call(instance, errors as SchemaValidationIssue[], part);
  } catch (thrown) {
    // An Error it throws answers like any thrown error (a 500 unless it says otherwise, with its
    // own message, as in Fastify); another thrown value cannot, so it is described instead.
    return isErrorValue(thrown) ? thrown : formatterContractError(`it threw: ${describeThrown(thrown)}`, thrown);
  }
  if (!isErrorValue(error)) return formatterContractError(`it returned ${describe(error)}`);
  return markValidationError(error, errors, part);
}

/**
 * Marks an Error as the validation failure of `part`, keeping what it already says: validation
 * libraries that return their own Error (`{ error }`) keep their class, message and details.
 */
export function markValidationError(error: Error, errors: unknown, part: HttpPart): Error {
  const marked = error as EnclaveError;
  try {
    marked.statusCode ??= 400;
    marked.code ??= 'FST_ERR_VALIDATION';
    // The raw issues of whichever validator failed (a custom compiler's may have another shape);
    // typed as Ajv's issues, as Fastify types them.
    marked.validation ??= errors as ValidationIssue[];
    marked.validationContext ??= part;
    return marked;
  } catch (cause) {
    // An Error that cannot be read or marked (throwing getters, frozen): a fresh one says the same.
    const fresh = errorCodes.FST_ERR_VALIDATION(describeThrown(error)) as EnclaveError;
    return Object.assign(fresh, { validation: errors, validationContext: part, cause });
  }
}
