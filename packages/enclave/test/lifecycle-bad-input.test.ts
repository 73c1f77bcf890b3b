// SPEC §4.7, §4.10, §11: each class of bad input gets its status and code, and the server keeps
// serving afterwards. Socket-level cases (streamed bodies, lying Content-Length) use real sockets.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import enclave from 'enclavejs';

function buildApp() {
  const app = enclave({ bodyLimit: 1024 });
  app.post('/echo', async (request) => ({ body: request.body }));
  app.get('/users/:id', async (request) => request.params);
  app.get('/ok', async () => ({ ok: true }));
  return app;
}

async function assertStillServes(app: ReturnType<typeof enclave>) {
  const good = await app.inject({ method: 'POST', url: '/echo', payload: { fine: true } });
  assert.equal(good.statusCode, 200);
  assert.deepEqual(good.json(), { body: { fine: true } });
}

describe('bad inputs in-process', () => {
  const app = buildApp();
  after(() => app.close());

  const cases: Array<{ name: string; request: Record<string, unknown>; status: number; code: string }> = [
    {
      name: 'malformed JSON',
      request: { method: 'POST', url: '/echo', payload: '{"a":', headers: { 'content-type': 'application/json' } },
      status: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    },
    {
      name: 'empty JSON body',
      request: { method: 'POST', url: '/echo', payload: '', headers: { 'content-type': 'application/json' } },
      status: 400,
      code: 'FST_ERR_CTP_EMPTY_JSON_BODY',
    },
    {
      name: 'prototype poisoning',
      request: { method: 'POST', url: '/echo', payload: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } },
      status: 400,
      code: '',
    },
    {
      name: 'unsupported media type',
      request: { method: 'POST', url: '/echo', payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      status: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    },
    {
      name: 'malformed media type',
      request: { method: 'POST', url: '/echo', payload: '{}', headers: { 'content-type': 'application/json garbage/' } },
      status: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    },
    {
      name: 'media type without subtype',
      request: { method: 'POST', url: '/echo', payload: '{}', headers: { 'content-type': 'application' } },
      status: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    },
    {
      name: 'prototype key as media type',
      request: { method: 'POST', url: '/echo', payload: '{}', headers: { 'content-type': 'constructor' } },
      status: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    },
    {
      name: 'declared body over the limit',
      request: { method: 'POST', url: '/echo', payload: JSON.stringify({ big: 'x'.repeat(2000) }), headers: { 'content-type': 'application/json' } },
      status: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    },
    {
      name: 'Content-Length that disagrees with the body',
      request: { method: 'POST', url: '/echo', payload: '{"a":1}', headers: { 'content-type': 'application/json', 'content-length': '50' } },
      status: 400,
      code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
    },
    {
      name: 'Content-Length that is not a number',
      request: { method: 'POST', url: '/echo', payload: '{"a":1}', headers: { 'content-type': 'application/json', 'content-length': 'abc' } },
      status: 400,
      code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
    },
    { name: 'parameter over maxParamLength', request: { method: 'GET', url: `/users/${'a'.repeat(101)}` }, status: 414, code: 'FST_ERR_MAX_PARAM_LENGTH' },
    { name: 'bad URL encoding', request: { method: 'GET', url: '/users/%E0%A4%A' }, status: 400, code: 'FST_ERR_BAD_URL' },
    { name: 'bad URL encoding (lone percent)', request: { method: 'GET', url: '/users/%' }, status: 400, code: 'FST_ERR_BAD_URL' },
  ];

  for (const { name, request, status, code } of cases) {
    test(`${name} → ${status}${code ? ` ${code}` : ''}, then a good request still works`, async () => {
      const response = await app.inject(request as any);
      assert.equal(response.statusCode, status);
      const body = response.json();
      assert.equal(body.statusCode, status);
      if (code) assert.equal(body.code, code);
      assert.equal(typeof body.message, 'string');
      await assertStillServes(app);
    });
  }

  test('a querystring parser that throws → 400 through the error handler; a genReqId that throws → 500; no crash', async () => {
    const parsing = enclave({
      querystringParser: (text) => {
        if (text.includes('bad')) throw new Error('unparseable query');
        return Object.fromEntries(new URLSearchParams(text));
      },
    });
    parsing.get('/q', async (request) => request.query);
    const bad = await parsing.inject('/q?bad');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().message, 'unparseable query');
    assert.equal((await parsing.inject('/nowhere?bad')).statusCode, 400);
    assert.deepEqual((await parsing.inject('/q?a=1')).json(), { a: '1' });

    let calls = 0;
    const ids = enclave({
      genReqId: () => {
        if (calls++ === 0) throw new Error('no id');
        return 'id';
      },
    });
    ids.get('/', async () => 'ok');
    assert.equal((await ids.inject('/')).statusCode, 500);
    assert.equal((await ids.inject('/')).body, 'ok');
  });

  test('a parameter exactly at maxParamLength is fine', async () => {
    const response = await app.inject(`/users/${'a'.repeat(100)}`);
    assert.equal(response.statusCode, 200);
  });

  test('maxParamLength is configurable', async () => {
    const small = enclave({ maxParamLength: 5 });
    small.get('/p/:id', async (request) => request.params);
    assert.equal((await small.inject('/p/12345')).statusCode, 200);
    assert.equal((await small.inject('/p/123456')).statusCode, 414);
  });

  test('a per-route bodyLimit overrides the application one', async () => {
    const limited = enclave({ bodyLimit: 1024 });
    limited.post('/small', { bodyLimit: 10 }, async () => 'ok');
    limited.post('/large', { bodyLimit: 4096 }, async () => 'ok');
    const payload = JSON.stringify({ data: 'x'.repeat(2000) });
    const headers = { 'content-type': 'application/json' };
    assert.equal((await limited.inject({ method: 'POST', url: '/small', payload: '{"a":"0123456789"}', headers })).statusCode, 413);
    assert.equal((await limited.inject({ method: 'POST', url: '/large', payload, headers })).statusCode, 200);
  });
});

