// Issue 9: the real @fastify/cors, unmodified, on Enclave. Simple requests get the
// Access-Control-* headers from an onRequest hook; preflights are answered by the plugin's
// `OPTIONS *` route before any other hook can refuse them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import cors from '@fastify/cors';
import enclave from 'enclavejs';

const preflight = (url: string, origin: string, method = 'GET', extra: Record<string, string> = {}) => ({
  method: 'OPTIONS',
  url,
  headers: { origin, 'access-control-request-method': method, ...extra },
});

describe('@fastify/cors', () => {
  test('a simple request from an allowed origin gets the allow-origin header', async () => {
    const app = enclave();
    await app.register(cors, { origin: 'https://app.example' });
    app.get('/items', async () => ({ items: [] }));

    const response = await app.inject({ url: '/items', headers: { origin: 'https://app.example' } });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['access-control-allow-origin'], 'https://app.example');
    assert.deepEqual(response.json(), { items: [] });
    await app.close();
  });

  test('an origin function decides per request; credentials and exposed headers are sent', async () => {
    const app = enclave();
    await app.register(cors, {
      origin: (origin: string | undefined, callback: (error: Error | null, allow: boolean) => void) => callback(null, origin === 'https://ok.example'),
      credentials: true,
      exposedHeaders: ['x-total'],
    });
    app.get('/', async () => 'hi');

    const allowed = await app.inject({ url: '/', headers: { origin: 'https://ok.example' } });
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://ok.example');
    assert.equal(allowed.headers['access-control-allow-credentials'], 'true');
    assert.equal(allowed.headers['access-control-expose-headers'], 'x-total');
    assert.equal(allowed.headers.vary, 'Origin');

    const refused = await app.inject({ url: '/', headers: { origin: 'https://evil.example' } });
    assert.equal(refused.statusCode, 200, 'CORS is enforced by the browser; the server still answers');
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
    await app.close();
  });

  test('a preflight is answered with 204 and the allowed methods, headers and max-age', async () => {
    const app = enclave();
    await app.register(cors, {
      origin: [/\.example$/, 'http://localhost:3000'],
      methods: ['GET', 'PUT'],
      allowedHeaders: ['x-token'],
      maxAge: 600,
    });
    app.put('/things/:id', async () => ({ updated: true }));

    const response = await app.inject(preflight('/things/1', 'https://a.example', 'PUT'));
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    assert.equal(response.headers['access-control-allow-origin'], 'https://a.example');
    assert.equal(response.headers['access-control-allow-methods'], 'GET, PUT');
    assert.equal(response.headers['access-control-allow-headers'], 'x-token');
    assert.equal(response.headers['access-control-max-age'], '600');
    await app.close();
  });

  test('preflights reach paths that have no OPTIONS route, and request headers are reflected', async () => {
    const app = enclave();
    await app.register(cors, { origin: true });

    const response = await app.inject(preflight('/not/declared', 'https://x.example', 'DELETE', { 'access-control-request-headers': 'x-a, x-b' }));
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['access-control-allow-origin'], 'https://x.example');
    assert.equal(response.headers['access-control-allow-headers'], 'x-a, x-b');
    assert.match(String(response.headers.vary), /Access-Control-Request-Headers/);
    await app.close();
  });

  test('strictPreflight refuses an OPTIONS without the preflight headers with 400', async () => {
    const app = enclave();
    await app.register(cors, { origin: '*' });
    const response = await app.inject({ method: 'OPTIONS', url: '/', headers: { origin: 'https://a.example' } });
    assert.equal(response.statusCode, 400);
    await app.close();
  });

  test('the preflight runs before hooks of the application that would refuse it', async () => {
    const app = enclave();
    await app.register(cors, { origin: '*' });
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers.authorization === undefined) return reply.code(401).send({ error: 'unauthorized' });
    });
    app.get('/private', async () => 'secret');

    const pre = await app.inject(preflight('/private', 'https://a.example'));
    assert.equal(pre.statusCode, 204);
    const actual = await app.inject({ url: '/private', headers: { origin: 'https://a.example' } });
    assert.equal(actual.statusCode, 401);
    assert.equal(actual.headers['access-control-allow-origin'], '*', 'the CORS hook ran first');
    await app.close();
  });

  test('route config `cors: false` turns the headers off for one route', async () => {
    const app = enclave();
    await app.register(cors, { origin: '*' });
    app.get('/open', async () => 'open');
    app.get('/closed', { config: { cors: false } }, async () => 'closed');

    assert.equal((await app.inject({ url: '/open', headers: { origin: 'https://a' } })).headers['access-control-allow-origin'], '*');
    assert.equal((await app.inject({ url: '/closed', headers: { origin: 'https://a' } })).headers['access-control-allow-origin'], undefined);
    await app.close();
  });

  test('a delegator chooses the options per request, with the hook moved to preHandler', async () => {
    const app = enclave();
    await app.register(cors, {
      hook: 'preHandler',
      delegator: (request: any, callback: (error: Error | null, options: object) => void) =>
        callback(null, { origin: request.headers['x-tenant'] === 'trusted' }),
    });
    app.get('/', async () => 'tenant');

    const trusted = await app.inject({ url: '/', headers: { origin: 'https://t.example', 'x-tenant': 'trusted' } });
    assert.equal(trusted.headers['access-control-allow-origin'], 'https://t.example');
    const other = await app.inject({ url: '/', headers: { origin: 'https://t.example' } });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    await app.close();
  });

  test('registered in a child context, it covers that context only', async () => {
    const app = enclave();
    await app.register(
      async (api) => {
        await api.register(cors, { origin: '*' });
        api.get('/data', async () => ({ ok: true }));
      },
      { prefix: '/api' },
    );
    app.get('/page', async () => 'page');

    assert.equal((await app.inject({ url: '/api/data', headers: { origin: 'https://a' } })).headers['access-control-allow-origin'], '*');
    assert.equal((await app.inject({ url: '/page', headers: { origin: 'https://a' } })).headers['access-control-allow-origin'], undefined);
    await app.close();
  });
});
