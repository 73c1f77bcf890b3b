// The error types users read in error handlers and hooks. Bottom floor: imports no other type file.
import type { FastifyError as ErrorOfFastifyErrorPackage } from '@fastify/error';

// One `FastifyError`: @fastify/error's, which Fastify's types, plugins' types and applications
// (`import { FastifyError } from '@fastify/error'`) all name. Enclave adds the validation fields,
// as Fastify does, so an error typed as either package's `FastifyError` is the same type.
declare module '@fastify/error' {
  interface FastifyError {
    /** The raw issues, present on `FST_ERR_VALIDATION` (Ajv's error objects fit). */
    validation?: FastifySchemaValidationError[];
    /** Which request part failed validation. */
    validationContext?: ValidationContext;
  }
}

/**
 * Fastify's name for a coded error (@fastify/error's interface, with the validation fields):
 * `statusCode` is optional, as an error a handler throws need not carry one; hooks and route error
 * handlers see errors as thrown.
 */
export type FastifyError = ErrorOfFastifyErrorPackage;

/** One raw validation issue (Ajv's shape; `ajv-i18n` and `ajv-errors` work on these). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  [detail: string]: unknown;
}

/** Which request part failed validation. */
export type ValidationContext = 'body' | 'params' | 'querystring' | 'headers';

/**
 * An error raised by Enclave: a stable `code` to test for, the HTTP status it answers with and
 * Fastify's message for that code; `hint` carries Enclave's longer explanation of a developer
 * error. Validation errors also carry the raw issues and the part that failed. A `FastifyError`
 * whose `statusCode` is always set (what Enclave's own errors guarantee).
 *
 * @example
 * ```ts
 * app.setErrorHandler((error, request, reply) => {
 *   if (error.validation) return reply.code(422).send({ part: error.validationContext, issues: error.validation });
 *   return reply.send(error);
 * });
 * ```
 */
export interface EnclaveError extends ErrorOfFastifyErrorPackage {
  code: string;
  statusCode: number;
  /** What went wrong where and what to do, beyond Fastify's message (developer errors; printed with the error). */
  hint?: string;
  /** The raw issues, present on `FST_ERR_VALIDATION`. */
  validation?: ValidationIssue[];
  validationContext?: ValidationContext;
}

/** Fastify's name for one validation issue. */
export interface FastifySchemaValidationError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}
