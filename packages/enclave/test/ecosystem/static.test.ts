// Issue 9: the real @fastify/static, unmodified, on Enclave. It adds wildcard routes, streams
// files with reply.send(stream), hands misses to reply.callNotFound(), sends @fastify/send's
// errors (416 with a Content-Range header) through the error handler, and decorates the reply
// with sendFile/download.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import enclave from 'enclavejs';

const root = fileURLToPath(new URL('./fixtures/public/', import.meta.url));
const hello = readFileSync(`${root}hello.txt`);

describe('@fastify/static', () => {
  test('serves a file with its content type, length, ETag and Last-Modified', async () => {
    const app = enclave();
    await app.register(fastifyStatic, { root, prefix: '/assets/' });

    const response = await app.inject({ url: '/assets/hello.txt' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, hello.toString());
    assert.equal(response.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(response.headers['content-length'], String(hello.length));
    assert.equal(response.headers['accept-ranges'], 'bytes');
    assert.ok(response.headers.etag);
    assert.ok(response.headers['last-modified']);

    const cached = await app.inject({ url: '/assets/hello.txt', headers: { 'if-none-match': String(response.headers.etag) } });
    assert.equal(cached.statusCode, 304);
    assert.equal(cached.body, '');
    await app.close();
  });

  test('a directory serves its index.html; a directory without a slash redirects', async () => {
    const app = enclave();
    await app.register(fastifyStatic, { root, prefix: '/site/', redirect: true });

    const index = await app.inject({ url: '/site/' });
    assert.equal(index.statusCode, 200);
    assert.match(index.body, /Enclave static fixture/);
    assert.equal(index.headers['content-type'], 'text/html; charset=utf-8');
    const redirect = await app.inject({ url: '/site/docs' });
    assert.equal(redirect.statusCode, 301);
    assert.equal(redirect.headers.location, '/site/docs/');
    const docs = await app.inject({ url: '/site/docs/' });
    assert.match(docs.body, /docs/);
    await app.close();
  });

  test('a missing file, a dotfile and a path escaping the root answer with the not-found handler', async () => {
    const app = enclave();
    app.setNotFoundHandler((request, reply) => reply.code(404).send({ missing: request.url }));
    await app.register(fastifyStatic, { root, dotfiles: 'ignore' });

    for (const url of ['/nope.txt', '/.env', '/../package.json', '/%2e%2e/package.json']) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.body.includes('not for the public'), false);
    }
    assert.deepEqual((await app.inject({ url: '/nope.txt' })).json(), { missing: '/nope.txt' });
    await app.close();
  });

  test('range requests: 206 with Content-Range, 416 when unsatisfiable', async () => {
    const app = enclave();
    await app.register(fastifyStatic, { root });

    const partial = await app.inject({ url: '/hello.txt', headers: { range: 'bytes=0-4' } });
    assert.equal(partial.statusCode, 206);
    assert.equal(partial.body, hello.subarray(0, 5).toString());
    assert.equal(partial.headers['content-range'], `bytes 0-4/${hello.length}`);
    assert.equal(partial.headers['content-length'], '5');

    const suffix = await app.inject({ url: '/hello.txt', headers: { range: 'bytes=-6' } });
    assert.equal(suffix.statusCode, 206);
    assert.equal(suffix.body, hello.subarray(hello.length - 6).toString());

    const outside = await app.inject({ url: '/hello.txt', headers: { range: 'bytes=5000-6000' } });
    assert.equal(outside.statusCode, 416);
    assert.equal(outside.headers['content-range'], `bytes */${hello.length}`);
    await app.close();
  });

  test('HEAD answers the headers of the file without a body', async () => {
    const app = enclave();
    await app.register(fastifyStatic, { root });
    const response = await app.inject({ method: 'HEAD', url: '/hello.txt' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '');
    assert.equal(response.headers['content-length'], String(hello.length));
    await app.close();
  });

  test('reply.sendFile and reply.download from a route, with setHeaders', async () => {
    const app = enclave();
    await app.register(fastifyStatic, { root, serve: false, setHeaders: (reply: any) => reply.header('x-served-by', 'static') });
    app.get('/greeting', (_request, reply: any) => reply.sendFile('hello.txt'));
    app.get('/export', (_request, reply: any) => reply.download('hello.txt', 'greeting.txt'));

    assert.equal((await app.inject({ url: '/hello.txt' })).statusCode, 404, 'serve: false adds no routes');
    const sent = await app.inject({ url: '/greeting' });
    assert.equal(sent.statusCode, 200);
    assert.equal(sent.body, hello.toString());
    assert.equal(sent.headers['x-served-by'], 'static');
    const download = await app.inject({ url: '/export' });
    assert.equal(download.headers['content-disposition'], 'attachment; filename=greeting.txt');
    assert.equal(download.body, hello.toString());
    await app.close();
  });

  test('two roots side by side with decorateReply: false on the second', async () => {
    const app = enclave();
    await app.register(fastifyStatic, { root, prefix: '/a/' });
    await app.register(fastifyStatic, { root: `${root}docs`, prefix: '/b/', decorateReply: false });
    assert.equal((await app.inject({ url: '/a/hello.txt' })).statusCode, 200);
    assert.match((await app.inject({ url: '/b/index.html' })).body, /docs/);
    await app.close();
  });

  test('a 74 KB file streams through a real socket intact, also as a range', async () => {
    const app = enclave();
    await app.register(fastifyStatic, { root });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const large = readFileSync(`${root}large.txt`);
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number | undefined; body: Buffer }>((resolve, reject) => {
        http
          .get(`${address}/large.txt`, { headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });

    const whole = await get({});
    assert.equal(whole.status, 200);
    assert.ok(whole.body.equals(large));
    const part = await get({ range: 'bytes=1000-60999' });
    assert.equal(part.status, 206);
    assert.ok(part.body.equals(large.subarray(1000, 61000)));
    await app.close();
  });
});
