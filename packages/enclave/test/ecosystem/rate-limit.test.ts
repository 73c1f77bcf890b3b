// Issue 9: the real @fastify/rate-limit, unmodified, on Enclave. It adds its hook to each route
// from an `onRoute` hook (reading `routeOptions.config.rateLimit`), counts in memory, and on the
// limit throws the object built by `errorResponseBuilder` — not necessarily an Error — which
// must reach the error handler with its `statusCode`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import rateLimit from '@fastify/rate-limit';
import enclave, { type FastifyError } from 'enclavejs';

describe('@fastify/rate-limit', () => {
  test('counts requests per client, then answers 429 with the rate-limit headers', async () => {
    const app = enclave();
    await app.register(rateLimit, { max: 2, timeWindow: 60_000 });
    app.get('/', async () => ({ ok: true }));

    const first = await app.inject({ url: '/' });
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['x-ratelimit-limit'], '2');
    assert.equal(first.headers['x-ratelimit-remaining'], '1');
    assert.equal(first.headers['x-ratelimit-reset'], '60');
    const second = await app.inject({ url: '/' });
    assert.equal(second.headers['x-ratelimit-remaining'], '0');

    const limited = await app.inject({ url: '/' });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['retry-after'], '60');
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    assert.deepEqual(limited.json(), {
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Rate limit exceeded, retry in 1 minute',
    });

    const otherClient = await app.inject({ url: '/', remoteAddress: '10.0.0.2' });
    assert.equal(otherClient.statusCode, 200, 'another address has its own budget');
    await app.close();
  });

  test('route config overrides the limit, and `rateLimit: false` exempts a route', async () => {
    const app = enclave();
    await app.register(rateLimit, { max: 5, timeWindow: '1 minute' });
    app.get('/strict', { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } }, async () => 'strict');
    app.get('/free', { config: { rateLimit: false } }, async () => 'free');

    assert.equal((await app.inject({ url: '/strict' })).statusCode, 200);
    const limited = await app.inject({ url: '/strict' });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['x-ratelimit-limit'], '1');
    for (let index = 0; index < 8; index++) {
      const free = await app.inject({ url: '/free' });
      assert.equal(free.statusCode, 200);
      assert.equal(free.headers['x-ratelimit-limit'], undefined);
    }
    await app.close();
  });

  test('keyGenerator and allowList decide who is counted', async () => {
    const app = enclave();
    await app.register(rateLimit, {
      max: 1,
      timeWindow: 60_000,
      keyGenerator: (request: any) => request.headers['x-api-key'] ?? request.ip,
      allowList: (request: any) => request.headers['x-api-key'] === 'internal',
    });
    app.get('/', async () => 'ok');

    const as = (key: string) => ({ url: '/', headers: { 'x-api-key': key } });
    assert.equal((await app.inject(as('alice'))).statusCode, 200);
    assert.equal((await app.inject(as('alice'))).statusCode, 429);
    assert.equal((await app.inject(as('bob'))).statusCode, 200);
    for (let index = 0; index < 3; index++) assert.equal((await app.inject(as('internal'))).statusCode, 200);
    await app.close();
  });

  test('a custom errorResponseBuilder object is sent with its own status code', async () => {
    const app = enclave();
    await app.register(rateLimit, {
      max: 1,
      timeWindow: 1000,
      errorResponseBuilder: (_request: unknown, context: { max: number; after: string }) => ({
        statusCode: 429,
        code: 'SLOW_DOWN',
        message: `only ${context.max} request per ${context.after}`,
      }),
    });
    app.get('/', async () => 'ok');

    await app.inject({ url: '/' });
    const limited = await app.inject({ url: '/' });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(limited.json(), { statusCode: 429, code: 'SLOW_DOWN', message: 'only 1 request per 1 second' });
    await app.close();
  });

  test('the application error handler receives the limit error with statusCode 429', async () => {
    const app = enclave();
    const seen: unknown[] = [];
    app.setErrorHandler<FastifyError>((error, _request, reply) => {
      seen.push(error.statusCode);
      reply.code(error.statusCode ?? 500).send({ limited: true });
    });
    await app.register(rateLimit, { max: 1, timeWindow: 60_000 });
    app.get('/', async () => 'ok');

    await app.inject({ url: '/' });
    const limited = await app.inject({ url: '/' });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(limited.json(), { limited: true });
    assert.deepEqual(seen, [429]);
    await app.close();
  });

  test('a custom errorResponseBuilder object reaches onError hooks and the error handler too', async () => {
    const app = enclave();
    const seen: unknown[] = [];
    app.addHook('onError', async (_request, _reply, error) => {
      seen.push(['onError', (error as { code?: string }).code]);
    });
    app.setErrorHandler((error: any, _request, reply) => {
      seen.push(['handler', error.code, error instanceof Error]);
      reply.code(error.statusCode).send({ retry: 'later' });
    });
    await app.register(rateLimit, {
      max: 1,
      timeWindow: 60_000,
      errorResponseBuilder: () => ({ statusCode: 429, code: 'SLOW_DOWN', message: 'slow down' }),
    });
    app.get('/', async () => 'ok');

    await app.inject({ url: '/' });
    const limited = await app.inject({ url: '/' });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(limited.json(), { retry: 'later' });
    assert.deepEqual(seen, [
      ['onError', 'SLOW_DOWN'],
      ['handler', 'SLOW_DOWN', false],
    ]);
    await app.close();
  });

  test('with `global: false`, app.rateLimit() protects a not-found handler and single routes', async () => {
    const app: any = enclave();
    await app.register(rateLimit, { global: false, max: 2, timeWindow: 60_000 });
    app.get('/unlimited', async () => 'ok');
    app.get('/limited', { onRequest: app.rateLimit({ max: 1, timeWindow: 60_000 }) }, async () => 'ok');
    app.setNotFoundHandler({ preHandler: app.rateLimit() }, (_request: unknown, reply: any) => reply.code(404).send({ missing: true }));

    for (let index = 0; index < 4; index++) assert.equal((await app.inject({ url: '/unlimited' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/limited' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/limited' })).statusCode, 429);
    assert.equal((await app.inject({ url: '/nope' })).statusCode, 404);
    assert.equal((await app.inject({ url: '/nope' })).statusCode, 404);
    assert.equal((await app.inject({ url: '/nope' })).statusCode, 429, 'scanning for paths is limited too');
    await app.close();
  });

  test('ban answers 403 once a client keeps going past the limit', async () => {
    const app = enclave();
    const events: string[] = [];
    await app.register(rateLimit, {
      max: 1,
      timeWindow: 60_000,
      ban: 1,
      onExceeded: () => events.push('exceeded'),
      onBanReach: () => events.push('ban'),
    });
    app.get('/', async () => 'ok');

    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push((await app.inject({ url: '/' })).statusCode);
    assert.deepEqual(statuses, [200, 429, 403, 403]);
    assert.ok(events.includes('exceeded'));
    assert.ok(events.includes('ban'));
    await app.close();
  });
});
