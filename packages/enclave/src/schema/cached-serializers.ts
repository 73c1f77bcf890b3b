// The default serializer compiler's side of the schema cache (issue 29): the key of a serializer,
// loading one, and building one as a module so that it can be stored.
import type { Options as SerializerOptions, Schema as SerializerSchema } from 'fast-json-stringify';
import type { SerializeFunction } from './contracts.js';
import type { SchemaCache } from './schema-cache.js';
import { CACHE_FORMAT } from './schema-cache-files.js';
import { describeSharedSchemas, describeValue, hashText, packageOfFile, packageVersion } from './schema-cache-keys.js';
import { buildStandaloneSerializer, refuseSerializerOptions } from './standalone-serializer.js';

/** The cache as the serializer compiler of one set of shared schemas and `serializerOpts` uses it. */
export interface SerializerCacheScope {
  /**
   * The stored serializer of a response schema, or a way to record the schema (a function making
   * a fresh copy of it) for the module written after ready(), the caller building the serializer
   * as usual. Undefined once the application is ready, or when these options cannot be cached.
   */
  load(
    contentKey: string,
    hasRef: boolean,
    httpStatus: string,
    contentType: string | undefined,
  ): { serializer: SerializeFunction } | { record(schema: () => SerializerSchema, options: SerializerOptions): void } | undefined;
}

/**
 * The cache scope of the serializer compiler of one set of shared schemas. A serializer's key is
 * fast-json-stringify's version and `serializerOpts`, the shared schemas when the schema has a
 * `$ref` (without one they cannot change the output), the status, the content type and the schema.
 *
 * @example
 * const scope = createSerializerCacheScope(cache, app.getSchemas(), undefined)
 * const found = scope.load(fingerprintSchema(schema).key, false, '200', undefined)
 */
export function createSerializerCacheScope(
  cache: SchemaCache,
  sharedSchemas: Record<string, unknown>,
  serializerOpts: Record<string, unknown> | undefined,
): SerializerCacheScope {
  const refused = refuseSerializerOptions(serializerOpts);
  let prefix: string | undefined;
  let sharedText: string | undefined;
  return {
    load(contentKey, hasRef, httpStatus, contentType) {
      if (!cache.recording) return undefined;
      if (refused !== undefined) {
        cache.explain(refused);
        return undefined;
      }
      prefix ??= hashText(describeSerializerSetup(serializerOpts));
      if (hasRef) sharedText ??= hashText(describeSharedSchemas(sharedSchemas));
      const slot = cache.find('serializer', `${prefix}\n${hasRef ? sharedText : ''}\n${httpStatus}\n${contentType ?? ''}\n${contentKey}`);
      const { hit } = slot;
      if (hit !== undefined && 'exports' in hit && typeof hit.exports === 'function') return { serializer: hit.exports as SerializeFunction };
      return {
        record(schema, options) {
          if (hit !== undefined) return; // stored as "cannot be cached": nothing new to write
          // The module is fast-json-stringify's standalone code, a second build of the schema: it
          // serves the next start, so it is made after ready(), when the bundle is written (a
          // cold start of 1,000 routes spent ~4% of its ready() on it and held 4 MB of its text).
          slot.store(() => {
            const built = buildStandaloneSerializer(schema(), options);
            return 'code' in built ? { module: built.code } : built;
          });
        },
      };
    },
  };
}

function describeSerializerSetup(serializerOpts: Record<string, unknown> | undefined): string {
  // The validators `anyOf` and `if` need are compiled by the Ajv fast-json-stringify loads.
  const fromSerializer = require.resolve('fast-json-stringify');
  return [
    `format ${CACHE_FORMAT}`,
    `${packageOfFile(__filename) ?? 'enclavejs'}`,
    `fast-json-stringify@${packageVersion('fast-json-stringify', __filename)}`,
    `ajv@${packageVersion('ajv', fromSerializer)}`,
    `ajv-formats@${packageVersion('ajv-formats', fromSerializer)}`,
    `options ${describeValue(serializerOpts)}`,
  ].join('\n');
}
