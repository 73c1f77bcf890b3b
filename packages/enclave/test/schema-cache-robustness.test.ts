// The schema cache is never stale and never trusted blindly (issue 29, Build item 3): a changed
// schema, option or plugin is a miss; a damaged file is ignored with a warning and rebuilt; a
// directory that cannot be written costs one warning, never the boot.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { crc32, gzipSync } from 'node:zlib';
import type { Ajv, AnySchema } from 'ajv';
import enclave from 'enclavejs';
import { CACHE_FORMAT } from '../src/schema/schema-cache-files.js';
import { cacheDirectory, recordingLogger } from './schema-cache-helpers.js';

const files = (directory: string, suffix: string) => readdirSync(directory).filter((name) => name.endsWith(suffix));

interface BootOptions {
  customOptions?: Record<string, unknown>;
  pluginOptions?: Record<string, unknown>;
  maxLength?: number;
}

/**
 * Boots a two-route application on `directory` and reports what Ajv compiled (through a plugin
 * that counts) until ready() and after it (a cold start writes its validators' modules from a
 * second Ajv instance then), what was logged, and the answers to a valid and an invalid request.
 */
async function boot(directory: string, options: BootOptions = {}) {
  const counts = { instances: 0, compiles: 0 };
  const counting = (ajv: Ajv, _options?: unknown) => {
    counts.instances++;
    const compile = ajv.compile.bind(ajv);
    ajv.compile = ((schema: AnySchema) => {
      counts.compiles++;
      return compile(schema);
    }) as Ajv['compile'];
    return ajv;
  };
  const { logger, at } = recordingLogger();
  const app = enclave({
    schemaCache: directory,
    loggerInstance: logger,
    ajv: { customOptions: options.customOptions ?? {}, plugins: [[counting, options.pluginOptions ?? {}]] },
  });
  app.post(
    '/a',
    { schema: { body: { type: 'object', properties: { name: { type: 'string', maxLength: options.maxLength ?? 5 } } } } },
    async (request) => request.body,
  );
  app.post(
    '/b',
    { schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, x: { type: 'integer' } } } } },
    async (request) => request.body,
  );
  await app.ready();
  const atReady = { ...counts };
  const answers = [
    (await app.inject({ method: 'POST', url: '/a', payload: { name: 'abcdef' } })).body,
    (await app.inject({ method: 'POST', url: '/b', payload: { id: '7', x: 'y' } })).body,
  ];
  await app.close();
  const afterReady = { instances: counts.instances - atReady.instances, compiles: counts.compiles - atReady.compiles };
  return { counts: atReady, afterReady, warnings: at('warn'), answers };
}

describe('schema cache: never stale', () => {
  test('a warm boot compiles nothing; a changed schema compiles that schema only', async () => {
    const directory = cacheDirectory();
    const cold = await boot(directory);
    assert.equal(cold.counts.compiles, 2);
    assert.deepEqual(cold.afterReady, { instances: 1, compiles: 2 }, 'the modules are written from a second compile');
    const warm = await boot(directory);
    assert.deepEqual(
      [warm.counts, warm.afterReady],
      [
        { instances: 0, compiles: 0 },
        { instances: 0, compiles: 0 },
      ],
    );
    const changed = await boot(directory, { maxLength: 10 });
    assert.deepEqual(changed.counts, { instances: 1, compiles: 1 });
    assert.deepEqual(changed.afterReady, { instances: 1, compiles: 1 });
    assert.match(changed.answers[0] as string, /^\{"name":"abcdef"\}$/, 'the new maxLength applies');
    assert.deepEqual((await boot(directory, { maxLength: 10 })).counts, { instances: 0, compiles: 0 });
  });

  test('a changed Ajv option is a miss, and the option applies', async () => {
    const directory = cacheDirectory();
    const before = await boot(directory);
    assert.match(before.answers[1] as string, /"message":"body\/x must be integer"/);
    const after = await boot(directory, { customOptions: { coerceTypes: false } });
    assert.deepEqual(after.counts, { instances: 1, compiles: 2 }, 'every validator is compiled again');
    assert.deepEqual(after.afterReady, { instances: 1, compiles: 2 }, 'and written again');
    assert.match(after.answers[1] as string, /"message":"body\/id must be integer"/, 'without coercion, "7" is no integer');
    assert.deepEqual((await boot(directory, { customOptions: { coerceTypes: false } })).counts.compiles, 0);
  });

  test('a changed plugin option is a miss', async () => {
    const directory = cacheDirectory();
    await boot(directory);
    assert.deepEqual((await boot(directory, { pluginOptions: { level: 2 } })).counts.compiles, 2);
  });
});

