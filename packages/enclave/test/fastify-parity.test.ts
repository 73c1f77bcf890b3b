// Issue 19: the members and options added for Fastify 5 parity, each doing what Fastify's does
// (api-surface.test.ts checks that they exist; these check that they work).
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

describe('instance additions', () => {
  test('withTypeProvider returns the instance; trace, query and all() cover every supported method', async () => {
    const app = enclave();
    assert.equal(app.withTypeProvider(), app);
    assert.deepEqual(app.supportedMethods.sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY', 'TRACE']);
    app.trace('/t', async () => 'traced');
    app.query('/q', async (request) => request.body);
    app.all('/any', async (request) => request.method);
    for (const method of ['TRACE', 'QUERY', 'DELETE', 'PATCH']) {
      // A QUERY must say what its content is (RFC 10008): without a Content-Type it is a 400.
      const response = await app.inject({ method: method as 'GET', url: '/any', headers: { 'content-type': 'text/plain' } });
      assert.equal(response.body, method);
    }
    const untyped = await app.inject({ method: 'QUERY' as 'GET', url: '/any' });
    assert.equal(untyped.json().code, 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE');
    assert.equal((await app.inject({ method: 'TRACE' as 'GET', url: '/t' })).body, 'traced');
    const queried = await app.inject({ method: 'QUERY' as 'GET', url: '/q', payload: { find: 'x' } });
    assert.deepEqual(queried.json(), { find: 'x' });
  });

  test('addHttpMethod adds a method, its shorthand, and whether it carries a body', async () => {
    const app = enclave();
    app.addHttpMethod('MKCOL').addHttpMethod('PROPFIND', { hasBody: true });
    assert.ok(app.supportedMethods.includes('MKCOL') && app.supportedMethods.includes('PROPFIND'));
    (app as any).propfind('/dav', async (request: any) => ({ body: request.body }));
    (app as any).mkcol('/dav', async (request: any) => ({ body: request.body ?? null }));
    const withBody = await app.inject({ method: 'PROPFIND' as 'GET', url: '/dav', payload: { depth: 1 } });
    assert.deepEqual(withBody.json(), { body: { depth: 1 } });
    const bodyless = await app.inject({ method: 'MKCOL' as 'GET', url: '/dav', payload: { ignored: true } });
    assert.deepEqual(bodyless.json(), { body: null });
    assert.throws(() => app.addHttpMethod('NOT-A-METHOD'), { code: 'FST_ERR_ROUTE_METHOD_INVALID' });
  });

  test('routing is the request listener: a raw request routed by hand is answered', async () => {
    const app = enclave();
    app.get('/hand', async () => 'routed');
    await app.ready();
    assert.equal(typeof app.routing, 'function');
    const response = await app.inject({ url: '/hand' });
    assert.equal(response.body, 'routed');
    assert.equal(app.routing, app.routing);
  });

  test('addConstraintStrategy / hasConstraintStrategy route by a custom constraint', async () => {
    const app = enclave();
    assert.equal(app.hasConstraintStrategy('tenant'), false);
    app.addConstraintStrategy({
      name: 'tenant',
      storage: () => {
        const map = new Map<string, unknown>();
        return { get: (key: string) => map.get(key) ?? null, set: (key: string, value: unknown) => map.set(key, value) };
      },
      deriveConstraint: (req: any) => req.headers['x-tenant'],
      mustMatchWhenDerived: true,
    });
    assert.equal(app.hasConstraintStrategy('tenant'), true);
    app.get('/', { constraints: { tenant: 'acme' } }, async () => 'acme');
    app.get('/', async () => 'anyone');
    assert.equal((await app.inject({ url: '/', headers: { 'x-tenant': 'acme' } })).body, 'acme');
    assert.equal((await app.inject({ url: '/' })).body, 'anyone');
  });

  test('setGenReqId is encapsulated: a plugin sets its own, the root keeps its own', async () => {
    const app = enclave();
    app.setGenReqId(() => 'root-id');
    app.register(async (child) => {
      child.setGenReqId(() => 'child-id');
      child.get('/child', async (request) => request.id);
    });
    app.get('/root', async (request) => request.id);
    assert.equal((await app.inject({ url: '/root' })).body, 'root-id');
    assert.equal((await app.inject({ url: '/child' })).body, 'child-id');
    assert.equal(app.genReqId({} as any), 'root-id');
  });

  test('setChildLoggerFactory builds each request logger, with the bindings and the raw request', async () => {
    const app = enclave();
    const seen: unknown[] = [];
    app.setChildLoggerFactory(function (logger, bindings, _options, raw: any) {
      seen.push({ bindings, url: raw.url, self: this === app });
      return Object.assign(Object.create(logger), { custom: true });
    });
    app.get('/log', async (request: any) => ({ custom: request.log.custom === true }));
    assert.deepEqual((await app.inject({ url: '/log' })).json(), { custom: true });
    assert.deepEqual(seen, [{ bindings: { reqId: 'req-1' }, url: '/log', self: true }]);
    assert.equal(typeof app.childLoggerFactory, 'function');
  });

  test('setSchemaController: a plugin brings its own validator builder; siblings keep the default', async () => {
    const app = enclave();
    const built: string[] = [];
    app.register(async (child) => {
      child.setSchemaController({
        compilersFactory: {
          buildValidator: () => () => {
            built.push('custom');
            return () => true;
          },
        },
      });
      child.post('/custom', { schema: { body: { type: 'integer' } } }, async () => 'accepted');
    });
    app.post('/default', { schema: { body: { type: 'integer' } } }, async () => 'accepted');
    assert.equal((await app.inject({ method: 'POST', url: '/custom', payload: { not: 'an integer' } })).statusCode, 200);
    assert.equal((await app.inject({ method: 'POST', url: '/default', payload: { not: 'an integer' } })).statusCode, 400);
    assert.deepEqual(built, ['custom']);
    assert.equal(typeof app.validatorCompiler, 'function');
    // No route has a response schema: as in Fastify, no serializer compiler was set up.
    assert.equal(app.serializerCompiler, undefined);
  });

  test('allowErrorHandlerOverride: false refuses a second error handler in the same context', () => {
    const strict = enclave({ allowErrorHandlerOverride: false });
    strict.setErrorHandler(() => 'first');
    assert.throws(() => strict.setErrorHandler(() => 'second'), { code: 'FST_ERR_ERROR_HANDLER_ALREADY_SET' });
    const lenient = enclave();
    lenient.setErrorHandler(() => 'first');
    assert.doesNotThrow(() => lenient.setErrorHandler(() => 'second'));
  });
});

describe('request and reply additions', () => {
  test('request.mediaType, getDecorator/setDecorator; reply.getDecorator and mediaType', async () => {
    const app = enclave();
    app.decorateRequest('user', null);
    app.decorateReply('greet', function (this: any) {
      return `hi ${this.request.id}`;
    });
    app.post('/', async (request: any, reply: any) => {
      request.setDecorator('user', 'ada');
      reply.type('application/vnd.api+json; charset=utf-8');
      return {
        mediaType: request.mediaType,
        user: request.getDecorator('user'),
        greet: reply.getDecorator('greet')(),
        replyMediaType: reply.mediaType,
        undeclared: (() => {
          try {
            request.getDecorator('nope');
          } catch (error: any) {
            return error.code;
          }
        })(),
      };
    });
    const response = await app.inject({ method: 'POST', url: '/', payload: '{}', headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    assert.deepEqual(JSON.parse(response.body), {
      mediaType: 'application/json',
      user: 'ada',
      greet: 'hi req-1',
      replyMediaType: 'application/vnd.api+json',
      undeclared: 'FST_ERR_DEC_UNDECLARED',
    });
  });

  test('reply.trailer sends trailers after a chunked body; hasTrailer and removeTrailer', async () => {
    const app = enclave();
    app.get('/', (_request, reply: any) => {
      reply.trailer('x-sum', async (_reply: unknown, payload: string) => String(payload.length));
      reply.trailer('x-dropped', (_reply: unknown, _payload: unknown, done: (e: null, v: string) => void) => done(null, 'no'));
      assert.equal(reply.hasTrailer('X-Dropped'), true);
      reply.removeTrailer('x-dropped');
      assert.equal(reply.hasTrailer('x-dropped'), false);
      assert.throws(() => reply.trailer('content-length', () => '1'), { code: 'FST_ERR_BAD_TRAILER_NAME' });
      reply.send('hello');
    });
    const response = await app.inject({ url: '/' });
    assert.equal(response.body, 'hello');
    assert.equal(response.headers['transfer-encoding'], 'chunked');
    assert.equal(response.headers.trailer, 'x-sum');
    assert.deepEqual(response.trailers, { 'x-sum': '5' });
  });

  test('a streamed reply carries its trailers after the last chunk (the functions get null)', async () => {
    const app = enclave();
    const payloads: unknown[] = [];
    app.get('/', (_request, reply: any) => {
      reply.trailer('x-count', (_reply: unknown, payload: unknown, done: (e: null, v: string) => void) => {
        payloads.push(payload);
        done(null, '2');
      });
      reply.send(Readable.from(['a', 'b']));
    });
    const response = await app.inject({ url: '/' });
    assert.equal(response.body, 'ab');
    assert.equal(response.headers['content-length'], undefined);
    assert.deepEqual(response.trailers, { 'x-count': '2' });
    assert.deepEqual(payloads, [null]);
  });

  test('over HTTP/2 the trailers follow the body without Transfer-Encoding', async () => {
    const app = enclave({ http2: true });
    app.get('/', (_request, reply: any) => {
      reply.trailer('x-check', async () => 'ok');
      reply.send('hi');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const client = http2.connect(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    try {
      const result = await new Promise<{ headers: any; trailers: any; body: string }>((resolve, reject) => {
        const stream = client.request({ ':path': '/' });
        const seen = { headers: {}, trailers: {}, body: '' };
        stream.setEncoding('utf8');
        stream.on('response', (headers) => (seen.headers = headers));
        stream.on('trailers', (trailers) => (seen.trailers = trailers));
        stream.on('data', (chunk) => (seen.body += chunk));
        stream.on('end', () => resolve(seen));
        stream.on('error', reject);
        stream.end();
      });
      assert.equal(result.body, 'hi');
      assert.equal(result.headers['transfer-encoding'], undefined);
      assert.equal(result.headers.trailer, 'x-check');
      assert.equal(result.trailers['x-check'], 'ok');
    } finally {
      client.close();
      await app.close();
    }
  });

  test('request.signal aborts when the handler timeout fires, and the client gets 503', async () => {
    const app = enclave({ handlerTimeout: 50 });
    let aborted: unknown;
    app.get('/slow', async (request) => {
      await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
      aborted = (request.signal.reason as any)?.code;
      return 'too late';
    });
    app.get('/fast', { handlerTimeout: 5000 }, async () => 'quick');
    assert.throws(() => app.get('/bad', { handlerTimeout: -1 }, async () => 'x'), { code: 'FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT' });
    const response = await app.inject({ url: '/slow' });
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().code, 'FST_ERR_HANDLER_TIMEOUT');
    assert.equal(aborted, 'FST_ERR_HANDLER_TIMEOUT');
    assert.equal((await app.inject({ url: '/fast' })).body, 'quick');
  });
});

describe('options honoured', () => {
  test('rewriteUrl: routing sees the rewritten URL, originalUrl keeps the one sent', async () => {
    const app = enclave({ rewriteUrl: (raw) => (raw.url === '/old' ? '/new' : (raw.url as string)) });
    app.get('/new', async (request) => ({ url: request.url, originalUrl: request.originalUrl }));
    assert.deepEqual((await app.inject({ url: '/old' })).json(), { url: '/new', originalUrl: '/old' });
  });

  test('frameworkErrors answers a malformed URL and an over-long parameter', async () => {
    const app = enclave({
      maxParamLength: 5,
      frameworkErrors: (error: any, _request: any, reply: any) => reply.code(418).send({ caught: error.code }),
    });
    app.get('/users/:id', async () => 'user');
    assert.deepEqual((await app.inject({ url: '/users/%zz' })).json(), { caught: 'FST_ERR_BAD_URL' });
    const long = await app.inject({ url: '/users/abcdefgh' });
    assert.equal(long.statusCode, 418);
    assert.deepEqual(long.json(), { caught: 'FST_ERR_MAX_PARAM_LENGTH' });
  });

  test('without frameworkErrors, an over-long parameter answers 414 FST_ERR_MAX_PARAM_LENGTH', async () => {
    const app = enclave({ maxParamLength: 5 });
    app.get('/users/:id', async () => 'user');
    const response = await app.inject({ url: '/users/abcdefgh' });
    assert.equal(response.statusCode, 414);
    assert.equal(response.json().code, 'FST_ERR_MAX_PARAM_LENGTH');
  });

  test('useSemicolonDelimiter: a ";" starts the query string', async () => {
    const app = enclave({ useSemicolonDelimiter: true });
    app.get('/search', async (request) => request.query);
    assert.deepEqual((await app.inject({ url: '/search;term=owl' })).json(), { term: 'owl' });
    const plain = enclave();
    plain.get('/search', async (request) => request.query);
    assert.equal((await plain.inject({ url: '/search;term=owl' })).statusCode, 404);
  });

  test('disableRequestLogging as a function decides per request', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line).msg) };
    const app = enclave({ logger: { stream }, disableRequestLogging: (request: any) => request.url === '/quiet' });
    app.get('/quiet', async () => 'shh');
    app.get('/loud', async () => 'hey');
    await app.inject({ url: '/quiet' });
    assert.deepEqual(lines, []);
    await app.inject({ url: '/loud' });
    assert.deepEqual(lines, ['incoming request', 'request completed']);
  });

  test('routerOptions.defaultRoute answers an unmatched URL instead of the 404 handler', async () => {
    const app = enclave({
      routerOptions: {
        defaultRoute: (_raw: unknown, res: any) => {
          res.statusCode = 410;
          res.end('gone');
        },
      },
    });
    const response = await app.inject({ url: '/nowhere' });
    assert.equal(response.statusCode, 410);
    assert.equal(response.body, 'gone');
  });

  test('the fastify named export is the factory', () => {
    assert.equal((enclave as any).fastify, enclave);
  });
});

describe('logController', () => {
  test('a LogController subclass writes the request lines; a non-instance is refused at start-up', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    class Terse extends enclave.LogController {
      override incomingRequest() {}
      override requestCompleted(_error: unknown, request: any, reply: any) {
        request.log.info({ status: reply.statusCode }, 'done');
      }
    }
    const app = enclave({ logger: { stream }, logController: new Terse({ requestIdLogLabel: 'rid' }) });
    app.get('/', async () => 'ok');
    await app.inject({ url: '/' });
    assert.deepEqual(
      lines.map(({ msg, status, rid }) => ({ msg, status, rid })),
      [{ msg: 'done', status: 200, rid: 'req-1' }],
    );
    assert.throws(() => enclave({ logController: { incomingRequest() {} } as any }), { code: 'FST_ERR_LOG_INVALID_LOG_CONTROLLER' });
  });

  test('the default LogController honours disableRequestLogging as a function', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line).msg) };
    const controller = new enclave.LogController({ disableRequestLogging: (request: any) => request.url === '/quiet' });
    const app = enclave({ logger: { stream }, logController: controller });
    app.get('/quiet', async () => 'shh');
    app.get('/loud', async () => {
      throw Object.assign(new Error('teapot'), { statusCode: 418 });
    });
    await app.inject({ url: '/quiet' });
    assert.deepEqual(lines, []);
    await app.inject({ url: '/loud' });
    assert.deepEqual(lines, ['incoming request', 'teapot', 'request completed']);
  });
});

