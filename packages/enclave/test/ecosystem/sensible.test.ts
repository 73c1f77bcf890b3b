// Issue 9: the real @fastify/sensible, unmodified, on Enclave: `httpErrors` and the reply
// helpers built on them (errors carrying statusCode, and `headers` the default handler applies),
// the cache and vary helpers, request.is/forwarded, assert and to.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sensible from '@fastify/sensible';
import enclave from 'enclavejs';

async function buildApp(options: Record<string, unknown> = {}) {
  const app: any = enclave();
  await app.register(sensible, options);
  return app;
}

describe('@fastify/sensible', () => {
  test('reply helpers send the matching HTTP error through the default error handler', async () => {
    const app = await buildApp();
    app.get('/missing', async (_request: any, reply: any) => reply.notFound());
    app.get('/bad', async (_request: any, reply: any) => reply.badRequest('name is required'));
    app.get('/teapot', async (_request: any, reply: any) => reply.imateapot());
    app.get('/any', async (_request: any, reply: any) => reply.getHttpError(409, 'taken'));

    const missing = await app.inject({ url: '/missing' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().message, 'Not Found');
    const bad = await app.inject({ url: '/bad' });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json(), { statusCode: 400, error: 'Bad Request', message: 'name is required' });
    assert.equal((await app.inject({ url: '/teapot' })).statusCode, 418);
    const taken = await app.inject({ url: '/any' });
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json().message, 'taken');
    await app.close();
  });

  test('thrown httpErrors keep their status and message', async () => {
    const app = await buildApp();
    app.get('/conflict', async () => {
      throw app.httpErrors.conflict('already exists');
    });
    app.get('/created', async () => {
      throw app.httpErrors.createError(422, 'cannot process');
    });
    app.get('/internal', async (_request: any, reply: any) => reply.internalServerError('database unavailable'));

    const conflict = await app.inject({ url: '/conflict' });
    assert.equal(conflict.statusCode, 409);
    assert.equal(conflict.json().message, 'already exists');
    const created = await app.inject({ url: '/created' });
    assert.equal(created.statusCode, 422);
    const internal = await app.inject({ url: '/internal' });
    assert.equal(internal.statusCode, 500);
    assert.deepEqual(internal.json(), { statusCode: 500, error: 'Internal Server Error', message: 'database unavailable' });
    await app.close();
  });

  test('headers carried by an error are written by the default error handler', async () => {
    const app = await buildApp();
    app.get('/login', async () => {
      const error = app.httpErrors.unauthorized('log in first');
      error.headers = { 'www-authenticate': 'Basic realm="app"' };
      throw error;
    });

    const response = await app.inject({ url: '/login' });
    assert.equal(response.statusCode, 401);
    assert.equal(response.headers['www-authenticate'], 'Basic realm="app"');
    assert.equal(response.json().message, 'log in first');
    await app.close();
  });

  test('app.assert throws an HTTP error; app.to turns a promise into [error, value]', async () => {
    const app = await buildApp();
    app.get('/check/:n', async (request: any) => {
      app.assert(Number(request.params.n) > 0, 400, 'n must be positive');
      return { n: Number(request.params.n) };
    });
    app.get('/to', async () => {
      const [error] = await app.to(Promise.reject(new Error('nope')));
      const [none, value] = await app.to(Promise.resolve(42));
      return { error: error.message, none, value };
    });

    assert.equal((await app.inject({ url: '/check/3' })).statusCode, 200);
    const refused = await app.inject({ url: '/check/-1' });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().message, 'n must be positive');
    assert.deepEqual((await app.inject({ url: '/to' })).json(), { error: 'nope', none: null, value: 42 });
    await app.close();
  });

  test('vary and cache-control helpers set their headers', async () => {
    const app = await buildApp();
    app.get('/vary', async (_request: any, reply: any) => {
      reply.vary('Accept');
      reply.vary('Accept-Language');
      reply.cacheControl('public').cacheControl('max-age', 42);
      return 'ok';
    });
    app.get('/never', async (_request: any, reply: any) => reply.preventCache().send('ok'));
    app.get('/static', async (_request: any, reply: any) => reply.staticCache(600).send('ok'));

    const vary = await app.inject({ url: '/vary' });
    assert.equal(vary.headers.vary, 'Accept, Accept-Language');
    assert.equal(vary.headers['cache-control'], 'public, max-age=42');
    const never = await app.inject({ url: '/never' });
    assert.match(String(never.headers['cache-control']), /no-store/);
    assert.equal(never.headers.pragma, 'no-cache');
    const statics = await app.inject({ url: '/static' });
    assert.equal(statics.headers['cache-control'], 'public, max-age=600, immutable');
    await app.close();
  });

  test('request.is matches the content type; request.forwarded lists the proxies', async () => {
    const app = await buildApp();
    app.post('/', async (request: any) => ({ is: request.is(['json', 'html']), forwarded: request.forwarded() }));

    const response = await app.inject({
      method: 'POST',
      url: '/',
      payload: { a: 1 },
      headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' },
      remoteAddress: '127.0.0.1',
    });
    assert.deepEqual(response.json(), { is: 'json', forwarded: ['127.0.0.1', '10.0.0.1', '203.0.113.7'] });
    await app.close();
  });

  test('sharedSchemaId adds an error schema that routes can reference', async () => {
    const app = await buildApp({ sharedSchemaId: 'HttpError' });
    app.get('/', { schema: { response: { 404: { $ref: 'HttpError' } } } }, async (_request: any, reply: any) => reply.notFound('no such thing'));

    assert.ok(app.getSchema('HttpError'));
    const response = await app.inject({ url: '/' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { statusCode: 404, error: 'Not Found', message: 'no such thing' });
    await app.close();
  });
});
