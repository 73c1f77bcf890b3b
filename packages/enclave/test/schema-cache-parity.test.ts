// The schema cache (issue 29): an application booted from it answers exactly as one that compiled,
// and a warm boot compiles nothing it can load.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Ajv } from 'ajv';
import enclave from 'enclavejs';
// @ts-expect-error: a JavaScript fixture without declarations
import { answers, buildApp, fullRequests, requests } from './fixtures/schema-cache-app.mjs';
import { cacheDirectory, recordingLogger } from './schema-cache-helpers.js';

async function boot(options: Record<string, unknown>, full = true) {
  const app = buildApp(options, { full });
  await app.ready();
  const result = await answers(app, full ? fullRequests : requests);
  await app.close();
  return result;
}

describe('schema cache: an application booted from the cache answers as one that compiled', () => {
  test('cold, warm and without a cache, every request gets the same answer', async () => {
    const directory = cacheDirectory();
    const compiled = await boot({ schemaCache: false });
    const cold = await boot({ schemaCache: directory });
    const written = readdirSync(directory).filter((name) => name.endsWith('.js.gz'));
    assert.equal(written.length, 1, 'the cold boot writes one bundle');
    const warm = await boot({ schemaCache: directory });
    assert.deepEqual(
      readdirSync(directory).filter((name) => name.endsWith('.js.gz')),
      written,
      'the warm boot writes no bundle of its own',
    );
    assert.deepEqual(cold, compiled);
    assert.deepEqual(warm, compiled);
    // The fixture's requests are meant to fail and pass: guard against an app that answers 500s.
    assert.ok(compiled.some((answer: { status: number }) => answer.status === 400));
    assert.ok(compiled.every((answer: { status: number }) => answer.status < 500));
  });

  test('a warm boot creates no Ajv instance: the plugins are not even called', async () => {
    const directory = cacheDirectory();
    let calls = 0;
    const counting = (ajv: Ajv) => {
      calls++;
      return ajv;
    };
    const bootCounting = async () => {
      const app = enclave({ schemaCache: directory, ajv: { plugins: [counting] } });
      app.post(
        '/',
        { schema: { body: { type: 'object', required: ['a'] }, response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } } },
        async (request) => request.body as { a?: string },
      );
      await app.ready();
      const answer = await app.inject({ method: 'POST', url: '/', payload: { a: 1, b: 2 } });
      await app.close();
      return answer.body;
    };
    assert.equal(await bootCounting(), '{"a":"1"}');
    assert.equal(calls, 2, 'the cold boot: the Ajv instance that compiles, and the one that writes the modules after ready()');
    assert.equal(await bootCounting(), '{"a":"1"}');
    assert.equal(calls, 2, 'the warm boot called the Ajv plugin: it created an Ajv instance');
  });

  test('what cannot be a module is compiled as usual, and the cache says why once, at debug level', async () => {
    const directory = cacheDirectory();
    // The cold boot finds the reasons while writing the modules, after ready(): said by close().
    const cold = recordingLogger();
    await boot({ schemaCache: directory, loggerInstance: cold.logger });
    const coldReasons = cold.at('debug').filter((message) => message.startsWith('schema cache:'));
    assert.equal(coldReasons.filter((message) => /keyword/.test(message)).length, 1, coldReasons.join('\n'));
    assert.equal(coldReasons.filter((message) => /format "lowercase"/.test(message)).length, 1, coldReasons.join('\n'));
    assert.deepEqual(cold.at('warn'), []);
    const { logger, at } = recordingLogger();
    const warm = await boot({ schemaCache: directory, loggerInstance: logger });
    assert.deepEqual(warm, await boot({ schemaCache: false }));
    const reasons = at('debug').filter((message) => message.startsWith('schema cache:'));
    assert.equal(reasons.filter((message) => /keyword/.test(message)).length, 1, reasons.join('\n'));
    assert.equal(reasons.filter((message) => /format "lowercase"/.test(message)).length, 1, reasons.join('\n'));
    assert.deepEqual(at('warn'), []);
  });

  test('validators and serializers of a compiler of your own are not cached, said once at debug level', async () => {
    const directory = cacheDirectory();
    const { logger, at } = recordingLogger();
    const app = enclave({ schemaCache: directory, loggerInstance: logger });
    app.setValidatorCompiler(() => (data: unknown) => typeof data === 'object');
    app.setSerializerCompiler(() => (data: unknown) => JSON.stringify(data));
    for (const url of ['/a', '/b']) app.post(url, { schema: { body: { type: 'object' }, response: { 200: { type: 'object' } } } }, async () => ({ ok: true }));
    await app.ready();
    assert.equal((await app.inject({ method: 'POST', url: '/a', payload: {} })).body, '{"ok":true}');
    await app.close();
    const reasons = at('debug').filter((message) => message.startsWith('schema cache:'));
    assert.deepEqual(reasons, [
      'schema cache: compiled as usual, not cached: validators made by a compiler of your own',
      'schema cache: compiled as usual, not cached: serializers made by a compiler of your own',
    ]);
  });

  test('the option wins over ENCLAVE_SCHEMA_CACHE; false refuses it; anything else but a path is an error', async () => {
    const fromEnvironment = cacheDirectory();
    const previous = process.env.ENCLAVE_SCHEMA_CACHE;
    process.env.ENCLAVE_SCHEMA_CACHE = fromEnvironment;
    try {
      const refused = enclave({ schemaCache: false });
      refused.post('/', { schema: { body: { type: 'object' } } }, async () => 'ok');
      await refused.ready();
      await refused.close();
      assert.deepEqual(readdirSync(fromEnvironment), []);
      const environment = enclave();
      environment.post('/', { schema: { body: { type: 'object' } } }, async () => 'ok');
      await environment.ready();
      await environment.close();
      assert.equal(readdirSync(fromEnvironment).filter((name) => name.endsWith('.js.gz')).length, 1);
    } finally {
      if (previous === undefined) delete process.env.ENCLAVE_SCHEMA_CACHE;
      else process.env.ENCLAVE_SCHEMA_CACHE = previous;
    }
    for (const invalid of [1, true, {}, ['dir']]) {
      assert.throws(() => enclave({ schemaCache: invalid as never }), { code: 'FST_ERR_INIT_OPTS_INVALID' });
    }
  });
});
