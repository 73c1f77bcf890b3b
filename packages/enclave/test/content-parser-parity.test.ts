// Issue 17: content-type parser behaviour Fastify's parser tests expect — the order of
// addContentTypeParser's checks, whose bodyLimit wins, an empty DELETE with a Content-Type.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

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
