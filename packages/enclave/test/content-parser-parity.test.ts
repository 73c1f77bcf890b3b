// Issue 17: content-type parser behaviour Fastify's parser tests expect — the order of
// addContentTypeParser's checks, whose bodyLimit wins, an empty DELETE with a Content-Type.
import assert from 'node:assert/strict';
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

const ok = async () => ({ ok: true });

test('addContentTypeParser checks the parser before whether the string is a media type', () => {
  const app = enclave();
  assert.throws(() => app.addContentTypeParser('not-a-media-type', null as never), { code: 'FST_ERR_CTP_INVALID_HANDLER' });
  assert.throws(() => app.addContentTypeParser('not-a-media-type', async () => 1), { code: 'FST_ERR_CTP_INVALID_TYPE' });
  assert.throws(() => app.addContentTypeParser(42 as never, null as never), { code: 'FST_ERR_CTP_INVALID_TYPE' });
});

describe('bodyLimit', () => {
  const payload = '1234567890';
  const headers = { 'content-type': 'x/foo' };

  test("a route's own bodyLimit wins over the parser's", async () => {
    const app = enclave();
    let parsed = 0;
    app.addContentTypeParser('x/foo', { parseAs: 'string', bodyLimit: 100 }, async (_request: unknown, body: string) => {
      parsed++;
      return body;
    });
    app.post('/', { bodyLimit: 5 }, async (request) => request.body);
    const response = await app.inject({ method: 'POST', url: '/', payload, headers });
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE');
    assert.equal(parsed, 0);
  });

  test("the parser's wins over the application's when the route sets none", async () => {
    const app = enclave({ bodyLimit: 5 });
    app.addContentTypeParser('x/foo', { parseAs: 'string', bodyLimit: 100 }, async (_request: unknown, body: string) => body);
    app.post('/', async (request) => request.body);
    const response = await app.inject({ method: 'POST', url: '/', payload, headers });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, payload);
  });
});

test('an empty DELETE with a Content-Type (clients send no Content-Length) goes through its parser', async () => {
  const app = enclave();
  const seen: unknown[] = [];
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, async (_request: unknown, body: string) => {
    seen.push(body);
    return body;
  });
  app.delete('/', async (request) => ({ body: request.body }));
  const response = await app.inject({ method: 'DELETE', url: '/', headers: { 'content-type': 'text/plain' } });
  assert.deepEqual(response.json(), { body: '' });
  assert.deepEqual(seen, ['']);
});

test('a request for no route: a body no parser takes is skipped (404), a Content-Type that is no media type is 415', async () => {
  const app = enclave();
  app.get('/', ok);
  const unparsed = await app.inject({ method: 'PUT', url: '/missing', payload: 'hello', headers: { 'content-type': 'application/x-nothing' } });
  assert.equal(unparsed.statusCode, 404);
  const malformed = await app.inject({ method: 'PUT', url: '/missing', payload: 'hello', headers: { 'content-type': 'undefined' } });
  assert.equal(malformed.statusCode, 415);
  assert.equal(malformed.json().code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
});

test('a QUERY request without a Content-Type is 400 FST_ERR_ROUTE_MISSING_CONTENT_TYPE (RFC 10008)', async () => {
  const app = enclave();
  app.query('/search', async (request) => ({ body: request.body }));
  const response = await app.inject({ method: 'QUERY' as never, url: '/search', payload: '{"q":1}' });
  assert.equal(response.statusCode, 400);
  assert.deepEqual(response.json(), {
    statusCode: 400,
    code: 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE',
    error: 'Bad Request',
    message: "Method 'QUERY' must provide a 'Content-Type' header.",
  });
  const typed = await app.inject({ method: 'QUERY' as never, url: '/search', payload: '{"q":1}', headers: { 'content-type': 'application/json' } });
  assert.deepEqual(typed.json(), { body: { q: 1 } });
});

test("a parser calling done from another async context: the request goes on in its own (AsyncLocalStorage)", async () => {
  const storage = new AsyncLocalStorage<string>();
  const elsewhere = new AsyncResource('elsewhere');
  const app = enclave();
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run(String(request.headers['x-id']), done);
  });
  app.addContentTypeParser('x/later', { parseAs: 'string' }, (_request: unknown, body: string, done: (err: Error | null, value?: unknown) => void) => {
    elsewhere.runInAsyncScope(() => setImmediate(() => (body === 'fail' ? done(new Error('parser failed')) : done(null, body))));
  });
  app.setErrorHandler((error, _request, reply) => {
    reply.code(400).send({ error: error.message, id: storage.getStore() ?? null });
  });
  app.post('/', async (request) => ({ body: request.body, id: storage.getStore() ?? null }));
  const send = (id: string) => app.inject({ method: 'POST', url: '/', payload: id, headers: { 'content-type': 'x/later', 'x-id': id } });
  const [first, failing] = await Promise.all([send('first'), send('fail')]);
  assert.deepEqual(first.json(), { body: 'first', id: 'first' });
  assert.deepEqual(failing.json(), { error: 'parser failed', id: 'fail' });
  elsewhere.emitDestroy();
});
