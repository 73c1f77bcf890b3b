import { errorCodes, invalidOption } from '../errors.js';
import { type AjvFactoryOptions, readAjvFactoryOptions } from './ajv-factory.js';
import type { SchemaErrorFormatter, SerializerCompiler } from './contracts.js';
import { assertSchemaErrorFormatter } from './error-formatter.js';
import { isPlainObject } from './normalize-schema.js';
import { createDefaultSerializerCompilerFactory } from './response-serializers.js';
import type { SchemaBucketFactory } from './shared-schemas.js';
import type { SchemaCache } from './schema-cache.js';
import { createDefaultValidatorBuilder, type ValidatorCompilerBuilder } from './validator-compiler.js';

/**
 * Builds a serializer compiler for one set of visible shared schemas; the shape of Fastify's
 * `schemaController.compilersFactory.buildSerializer`.
 */
export type SerializerCompilerBuilder = (sharedSchemas: Record<string, unknown>, serializerOpts?: Record<string, unknown>) => SerializerCompiler;

/**
 * The `schemaController` factory option, under the names Fastify 5 documents: `bucket` replaces
 * where shared schemas are stored, `compilersFactory` replaces how validators and serializers are
 * built (for example to bring your own Ajv instance).
 *
 * @example
 * enclave({ schemaController: { compilersFactory: { buildValidator: (schemas) => ({ schema }) => myAjv.compile(schema) } } })
 */
export interface SchemaControllerFactoryOption {
  bucket?: SchemaBucketFactory;
  compilersFactory?: {
    buildValidator?: ValidatorCompilerBuilder;
    buildSerializer?: SerializerCompilerBuilder;
  };
}

/** The factory options, checked once and shared by every controller of one application. */
export interface SchemaControllerSettings {
  ajvOptions: AjvFactoryOptions;
  serializerOpts: Record<string, unknown> | undefined;
  schemaErrorFormatter: SchemaErrorFormatter | undefined;
  bucketFactory: SchemaBucketFactory | undefined;
  buildValidator: ValidatorCompilerBuilder;
  buildSerializer: SerializerCompilerBuilder;
  /** The application's schema cache (issue 29), which only the default compilers use. */
  schemaCache: SchemaCache | null;
}

function optionalFunction<Fn>(value: unknown, name: string): Fn | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'function') throw invalidOption(name, 'must be a function', value);
  return value as Fn;
}

/**
 * Validates the schema-related factory options (`ajv`, `schemaErrorFormatter`,
 * `schemaController`, `serializerOpts`) and fills in the defaults.
 *
 * @example
 * readSchemaControllerOptions({ ajv: { customOptions: { allErrors: true } } }).buildValidator
 */
export function readSchemaControllerOptions(
  options: {
    ajv?: unknown;
    schemaErrorFormatter?: unknown;
    schemaController?: unknown;
    serializerOpts?: unknown;
  },
  schemaCache: SchemaCache | null = null,
): SchemaControllerSettings {
  const ajvOptions = readAjvFactoryOptions(options.ajv);
  if (options.schemaErrorFormatter !== undefined) assertSchemaErrorFormatter(options.schemaErrorFormatter);

  const controller = options.schemaController ?? {};
  if (!isPlainObject(controller)) throw invalidOption('schemaController', 'must be object', controller);
  const { bucket, compilersFactory = {} } = controller;
  if (bucket !== undefined && typeof bucket !== 'function') throw errorCodes.FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN(typeof bucket);
  if (!isPlainObject(compilersFactory)) {
    throw invalidOption('schemaController.compilersFactory', 'must be object', compilersFactory);
  }
  const serializerOpts = options.serializerOpts;
  if (serializerOpts !== undefined && !isPlainObject(serializerOpts)) {
    throw invalidOption('serializerOpts', 'must be object', serializerOpts);
  }

  return {
    ajvOptions,
    serializerOpts,
    schemaErrorFormatter: options.schemaErrorFormatter as SchemaErrorFormatter | undefined,
    bucketFactory: bucket as SchemaBucketFactory | undefined,
    buildValidator:
      optionalFunction<ValidatorCompilerBuilder>(compilersFactory.buildValidator, 'schemaController.compilersFactory.buildValidator') ??
      createDefaultValidatorBuilder(schemaCache),
    buildSerializer:
      optionalFunction<SerializerCompilerBuilder>(compilersFactory.buildSerializer, 'schemaController.compilersFactory.buildSerializer') ??
      createDefaultSerializerCompilerFactory(undefined, schemaCache),
    schemaCache,
  };
}

/**
 * Factory options the schema controller reads. Typed loosely on purpose: they arrive from user
 * code unchecked, and `createRoot` validates each one with a coded error.
 */
export interface SchemaControllerOptions {
  /** `{ customOptions, plugins, onCreate }` for the default Ajv instances. */
  ajv?: { customOptions?: Record<string, unknown>; plugins?: unknown[]; onCreate?: unknown } | undefined;
  /** The application-wide schema error formatter. */
  schemaErrorFormatter?: SchemaErrorFormatter | undefined;
  /** `{ bucket, compilersFactory: { buildValidator, buildSerializer } }`, as Fastify names them. */
  schemaController?: Record<string, unknown> | undefined;
  /** Handed to `compilersFactory.buildSerializer` as its second argument. */
  serializerOpts?: Record<string, unknown> | undefined;
  /** The application's schema cache (`schemaCache` / `ENCLAVE_SCHEMA_CACHE`), if any. */
  schemaCache?: SchemaCache | null | undefined;
}
