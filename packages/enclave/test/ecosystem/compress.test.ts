// Issue 9: the real @fastify/compress, unmodified, on Enclave. It adds an onSend hook to each
// route from `onRoute`, reads and rewrites headers with getHeader/header/removeHeader, and
// replaces the payload with a Buffer or a compression stream. Request bodies are decompressed
// from a preParsing hook that returns a new stream.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import enclave from 'enclavejs';

const report = { title: 'quarterly report', rows: Array.from({ length: 200 }, (_, index) => ({ index, label: `row ${index}` })) };
const reportJson = JSON.stringify(report);

async function buildApp(options: Record<string, unknown> = {}) {
  const app = enclave();
  await app.register(compress, options);
  app.get('/report', async () => report);
  app.get('/tiny', async () => ({ ok: true }));
  app.get('/text-stream', async (_request, reply) => reply.type('text/plain').send(Readable.from(['chunk '.repeat(500)])));
  app.get('/image', async (_request, reply) => reply.type('image/png').send(Buffer.alloc(4096, 7)));
  return app;
}

describe('@fastify/compress', () => {
  test('gzip, deflate and br are chosen from Accept-Encoding', async () => {
    const app = await buildApp();
    const decoders: Record<string, (body: Buffer) => Buffer> = {
      gzip: zlib.gunzipSync,
      deflate: zlib.inflateSync,
      br: zlib.brotliDecompressSync,
    };
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const response = await app.inject({ url: '/report', headers: { 'accept-encoding': encoding } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-encoding'], encoding);
      assert.equal(response.headers.vary, 'accept-encoding');
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      const decoded = decoders[encoding]!(response.rawPayload);
      assert.equal(decoded.toString(), reportJson);
      assert.ok(response.rawPayload.length < reportJson.length);
      assert.equal(response.headers['content-length'], String(response.rawPayload.length));
    }
    await app.close();
  });

  test('q-values pick the preferred encoding; identity or none leaves the body alone', async () => {
    const app = await buildApp();
    const preferred = await app.inject({ url: '/report', headers: { 'accept-encoding': 'br;q=0.2, gzip;q=0.9' } });
    assert.equal(preferred.headers['content-encoding'], 'gzip');
    const identity = await app.inject({ url: '/report', headers: { 'accept-encoding': 'identity' } });
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.equal(identity.body, reportJson);
    const none = await app.inject({ url: '/report' });
    assert.equal(none.headers['content-encoding'], undefined);
    assert.equal(none.body, reportJson);
    await app.close();
  });

  test('small payloads, non-compressible types and x-no-compression are sent as is', async () => {
    const app = await buildApp();
    const tiny = await app.inject({ url: '/tiny', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(tiny.headers['content-encoding'], undefined, 'under the 1024-byte threshold');
    assert.deepEqual(tiny.json(), { ok: true });
    const image = await app.inject({ url: '/image', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(image.headers['content-encoding'], undefined);
    assert.equal(image.rawPayload.length, 4096);
    const optOut = await app.inject({ url: '/report', headers: { 'accept-encoding': 'gzip', 'x-no-compression': '1' } });
    assert.equal(optOut.headers['content-encoding'], undefined);
    await app.close();
  });

  test('a stream payload is compressed as a stream, without Content-Length', async () => {
    const app = await buildApp();
    const response = await app.inject({ url: '/text-stream', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(response.headers['content-encoding'], 'gzip');
    assert.equal(response.headers['content-length'], undefined);
    assert.equal(zlib.gunzipSync(response.rawPayload).toString(), 'chunk '.repeat(500));
    await app.close();
  });

  test('route option `compress: false`, and global: false with reply.compress()', async () => {
    const app = enclave();
    await app.register(compress, { global: false });
    app.get('/auto', async () => report);
    app.get('/manual', async (_request, reply: any) => reply.type('application/json').compress(reportJson));

    const auto = await app.inject({ url: '/auto', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(auto.headers['content-encoding'], undefined);
    const manual = await app.inject({ url: '/manual', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(manual.headers['content-encoding'], 'gzip');
    assert.equal(zlib.gunzipSync(manual.rawPayload).toString(), reportJson);

    const other = enclave();
    await other.register(compress);
    other.get('/off', { compress: false } as any, async () => report);
    assert.equal((await other.inject({ url: '/off', headers: { 'accept-encoding': 'gzip' } })).headers['content-encoding'], undefined);
    await app.close();
    await other.close();
  });

  test('a gzip request body is decompressed before JSON parsing and validation', async () => {
    const app = enclave();
    await app.register(compress);
    app.post('/echo', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } }, async (request) => request.body);

    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: zlib.gzipSync(JSON.stringify({ n: 7 })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { n: 7 });

    const unknown = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: '{"n":1}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
    });
    assert.equal(unknown.statusCode, 415);
    assert.equal(unknown.json().code, 'FST_CP_ERR_INVALID_CONTENT_ENCODING');
    await app.close();
  });

  test('files from @fastify/static are compressed through a real socket, without listener warnings', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const app = enclave();
    await app.register(compress);
    await app.register(fastifyStatic, { root: fileURLToPath(new URL('./fixtures/public/', import.meta.url)) });
    // multipart watches every response's 'close' too: three plugins on one streamed response.
    await app.register(multipart);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });

    const { headers, body } = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${address}/large.txt`, { headers: { 'accept-encoding': 'br' } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
    assert.equal(headers['content-encoding'], 'br');
    const original = readFileSync(new URL('./fixtures/public/large.txt', import.meta.url));
    assert.ok(zlib.brotliDecompressSync(body).equals(original));
    assert.ok(body.length < original.length / 4);
    await app.close();
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    assert.deepEqual(warnings, []);
  });
});
