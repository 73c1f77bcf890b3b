import type Ajv from 'ajv';
import { BoundedCache, SCHEMA_CACHE_LIMIT } from './bounded-cache.js';
import { type AjvFactoryOptions, createAjv } from './ajv-factory.js';
import { createValidatorCacheScope, type ValidatorCacheScope } from './cached-validators.js';
import type { ValidationFunction, ValidatorCompiler } from './contracts.js';
import type { SchemaCache } from './schema-cache.js';
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
 * `ajv` may be a function that creates the instance: it is then created on the first schema that
 * must really be compiled, which, when a schema cache (`cacheScope`) holds every validator, is never.
 *
 * @example
 * const compile = createCachingAjvCompiler(new Ajv())
 * compile({ schema: { type: 'string' }, method: 'GET', url: '/', httpPart: 'querystring' })
 */
export function createCachingAjvCompiler(ajv: Ajv | (() => Ajv), cacheScope?: ValidatorCacheScope): ValidatorCompiler {
  let instance = typeof ajv === 'function' ? undefined : ajv;
  const ajvInstance = (): Ajv => {
    instance ??= (ajv as () => Ajv)();
    return instance;
  };
  const byObject = new WeakMap<object, ValidationFunction>();
  // On eviction, drop Ajv's own identity cache entry too, or it would keep the schema alive. Not
  // for a schema with an `$id`: removeSchema() would also unregister a shared schema of that id.
  const byContent = new BoundedCache<{ schema: object; validate: ValidationFunction }>(SCHEMA_CACHE_LIMIT, (entry) => {
    if ((entry.schema as { $id?: unknown }).$id === undefined) instance?.removeSchema(entry.schema);
  });

  return function compileWithAjv({ schema, httpPart }) {
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
    const stored = isObject && key !== undefined ? cacheScope?.load(schema, key, httpPart) : undefined;
    let validate: ValidationFunction;
    if (stored !== undefined && 'validate' in stored) {
      validate = stored.validate;
    } else {
      validate = ajvInstance().compile(schema) as ValidationFunction;
      stored?.compiled();
    }
    if (isObject) {
      byObject.set(schema, validate);
      if (key !== undefined) byContent.set(key, { schema, validate });
    }
    return validate;
  };
}

/**
 * Builds the default validator compiler for one set of visible shared schemas: an Ajv instance
 * with the baseline options, `ajv-formats`, the user's `ajv` plugins and the shared schemas, behind
 * a content cache, and behind the application's schema cache when it has one.
 *
 * @example
 * const buildValidator = createDefaultValidatorBuilder(null)
 * const compile = buildValidator(app.getSchemas(), { customOptions: { allErrors: true } })
 */
export function createDefaultValidatorBuilder(schemaCache: SchemaCache | null): ValidatorCompilerBuilder {
  const build: ValidatorCompilerBuilder = (sharedSchemas, ajvOptions) => {
    if (schemaCache === null) return createCachingAjvCompiler(createAjv(sharedSchemas, ajvOptions));
    const scope = createValidatorCacheScope(schemaCache, sharedSchemas, ajvOptions);
    return createCachingAjvCompiler(() => createAjv(sharedSchemas, ajvOptions), scope);
  };
  defaultBuilders.add(build);
  return build;
}

const defaultBuilders = new WeakSet<ValidatorCompilerBuilder>();

/** True for a builder made by `createDefaultValidatorBuilder` (its compilers are Ajv with shared schemas). */
export function isDefaultValidatorBuilder(builder: ValidatorCompilerBuilder): boolean {
  return defaultBuilders.has(builder);
}
