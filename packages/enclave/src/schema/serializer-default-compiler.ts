import type { Schema as FastJsonSchema } from 'fast-json-stringify';
import { BoundedCache, SCHEMA_CACHE_LIMIT } from './bounded-cache.js';
import { createSerializerCacheScope } from './cached-serializers.js';
import { fastJsonStringify } from './compiler-modules.js';
import type { SerializeFunction, SerializerCompiler } from './contracts.js';
import type { SchemaCache } from './schema-cache.js';
import { cloneSchema, containsLineTerminator, copyFromKey, fingerprintSchema } from './serializer-schema-fingerprint.js';

// See `hasLineTerminatorInName`: refusing the schema is the only safe answer short of patching
// fast-json-stringify, and such names are almost certainly a mistake.
const UNSAFE_NAME_MESSAGE = 'a property name, $id or $ref contains a line break, which fast-json-stringify cannot compile safely';

/**
 * Creates the default serializer compiler of one application: fast-json-stringify, fed with the
 * shared schemas visible in a context so that every `$ref` form resolves. Call the returned
 * function once per context with that context's `getSchemas()`; it hands back the context's
 * `SerializerCompiler`.
 *
 * Compiled serializers are cached by schema content, so identical response schemas (or many
 * routes pointing at one shared schema with `$ref`) compile once. A schema with a `$ref` is keyed
 * together with the identity of the shared-schema set it resolves against; a schema without one
 * does not depend on the set and is shared across contexts. The caches only ever hold schemas the
 * application declared while booting, never anything derived from a request; the serializer cache
 * still has a ceiling (`limit`), because `reply.compileSerializationSchema()` may be called at run
 * time and no cache may grow without bound.
 *
 * @example
 * const compilerFor = createDefaultSerializerCompilerFactory()
 * const compile = compilerFor({ user: { $id: 'user', type: 'object', properties: { name: { type: 'string' } } } })
 * const serialize = compile({ schema: { $ref: 'user#' }, method: 'GET', url: '/me', httpStatus: '200' })
 * serialize({ name: 'Ada', password: 'x' }) // → '{"name":"Ada"}'
 */
export function createDefaultSerializerCompilerFactory(
  limit: number = SCHEMA_CACHE_LIMIT,
  schemaCache: SchemaCache | null = null,
): (sharedSchemas: Record<string, unknown>, serializerOpts?: Record<string, unknown>) => SerializerCompiler {
  const serializers = new BoundedCache<SerializeFunction>(limit);
  const externalSchemasBySet = new Map<string, Record<string, unknown>>();
  const compilersBySet = new WeakMap<object, { compiler: SerializerCompiler; serializerOpts: Record<string, unknown> | undefined }>();
  const objectIds = new WeakMap<object, number>();
  let lastObjectId = 0;

  const identityOf = (value: unknown): string => {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
    let id = objectIds.get(value);
    if (id === undefined) objectIds.set(value, (id = ++lastObjectId));
    return `@${id}`;
  };

  const factory = function compilerForSharedSchemas(sharedSchemas: Record<string, unknown>, serializerOpts?: Record<string, unknown>): SerializerCompiler {
    const known = compilersBySet.get(sharedSchemas);
    if (known !== undefined && known.serializerOpts === serializerOpts) return known.compiler;

    // The set's identity is its members' identities, not the record's: a controller may build a
    // fresh record per call, and the same schema objects must still hit the cache.
    const setKey = Object.keys(sharedSchemas)
      .sort()
      .map((id) => `${JSON.stringify(id)}=${identityOf(sharedSchemas[id])}`)
      .join(',');
    // Serializers built with other options are other serializers.
    const optionsKey = identityOf(serializerOpts);

    const externalSchemas = (): Record<string, unknown> => {
      let copy = externalSchemasBySet.get(setKey);
      if (copy === undefined) {
        const names = Object.keys(sharedSchemas);
        if (names.some((id) => containsLineTerminator(id) || fingerprintSchema(sharedSchemas[id]).hasLineTerminatorInName)) {
          throw new Error(UNSAFE_NAME_MESSAGE);
        }
        externalSchemasBySet.set(setKey, (copy = cloneSchema(sharedSchemas)));
      }
      return copy;
    };

    const cacheScope = schemaCache === null ? undefined : createSerializerCacheScope(schemaCache, sharedSchemas, serializerOpts);
    const compiler: SerializerCompiler = ({ schema, httpStatus, contentType }) => {
      const { key, hasRef, hasLineTerminatorInName } = fingerprintSchema(schema);
      if (hasLineTerminatorInName) throw new Error(UNSAFE_NAME_MESSAGE);
      const cacheKey = key === undefined ? undefined : `${optionsKey}\n${hasRef ? setKey : ''}\n${key}`;
      if (cacheKey !== undefined) {
        const cached = serializers.get(cacheKey);
        if (cached !== undefined) return cached;
      }
      // Without a `$ref` the shared schemas cannot change the output; leaving them out also
      // spares fast-json-stringify from checking every one of them again.
      // The factory option `serializerOpts` (rounding, largeArrayMechanism, …) goes to every build.
      const options = hasRef ? { ...serializerOpts, schema: externalSchemas() as Record<string, FastJsonSchema> } : { ...serializerOpts };
      const copy = (): FastJsonSchema => (key === undefined ? cloneSchema(schema) : copyFromKey<FastJsonSchema>(key));
      const stored = key === undefined ? undefined : cacheScope?.load(key, hasRef, httpStatus, contentType);
      // A serializer the cache does not hold is built as usual; its module is written after ready().
      if (stored !== undefined && 'record' in stored) stored.record(copy, options);
      const serializer = stored !== undefined && 'serializer' in stored ? stored.serializer : (fastJsonStringify()(copy(), options) as SerializeFunction);
      if (cacheKey !== undefined) serializers.set(cacheKey, serializer);
      return serializer;
    };
    compilersBySet.set(sharedSchemas, { compiler, serializerOpts });
    return compiler;
  };
  defaultFactories.add(factory);
  return factory;
}

const defaultFactories = new WeakSet<object>();

/** True for a builder made by `createDefaultSerializerCompilerFactory` (fast-json-stringify with shared schemas). */
export function isDefaultSerializerBuilder(builder: object): boolean {
  return defaultFactories.has(builder);
}
