// Issue 17: request-path semantics Fastify's own tests expect (not-found fallbacks, sending from
// onError, what error handlers and error response schemas receive).
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import { captureEscapes } from './security-helpers.ts';

const escaped = captureEscapes();

describe('reply.callNotFound()', () => {
  test("runs the not-found handler's preHandler hooks, then the handler", async () => {
    const app = enclave();
    app.setNotFoundHandler(
      {
        preHandler: (request: any, _reply, done) => {
          request.body.seenByPreHandler = true;
          done();
        },
      },
      (request, reply) => {
        reply.code(404).send(request.body);
      },
    );
    app.post('/', (_request, reply) => {
      reply.callNotFound();
    });
    const response = await app.inject({ method: 'POST', url: '/', payload: { hello: 'world' } });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { hello: 'world', seenByPreHandler: true });
  });

  test('inside a not-found handler answers a plain 404 instead of calling itself forever', async () => {
    const app = enclave();
    app.setNotFoundHandler((_request, reply) => {
      reply.callNotFound();
    });
    app.get('/', (_request, reply) => {
      reply.callNotFound();
    });
    for (const url of ['/', '/missing']) {
      const response = await app.inject(url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.body, '404 Not Found', url);
    }
  });
});

describe('errors', () => {
  test("setNotFoundHandler's own errorHandler answers errors of the not-found route", async () => {
    const app = enclave();
    // Honoured at runtime as in Fastify, though neither framework's types declare the option.
    const errorHandler = (_error: unknown, _request: unknown, reply: any) => reply.code(401).send({ error: 'Unauthorized' });
    app.setNotFoundHandler({ errorHandler } as never, async () => 'never');
    app.addHook('preValidation', async () => {
      throw new Error('kaboom');
    });
    const response = await app.inject('/missing');
    assert.equal(response.statusCode, 401);
    assert.deepEqual(response.json(), { error: 'Unauthorized' });
  });

  test('reply.send() inside an onError hook throws FST_ERR_SEND_INSIDE_ONERR; the error is still answered', async () => {
    const app = enclave();
    const codes: unknown[] = [];
    app.addHook('onError', (_request, reply, _error, done) => {
      try {
        reply.send('from onError');
      } catch (error) {
        codes.push((error as { code?: unknown }).code);
      }
      done();
    });
    app.get('/', async () => {
      throw new Error('kaboom');
    });
    const response = await app.inject('/');
    assert.deepEqual(codes, ['FST_ERR_SEND_INSIDE_ONERR']);
    assert.deepEqual(response.json(), { statusCode: 500, error: 'Internal Server Error', message: 'kaboom' });
  });

  test('a response schema for the error status receives the error itself', async () => {
    const app = enclave();
    const schema = {
      response: {
        422: {
          type: 'object',
          properties: { statusCode: { type: 'number' }, error: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
        },
      },
    };
    app.get('/', { schema }, async () => {
      throw Object.assign(new Error('bad title'), { statusCode: 422, field: 'title' });
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 422);
    assert.deepEqual(response.json(), { statusCode: 422, error: 'Unprocessable Entity', message: 'bad title', field: 'title' });
  });

  test('a custom error handler sees the status as it was; only the default handler applies the error status', async () => {
    const app = enclave();
    const seen: number[] = [];
    app.setErrorHandler((_error, _request, reply) => {
      seen.push(reply.statusCode);
      reply.send({ handled: true });
    });
    app.get('/plain', async () => {
      throw Object.assign(new Error('x'), { statusCode: 418 });
    });
    app.get('/coded', async (_request, reply) => {
      reply.code(401);
      throw new Error('y');
    });
    assert.equal((await app.inject('/plain')).statusCode, 200);
    assert.equal((await app.inject('/coded')).statusCode, 401);
    assert.deepEqual(seen, [200, 401]);
  });
});

describe('streams and decorators', () => {
  test('a HEAD request on a stream route whose stream then fails answers 200 and does not crash', async () => {
    const app = enclave();
    app.get('/coffee', () => {
      const stream = Readable.from('brewing');
      process.nextTick(() => stream.emit('error', new Error('spilled')));
      return stream;
    });
    const response = await app.inject({ method: 'HEAD', url: '/coffee' });
    assert.equal(response.statusCode, 200);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(escaped.splice(0), []);
  });

  test('built-in request and reply properties count as present', async () => {
    const app = enclave();
    for (const name of ['id', 'params', 'raw', 'query', 'headers', 'log', 'body', 'url', 'method']) {
      assert.equal(app.hasRequestDecorator(name), true, name);
    }
    for (const name of ['raw', 'request', 'log', 'send', 'statusCode']) assert.equal(app.hasReplyDecorator(name), true, name);
    assert.throws(() => app.decorateRequest('body', null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' });
    assert.throws(() => app.decorateReply('request', null, []), { code: 'FST_ERR_DEC_ALREADY_PRESENT' });
    // A dependency on a built-in is met.
    assert.doesNotThrow(() => app.decorateRequest('bodySize', null, ['body']));
    assert.doesNotThrow(() => app.decorateReply('rawCode', null, ['raw']));
  });

  test("getDecorator returns an instance's function decorator bound to it, a getter read once", () => {
    const app = enclave();
    let reads = 0;
    app.decorate('self', function (this: unknown) {
      return this;
    });
    app.decorate('viaGetter', {
      getter() {
        reads++;
        return function (this: unknown) {
          return this;
        };
      },
    });
    const self = app.getDecorator<() => unknown>('self');
    assert.equal(self(), app);
    assert.equal(app.getDecorator<() => unknown>('viaGetter')(), app);
    assert.equal(reads, 1);
  });
});

describe('registration-time checks', () => {
  test('an empty path is refused at the root, and means the prefix inside a plugin', async () => {
    assert.throws(() => enclave().get('', async () => 'x'), { message: 'The path could not be empty' });
    assert.throws(() => enclave().route({ method: 'GET', url: '', handler: async () => 'x' }), { message: 'The path could not be empty' });
    const app = enclave();
    app.register(async (books) => books.get('', async () => 'all books'), { prefix: '/books' });
    assert.equal((await app.inject('/books')).body, 'all books');
  });

  test('shorthand options must be a plain object', () => {
    const handler = async () => 'x';
    // `undefined` too: beside a handler, a missing options argument is a mistake (as in Fastify).
    for (const options of [[], new Map(), 'options', 42, null, undefined]) {
      assert.throws(() => enclave().get('/', options as never, handler), { code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ' });
    }
    assert.doesNotThrow(() => enclave().get('/', Object.create(null), handler));
  });

  test('hasContentTypeParser takes a string or a RegExp', () => {
    const app = enclave();
    assert.equal(app.hasContentTypeParser('application/json'), true);
    assert.equal(app.hasContentTypeParser(/^image\/.*/), false);
    for (const matcher of [123, null, {}, ['application/json']]) {
      assert.throws(() => app.hasContentTypeParser(matcher as never), { code: 'FST_ERR_CTP_INVALID_TYPE' });
    }
  });
});

describe('route and status details', () => {
  test('request.routeOptions.method keeps the declared form, uppercased: an array stays an array', async () => {
    const app = enclave();
    app.route({ method: ['pOSt'], url: '/array', handler: async (request) => request.routeOptions.method });
    app.route({ method: 'post', url: '/string', handler: async (request) => request.routeOptions.method });
    assert.deepEqual((await app.inject({ method: 'POST', url: '/array' })).json(), ['POST']);
    assert.equal((await app.inject({ method: 'POST', url: '/string' })).body, 'POST');
  });

  test('reply.code() drops a fraction (404.5 is 404) and refuses what is out of range', async () => {
    const app = enclave();
    app.get('/fraction', (_request, reply) => {
      reply.code(404.5).send(String(reply.statusCode));
    });
    app.get('/null', (_request, reply) => {
      reply.code(null as never).send();
    });
    const fraction = await app.inject('/fraction');
    assert.equal(fraction.statusCode, 404);
    assert.equal(fraction.body, '404');
    const refused = await app.inject('/null');
    assert.equal(refused.statusCode, 500);
    assert.deepEqual(refused.json(), {
      statusCode: 500,
      code: 'FST_ERR_BAD_STATUS_CODE',
      error: 'Internal Server Error',
      message: 'Called reply with an invalid status code: null',
    });
  });
});

describe('bodies', () => {
  test('a nullable body schema accepts a request without a body; a plain object schema refuses it', async () => {
    const app = enclave();
    const properties = { hello: { type: 'string' } };
    app.post('/nullable', { schema: { body: { type: 'object', nullable: true, properties } } }, async (request) => ({
      undefinedBody: request.body === undefined,
    }));
    app.post('/either', { schema: { body: { type: ['object', 'null'], properties } } }, async (request) => ({ undefinedBody: request.body === undefined }));
    app.post('/object', { schema: { body: { type: 'object', properties } } }, async () => 'never');
    for (const url of ['/nullable', '/either']) {
      const response = await app.inject({ method: 'POST', url });
      assert.equal(response.statusCode, 200, url);
      assert.deepEqual(response.json(), { undefinedBody: true }, url);
    }
    const refused = await app.inject({ method: 'POST', url: '/object' });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().message, 'body must be object');
  });

  test('a request for no route answers 404 even with a body no parser takes', async () => {
    const app = enclave();
    const response = await app.inject({ method: 'POST', url: '/nowhere', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
  });
});
