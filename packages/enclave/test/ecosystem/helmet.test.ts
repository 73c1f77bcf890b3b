// Issue 9: the real @fastify/helmet, unmodified, on Enclave. It writes its headers onto
// `reply.raw` from an onRequest hook and reads `request.routeOptions.config` for per-route
// settings, so both must behave as in Fastify.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import helmet from '@fastify/helmet';
import enclave from 'enclavejs';

const securityHeaders = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('@fastify/helmet', () => {
  test('registered globally, every response carries the default security headers', async () => {
    const app = enclave();
    await app.register(helmet);
    app.get('/', async () => ({ hello: 'world' }));

    const response = await app.inject({ url: '/' });
    assert.equal(response.statusCode, 200);
    for (const name of securityHeaders) assert.ok(response.headers[name] !== undefined, `${name} is set`);
    assert.equal(response.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.match(String(response.headers['content-security-policy']), /default-src 'self'/);
    assert.deepEqual(response.json(), { hello: 'world' });
    await app.close();
  });

  test('the headers are on 404 and error responses too', async () => {
    const app = enclave();
    await app.register(helmet);
    app.get('/boom', async () => {
      throw new Error('boom');
    });

    const missing = await app.inject({ url: '/missing' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['x-frame-options'], 'SAMEORIGIN');
    const failed = await app.inject({ url: '/boom' });
    assert.equal(failed.statusCode, 500);
    assert.equal(failed.headers['x-content-type-options'], 'nosniff');
    await app.close();
  });

  test('options configure the individual headers', async () => {
    const app = enclave();
    await app.register(helmet, {
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'https://img.example'] } },
      hsts: false,
    });
    app.get('/', async () => 'ok');

    const response = await app.inject({ url: '/' });
    assert.equal(response.headers['x-frame-options'], 'DENY');
    assert.equal(response.headers['referrer-policy'], 'same-origin');
    assert.match(String(response.headers['content-security-policy']), /img-src 'self' https:\/\/img\.example/);
    assert.equal(response.headers['strict-transport-security'], undefined);
    await app.close();
  });

  test('route option `helmet: false` skips one route; an object overrides the options there', async () => {
    const app = enclave();
    await app.register(helmet);
    app.get('/plain', { helmet: false } as any, async () => 'plain');
    app.get('/deny', { helmet: { frameguard: { action: 'deny' } } } as any, async () => 'deny');

    const plain = await app.inject({ url: '/plain' });
    assert.equal(plain.headers['x-frame-options'], undefined);
    assert.equal(plain.headers['content-security-policy'], undefined);
    const deny = await app.inject({ url: '/deny' });
    assert.equal(deny.headers['x-frame-options'], 'DENY');
    await app.close();
  });

  test('with `global: false`, routes opt in with the `helmet` route option or reply.helmet()', async () => {
    const app = enclave();
    await app.register(helmet, { global: false });
    app.get('/none', async () => 'none');
    app.get('/route', { helmet: { xFrameOptions: { action: 'deny' } } } as any, async () => 'route');
    app.get('/manual', async (_request, reply: any) => {
      await reply.helmet({ frameguard: false });
      return 'manual';
    });

    assert.equal((await app.inject({ url: '/none' })).headers['x-content-type-options'], undefined);
    const route = await app.inject({ url: '/route' });
    assert.equal(route.headers['x-content-type-options'], 'nosniff');
    const manual = await app.inject({ url: '/manual' });
    assert.equal(manual.headers['x-content-type-options'], 'nosniff');
    assert.equal(manual.headers['x-frame-options'], undefined);
    await app.close();
  });

  test('enableCSPNonces decorates the reply with fresh nonces that appear in the policy', async () => {
    const app = enclave();
    await app.register(helmet, { enableCSPNonces: true });
    app.get('/', async (_request, reply: any) => ({ script: reply.cspNonce.script, style: reply.cspNonce.style }));

    const first = await app.inject({ url: '/' });
    const second = await app.inject({ url: '/' });
    const { script, style } = first.json();
    assert.equal(typeof script, 'string');
    assert.ok(script.length >= 16);
    assert.notEqual(script, second.json().script, 'a new nonce per request');
    const policy = String(first.headers['content-security-policy']);
    assert.ok(policy.includes(`'nonce-${script}'`));
    assert.ok(policy.includes(`'nonce-${style}'`));
    await app.close();
  });
});