/** Sends raw bytes and resolves with what the server wrote before closing (or a short wait). */
function rawExchange(port: number, data: string | Buffer, options: { halfClose?: boolean; waitMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, options.waitMs ?? 1000);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (received) resolve(received);
      else reject(error);
    });
    socket.write(data, () => {
      if (options.halfClose) socket.end();
    });
  });
}

describe('bad inputs over a real socket', () => {
  const app = buildApp();
  let port = 0;
  let address = '';
  before(async () => {
    address = await app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });
  after(() => app.close());

  async function assertServesOverSocket() {
    const response = await fetch(`${address}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fine: true }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { body: { fine: true } });
  }

  test('a chunked body streamed past the limit → 413, then a good request works', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${address}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on('error', (error) => reject(error));
      request.write('{"big":"');
      let sent = 0;
      const pump = () => {
        while (sent < 64 * 1024) {
          sent += 512;
          if (!request.write('x'.repeat(512))) {
            request.once('drain', pump);
            return;
          }
        }
        request.end('"}');
      };
      pump();
    }).catch((error) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? -1 : Promise.reject(error)));
    assert.equal(status, 413);
    await assertServesOverSocket();
  });

  test('a declared Content-Length over the limit → 413 without reading the body', async () => {
    const reply = await rawExchange(port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"a":');
    assert.match(reply, /^HTTP\/1\.1 413 /);
    await assertServesOverSocket();
  });

  // Over a socket, Node's HTTP parser enforces Content-Length itself: a lying length never
  // reaches the body reader, the client gets a 400 and the connection is closed.
  test('a Content-Length larger than the bytes sent → 400 once the client stops sending', async () => {
    const reply = await rawExchange(port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":1}', {
      halfClose: true,
    });
    assert.match(reply, /^HTTP\/1\.1 400 /);
    await assertServesOverSocket();
  });

  test('a Content-Length smaller than the bytes sent: the extra bytes are never a body or a request', async () => {
    const reply = await rawExchange(
      port,
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}{"smuggled":true}',
    );
    assert.match(reply, /^HTTP\/1\.1 (200|400) /);
    assert.doesNotMatch(reply, /smuggled/);
    await assertServesOverSocket();
  });

  test('Content-Length with Transfer-Encoding, or two different Content-Lengths → 400', async () => {
    const both = await rawExchange(
      port,
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n0\r\n\r\n',
    );
    assert.match(both, /^HTTP\/1\.1 400 /);
    const twice = await rawExchange(
      port,
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nContent-Length: 9\r\n\r\n{"a":1}',
    );
    assert.match(twice, /^HTTP\/1\.1 400 /);
    await assertServesOverSocket();
  });

  test('bad URL encoding and an over-long parameter over the socket', async () => {
    const badUrl = await rawExchange(port, 'GET /users/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(badUrl, /^HTTP\/1\.1 400 /);
    const tooLong = await rawExchange(port, `GET /users/${'a'.repeat(200)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.match(tooLong, /^HTTP\/1\.1 414 /);
    await assertServesOverSocket();
  });

  test('garbage that is not HTTP gets a 400 from the parser and the server lives on', async () => {
    const reply = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n');
    assert.match(reply, /^HTTP\/1\.1 400 /);
    await assertServesOverSocket();
  });
});
