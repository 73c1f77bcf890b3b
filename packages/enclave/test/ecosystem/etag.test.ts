// Issue 20: the real @fastify/etag, unmodified, on Enclave. An onSend hook hashes the payload
// into an ETag and answers a matching If-None-Match with a 304 whose empty payload Fastify
// writes with `Content-Length: 0`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import etag from '@fastify/etag';
import enclave from 'enclavejs';

describe('@fastify/etag', () => {
  test('a response gets an ETag; a request with that ETag gets an empty 304', async () => {
    const app = enclave();
    await app.register(etag);
    app.get('/doc', async () => ({ title: 'cached' }));

    const first = await app.inject('/doc');
    assert.equal(first.statusCode, 200);
    const tag = first.headers.etag as string;
    assert.match(tag, /^"[^"]+"$/);

    const again = await app.inject({ url: '/doc', headers: { 'if-none-match': tag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers['content-length'], '0');
    assert.equal(again.headers.etag, tag);
    await app.close();
  });

  test('a changed body gets a new ETag; weak tags are marked W/', async () => {
    const app = enclave();
    await app.register(etag, { weak: true });
    let version = 1;
    app.get('/doc', async () => ({ version }));
    const before = (await app.inject('/doc')).headers.etag as string;
    version = 2;
    const after = await app.inject({ url: '/doc', headers: { 'if-none-match': before } });
    assert.equal(after.statusCode, 200);
    assert.match(after.headers.etag as string, /^W\/"/);
    assert.notEqual(after.headers.etag, before);
    await app.close();
  });
});
