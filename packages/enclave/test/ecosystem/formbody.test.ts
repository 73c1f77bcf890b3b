// Issue 9: the real @fastify/formbody, unmodified, on Enclave. It adds an
// application/x-www-form-urlencoded parser with addContentTypeParser; the body it produces goes
// through the route's body schema like any other (SPEC §6.1: validation follows the parser).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import formbody from '@fastify/formbody';
import enclave from 'enclavejs';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

const signupSchema = {
  body: {
    type: 'object',
    required: ['email', 'age'],
    properties: {
      email: { type: 'string', format: 'email' },
      age: { type: 'integer', minimum: 18 },
      newsletter: { type: 'boolean', default: false },
      topics: { type: 'array', items: { type: 'string' } },
    },
  },
} as const;

async function buildApp(options?: Record<string, unknown>) {
  const app = enclave();
  await app.register(formbody, options ?? {});
  app.post('/signup', { schema: signupSchema }, async (request) => request.body);
  return app;
}

describe('@fastify/formbody', () => {
  test('a urlencoded body is parsed, coerced by the schema and defaults are applied', async () => {
    const app = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'email=a%40b.example&age=21&topics=x&topics=y' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { email: 'a@b.example', age: 21, newsletter: false, topics: ['x', 'y'] });
    await app.close();
  });

  test('a single value for an array property becomes a one-element array', async () => {
    const app = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'email=a%40b.example&age=30&topics=only' });
    assert.deepEqual(response.json().topics, ['only']);
    await app.close();
  });

  test('an invalid urlencoded body is refused by the schema with 400', async () => {
    const app = await buildApp();
    const missing = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'email=a%40b.example' });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().code, 'FST_ERR_VALIDATION');
    assert.equal(missing.json().message, "body must have required property 'age'");

    const young = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'email=a%40b.example&age=12' });
    assert.equal(young.statusCode, 400);
    assert.equal(young.json().message, 'body/age must be >= 18');

    const notNumber = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'email=a%40b.example&age=old' });
    assert.equal(notNumber.statusCode, 400);
    await app.close();
  });

  test('a charset parameter on the content type is accepted', async () => {
    const app = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/signup',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payload: 'email=z%40z.example&age=40',
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().age, 40);
    await app.close();
  });

  test('the plugin bodyLimit answers 413 for a larger form', async () => {
    const app = await buildApp({ bodyLimit: 64 });
    const response = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: `email=a%40b.example&age=20&topics=${'x'.repeat(100)}` });
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE');
    await app.close();
  });

  test('a custom parser option replaces querystring parsing', async () => {
    const app = enclave();
    await app.register(formbody, { parser: (body: string) => ({ raw: body.toUpperCase() }) });
    app.post('/', async (request) => request.body);
    const response = await app.inject({ method: 'POST', url: '/', headers: form, payload: 'a=1' });
    assert.deepEqual(response.json(), { raw: 'A=1' });
    await app.close();
  });

  test('JSON bodies still work beside the form parser', async () => {
    const app = await buildApp();
    assert.equal(app.hasContentTypeParser('application/x-www-form-urlencoded'), true);
    const response = await app.inject({ method: 'POST', url: '/signup', payload: { email: 'j@j.example', age: 50 } });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().email, 'j@j.example');
    await app.close();
  });
});
