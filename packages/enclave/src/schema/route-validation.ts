import { errorCodes } from '../errors.js';
import { isAjvValidator } from './cached-validators.js';
import { describeThrown, isErrorValue, readSafely } from '../thrown-values.js';
import type { HttpPart, SchemaErrorFormatter, ValidatableRequest, ValidationFunction, ValidatorCompiler } from './contracts.js';
import { createValidationError, markValidationError } from './error-formatter.js';
import { type NormalizedRouteSchema, REQUEST_PROPERTY_OF_PART } from './normalize-schema.js';

/** The validate function of one route: an Error, undefined when valid, a promise for `$async`. */
export type RouteValidateFunction = (request: ValidatableRequest, mediaType: string | undefined) => Error | undefined | Promise<Error | undefined>;

/** What `compileRouteValidation` needs from the route and its context. */
export interface RouteValidationInput {
  method: string;
  url: string;
  schema: NormalizedRouteSchema;
  compiler: ValidatorCompiler;
  formatter: SchemaErrorFormatter;
  /** `this` of the formatter: the instance of the route's context. */
  instance: unknown;
}

/** A compiled validator and whether it is Ajv's (decided at ready, not with an `in` check per request). */
interface PartValidator {
  validate: ValidationFunction;
  ajv: boolean;
}

// One validated part, resolved at ready. `validator` is null for a body with a content map, whose
// validator is chosen per request by media type.
interface CompiledPart {
  part: HttpPart;
  property: keyof ValidatableRequest;
  validator: PartValidator | null;
  byMediaType: Map<string, PartValidator> | null;
}

interface RunContext {
  parts: CompiledPart[];
  formatter: SchemaErrorFormatter;
  instance: unknown;
}

/**
 * The order parts are validated in: params, body, querystring, headers (Fastify's order, so a
 * request wrong in several parts reports the same part under both frameworks).
 */
export const VALIDATION_ORDER: readonly HttpPart[] = ['params', 'body', 'querystring', 'headers'];

/**
 * Compiles every part of one route and returns its validate function, or null when the route
 * validates nothing. All compiling happens here, at ready; a schema that cannot be compiled (a
 * `$ref` not visible in the route's context, a compiler that throws or returns no function)
 * throws `FST_ERR_SCH_VALIDATION_BUILD` naming the method, url and part.
 *
 * On the request path the returned function walks a precomputed list of parts and allocates
 * nothing when the request is valid.
 *
 * @example
 * const validate = compileRouteValidation({ method: 'POST', url: '/', schema, compiler, formatter, instance: app })
 * const error = validate?.(request, 'application/json')
 */
export function compileRouteValidation(input: RouteValidationInput): RouteValidateFunction | null {
  const parts: CompiledPart[] = [];
  for (const part of VALIDATION_ORDER) {
    const property = REQUEST_PROPERTY_OF_PART[part];
    if (part === 'body') {
      const body = input.schema.body;
      if (body === undefined) continue;
      if (body.kind === 'single') {
        parts.push({ part, property, validator: compilePart(input, part, body.schema), byMediaType: null });
      } else {
        const byMediaType = new Map<string, PartValidator>();
        for (const [mediaType, schema] of body.byMediaType) byMediaType.set(mediaType, compilePart(input, part, schema));
        parts.push({ part, property, validator: null, byMediaType });
      }
      continue;
    }
    const schema = input.schema[part];
    if (schema !== undefined) parts.push({ part, property, validator: compilePart(input, part, schema), byMediaType: null });
  }
  if (parts.length === 0) return null;
  const context: RunContext = { parts, formatter: input.formatter, instance: input.instance };
  return (request, mediaType) => runParts(context, request, mediaType, 0);
}

function compilePart(input: RouteValidationInput, part: HttpPart, schema: unknown): PartValidator {
  let validate: unknown;
  try {
    validate = input.compiler({ schema, method: input.method, url: input.url, httpPart: part });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new errorCodes.FST_ERR_SCH_VALIDATION_BUILD(input.method, input.url, reason, `${part} schema`, { cause: error });
  }
  if (typeof validate !== 'function') {
    throw new errorCodes.FST_ERR_SCH_VALIDATION_BUILD(
      input.method,
      input.url,
      `the validator compiler returned ${typeof validate}, not a function`,
      `${part} schema`,
    );
  }
  return { validate: validate as ValidationFunction, ajv: isAjvValidator(validate) };
}

// A request body's media type picks its schema: the exact essence, then `type/*`, then `*/*`.
function selectByMediaType(byMediaType: Map<string, PartValidator>, mediaType: string | undefined): PartValidator | undefined {
  if (mediaType === undefined) return byMediaType.get('*/*');
  const exact = byMediaType.get(mediaType);
  if (exact !== undefined) return exact;
  const slash = mediaType.indexOf('/');
  return (slash === -1 ? undefined : byMediaType.get(`${mediaType.slice(0, slash)}/*`)) ?? byMediaType.get('*/*');
}

/**
 * Ajv coerces a root primitive (`"10"` for `type: 'integer'`) only into a parent it is handed,
 * so an Ajv validator gets the request as the parent of the part, as in Fastify; other
 * libraries' functions get the data alone.
 */
function callValidator(validate: ValidationFunction, ajv: boolean, data: unknown, request: ValidatableRequest, property: keyof ValidatableRequest): unknown {
  if (!ajv) return validate(data);
  return (validate as (data: unknown, context: { parentData: object; parentDataProperty: string }) => unknown)(data, {
    parentData: request,
    parentDataProperty: property,
  });
}

/**
 * The part's value, read by name: `request[property]` with a different property per part is a
 * megamorphic keyed load (~120 instructions a part); four named loads are each monomorphic.
 */
