// Validation seen from the outside: requests through inject(), every $ref form, error handling.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave, { type FastifyError } from 'enclavejs';

const json = { 'content-type': 'application/json' };

test('every $ref form of SPEC §5.3 validates request bodies', async () => {
  const app = enclave();
  app.addSchema({
    $id: 'http://example.com/shapes',
    definitions: { size: { type: 'integer', minimum: 1 } },
    properties: { color: { $id: '#color', type: 'string', enum: ['red', 'blue'] } },
  });
  app.addSchema({ $id: 'point', type: 'object', required: ['x'], properties: { x: { type: 'number' } } });
  const routes: Record<string, unknown> = {
    '/local-id': { type: 'object', properties: { v: { $ref: '#v' } }, definitions: { v: { $id: '#v', type: 'integer' } } },
    '/local-pointer': { type: 'object', properties: { v: { $ref: '#/definitions/v' } }, definitions: { v: { type: 'integer' } } },
    '/shared-root': { $ref: 'point#' },
    '/shared-pointer': { type: 'object', properties: { v: { $ref: 'http://example.com/shapes#/definitions/size' } } },
    '/shared-id': { type: 'object', properties: { v: { $ref: 'http://example.com/shapes#color' } } },
  };
  for (const [url, body] of Object.entries(routes)) app.post(url, { schema: { body } }, async (request) => request.body);
  const cases: Array<[string, unknown, unknown]> = [
    ['/local-id', { v: '3' }, { v: 'x' }],
    ['/local-pointer', { v: 4 }, { v: 'x' }],
    ['/shared-root', { x: 1 }, { y: 1 }],
    ['/shared-pointer', { v: 2 }, { v: 0 }],
    ['/shared-id', { v: 'red' }, { v: 'green' }],
  ];
  for (const [url, good, bad] of cases) {
    const ok = await app.inject({ method: 'POST', url, payload: good as object });
    assert.equal(ok.statusCode, 200, `${url} accepts a valid body: ${ok.payload}`);
    const refused = await app.inject({ method: 'POST', url, payload: bad as object });
    assert.equal(refused.statusCode, 400, `${url} refuses an invalid body`);
    assert.equal(refused.json().code, 'FST_ERR_VALIDATION');
  }
  const coerced = await app.inject({ method: 'POST', url: '/local-id', payload: { v: '3' } });
  assert.deepEqual(coerced.json(), { v: 3 });
});

test('a shared schema can be the root of the headers schema', async () => {
  const app = enclave();
  app.addSchema({ $id: 'auth-headers', type: 'object', required: ['x-token'], properties: { 'x-token': { type: 'string', minLength: 3 } } });
  app.get('/', { schema: { headers: { $ref: 'auth-headers#' } } }, async () => 'ok');
  assert.equal((await app.inject({ url: '/', headers: { 'x-token': 'abcd' } })).statusCode, 200);
  const refused = await app.inject({ url: '/', headers: { 'x-token': 'a' } });
  assert.equal(refused.statusCode, 400);
  assert.match(refused.json().message, /^headers/);
});

test('a validation error reaches a custom error handler, which can answer 422', async () => {
  const app = enclave();
  app.setErrorHandler<FastifyError>((error, _request, reply) => {
    if (error.validation) {
      return reply.code(422).send({ part: error.validationContext, count: (error.validation as unknown[]).length, message: error.message });
    }
    return reply.send(error);
  });
  app.post('/users', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }, async () => 'created');
  const response = await app.inject({ method: 'POST', url: '/users', payload: {} });
  assert.equal(response.statusCode, 422);
  assert.deepEqual(response.json(), { part: 'body', count: 1, message: "body must have required property 'name'" });
});

test('the default answer is 400 with code, error and the formatted message', async () => {
  const app = enclave();
  app.get('/items', { schema: { querystring: { limit: { type: 'integer' } } } }, async (request) => request.query);
  const response = await app.inject({ url: '/items?limit=ten' });
  assert.equal(response.statusCode, 400);
  assert.deepEqual(response.json(), {
    statusCode: 400,
    code: 'FST_ERR_VALIDATION',
    error: 'Bad Request',
    message: 'querystring/limit must be integer',
  });
});

test('querystring coercion: a single value becomes a one-element array, an absent one its default', async () => {
  const app = enclave();
  app.get(
    '/',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { tags: { type: 'array', items: { type: 'string' } }, ids: { type: 'array', items: { type: 'integer' }, default: [] } },
        },
      },
    },
    async (request) => request.query,
  );
  assert.deepEqual((await app.inject({ url: '/?tags=a' })).json(), { tags: ['a'], ids: [] });
  assert.deepEqual((await app.inject({ url: '/?tags=a&tags=b&ids=1&ids=2' })).json(), { tags: ['a', 'b'], ids: [1, 2] });
});

