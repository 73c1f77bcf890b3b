// Serialization seen from the outside: response schemas chosen by status, compilers, errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';

test('the response schema is chosen by exact status, then class, then default, and drops undeclared fields', async () => {
  const app = enclave();
  const response = {
    200: { type: 'object', properties: { exact: { type: 'boolean' } } },
    '2xx': { type: 'object', properties: { klass: { type: 'boolean' } } },
    default: { type: 'object', properties: { fallback: { type: 'boolean' } } },
  };
  const payload = { exact: true, klass: true, fallback: true, secret: 'never' };
  app.get('/:status', { schema: { response } }, async (request: any, reply) => reply.code(Number(request.params.status)).send(payload));
  assert.deepEqual((await app.inject('/200')).json(), { exact: true });
  assert.deepEqual((await app.inject('/201')).json(), { klass: true });
  assert.deepEqual((await app.inject('/302')).json(), { fallback: true });
});

test('content maps choose the schema by the reply media type with */* as catch-all', async () => {
  const app = enclave();
  app.get(
    '/',
    {
      schema: {
        response: {
          200: {
            content: {
              'application/vnd.short+json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } },
              '*/*': { schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
            },
          },
        },
      },
    },
    async (request: any, reply) => {
      if (request.query.short) reply.type('application/vnd.short+json');
      // A string id and an extra field on purpose (the serializer coerces and drops them); the
      // cast gets past the reply type, which the schema says is { id: integer, … }.
      return { id: '1', name: 'full', hidden: true } as unknown as { id: number };
    },
  );
  assert.deepEqual((await app.inject('/?short=1')).json(), { id: 1 });
  assert.deepEqual((await app.inject('/')).json(), { id: 1, name: 'full' });
});

test('errors are serialized by the response schema of their status when there is one', async () => {
  const app = enclave();
  app.get(
    '/',
    { schema: { response: { 404: { type: 'object', properties: { message: { type: 'string' }, statusCode: { type: 'integer' } } } } } },
    async () => {
      throw Object.assign(new Error('gone'), { statusCode: 404, code: 'GONE' });
    },
  );
  const response = await app.inject('/');
  assert.equal(response.statusCode, 404);
  assert.deepEqual(response.json(), { message: 'gone', statusCode: 404 });
});

test('serializer compilers are encapsulated and receive the route and status', async () => {
  const app = enclave();
  const seen: unknown[] = [];
  app.register(async (child) => {
    child.setSerializerCompiler(({ method, url, httpStatus, contentType }) => {
      seen.push({ method, url, httpStatus, contentType });
      return (data) => `custom:${JSON.stringify(data)}`;
    });
    child.get('/child', { schema: { response: { 200: { type: 'object' } } } }, async () => ({ a: 1 }));
  });
  app.get('/root', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'integer' } } } } } }, async () => ({ a: 1 }));
  assert.equal((await app.inject('/child')).payload, 'custom:{"a":1}');
  assert.equal((await app.inject('/root')).payload, '{"a":1}');
  // The automatic HEAD route is a route of its own, compiled on its own, as in Fastify.
  assert.deepEqual(seen, [
    { method: 'GET', url: '/child', httpStatus: '200', contentType: undefined },
    { method: 'HEAD', url: '/child', httpStatus: '200', contentType: undefined },
  ]);
});

test('reply.serializer overrides one reply; setReplySerializer covers payloads without a schema', async () => {
  const app = enclave();
  app.register(async (child) => {
    child.setReplySerializer((payload, statusCode) => `${statusCode}|${JSON.stringify(payload)}`);
    child.get('/child', async () => ({ a: 1 }));
  });
  app.get('/one', async (_request, reply) => reply.serializer(() => 'by-hand').send({ a: 1 }));
  app.get('/plain', async () => ({ a: 1 }));
  assert.equal((await app.inject('/child')).payload, '200|{"a":1}');
  assert.equal((await app.inject('/one')).payload, 'by-hand');
  assert.equal((await app.inject('/plain')).payload, '{"a":1}');
});

test('a serializer that throws answers 500 and the server keeps serving', async () => {
  const app = enclave();
  app.get('/boom', async (_request, reply) =>
    reply
      .serializer(() => {
        throw new Error('cannot serialize');
      })
      .send({ a: 1 }),
  );
  app.get('/ok', async () => ({ fine: true }));
  const failed = await app.inject('/boom');
  assert.equal(failed.statusCode, 500);
  assert.equal(failed.json().message, 'cannot serialize');
  assert.deepEqual((await app.inject('/ok')).json(), { fine: true });
});

test('a response $ref to a shared schema is fed from the visible shared schemas', async () => {
  const app = enclave();
  app.addSchema({
    $id: 'http://example.com/user',
    type: 'object',
    properties: { id: { type: 'integer' }, name: { $ref: '#name' } },
    definitions: { name: { $id: '#name', type: 'string' } },
  });
  app.get('/user', { schema: { response: { 200: { $ref: 'http://example.com/user#' } } } }, async () => ({ id: '5', name: 'ada', password: 'x' }));
  assert.deepEqual((await app.inject('/user')).json(), { id: 5, name: 'ada' });
});
