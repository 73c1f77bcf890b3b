// Issue 20: the real @fastify/http-proxy (over @fastify/reply-from), unmodified, on Enclave:
// requests under a prefix are forwarded to an upstream server, the prefix rewritten, and the
// upstream's status, headers and body come back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import proxy from '@fastify/http-proxy';
import enclave from 'enclavejs';

describe('@fastify/http-proxy', () => {
  const upstream = enclave();
  let origin = '';

  before(async () => {
    upstream.get('/v1/books/:id', async (request: any, reply) => {
      reply.header('x-upstream', 'yes');
      return { id: request.params.id, query: request.query };
    });
    upstream.post('/v1/books', async (request: any, reply) => reply.code(201).send({ created: request.body }));
    origin = await upstream.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => upstream.close());

  test('GET and POST under the prefix reach the upstream with the prefix rewritten', async () => {
    const app = enclave();
    await app.register(proxy, { upstream: origin, prefix: '/api', rewritePrefix: '/v1' });
    app.get('/local', async () => 'not proxied');

    const read = await app.inject('/api/books/7?fields=title');
    assert.equal(read.statusCode, 200);
    assert.equal(read.headers['x-upstream'], 'yes');
    assert.deepEqual(read.json(), { id: '7', query: { fields: 'title' } });

    const created = await app.inject({ method: 'POST', url: '/api/books', payload: { title: 'Kindred' } });
    assert.equal(created.statusCode, 201);
    assert.deepEqual(created.json(), { created: { title: 'Kindred' } });

    assert.equal((await app.inject('/local')).body, 'not proxied');
    assert.equal((await app.inject('/api/nothing-here')).statusCode, 404);
    await app.close();
  });
});
