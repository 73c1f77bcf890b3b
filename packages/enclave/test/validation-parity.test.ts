// Issue 17: request validation as Fastify's validation tests expect — header names lower-cased
// wherever a headers schema names a header, root primitives coerced into the request, and the
// validation errors an application sees.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

const ok = async () => ({ ok: true });

/** Status codes for a request without and with the token the admin header depends on. */
async function adminStatuses(headers: Record<string, unknown>): Promise<[number, number]> {
  const app = enclave();
  app.get('/', { schema: { headers } }, ok);
  const missing = await app.inject({ url: '/', headers: { 'X-Admin': 'true' } });
  const present = await app.inject({ url: '/', headers: { 'X-Admin': 'true', 'X-Admin-Token': 'secret' } });
  return [missing.statusCode, present.statusCode];
}

describe('header names in a headers schema are matched lower-cased', () => {
  const token = { 'X-Admin-Token': { type: 'string', const: 'secret' } };

  test('a dependency written in canonical case is enforced', async () => {
    assert.deepEqual(await adminStatuses({ type: 'object', properties: token, dependencies: { 'X-Admin': ['X-Admin-Token'] } }), [400, 200]);
  });

  test('in a dependency subschema, an allOf branch and a local definition', async () => {
    const subschema = { properties: token, required: ['X-Admin-Token'] };
    assert.deepEqual(await adminStatuses({ type: 'object', dependencies: { 'X-Admin': subschema } }), [400, 200]);
    assert.deepEqual(await adminStatuses({ type: 'object', allOf: [{ dependencies: { 'X-Admin': ['X-Admin-Token'] } }] }), [400, 200]);
    const definitions = { Headers: { type: 'object', dependencies: { 'X-Admin': ['X-Admin-Token'] } } };
    assert.deepEqual(await adminStatuses({ $ref: '#/definitions/Headers', definitions }), [400, 200]);
  });

  test('a propertyNames deny-list blocks the header, also through combinators; header values keep their case', async () => {
    const app = enclave();
    app.get('/enum', { schema: { headers: { type: 'object', propertyNames: { not: { enum: ['X-Debug', 7] } } } } }, ok);
    app.get('/const', { schema: { headers: { type: 'object', propertyNames: { not: { anyOf: [{ const: 'X-Debug' }] } } } } }, ok);
    app.get('/value', { schema: { headers: { type: 'object', properties: { 'X-Mode': { type: 'string', enum: ['MIXED'] } } } } }, ok);
    for (const url of ['/enum', '/const']) {
      assert.equal((await app.inject({ url, headers: { 'X-Debug': '1' } })).statusCode, 400, url);
      assert.equal((await app.inject({ url, headers: { 'X-Other': '1' } })).statusCode, 200, url);
    }
    assert.equal((await app.inject({ url: '/value', headers: { 'X-Mode': 'MIXED' } })).statusCode, 200);
  });

  test('the schema given is not modified', async () => {
    const headers = { type: 'object', properties: { 'X-Admin': { type: 'string' } }, dependencies: { 'X-Admin': ['X-Admin-Token'] } };
    const before = JSON.stringify(headers);
    const app = enclave();
    app.get('/', { schema: { headers } }, ok);
    await app.ready();
    assert.equal(JSON.stringify(headers), before);
  });
});

test('a root primitive Ajv coerces is what the handler receives', async () => {
  const app = enclave();
  app.post('/', { schema: { body: { type: 'integer', maximum: 10 } } }, async (request) => ({ body: request.body, type: typeof request.body }));
  const response = await app.inject({ method: 'POST', url: '/', payload: '"10"', headers: { 'content-type': 'application/json' } });
  assert.deepEqual(response.json(), { body: 10, type: 'number' });
});

describe('the validation errors an application sees', () => {
  test("the default one prints as a plain Error, as Fastify's does", async () => {
    const app = enclave();
    app.post(
      '/',
      { attachValidation: true, schema: { body: { type: 'object', required: ['name'] } } },
      async (request) => `Attached: ${request.validationError}`,
    );
    const response = await app.inject({ method: 'POST', url: '/', payload: {} });
    assert.equal(response.body, "Attached: Error: body must have required property 'name'");
  });

  test('an Error thrown by the schema error formatter answers with its own message', async () => {
    const app = enclave({
      schemaErrorFormatter: () => {
        throw new Error('formatter failed');
      },
    });
    app.post('/', { schema: { body: { type: 'object', required: ['name'] } } }, ok);
    const response = await app.inject({ method: 'POST', url: '/', payload: {} });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { statusCode: 500, error: 'Internal Server Error', message: 'formatter failed' });
  });

  test("an $async schema's failure answers 'validation failed' with Ajv's errors attached", async () => {
    const app = enclave();
    let validation: unknown;
    app.setErrorHandler((error: any, _request, reply) => {
      validation = error.validation;
      reply.code(error.statusCode).send({ message: error.message, code: error.code });
    });
    app.post('/', { schema: { body: { $async: true, type: 'object', required: ['name'] } } }, ok);
    const response = await app.inject({ method: 'POST', url: '/', payload: {} });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { message: 'validation failed', code: 'FST_ERR_VALIDATION' });
    assert.ok(Array.isArray(validation) && validation.length === 1);
  });
});