function readPart(request: ValidatableRequest, property: keyof ValidatableRequest): unknown {
  switch (property) {
    case 'params':
      return request.params;
    case 'body':
      return request.body;
    case 'query':
      return request.query;
    default:
      return request.headers;
  }
}

function runParts(
  context: RunContext,
  request: ValidatableRequest,
  mediaType: string | undefined,
  start: number,
): Error | undefined | Promise<Error | undefined> {
  const { parts } = context;
  for (let index = start; index < parts.length; index++) {
    const entry = parts[index]!;
    const validator = entry.validator ?? selectByMediaType(entry.byMediaType!, mediaType);
    // A content map lists the media types the route accepts; any other body is refused rather
    // than passed on unvalidated (SPEC §6.1).
    if (validator === undefined)
      return Object.assign(errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), { cause: `no schema for ${mediaType ?? '(no Content-Type)'}` });
    const { validate } = validator;
    let result: unknown;
    // A missing part is validated as `null`, as in Fastify: a nullable body schema accepts a
    // request without a body (which stays undefined), a plain `type: 'object'` refuses it.
    const value = readPart(request, entry.property);
    try {
      result = callValidator(validate, validator.ajv, value === undefined ? null : value, request, entry.property);
    } catch (thrown) {
      return failureFromThrown(context, entry, thrown);
    }
    // The Ajv fast path: a valid part costs one call and one comparison.
    if (result === true) continue;
    const outcome = settleResult(context, entry, validate, request, result);
    if (outcome === undefined) continue;
    if (outcome instanceof Promise) {
      const next = index + 1;
      return outcome.then((error) => error ?? runParts(context, request, mediaType, next));
    }
    return outcome;
  }
  return undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

// Reads what a validation function returned: Ajv's boolean (errors on `.errors`), another
// library's `{ error }` or `{ value }`, or a promise of any of these.
function settleResult(
  context: RunContext,
  entry: CompiledPart,
  validate: ValidationFunction,
  request: ValidatableRequest,
  result: unknown,
): Error | undefined | Promise<Error | undefined> {
  if (result === false) return createValidationError(context.formatter, context.instance, validate.errors ?? [], entry.part);
  if (isThenable(result)) {
    // An Ajv `$async` validator resolves with the data it already coerced in place; its result
    // is not a `{ value }` envelope, even when the data has a `value` property.
    const isAjvAsync = (validate as { $async?: unknown }).$async === true;
    return Promise.resolve(result).then(
      (resolved) => (isAjvAsync ? undefined : resolvable(settleSyncResult(context, entry, validate, request, resolved))),
      (thrown: unknown) => resolvable(failureFromThrown(context, entry, thrown)),
    );
  }
  return settleSyncResult(context, entry, validate, request, result);
}

function settleSyncResult(
  context: RunContext,
  entry: CompiledPart,
  validate: ValidationFunction,
  request: ValidatableRequest,
  result: unknown,
): Error | undefined {
  if (result === false) return createValidationError(context.formatter, context.instance, validate.errors ?? [], entry.part);
  if (typeof result !== 'object' || result === null) return undefined;
  const envelope = result as { error?: unknown; value?: unknown };
  if (envelope.error !== undefined && envelope.error !== null && envelope.error !== false) {
    return failureFromLibraryError(context, entry, envelope.error);
  }
  if ('value' in envelope) request[entry.property] = envelope.value;
  return undefined;
}

/**
 * An Error a promise can resolve with. Resolving reads `then`: an Error whose `then` getter throws
 * (or is a function) would turn into whatever that does, so it is replaced by a plain
 * FST_ERR_VALIDATION saying the same (issue 17: the error path reads thrown values guarded).
 */
function resolvable(error: Error | undefined): Error | undefined {
  if (error === undefined) return undefined;
  let then: unknown;
  try {
    then = (error as { then?: unknown }).then;
  } catch {
    then = null;
  }
  if (then === undefined) return error;
  return Object.assign(errorCodes.FST_ERR_VALIDATION(describeThrown(error)), { cause: error });
}

function failureFromThrown(context: RunContext, entry: CompiledPart, thrown: unknown): Error {
  // Ajv's ValidationError (from `$async` schemas) answers as itself, as in Fastify: its message
  // ('validation failed') with its raw errors as `validation`. Raw errors thrown bare are formatted.
  const errors = readSafely(thrown, 'errors');
  if (Array.isArray(errors)) {
    if (!isErrorValue(thrown)) return createValidationError(context.formatter, context.instance, errors, entry.part);
    // Ajv sets `validation: true` on it; the raw errors are what error handlers read there.
    if (readSafely(thrown, 'validation') === true) {
      try {
        Reflect.set(thrown, 'validation', errors);
      } catch {
        // A setter that throws leaves Ajv's `true`; the error still answers.
      }
    }
    return markValidationError(thrown, errors, entry.part);
  }
  return failureFromLibraryError(context, entry, thrown);
}

function failureFromLibraryError(context: RunContext, entry: CompiledPart, error: unknown): Error {
  if (Array.isArray(error)) return createValidationError(context.formatter, context.instance, error, entry.part);
  if (isErrorValue(error)) {
    // A library's own Error keeps its class and message (users match on them); its details, when
    // it has them, become `validation`. Thrown values are read guarded (issue 17).
    const details = readSafely(error, 'details');
    return markValidationError(error, Array.isArray(details) ? details : [{ instancePath: '', message: describeThrown(error) }], entry.part);
  }
  const raw = typeof error === 'object' && error !== null ? error : { instancePath: '', message: describeThrown(error) };
  return createValidationError(context.formatter, context.instance, [raw], entry.part);
}
