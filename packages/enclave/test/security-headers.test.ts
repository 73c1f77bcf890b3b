// SPEC §4.10, §7, §11, docs/security.md: what the server writes and whom it believes. Reply
// headers with CR/LF are refused; forwarded headers are believed only from trusted proxies;
// response schemas cannot smuggle code into the generated serializer; state keyed by what clients
// send stays bounded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import { createDefaultSerializerCompilerFactory } from '../src/schema/serializer-default-compiler.js';
import { portOf, rawExchange } from './security-helpers.ts';

describe('reply headers with CR/LF', () => {
  const injections = ['ok\r\nSet-Cookie: session=stolen', 'ok\nSet-Cookie: session=stolen', 'ok\rX-Injected: 1', 'ok\r\n\r\n<html>smuggled</html>'];

  test('reply.header refuses the value where the handler can catch it', async () => {
    const app = enclave();
    app.get('/h', async (request: any, reply: any) => {
      try {
        reply.header('x-echo', request.query.v);
        return { refused: false };
      } catch (error: any) {
        return { refused: true, code: error.code };
      }
    });
    for (const value of injections) {
      const response = await app.inject({ method: 'GET', url: `/h?v=${encodeURIComponent(value)}` });
      assert.deepEqual(response.json(), { refused: true, code: 'ERR_INVALID_CHAR' }, JSON.stringify(value));
      assert.equal(response.headers['set-cookie'], undefined);
      assert.equal(response.headers['x-echo'], undefined);
    }
  });

  test('header names, reply.headers() and redirect() are checked too', async () => {
    const app = enclave();
    app.get('/name', async (_request: any, reply: any) => reply.header('x-a\r\nset-cookie', 'v').send('sent'));
    app.get('/many', async (_request: any, reply: any) => reply.headers({ 'x-fine': 'ok', 'x-bad': 'a\r\nset-cookie: s=1' }).send('sent'));
    app.get('/redirect', async (_request: any, reply: any) => reply.redirect('/next\r\nSet-Cookie: session=stolen'));
    for (const url of ['/name', '/many', '/redirect']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 500, `${url}: ${response.body}`);
      assert.equal(response.headers['set-cookie'], undefined, url);
      assert.equal(response.headers.location, undefined, url);
    }
  });

  test('on the wire: no injected header line, and the server keeps serving', async () => {
    const app = enclave();
    app.get('/h', async (request: any, reply: any) => reply.header('x-echo', request.query.v).send('sent'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const exchange = await rawExchange(
        portOf(app),
        `GET /h?v=${encodeURIComponent(injections[0] as string)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(exchange.status, 500, exchange.text);
      assert.doesNotMatch(exchange.text, /set-cookie/i);
      const fine = await rawExchange(portOf(app), 'GET /h?v=fine HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.match(fine.text, /x-echo: fine/i);
    } finally {
      await app.close();
    }
  });
});

describe('trustProxy', () => {
  const forwarded = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', host: 'api.example' };

  function ipApp(trustProxy?: unknown) {
    const app = enclave(trustProxy === undefined ? {} : ({ trustProxy } as any));
    app.get('/who', async (request: any) => ({ ip: request.ip, ips: request.ips ?? null, host: request.host, protocol: request.protocol }));
    return app;
  }

  test('off by default: forwarded headers are ignored', async () => {
    const response = await ipApp().inject({ method: 'GET', url: '/who', headers: forwarded, remoteAddress: '198.51.100.7' });
    assert.deepEqual(response.json(), { ip: '198.51.100.7', ips: null, host: 'api.example', protocol: 'http' });
  });

  test('a peer outside the trusted list is not believed', async () => {
    for (const trust of ['10.0.0.0/8', ['10.0.0.1', '10.0.0.2'], (address: string) => address === '10.0.0.1']) {
      const response = await ipApp(trust).inject({ method: 'GET', url: '/who', headers: forwarded, remoteAddress: '198.51.100.7' });
      assert.equal(response.json().ip, '198.51.100.7', String(trust));
      assert.equal(response.json().host, 'api.example', String(trust));
      assert.equal(response.json().protocol, 'http', String(trust));
    }
  });

  test('a trusted peer is believed, and only for its own hop', async () => {
    const headers = { ...forwarded, 'x-forwarded-for': '6.6.6.6, 203.0.113.9' };
    const response = await ipApp('10.0.0.0/8').inject({ method: 'GET', url: '/who', headers, remoteAddress: '10.0.0.5' });
    // 203.0.113.9 is the address the trusted proxy saw; 6.6.6.6 is what the client claimed.
    assert.equal(response.json().ip, '203.0.113.9');
    assert.equal(response.json().host, 'evil.example');
    assert.equal(response.json().protocol, 'https');
  });
});

describe('response schemas cannot inject code into the serializer', () => {
  const payloads = [
    'a\nglobalThis.__enclaveInjected = true; //',
    'a\r\nglobalThis.__enclaveInjected = true; //',
    'a\u2028globalThis.__enclaveInjected = true; //',
  ];

  test('a line break in a property name fails the build; the code never runs', async () => {
    for (const name of payloads) {
      const app = enclave();
      app.get('/x', { schema: { response: { 200: { type: 'object', properties: { [name]: { type: 'string' } } } } } }, async () => ({}));
      await assert.rejects(app.ready(), (error: any) => error.code === 'FST_ERR_SCH_SERIALIZATION_BUILD', JSON.stringify(name));
      assert.equal((globalThis as any).__enclaveInjected, undefined);
    }
  });

  test('also through a shared schema $id, a $ref, or compileSerializationSchema at run time', async () => {
    const shared = enclave();
    shared.addSchema({ $id: 'evil', type: 'object', properties: { [payloads[0] as string]: { type: 'string' } } });
    shared.get('/x', { schema: { response: { 200: { $ref: 'evil#' } } } }, async () => ({}));
    await assert.rejects(shared.ready(), (error: any) => error.code === 'FST_ERR_SCH_SERIALIZATION_BUILD');

    const runtime = enclave();
    runtime.get('/x', async (_request: any, reply: any) => {
      try {
        reply.compileSerializationSchema({ type: 'object', properties: { [payloads[0] as string]: { type: 'string' } } });
        return 'compiled';
      } catch {
        return 'refused';
      }
    });
    assert.equal((await runtime.inject({ method: 'GET', url: '/x' })).body, 'refused');
    assert.equal((globalThis as any).__enclaveInjected, undefined);
  });
});

describe('state keyed by client input stays bounded', () => {
  test('a client-chosen request id longer than 256 characters is replaced', async () => {
    const ids: string[] = [];
    const app = enclave({ requestIdHeader: 'x-request-id' });
    app.get('/id', async (request: any) => {
      ids.push(request.id);
      return 'ok';
    });
    await app.inject({ method: 'GET', url: '/id', headers: { 'x-request-id': 'short-id' } });
    await app.inject({ method: 'GET', url: '/id', headers: { 'x-request-id': 'x'.repeat(10_000) } });
    assert.equal(ids[0], 'short-id');
    assert.ok((ids[1] as string).length <= 256, `an id of ${(ids[1] as string).length} characters was kept`);
  });

  test('the default serializer cache forgets its oldest entry at its ceiling', () => {
    const compile = createDefaultSerializerCompilerFactory(2)({});
    const schemaOf = (name: string) => ({ type: 'object', properties: { [name]: { type: 'string' } } });
    const first = compile({ schema: schemaOf('a'), method: 'GET', url: '/', httpStatus: '200' });
    assert.equal(compile({ schema: schemaOf('a'), method: 'GET', url: '/', httpStatus: '200' }), first, 'cached by content');
    compile({ schema: schemaOf('b'), method: 'GET', url: '/', httpStatus: '200' });
    compile({ schema: schemaOf('c'), method: 'GET', url: '/', httpStatus: '200' });
    assert.notEqual(compile({ schema: schemaOf('a'), method: 'GET', url: '/', httpStatus: '200' }), first, 'evicted, compiled again');
  });

  test('an error message quoting a client header is truncated', async () => {
    const app = enclave();
    app.post('/x', async () => 'x');
    const response = await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': `application/${'x'.repeat(10_000)}` }, payload: 'a' });
    assert.equal(response.statusCode, 415);
    assert.ok(response.body.length < 400, `the 415 body is ${response.body.length} bytes`);
  });
});
