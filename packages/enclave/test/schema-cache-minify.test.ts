// The schema cache writes its modules minified (issue 29, schema-cache-minify.ts): smaller, the
// same answers, the same function names; code the minifier refuses is written as generated.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import Enclave from '../src/index.js';
import { createAjv } from '../src/schema/ajv-factory.js';
import { minifyModule } from '../src/schema/schema-cache-minify.js';
import { compileModule, loadModule } from '../src/schema/schema-cache-modules.js';
import { writeStandaloneValidator } from '../src/schema/standalone-validator.js';
import { cacheDirectory } from './schema-cache-helpers.js';

const schema = {
  type: 'object',
  required: ['name', 'age'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, pattern: '^[a-zé]+$' },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' }, default: [] },
  },
};

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

test('a minified validator module answers, coerces and reports errors exactly as Ajv compiled it', async () => {
  // Enclave's Ajv, as the cache's module writer makes it: coercion, defaults, removal of
  // additional properties, formats.
  const ajv = createAjv({}, {}, true);
  const compiled = ajv.compile(schema) as Parameters<typeof writeStandaloneValidator>[1];
  const written = writeStandaloneValidator(ajv, compiled);
  assert.ok('code' in written);
  const generated = written.code;
  const minified = await minifyModule(generated);
  assert.ok(!('notMinified' in minified), 'notMinified' in minified ? minified.notMinified : '');
  assert.ok(minified.code.length < generated.length * 0.8, `${minified.code.length} of ${generated.length} bytes`);
  assert.doesNotMatch(minified.code, /coerced0|dataType0|\n/, 'locals renamed, no line breaks');
  const stored = loadModule('validator', compileModule(minified.code, 'test:validator')) as Validate;
  assert.equal(stored.name, compiled.name, 'function names are kept');
  const inputs = [
    { name: 'ada', age: '36', extra: true },
    { name: 'é', age: [7] },
    { name: '', age: 1 },
    { name: 'Ada', age: 1 },
    { age: -1, name: 'x' },
    { name: 'x' },
    'not an object',
  ];
  for (const input of inputs) {
    const [expected, actual] = [structuredClone(input), structuredClone(input)];
    assert.equal(stored(actual), compiled(expected), JSON.stringify(input));
    assert.deepEqual(actual, expected, 'the same coercions, defaults and removals');
    assert.deepEqual(stored.errors, compiled.errors);
  }
});

test('code the minifier cannot parse is kept as generated, with the reason', async () => {
  const broken = 'module.exports = function (';
  const result = await minifyModule(broken);
  assert.equal(result.code, broken);
  assert.ok('notMinified' in result);
  assert.match(result.notMinified, /oxc-minify/);
});

test("a cold start's bundle holds minified modules, and a warm start answers from them", async () => {
  const directory = cacheDirectory();
  const build = () => {
    const app = Enclave({ schemaCache: directory });
    app.post('/users', { schema: { body: schema, response: { 201: schema } } }, async (request, reply) => reply.code(201).send(request.body));
    return app;
  };
  const cold = build();
  const coldAnswer = await cold.inject({ method: 'POST', url: '/users', payload: { name: 'ada', age: '36', extra: 1 } });
  await cold.close();
  const [bundle] = readdirSync(directory).filter((name) => name.endsWith('.js.gz'));
  const text = gunzipSync(readFileSync(join(directory, bundle as string))).toString('latin1');
  assert.doesNotMatch(text, /coerced0|JSON_STR_BEGIN_OBJECT/, "Ajv's and fast-json-stringify's locals are renamed");
  const warm = build();
  const warmAnswer = await warm.inject({ method: 'POST', url: '/users', payload: { name: 'ada', age: '36', extra: 1 } });
  const invalid = await warm.inject({ method: 'POST', url: '/users', payload: { name: '', age: 1 } });
  await warm.close();
  assert.equal(readdirSync(directory).filter((name) => name.endsWith('.js.gz')).length, 1, 'the warm start compiled nothing new');
  assert.equal(warmAnswer.statusCode, 201);
  assert.equal(warmAnswer.body, coldAnswer.body);
  assert.deepEqual(JSON.parse(warmAnswer.body), { name: 'ada', age: 36, tags: [] });
  assert.equal(invalid.statusCode, 400);
  assert.equal(JSON.parse(invalid.body).message, 'body/name must NOT have fewer than 1 characters');
});
