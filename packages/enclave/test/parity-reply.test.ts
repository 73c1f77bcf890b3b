// Issue 20: replies written the way Fastify 5 writes them, because plugins set these headers and
// payloads on purpose (@fastify/cors' 204 preflight, @fastify/etag's 304, @fastify/static's
// missing file, Fetch API responses from @fastify/compress users).
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ReadableStream } from 'node:stream/web';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

describe('204 and 304 headers as Fastify writes them', () => {
  test('a 204 without a payload keeps the Content-Length and Content-Type a plugin set', async () => {
    const app = enclave();
    app.options('/', async (_request, reply) => {
      reply.header('content-length', '0').header('content-type', 'text/plain').code(204);
      return reply.send();
    });
    const response = await app.inject({ method: 'OPTIONS', url: '/' });
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['content-length'], '0');
    assert.equal(response.headers['content-type'], 'text/plain');
    assert.equal(response.body, '');
  });

  test('a 304 with an empty string payload announces Content-Length: 0', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => reply.code(304).send(''));
    const response = await app.inject('/');
    assert.equal(response.statusCode, 304);
    assert.equal(response.headers['content-length'], '0');
    assert.equal(response.body, '');
  });

  test('a 304 without a payload gets no Content-Length added', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => reply.code(304).send());
    const response = await app.inject('/');
    assert.equal(response.headers['content-length'], undefined);
  });

  test('a 204 with a payload drops the payload and the headers that would describe it', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => reply.code(204).header('content-length', '9').send('discarded'));
    const response = await app.inject('/');
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['content-length'], undefined);
    assert.equal(response.headers['content-type'], undefined);
    assert.equal(response.body, '');
  });
});

test('a stream sent with a 204 is drained, not destroyed: it still ends', async () => {
  const app = enclave();
  let ended = false;
  app.get('/', async (_request, reply) => {
    const source = Readable.from(['unused']);
    source.on('end', () => {
      ended = true;
    });
    return reply.code(204).send(source);
  });
  const response = await app.inject('/');
  assert.equal(response.statusCode, 204);
  assert.equal(response.body, '');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(ended, true);
});

describe('a stream that fails before its first byte', () => {
  test('reaches the error handler, which answers instead of a reset socket', async () => {
    const app = enclave();
    const seen: string[] = [];
    app.setErrorHandler((error: any, _request, reply) => {
      seen.push(error.message);
      reply.code(404).send({ missing: true });
    });
    app.get('/', async (_request, reply) => {
      const failing = new Readable({
        read() {
          this.destroy(Object.assign(new Error('no such file'), { code: 'ENOENT' }));
        },
      });
      return reply.header('content-length', '100').type('text/css').send(failing);
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { missing: true });
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(response.headers['content-length'], String(response.body.length));
    assert.deepEqual(seen, ['no such file']);
  });
});

describe('Fetch API payloads', () => {
  test('reply.send(new Response(...)) sends its status, headers and body', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) =>
      reply.send(new Response('made with fetch', { status: 201, headers: { 'x-origin': 'fetch', 'content-type': 'text/x-fetch' } })),
    );
    const response = await app.inject('/');
    assert.equal(response.statusCode, 201);
    assert.equal(response.headers['x-origin'], 'fetch');
    assert.equal(response.headers['content-type'], 'text/x-fetch');
    assert.equal(response.body, 'made with fetch');
  });

  test('a handler may return a Response; onSend hooks see the Response itself', async () => {
    const app = enclave();
    const seen: string[] = [];
    app.addHook('onSend', async (_request, _reply, payload) => {
      seen.push(Object.prototype.toString.call(payload));
    });
    app.get('/', async () => Response.json({ ok: true }, { status: 202 }));
    const response = await app.inject('/');
    assert.equal(response.statusCode, 202);
    assert.deepEqual(response.json(), { ok: true });
    assert.deepEqual(seen, ['[object Response]']);
  });

  test('a Response without a body sends its status and headers only', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => reply.send(new Response(null, { status: 204, headers: { 'x-empty': 'yes' } })));
    const response = await app.inject('/');
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['x-empty'], 'yes');
    assert.equal(response.body, '');
  });

  test('a Response whose body was already read is FST_ERR_REP_RESPONSE_BODY_CONSUMED', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => {
      const used = new Response('once');
      await used.text();
      return reply.send(used);
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().code, 'FST_ERR_REP_RESPONSE_BODY_CONSUMED');
  });

  test('a WHATWG ReadableStream payload is streamed', async () => {
    const app = enclave();
    const encoder = new TextEncoder();
    app.get('/', async (_request, reply) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode('web '));
          controller.enqueue(encoder.encode('stream'));
          controller.close();
        },
      });
      return reply.type('text/plain').send(body);
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, 'web stream');
  });

  test('a locked ReadableStream is FST_ERR_REP_READABLE_STREAM_LOCKED', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => {
      const body = new ReadableStream({ start: (controller) => controller.close() });
      body.getReader();
      return reply.send(body);
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    // The client reads this message: it is Fastify's, word for word.
    assert.deepEqual(response.json(), {
      statusCode: 500,
      code: 'FST_ERR_REP_READABLE_STREAM_LOCKED',
      error: 'Internal Server Error',
      message: 'ReadableStream was locked. You should call releaseLock() method on reader before sending.',
    });
  });
});
