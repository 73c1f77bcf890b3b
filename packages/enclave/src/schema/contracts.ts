// The contract between the core (scope/, lifecycle/) and the schema modules. The core only
// talks to a SchemaController; everything Ajv- or fast-json-stringify-specific stays in schema/.

/** The request parts a route schema can validate. */
export type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

/** What a validator compiler is handed for one part of one route. */
export interface ValidatorCompilerInput {
  // any: a user's compiler names its own schema type (a Zod or TypeBox schema), as in Fastify.
  schema: any;
  method: string;
  url: string;
  httpPart: HttpPart;
}

/**
 * A compiled validation function. Ajv style: returns true/false and keeps `.errors`;
 * other libraries: return `{ value }` (which replaces the part's data) or `{ error }`.
 */
export type ValidationFunction = Signatures['validate'] & { errors?: unknown[] | null | undefined };

export type ValidatorCompiler = (input: ValidatorCompilerInput) => ValidationFunction;

/** What a serializer compiler is handed for one response schema. */
export interface SerializerCompilerInput {
  // any: a user's compiler names its own schema type, as in Fastify.
  schema: any;
  method: string;
  url: string;
  httpStatus: string;
  /** Absent for a response schema without a content map (Fastify's type has no `undefined` here). */
  contentType?: string;
}

export type SerializeFunction = Signatures['serialize'];

/**
 * Method signatures, so that their parameter is compared both ways: a validator or serializer
 * written for its own data type (`(data: User) => string`) fits, as with Fastify's `any`, while
 * Enclave's own code hands them `unknown`.
 */
interface Signatures {
  validate(data: unknown): unknown;
  serialize(data: unknown): string;
}
export type SerializerCompiler = (input: SerializerCompilerInput) => SerializeFunction;

/** Builds the Error for failed validation; called with the instance of the route's context as `this`. */
export type SchemaErrorFormatter = (errors: SchemaValidationIssue[], dataVar: string) => Error;

/** One validation failure, as Ajv reports it (Fastify's `FastifySchemaValidationError`). */
export interface SchemaValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** The mutable request parts that validation reads and may replace (coercion, defaults, `{ value }`). */
export interface ValidatableRequest {
  body: unknown;
  query: unknown;
  params: unknown;
  headers: unknown;
}

/** The route fields the schema controller compiles at ready. */
export interface RouteSchemaInput {
  method: string;
  url: string;
  schema?: Record<string, unknown> | undefined;
  validatorCompiler?: ValidatorCompiler | undefined;
  serializerCompiler?: SerializerCompiler | undefined;
  /** Defaults to the compiler set on the context. */
  schemaErrorFormatter?: SchemaErrorFormatter | undefined;
}

/** Everything schema-related one route needs on the request path, built once at ready. */
export interface CompiledRouteSchemas {
  /**
   * Validates params, body (for every method but GET, HEAD and TRACE), querystring and headers, in that order, in
   * place. Returns the formatted validation Error (with `validation`, `validationContext`,
   * `statusCode` 400, `code` FST_ERR_VALIDATION) or undefined. A promise only for `$async`
   * schemas. `mediaType` is the parsed essence of the request's Content-Type (the same parse the
   * body parser used), for `body: { content: { ... } }` maps. Null when the route validates nothing.
   */
  validate: ((request: ValidatableRequest, mediaType: string | undefined) => Error | undefined | Promise<Error | undefined>) | null;
  /**
   * The serializer for a reply's status code and content type (exact status, then `Nxx`, then
   * `default`; `content` maps by media type with `*\/*` as catch-all). Null when the route has no
   * response schema.
   */
  serializerFor: ((statusCode: number, contentType: string | undefined) => SerializeFunction | undefined) | null;
}