test('attachValidation hands the error to the handler instead of answering', async () => {
  const app = enclave();
  app.post('/', { attachValidation: true, schema: { body: { type: 'object', required: ['a'] } } }, async (request) => ({
    failed: request.validationError?.validationContext ?? null,
  }));
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: {} })).json(), { failed: 'body' });
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })).json(), { failed: null });
});

test('schema error formatters are encapsulated and run with the instance as this', async () => {
  const app = enclave({ schemaErrorFormatter: (errors, dataVar) => new Error(`root:${dataVar}:${errors.length}`) });
  const seen: unknown[] = [];
  app.register(async (child) => {
    child.decorate('label', 'child');
    child.setSchemaErrorFormatter(function (this: any, _errors, dataVar) {
      seen.push(this.label);
      return new Error(`child:${dataVar}`);
    });
    child.post('/child', { schema: { body: { type: 'object', required: ['a'] } } }, async () => 'ok');
  });
  app.post('/root', { schema: { body: { type: 'object', required: ['a'] } } }, async () => 'ok');
  assert.equal((await app.inject({ method: 'POST', url: '/root', payload: {} })).json().message, 'root:body:1');
  assert.equal((await app.inject({ method: 'POST', url: '/child', payload: {} })).json().message, 'child:body');
  assert.deepEqual(seen, ['child']);
});

test('a formatter that does not return an Error answers 500 with a clear message', async () => {
  const app = enclave({ schemaErrorFormatter: (() => 'not an error') as any });
  app.post('/', { schema: { body: { type: 'object', required: ['a'] } } }, async () => 'ok');
  const response = await app.inject({ method: 'POST', url: '/', payload: {} });
  assert.equal(response.statusCode, 500);
  assert.match(response.json().message, /formatter/i);
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })).statusCode, 200);
});

test('validator compilers are encapsulated; route-level compilers win; results in both styles', async () => {
  const app = enclave();
  const calls: string[] = [];
  app.register(async (child) => {
    child.setValidatorCompiler(({ httpPart, url }) => {
      calls.push(`${httpPart} ${url}`);
      return (data: any) => (data?.ok === true ? { value: { ok: 'replaced' } } : { error: new Error('child says no') });
    });
    child.post('/child', { schema: { body: { type: 'object' } } }, async (request) => request.body);
    child.post(
      '/route',
      {
        schema: { body: { type: 'object' } },
        validatorCompiler: () => Object.assign(() => false, { errors: [{ instancePath: '', message: 'route says no' }] }),
      },
      async () => 'never',
    );
  });
  app.post('/root', { schema: { body: { type: 'object', required: ['a'] } } }, async (request) => request.body);
  assert.deepEqual((await app.inject({ method: 'POST', url: '/child', payload: { ok: true } })).json(), { ok: 'replaced' });
  const refused = await app.inject({ method: 'POST', url: '/child', payload: { ok: false } });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().message, 'child says no');
  const route = await app.inject({ method: 'POST', url: '/route', payload: {} });
  assert.equal(route.statusCode, 400);
  assert.equal(route.json().message, 'body route says no');
  assert.equal((await app.inject({ method: 'POST', url: '/root', payload: {} })).json().message, "body must have required property 'a'");
  assert.deepEqual(calls, ['body /child']);
});

