// The machinery of coded errors: one constructor per code, Fastify's message with its '%s'
// slots filled, the hint from error-hints.ts, and @fastify/error's instanceof marks.
import { format } from 'node:util';
import { errorHints } from './error-hints.js';
import type { EnclaveError } from './types/errors.js';

// One declaration of Enclave's error type, the public one (a FastifyError whose status is set), so
// that `errorCodes`' constructors build what @fastify/error's `FastifyErrorConstructor` describes.
export type { EnclaveError } from './types/errors.js';

/** The constructor of one coded error; `new ErrorCodes.X(...args)` fills the `%s` slots. */
export interface CodedErrorConstructor {
  new (...args: unknown[]): EnclaveError;
  (...args: unknown[]): EnclaveError;
  readonly prototype: EnclaveError;
  readonly code: string;
  readonly statusCode: number;
}

/**
 * Fills a hint template's `{0}`, `{1}`… with the arguments the error was raised with. The hint may
 * use arguments past the message's `%s` slots: a throw site passes Fastify's arguments first,
 * then what only the explanation needs. Without one of them (an application raising
 * `new errorCodes.X(name)` itself) there is no hint rather than a hint with holes.
 */
function fillHint(template: string, args: readonly unknown[]): string | undefined {
  let complete = true;
  const hint = template.replace(/\{(\d+)\}/g, (_, index: string) => {
    const value = args[Number(index)];
    if (value === undefined) complete = false;
    return format('%s', value);
  });
  return complete ? hint : undefined;
}

/**
 * Gives `error` Enclave's explanation as an own, enumerable `hint`: `util.inspect` (and so
 * `console.error` and an uncaught error's printout) and pino's error serializer show the
 * enumerable properties of an error, while `message` stays the text tests and plugins compare.
 */
export function attachHint<E extends Error>(error: E, hint: string): E & { hint: string } {
  return Object.assign(error, { hint });
}

function hasCause(value: unknown): value is { cause: unknown } {
  return value !== null && typeof value === 'object' && 'cause' in value;
}

/**
 * @fastify/error answers `instanceof` by marks on an error's prototype (its `Symbol.hasInstance`
 * reads them), a global-registry protocol like fastify-plugin's: this one makes `error instanceof
 * FastifyError`, and `instanceof` any class it created for the same code (the real `fastify`'s
 * errorCodes too), true for Enclave's errors, with no dependency on it.
 */
const kFastifyErrorGeneric = Symbol.for('fastify-error-generic');
const fastifyErrorMark = (code: string): symbol => Symbol.for(`fastify-error ${code}`);

export function createCodedError(code: string, template: string, statusCode = 500, Base: ErrorConstructor = Error): CodedErrorConstructor {
  const slots = template.match(/%[sdifjoOc]/g)?.length ?? 0;
  const hint = (errorHints as Record<string, string | undefined>)[code];
  // A plain function so that it works with and without `new`, like the errors plugins expect.
  function CodedError(this: unknown, ...args: unknown[]): EnclaveError {
    // A last `{ cause }` argument is the cause, as with @fastify/error.
    const last = args.at(-1);
    const options = hasCause(last) ? { cause: last.cause } : undefined;
    if (options !== undefined) args = args.slice(0, -1);
    // Fastify's text with Fastify's arguments; whatever follows them is for the hint only.
    const message = format(template, ...args.slice(0, slots));
    const error = Object.setPrototypeOf(new Base(message, options), CodedError.prototype) as EnclaveError;
    error.code = code;
    error.statusCode = statusCode;
    const filled = hint === undefined ? undefined : fillHint(hint, args);
    if (filled !== undefined) attachHint(error, filled);
    Error.captureStackTrace?.(error, CodedError);
    return error;
  }
  CodedError.prototype = Object.create(Base.prototype, {
    // Fastify's name for its coded errors: tests compare errors with assert.throws(fn, new
    // FastifyError(...)), which checks `name` as well as `message`.
    name: { value: 'FastifyError', writable: true, configurable: true },
    constructor: { value: CodedError, writable: true, configurable: true },
    [kFastifyErrorGeneric]: { value: true },
    [fastifyErrorMark(code)]: { value: true },
  });
  Object.defineProperties(CodedError, {
    code: { value: code },
    statusCode: { value: statusCode },
    name: { value: code },
  });
  return CodedError as unknown as CodedErrorConstructor;
}
