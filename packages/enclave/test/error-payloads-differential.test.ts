// What a client receives must not change when an application moves from Fastify to Enclave:
// the same bad requests go to the same application built on each (the real fastify package is a
// devDependency), and every default error response must carry the same status, the same JSON
// (statusCode, code, error, message) in the same bytes, and the same content type. Only Enclave's developer-facing messages (thrown at
// registration or boot) may be worded differently; none of them reaches a client.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import fastify from 'fastify';

type Factory = (options?: Record<string, unknown>) => any;

const bookSchema = {
  type: 'object',
  required: ['title'],
  properties: { title: { type: 'string', minLength: 1 }, pages: { type: 'integer' } },
};

function bookshelf(factory: Factory) {
  const app = factory({ bodyLimit: 256 });
  app.post('/books', { schema: { body: bookSchema } }, async (request: any) => request.body);
  app.get('/books/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async (request: any) => request.params);
  app.get(
    '/search',
    {
      schema: {
        querystring: { type: 'object', required: ['q'], properties: { q: { type: 'string' }, limit: { type: 'integer', maximum: 50 } } },
        headers: { type: 'object', required: ['x-api-key'], properties: { 'x-api-key': { type: 'string' } } },
      },
    },
    async () => ({ results: [] }),
  );
  app.put('/notes', async (request: any) => ({ length: String(request.body).length }));
  app.query('/books/find', async (request: any) => request.body);
  app.get('/fail/plain', async () => {
    throw new Error('database unavailable');
  });
  app.get('/fail/status', async () => {
    throw Object.assign(new Error('Short and stout'), { statusCode: 418 });
  });
  app.get('/fail/coded', async () => {
    throw Object.assign(new Error('quota exceeded'), { statusCode: 429, code: 'APP_QUOTA' });
  });
  app.get('/fail/client-error', async () => {
    throw Object.assign(new Error('not acceptable'), { status: 406 });
  });
  app.get('/fail/string', async () => {
    throw 'a bare string';
  });
  app.get('/fail/reply-code', async (_request: any, reply: any) => {
    reply.code(503);
    throw new Error('maintenance');
  });
  return app;
}

const json = { 'content-type': 'application/json' };
const badRequests: Array<{ name: string; method: string; url: string; headers?: Record<string, string>; payload?: string }> = [
  { name: 'malformed JSON body', method: 'POST', url: '/books', headers: json, payload: '{"title": "Dune",' },
  { name: 'empty JSON body', method: 'POST', url: '/books', headers: json, payload: '' },
  { name: 'JSON body that fails its schema (missing property)', method: 'POST', url: '/books', headers: json, payload: '{}' },
  { name: 'JSON body that fails its schema (wrong type)', method: 'POST', url: '/books', headers: json, payload: '{"title":"Dune","pages":"many"}' },
  { name: 'JSON body that fails its schema (minLength)', method: 'POST', url: '/books', headers: json, payload: '{"title":""}' },
  { name: 'body over bodyLimit', method: 'POST', url: '/books', headers: json, payload: JSON.stringify({ title: 'x'.repeat(400) }) },
  { name: 'unsupported media type', method: 'POST', url: '/books', headers: { 'content-type': 'application/xml' }, payload: '<book/>' },
  { name: 'media type that does not parse', method: 'POST', url: '/books', headers: { 'content-type': 'not a media type' }, payload: '{}' },
  { name: 'body without a Content-Type', method: 'PUT', url: '/notes', payload: 'hello' },
  { name: 'Content-Length larger than the body', method: 'POST', url: '/books', headers: { ...json, 'content-length': '40' }, payload: '{"title":"Dune"}' },
  { name: 'params that fail their schema', method: 'GET', url: '/books/abc' },
  { name: 'querystring that fails its schema', method: 'GET', url: '/search?q=dune&limit=500', headers: { 'x-api-key': 'k' } },
  { name: 'missing required querystring', method: 'GET', url: '/search', headers: { 'x-api-key': 'k' } },
  { name: 'missing required header', method: 'GET', url: '/search?q=dune' },
  { name: 'unknown route', method: 'GET', url: '/nowhere' },
  { name: 'unknown route, with a JSON body that does not parse', method: 'POST', url: '/nowhere', headers: json, payload: '{' },
  {
    name: 'unknown route, with a Content-Type that is not a media type',
    method: 'PATCH',
    url: '/nowhere',
    headers: { 'content-type': 'undefined' },
    payload: 'hello',
  },
  { name: 'unknown route, with a media type no parser reads', method: 'PUT', url: '/nowhere', headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
  { name: 'QUERY without a Content-Type (RFC 10008)', method: 'QUERY', url: '/books/find', payload: '{"title":"Dune"}' },
  { name: 'unknown method', method: 'PROPFIND', url: '/books' },
  { name: 'malformed percent-encoding in a parameter', method: 'GET', url: '/books/%zz' },
  { name: 'malformed percent-encoding in the path', method: 'GET', url: '/%' },
  { name: 'parameter longer than maxParamLength', method: 'GET', url: `/books/${'9'.repeat(120)}` },
  { name: 'handler throws an Error', method: 'GET', url: '/fail/plain' },
  { name: 'handler throws an Error with statusCode', method: 'GET', url: '/fail/status' },
  { name: 'handler throws an Error with statusCode and code', method: 'GET', url: '/fail/coded' },
  { name: 'handler throws an Error with status', method: 'GET', url: '/fail/client-error' },
  { name: 'handler throws a string', method: 'GET', url: '/fail/string' },
  { name: 'handler sets 503 then throws', method: 'GET', url: '/fail/reply-code' },
];

// JSON bodies compare as JSON; anything else (a thrown string is sent as it is) as text.
function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

describe('default error responses carry Fastify’s JSON', () => {
  const apps = { fastify: bookshelf(fastify as unknown as Factory), enclave: bookshelf(enclave as unknown as Factory) };

  for (const bad of badRequests) {
    test(bad.name, async () => {
      const inject = ({ method, url, headers, payload }: (typeof badRequests)[number]) => ({ method, url, headers, payload });
      const [expected, actual] = await Promise.all([apps.fastify.inject(inject(bad)), apps.enclave.inject(inject(bad))]);
      assert.ok(expected.statusCode >= 400, `Fastify answers ${bad.name} with an error (${expected.statusCode})`);
      assert.equal(actual.statusCode, expected.statusCode);
      assert.deepStrictEqual(parsed(actual.body), parsed(expected.body));
      // Byte for byte, key order and content type included: clients' snapshot tests compare them.
      assert.equal(actual.body, expected.body);
      assert.equal(actual.headers['content-type'], expected.headers['content-type']);
    });
  }
});

/** A constraint strategy whose derivation (through its callback) always fails. */
function failingStrategy() {
  return {
    name: 'region',
    storage() {
      const stores = new Map<string, unknown>();
      return { get: (key: string) => stores.get(key) ?? null, set: (key: string, store: unknown) => stores.set(key, store) };
    },
    deriveConstraint(_request: unknown, _context: unknown, done: (error: Error) => void) {
      done(new Error('lookup down'));
    },
    validate() {},
  };
}

/**
 * Over a real socket: a request held in its handler; close() begins; once its preClose hooks
 * run, a second request on the same connection, which the server answers while closing (then
 * the first is let go); returns that answer's status line, headers (but Date) and body.
 */
async function answerWhileClosing(factory: Factory): Promise<{ status: string; headers: Record<string, string>; body: string }> {
  const app = factory();
  let entered!: () => void;
  let release!: () => void;
  let closingBegan!: () => void;
  const inHandler = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const closingStarted = new Promise<void>((resolve) => {
    closingBegan = resolve;
  });
  app.get('/slow', async () => {
    entered();
    await held;
    return 'slow';
  });
  app.get('/', async () => 'ok');
  app.addHook('preClose', (done: () => void) => {
    closingBegan();
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  let requests = 0;
  // Added after the framework's own listener: the second request has been answered by then.
  app.server.on('request', () => {
    if (++requests === 2) release();
  });
  const socket = net.connect(app.server.address().port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  const ended = once(socket, 'close');
  socket.write('GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await inHandler;
  const closing = app.close();
  await closingStarted;
  socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await closing;
  await ended;
  const second = received.slice(received.indexOf('HTTP/1.1', 1));
  const [head = '', body = ''] = second.split('\r\n\r\n');
  const [status = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  delete headers.date;
  return { status, headers, body };
}

describe('answers written before any route runs carry Fastify’s bytes', () => {
  test('a constraint strategy whose derivation fails: 500', async () => {
    const build = (factory: Factory) => {
      const app = factory({ routerOptions: { constraints: { region: failingStrategy() } } });
      app.get('/where', { constraints: { region: 'eu' } }, async () => 'europe');
      return app;
    };
    const [expected, actual] = await Promise.all([
      build(fastify as unknown as Factory).inject('/where'),
      build(enclave as unknown as Factory).inject('/where'),
    ]);
    assert.equal(expected.statusCode, 500);
    assert.equal(actual.statusCode, 500);
    assert.equal(actual.body, expected.body);
    assert.equal(actual.headers['content-type'], expected.headers['content-type']);
  });

  test('a request arriving while the server closes: 503 with Connection: close', async () => {
    const expected = await answerWhileClosing(fastify as unknown as Factory);
    const actual = await answerWhileClosing(enclave as unknown as Factory);
    assert.match(expected.status, /^HTTP\/1\.1 503 /);
    assert.deepStrictEqual(actual, expected);
  });
});