describe('schema cache: never trusted blindly', () => {
  const damages: Array<[string, (path: string) => void]> = [
    [
      'a changed byte',
      (path) => {
        const bytes = readFileSync(path);
        const at = bytes.length >> 1;
        bytes[at] = (bytes[at] as number) ^ 0x20;
        writeFileSync(path, bytes);
      },
    ],
    ['a truncated file', (path) => truncateSync(path, readFileSync(path).length - 100)],
    ['a foreign file', (path) => writeFileSync(path, 'module.exports = {}\n')],
    [
      'a valid checksum over something other than a table of entries',
      (path) => {
        const body = Buffer.from('(null)\n');
        const crc = crc32(body).toString(16).padStart(8, '0');
        writeFileSync(path, gzipSync(Buffer.concat([Buffer.from(`// enclave-schema-cache ${CACHE_FORMAT} crc32=${crc} length=${body.length}\n`), body])));
      },
    ],
  ];
  for (const [damage, inflict] of damages) {
    test(`a bundle with ${damage} is ignored with one warning, its schemas compiled, the cache rewritten`, async () => {
      const directory = cacheDirectory();
      const clean = await boot(directory);
      const [bundle] = files(directory, '.js.gz');
      inflict(join(directory, bundle as string));
      const damaged = await boot(directory);
      assert.equal(damaged.counts.compiles, 2);
      assert.equal(damaged.warnings.length, 1, damaged.warnings.join('\n'));
      assert.match(damaged.warnings[0] as string, /ignoring .*b-[0-9a-f]+\.js\.gz: .*compiled again and the cache rewritten/);
      assert.deepEqual(damaged.answers, clean.answers);
      const healed = await boot(directory);
      assert.deepEqual(healed.counts.compiles, 0, 'the rewritten bundle is used');
      assert.deepEqual(healed.warnings, []);
    });
  }

  test('a damaged V8 code cache is ignored with one warning and written again', async () => {
    const directory = cacheDirectory();
    await boot(directory);
    await boot(directory); // writes the code cache
    const [codeCache] = files(directory, '.v8');
    assert.ok(codeCache !== undefined);
    writeFileSync(join(directory, codeCache), 'not a code cache');
    const damaged = await boot(directory);
    assert.equal(damaged.counts.compiles, 0, 'the bundle itself is fine');
    assert.equal(damaged.warnings.length, 1);
    assert.match(damaged.warnings[0] as string, /damaged V8 code cache/);
    assert.deepEqual((await boot(directory)).warnings, []);
  });

  test('a directory that cannot be written: the boot works, with one warning', async () => {
    const parent = cacheDirectory();
    // A file where a directory should be: mkdir fails, as on a read-only file system (the tests
    // may run as root, whom permissions do not stop).
    writeFileSync(join(parent, 'file'), '');
    const result = await boot(join(parent, 'file', 'cache'));
    assert.equal(result.counts.compiles, 2);
    assert.equal(result.afterReady.compiles, 0, 'no module is made for a directory that cannot be written');
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0] as string, /^schema cache: cannot write to .*file\/cache/);
    assert.match(result.answers[1] as string, /"statusCode":400/);
  });

  test('a missing directory is created', async () => {
    const directory = join(cacheDirectory(), 'not', 'yet');
    await boot(directory);
    assert.deepEqual((await boot(directory)).counts.compiles, 0);
  });
});