test('a body schema applies to whatever a parser produced, and content maps refuse unknown media types', async () => {
  const app = enclave();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post('/form', { schema: { body: { type: 'object', required: ['name'], properties: { age: { type: 'integer' } } } } }, async (request) => request.body);
  app.post(
    '/mapped',
    {
      schema: {
        body: { content: { 'application/json': { schema: { type: 'object', required: ['j'] } }, 'text/plain': { schema: { type: 'string', maxLength: 3 } } } },
      },
    },
    async (request) => ({ body: request.body }),
  );
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  assert.equal((await app.inject({ method: 'POST', url: '/form', headers: form, payload: 'age=3' })).statusCode, 400);
  assert.deepEqual((await app.inject({ method: 'POST', url: '/form', headers: form, payload: 'name=a&age=3' })).json(), { name: 'a', age: 3 });

  assert.equal((await app.inject({ method: 'POST', url: '/mapped', headers: json, payload: { j: 1 } })).statusCode, 200);
  assert.equal((await app.inject({ method: 'POST', url: '/mapped', headers: json, payload: { k: 1 } })).statusCode, 400);
  assert.equal((await app.inject({ method: 'POST', url: '/mapped', headers: { 'content-type': 'text/plain' }, payload: 'abc' })).statusCode, 200);
  assert.equal((await app.inject({ method: 'POST', url: '/mapped', headers: { 'content-type': 'text/plain' }, payload: 'abcd' })).statusCode, 400);
  // Parsed by the urlencoded parser above, but the content map has no entry for it.
  const unmapped = await app.inject({ method: 'POST', url: '/mapped', headers: form, payload: 'j=1' });
  assert.equal(unmapped.statusCode, 415);
  assert.equal(unmapped.json().code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
});

test('a $ref to a schema not visible in the route context fails ready() naming route and part', async () => {
  const app = enclave();
  app.register(async (child) => {
    child.addSchema({ $id: 'hidden', type: 'object' });
  });
  app.post('/uses-hidden', { schema: { body: { $ref: 'hidden#' } } }, async () => 'ok');
  await assert.rejects(app.ready(), (error: any) => {
    assert.equal(error.code, 'FST_ERR_SCH_VALIDATION_BUILD');
    assert.equal(error.message, "Failed building the validation schema for POST: /uses-hidden, due to error can't resolve reference hidden# from id #");
    assert.match(error.hint, /^The body schema of route POST \/uses-hidden failed to compile/);
    return true;
  });
});

test('DELETE and OPTIONS bodies are validated; a body schema on GET, HEAD or TRACE is refused at start-up (issue 17)', async () => {
  const app = enclave();
  const handled: string[] = [];
  const schema = { body: { type: 'object', required: ['ids'], properties: { ids: { type: 'array', items: { type: 'integer' } } } } };
  for (const method of ['DELETE', 'OPTIONS'] as const) {
    app.route({
      method,
      url: '/books',
      schema,
      handler: async (request) => {
        handled.push(method);
        return request.body;
      },
    });
  }
  for (const method of ['DELETE', 'OPTIONS'] as const) {
    const refused = await app.inject({ method, url: '/books', payload: { ids: 'all' } });
    assert.equal(refused.statusCode, 400, method);
    assert.equal(refused.json().code, 'FST_ERR_VALIDATION', method);
    const accepted = await app.inject({ method, url: '/books', payload: { ids: [1, 2] } });
    assert.deepEqual(accepted.json(), { ids: [1, 2] }, method);
  }
  assert.deepEqual(handled, ['DELETE', 'OPTIONS']);
  for (const method of ['GET', 'HEAD', 'TRACE']) {
    assert.throws(() => enclave().route({ method, url: '/', schema, handler: async () => 'x' }), {
      code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED',
    });
  }
});

test('a route answering DELETE and POST validates the body of both (Fastify validates DELETE bodies)', async () => {
  const app = enclave();
  app.route({
    method: ['DELETE', 'POST'],
    url: '/both',
    schema: { body: { type: 'object', required: ['name'] }, querystring: { type: 'object', properties: { n: { type: 'integer' } } } },
    handler: async (request) => ({ method: request.method, query: request.query }),
  });
  assert.deepEqual((await app.inject({ method: 'DELETE', url: '/both?n=2', payload: { name: 'a' } })).json(), { method: 'DELETE', query: { n: 2 } });
  assert.equal((await app.inject({ method: 'DELETE', url: '/both?n=2', payload: {} })).statusCode, 400);
  // No body at all is validated too: `undefined` is not an object (Fastify answers the same).
  assert.equal((await app.inject({ method: 'DELETE', url: '/both?n=2' })).json().message, 'body must be object');
  assert.equal((await app.inject({ method: 'POST', url: '/both', payload: {} })).statusCode, 400);
  assert.equal((await app.inject({ method: 'POST', url: '/both?n=2', payload: { name: 'a' } })).statusCode, 200);
  assert.equal((await app.inject({ method: 'DELETE', url: '/both?n=x', payload: { name: 'a' } })).statusCode, 400);
});

test('getDefaultJsonParser reuses the built-in JSON parser for another media type', async () => {
  const app = enclave();
  app.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.post('/', async (request) => request.body);
  const headers = { 'content-type': 'application/vnd.api+json' };
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', headers, payload: '{"a":1}' })).json(), { a: 1 });
  const poisoned = await app.inject({ method: 'POST', url: '/', headers, payload: '{"__proto__":{"x":1}}' });
  assert.equal(poisoned.statusCode, 400);
});
