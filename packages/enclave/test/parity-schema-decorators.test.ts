// Issue 20: route schema objects, `app.errorHandler` and reply decorators as Fastify 5 leaves
// them for plugins (@fastify/swagger reads routeOptions.schema back, view engines and wrappers
// decorate reply methods, error handlers delegate to `instance.errorHandler`).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import { S } from 'fluent-json-schema';

describe("the route's schema object", () => {
  test('schema.query is copied to schema.querystring, and validates the query', async () => {
    const app = enclave();
    const schema: Record<string, any> = { query: { type: 'object', properties: { n: { type: 'integer' } } } };
    app.get('/', { schema }, async (request: any) => ({ n: request.query.n, seen: Object.keys(request.routeOptions.schema) }));
    const response = await app.inject('/?n=3');
    assert.deepEqual(response.json(), { n: 3, seen: ['query', 'querystring'] });
    assert.equal(schema.querystring, schema.query);
    assert.equal((await app.inject('/?n=x')).statusCode, 400);
  });

  test('fluent-json-schema objects are unwrapped, for the request parts and the responses', async () => {
    const app = enclave();
    const schema: Record<string, any> = {
      querystring: S.object().prop('n', S.integer()),
      response: { 200: S.object().prop('n', S.integer()).prop('kept', S.string()) },
    };
    app.get('/', { schema }, async (request: any) => ({ n: request.query.n, kept: 'yes', dropped: 'no' }));
    const response = await app.inject('/?n=4');
    assert.deepEqual(response.json(), { n: 4, kept: 'yes' });
    assert.equal((await app.inject('/?n=four')).statusCode, 400);
    assert.equal(schema.querystring.isFluentSchema, undefined);
    assert.deepEqual(Object.keys(schema.response[200].properties), ['n', 'kept']);
  });
});

describe('app.errorHandler', () => {
  test("returns the context's current handler: its own, an inherited one, or the default", async () => {
    const app = enclave();
    const mine = (_error: Error, _request: unknown, reply: any) => reply.code(418).send({ mine: true });
    let inChild: unknown;
    let inGrandchild: unknown;
    app.register(async (child) => {
      child.setErrorHandler(mine);
      inChild = child.errorHandler;
      child.register(async (grandchild) => {
        inGrandchild = grandchild.errorHandler;
      });
    });
    await app.ready();
    assert.equal(inChild, mine);
    assert.equal(inGrandchild, mine);
    assert.notEqual(app.errorHandler, mine);
    assert.equal(typeof app.errorHandler, 'function');
  });

  test("a child's handler can delegate to the parent's handler through the parent's errorHandler", async () => {
    const app = enclave();
    app.setErrorHandler((error: Error, _request, reply) => reply.code(409).send({ parent: error.message }));
    app.register(async (child) => {
      const parentHandler = app.errorHandler;
      child.setErrorHandler((error: Error, request, reply) => {
        reply.header('x-child', 'saw it');
        return Reflect.apply(parentHandler, app, [error, request, reply]);
      });
      child.get('/', async () => {
        throw new Error('conflict');
      });
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 409);
    assert.equal(response.headers['x-child'], 'saw it');
    assert.deepEqual(response.json(), { parent: 'conflict' });
  });
});

describe('decorateReply', () => {
  test("may shadow one of the reply's own methods, as Fastify allows", async () => {
    const app = enclave();
    app.decorateReply('send', function (this: any, payload: unknown) {
      this.raw.setHeader('x-wrapped', 'yes');
      this.raw.end(`wrapped:${String(payload)}`);
      return this;
    });
    app.get('/', (_request, reply) => {
      reply.send('body');
    });
    const response = await app.inject('/');
    assert.equal(response.headers['x-wrapped'], 'yes');
    assert.equal(response.body, 'wrapped:body');
  });

  test('a method already decorated, and a built-in property, are still refused', () => {
    const app = enclave();
    app.decorateReply('render', () => 'first');
    assert.throws(() => app.decorateReply('render', () => 'second'), { code: 'FST_ERR_DEC_ALREADY_PRESENT' });
    // The types refuse these too: a name declared on the reply takes a value of its declared type.
    // @ts-expect-error statusCode is a number, not a function
    assert.throws(() => app.decorateReply('statusCode', () => 200), { code: 'FST_ERR_DEC_ALREADY_PRESENT' });
    // @ts-expect-error code() returns the reply, not a string
    app.decorateReply('code', () => 'shadowed once');
    // @ts-expect-error code() returns the reply, not a string
    assert.throws(() => app.decorateReply('code', () => 'twice'), { code: 'FST_ERR_DEC_ALREADY_PRESENT' });
  });
});
