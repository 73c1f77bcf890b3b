import type Ajv from 'ajv';
import { BoundedCache, SCHEMA_CACHE_LIMIT } from './bounded-cache.js';
import { type AjvFactoryOptions, createAjv } from './ajv-factory.js';
import type { ValidationFunction, ValidatorCompiler } from './contracts.js';
import { fingerprintSchema } from './serializer-schema-fingerprint.js';

/**
 * Builds a validator compiler for one set of visible shared schemas; the shape of Fastify's
 * `schemaController.compilersFactory.buildValidator`.
 */
export type ValidatorCompilerBuilder = (sharedSchemas: Record<string, unknown>, ajvOptions: AjvFactoryOptions) => ValidatorCompiler;

/**
 * Wraps one Ajv instance as a validator compiler that compiles each distinct schema once.
 *
 * Two caches sit in front of `ajv.compile`: one by object identity (the cheapest hit, and the only
 * one for schemas that are not plain JSON) and one by content (copies of a schema share a
 * validator). Both are per Ajv instance, and an Ajv instance exists per set of visible shared
 * schemas, so a `$ref` always means the same thing to every user of a cached entry.
 *
 * @example
 * const compile = createCachingAjvCompiler(new Ajv())
 * compile({ schema: { type: 'string' }, method: 'GET', url: '/', httpPart: 'querystring' })
 */
export function createCachingAjvCompiler(ajv: Ajv): ValidatorCompiler {
  const byObject = new WeakMap<object, ValidationFunction>();
  // On eviction, drop Ajv's own identity cache entry too, or it would keep the schema alive. Not
  // for a schema with an `$id`: removeSchema() would also unregister a shared schema of that id.
  const byContent = new BoundedCache<{ schema: object; validate: ValidationFunction }>(SCHEMA_CACHE_LIMIT, (entry) => {
    if ((entry.schema as { $id?: unknown }).$id === undefined) ajv.removeSchema(entry.schema);
  });

  return function compileWithAjv({ schema }) {
    const isObject = typeof schema === 'object' && schema !== null;
    if (isObject) {
      const known = byObject.get(schema);
      if (known !== undefined) return known;
    }
    // The serializer's fingerprint is the content key here too: one definition of "same schema".
    const key = fingerprintSchema(schema).key;
    const cached = key === undefined ? undefined : byContent.get(key);
    if (cached !== undefined) {
      if (isObject) byObject.set(schema, cached.validate);
      return cached.validate;
    }
    const validate = ajv.compile(schema) as ValidationFunction;
    if (isObject) {
      byObject.set(schema, validate);
      if (key !== undefined) byContent.set(key, { schema, validate });
    }
    return validate;
  };
}

/**
 * The default validator builder: an Ajv instance with the baseline options, `ajv-formats`, the
 * user's `ajv` plugins and the visible shared schemas, behind a content cache.
 *
 * @example
 * const compile = buildDefaultValidatorCompiler(app.getSchemas(), { customOptions: { allErrors: true } })
 */
export const buildDefaultValidatorCompiler: ValidatorCompilerBuilder = (sharedSchemas, ajvOptions) =>
  createCachingAjvCompiler(createAjv(sharedSchemas, ajvOptions));
