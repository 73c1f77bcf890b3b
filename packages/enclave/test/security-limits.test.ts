// SPEC §4.7, §4.10, §11, docs/security.md: size limits. Body limits (declared, chunked, and
// decoded after a preParsing gunzip), Content-Length that lies, header and URL size, parameter
// length, and router ReDoS on multi-parameter segments. Real sockets where the bytes matter.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGunzip, gzipSync } from 'node:zlib';
import enclave from 'enclavejs';
import { hasJsonResponse, portOf, rawExchange } from './security-helpers.ts';

const json = { 'content-type': 'application/json' };

/** One app on a real socket for the whole file: limits are per route. */
let app: any;
let port: number;
before(async () => {
  app = enclave();
  app.post('/echo', async (request: any) => ({ size: JSON.stringify(request.body).length }));
  app.post('/small', { bodyLimit: 1000 }, async (request: any) => ({ size: String(request.body).length }));
  app.post(
    '/gzip',
    {
      bodyLimit: 10_000,
      preParsing: async (request: any, _reply: any, payload: any) => (request.headers['content-encoding'] === 'gzip' ? payload.pipe(createGunzip()) : payload),
    },
    async (request: any) => ({ size: JSON.stringify(request.body).length }),
  );
  app.get('/ok', async () => 'ok');
  app.get('/user/:id', async (request: any) => ({ length: request.params.id.length }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = portOf(app);
});
after(() => app.close());

/** The server still answers a plain request on a fresh connection. */
async function assertStillServing() {
  const exchange = await rawExchange(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.equal(exchange.status, 200, `the server stopped serving: ${exchange.text}`);
}

describe('body limits', () => {
  test('a declared Content-Length over the limit is 413 before the body is sent', async () => {
    // The client sends headers only: waiting for the body would end in a client timeout.
    const exchange = await rawExchange(port, 'POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 50000000\r\n\r\n', {
      timeoutMs: 2000,
      stopWhen: hasJsonResponse,
    });
    assert.equal(exchange.status, 413, exchange.text);
    assert.match(exchange.text, /FST_ERR_CTP_BODY_TOO_LARGE/);
    await assertStillServing();
  });

  test('a chunked body is 413 once the bytes received pass the limit', async () => {
    const chunk = 'a'.repeat(400);
    const chunks = [`POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`];
    for (let index = 0; index < 5; index++) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    chunks.push('0\r\n\r\n');
    const exchange = await rawExchange(port, chunks, { delayMs: 5 });
    assert.equal(exchange.status, 413, exchange.text);
    const within = await rawExchange(port, [chunks[0] as string, `${chunk.length.toString(16)}\r\n${chunk}\r\n`, '0\r\n\r\n']);
    assert.equal(within.status, 200, within.text);
  });

  test('the limit applies to the decoded body after a preParsing gunzip (a small gzip bomb is 413)', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ data: 'a'.repeat(5_000_000) })));
    assert.ok(bomb.length < 10_000, 'the compressed body is itself under the limit');
    const response = await app.inject({ method: 'POST', url: '/gzip', headers: { ...json, 'content-encoding': 'gzip' }, payload: bomb });
    assert.equal(response.statusCode, 413, response.body);
    assert.equal(response.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE');
    const fine = await app.inject({ method: 'POST', url: '/gzip', headers: { ...json, 'content-encoding': 'gzip' }, payload: gzipSync('{"a":1}') });
    assert.equal(fine.statusCode, 200, fine.body);
  });

  test('the default limit is 1 MiB', async () => {
    const body = JSON.stringify({ data: 'a'.repeat(1024 * 1024) });
    const response = await app.inject({ method: 'POST', url: '/echo', headers: json, payload: body });
    assert.equal(response.statusCode, 413);
  });
});

