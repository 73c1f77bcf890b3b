// The cold/warm runs of `npm test` (issue 29): scripts/test.mjs runs the validation, serialization
// and schema test files twice more with ENCLAVE_SCHEMA_CACHE set, first on an empty directory, then
// on the one the first run filled. Applications read the variable themselves; the tests that build
// a SchemaController or a serializer compiler directly get the cache from here, and it is written
// when the test file ends, as an application writes it at ready(). Without the variable these are
// the plain constructors.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import type { Logger } from '../src/logger.js';
import { createDefaultSerializerCompilerFactory } from '../src/schema/response-serializers.js';
import { SchemaCache } from '../src/schema/schema-cache.js';
import { SchemaController, type SchemaControllerOptions } from '../src/schema/schema-controller.js';

const warnings: unknown[] = [];
const noop = () => {};
const log: Logger = {
  level: 'warn',
  fatal: noop,
  error: noop,
  warn: (...args: unknown[]) => warnings.push(args),
  info: noop,
  debug: noop,
  trace: noop,
  child: () => log,
};

const cache = SchemaCache.fromOptions(undefined, process.env.ENCLAVE_SCHEMA_CACHE, log);
if (cache !== null) {
  after(async () => {
    await cache.persist();
    // A warm run that had to ignore an entry (it failed to load, or the file was damaged) would
    // still pass by compiling again: it must not go unnoticed.
    assert.deepEqual(warnings, [], 'the schema cache warned');
  });
}

/** `SchemaController.createRoot`, with the cache of the cold/warm runs when one is set. */
export function createRoot(options: SchemaControllerOptions = {}): SchemaController {
  return SchemaController.createRoot(cache === null ? options : { ...options, schemaCache: cache });
}

/** `createDefaultSerializerCompilerFactory`, with the cache of the cold/warm runs when one is set. */
export function createSerializerFactory(limit?: number): ReturnType<typeof createDefaultSerializerCompilerFactory> {
  return createDefaultSerializerCompilerFactory(limit, cache);
}
