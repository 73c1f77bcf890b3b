// Issue 17: schema behaviour Fastify's schema tests expect — when `instance.validatorCompiler`
// and `serializerCompiler` exist, how a failing error serialization answers, the mark on a
// serializer's error, `serializerOpts`, and which `content` objects are media-type maps.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

const integerBody = { body: { type: 'object', properties: { n: { type: 'integer' } } } };
const okHandler = async () => ({ ok: true });

describe('instance.validatorCompiler and instance.serializerCompiler', () => {
  test('are undefined until a route compiles a schema with them, at ready', async () => {
    const app = enclave();
    app.post('/', { schema: { ...integerBody, response: { 200: { type: 'object' } } } }, okHandler);
    assert.equal(app.validatorCompiler, undefined);
    assert.equal(app.serializerCompiler, undefined);
    await app.ready();
    assert.equal(typeof app.validatorCompiler, 'function');
    assert.equal(typeof app.serializerCompiler, 'function');
  });

  test('descendants see the compiler of their ancestors; contexts with the same schemas share one', async () => {
    const app = enclave();
    const seen: Record<string, unknown> = {};
    app.post('/root', { schema: integerBody }, okHandler);
    app.register(async (quiet) => {
      quiet.register(async (nested) => {
        await nested.after();
        seen.nestedBeforeReady = nested.validatorCompiler;
        nested.addHook('onReady', async function (this: any) {
          seen.nested = this.validatorCompiler;
        });
      });
    });
    app.register(async (own) => {
      own.addSchema({ $id: 'other', type: 'string' });
      own.post('/own', { schema: integerBody }, okHandler);
      own.addHook('onReady', async function (this: any) {
        seen.own = this.validatorCompiler;
      });
    });
    await app.ready();
    assert.equal(seen.nestedBeforeReady, undefined);
    assert.equal(seen.nested, app.validatorCompiler);
    assert.equal(typeof seen.own, 'function');
    assert.notEqual(seen.own, app.validatorCompiler, 'a context that adds schemas has a compiler of its own');
  });

  test('stay undefined when every route brings its own compilers, and return a compiler that was set', async () => {
    const app = enclave();
    app.post(
      '/',
      {
        schema: { ...integerBody, response: { 200: { type: 'object' } } },
        validatorCompiler: () => () => true,
        serializerCompiler: () => (data: unknown) => JSON.stringify(data),
      },
      okHandler,
    );
    await app.ready();
    assert.equal(app.validatorCompiler, undefined);
    assert.equal(app.serializerCompiler, undefined);

    const custom = enclave();
    const compiler = () => () => true;
    custom.setValidatorCompiler(compiler);
    assert.equal(custom.validatorCompiler, compiler);
  });
});

describe('an error response that cannot be serialized', () => {
  test("a serializer returning a non-string answers 500 FST_ERR_REP_INVALID_PAYLOAD_TYPE in Fastify's shape", async () => {
    const app = enclave();
    app.setSerializerCompiler(() => () => ({ not: 'text' }) as unknown as string);
    app.get('/', { schema: { response: { 500: { type: 'object' } } } }, async () => {
      throw new Error('boom');
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), {
      statusCode: 500,
      code: 'FST_ERR_REP_INVALID_PAYLOAD_TYPE',
      message: "Attempted to send payload of invalid type 'object'. Expected a string or Buffer.",
    });
  });

  test('a serializer that throws answers 500 FST_ERR_FAILED_ERROR_SERIALIZATION naming both errors', async () => {
    const app = enclave();
    app.get('/', { schema: { querystring: { type: 'object', required: ['q'] }, response: { 400: { type: 'object', required: ['custom'] } } } }, okHandler);
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), {
      statusCode: 500,
      code: 'FST_ERR_FAILED_ERROR_SERIALIZATION',
      message: 'Failed to serialize an error. Error: "custom" is required!. Original error: querystring must have required property \'q\'',
    });
  });
});

test("an error thrown by a response serializer carries the route's config as `serialization`", async () => {
  const app = enclave();
  let seen: any;
  app.setErrorHandler((error: any, _request, reply) => {
    seen = error;
    reply.code(500).send({ failed: true });
  });
  app.get('/', { config: { tag: 'books' }, schema: { response: { 200: { type: 'object', required: ['name'] } } } }, async (): Promise<any> => ({ other: 1 }));
  assert.equal((await app.inject('/')).statusCode, 500);
  assert.equal(seen?.serialization?.tag, 'books');
  assert.equal(seen?.serialization?.url, '/');
});

test('the serializerOpts factory option reaches fast-json-stringify', async () => {
  const app = enclave({ serializerOpts: { rounding: 'ceil' } });
  app.get('/', { schema: { response: { 200: { type: 'integer' } } } }, async () => 4.2);
  assert.equal((await app.inject('/')).body, '5');
  const plain = enclave();
  plain.get('/', { schema: { response: { 200: { type: 'integer' } } } }, async () => 4.2);
  assert.equal((await plain.inject('/')).body, '4');
});

describe('content maps', () => {
  test('a response `content: {}` is an empty map: no schema applies, nothing is filtered', async () => {
    const app = enclave();
    app.get('/', { schema: { response: { 200: { content: {} } } } }, async () => ({ kept: 1, content: 2 }));
    assert.deepEqual((await app.inject('/')).json(), { kept: 1, content: 2 });
  });

  test('a body `content: {}` declares no schema: the body is not validated, as without a body schema', async () => {
    const app = enclave();
    app.post('/', { schema: { body: { content: {} } } }, async (request) => ({ body: request.body }));
    const json = await app.inject({ method: 'POST', url: '/', payload: { any: 'thing' } });
    assert.deepEqual(json.json(), { body: { any: 'thing' } });
    const text = await app.inject({ method: 'POST', url: '/', payload: 'AAAA', headers: { 'content-type': 'text/plain' } });
    assert.deepEqual(text.json(), { body: 'AAAA' });
  });

  test('a map mixing media types with a stray key fails at ready with FST_ERR_SCH_CONTENT_MISSING_SCHEMA', async () => {
    for (const part of ['response', 'body'] as const) {
      const app = enclave();
      const map = { content: { 'application/json': { schema: { type: 'object' } }, type: 'string' } };
      app.post('/', { schema: part === 'body' ? { body: map } : { response: { 200: map } } }, okHandler);
      await assert.rejects(app.ready(), { code: 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA', message: /'type'/ }, part);
    }
  });

  test('a shorthand property named content, without any media type, stays a property', async () => {
    const app = enclave();
    app.get('/', { schema: { response: { 200: { content: { type: 'string' } } } } }, async () => ({ content: 'kept', other: 'dropped' }));
    assert.deepEqual((await app.inject('/')).json(), { content: 'kept' });
  });
});