describe('Content-Length that lies', () => {
  test('a non-numeric Content-Length is 400 (from the framework in-process, from the HTTP parser on a socket)', async () => {
    for (const length of ['1e1', '-1', '0x10', '7,7', 'seven']) {
      const response = await app.inject({ method: 'POST', url: '/echo', headers: { ...json, 'content-length': length }, payload: '{"a":1}' });
      assert.equal(response.statusCode, 400, `${length}: ${response.body}`);
      assert.equal(response.json().code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
      const exchange = await rawExchange(port, `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"a":1}`);
      assert.equal(exchange.status, 400, `${length}: ${exchange.text}`);
    }
    await assertStillServing();
  });

  test('a Content-Length longer than the body is 400', async () => {
    const response = await app.inject({ method: 'POST', url: '/echo', headers: { ...json, 'content-length': '100' }, payload: '{"a":1}' });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
    // On a socket: the client stops sending (half-close) before the declared length.
    const exchange = await rawExchange(port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1}', {
      halfClose: true,
    });
    assert.equal(exchange.status, 400, exchange.text);
  });

  test('a Content-Length shorter than the body is 400', async () => {
    const response = await app.inject({ method: 'POST', url: '/echo', headers: { ...json, 'content-length': '3' }, payload: '{"a":1}' });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
    // On a socket the parser cuts the body at 3 bytes: the first request is invalid JSON and the
    // rest is not a request; both are 400, never smuggled through as a request of their own.
    const exchange = await rawExchange(
      port,
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{"a":1}GET /ok HTTP/1.1\r\n\r\n',
    );
    assert.ok(exchange.statuses.length > 0 && exchange.statuses.every((status) => status === 400), exchange.text);
  });

  test('two Content-Lengths, or Content-Length with Transfer-Encoding, are refused by the HTTP parser', async () => {
    for (const headers of ['Content-Length: 7\r\nContent-Length: 8', 'Content-Length: 7\r\nTransfer-Encoding: chunked']) {
      const exchange = await rawExchange(port, `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n\r\n{"a":1}`);
      assert.equal(exchange.status, 400, `${headers}: ${exchange.text}`);
    }
    await assertStillServing();
  });
});

describe('header and URL size', () => {
  test("headers past Node's maxHeaderSize (16 KiB) are 431", async () => {
    const exchange = await rawExchange(port, `GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal(exchange.status, 431, exchange.text);
    await assertStillServing();
  });

  test('a URL past maxHeaderSize is 431', async () => {
    const exchange = await rawExchange(port, `GET /ok?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.equal(exchange.status, 431, exchange.text);
  });

  test('a parameter longer than maxParamLength (100) is 414; 100 characters are fine', async () => {
    const long = await app.inject({ method: 'GET', url: `/user/${'a'.repeat(101)}` });
    assert.equal(long.statusCode, 414, long.body);
    assert.equal(long.json().code, 'FST_ERR_MAX_PARAM_LENGTH');
    const fine = await app.inject({ method: 'GET', url: `/user/${'a'.repeat(100)}` });
    assert.deepEqual(fine.json(), { length: 100 });
  });

  test('maxParamLength is configurable', async () => {
    const small = enclave({ maxParamLength: 8 });
    small.get('/user/:id', async () => 'ok');
    assert.equal((await small.inject({ method: 'GET', url: '/user/123456789' })).statusCode, 414);
    assert.equal((await small.inject({ method: 'GET', url: '/user/12345678' })).statusCode, 200);
  });
});

describe('router ReDoS', () => {
  // Shapes that make a backtracking matcher of `:a-:b-:c` try every split of the segment.
  const adversarial = (length: number) => ['-'.repeat(length), 'a-'.repeat(length / 2), `${'-a'.repeat(length / 2)}!`, `${'a'.repeat(length)}-`];

  test('a multi-parameter segment answers long adversarial paths in bounded time', async () => {
    const wide = enclave({ maxParamLength: 100_000 });
    wide.get('/r/:a-:b-:c', async (request: any) => Object.keys(request.params).length);
    await wide.ready();
    for (const path of adversarial(50_000)) {
      const started = performance.now();
      const response = await wide.inject({ method: 'GET', url: `/r/${path}` });
      const elapsed = performance.now() - started;
      assert.ok([200, 404].includes(response.statusCode), `${path.slice(0, 6)}…: ${response.statusCode}`);
      // Linear matching takes a few ms; a backtracking one takes minutes. 1 s is far from both.
      assert.ok(elapsed < 1000, `${path.slice(0, 6)}… took ${elapsed.toFixed(0)} ms`);
    }
  });

  test('with the default maxParamLength the same paths are cut short with 414', async () => {
    const narrow = enclave();
    narrow.get('/r/:a-:b-:c', async () => 'x');
    for (const path of adversarial(10_000)) {
      const response = await narrow.inject({ method: 'GET', url: `/r/${path}` });
      assert.ok([404, 414].includes(response.statusCode), `${path.slice(0, 6)}…: ${response.statusCode}`);
    }
  });

  test('a route with a catastrophic regular expression is refused unless allowUnsafeRegex is set', async () => {
    const strict = enclave();
    assert.throws(() => strict.get('/:id(^(a+)+$)', async () => 'x'), /not safe/);
    const lax = enclave({ allowUnsafeRegex: true });
    lax.get('/:id(^(a+)+$)', async () => 'x');
    await lax.ready();
  });
});