describe('supported methods decide what routes may use', () => {
  test('a method outside supportedMethods is refused until added; a bodyless one refuses a body schema', () => {
    const app = enclave();
    const handler = async () => 'x';
    assert.throws(() => app.route({ method: 'REBIND', url: '/', handler }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED' });
    app.addHttpMethod('REBIND');
    app.route({ method: 'REBIND', url: '/', handler });
    assert.throws(() => app.route({ method: 'REBIND', url: '/body', schema: { body: { type: 'object' } }, handler }), {
      code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED',
    });
  });

  test('a method re-declared after it was answered is asked again: the body-less answer is not kept', async () => {
    const app = enclave();
    app.addHttpMethod('PROPFIND', { hasBody: true });
    app.route({ method: 'PROPFIND' as 'GET', url: '/dav', handler: async (request) => ({ body: request.body ?? null }) });
    const propfind = () => app.inject({ method: 'PROPFIND' as 'GET', url: '/dav', payload: { depth: 1 } });
    assert.deepEqual((await propfind()).json(), { body: { depth: 1 } });
    app.addHttpMethod('PROPFIND', { hasBody: false, overrideExisting: true });
    assert.deepEqual((await propfind()).json(), { body: null });
    app.addHttpMethod('PROPFIND', { hasBody: true, overrideExisting: true });
    assert.deepEqual((await propfind()).json(), { body: { depth: 1 } });
  });

  test('addHttpMethod can give GET a body', async () => {
    const app = enclave();
    app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
    app.get('/', async (request) => request.body);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/', payload: { a: 1 } })).json(), { a: 1 });
  });
});
