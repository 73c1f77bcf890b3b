// Issue 20: the real @fastify/jwt, unmodified, on Enclave: `app.jwt.sign`, `reply.jwtSign` and
// `request.jwtVerify` as decorators, its 401 errors with their own codes and messages.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

// Loaded without its declarations: they type `request.user` for every program that sees them,
// and tsc checks all tests and examples as one program, where examples/from-fastify declares
// its own `request.user`. The type test for Fastify's names registers @fastify/jwt typed.
const jwt = createRequire(import.meta.url)('@fastify/jwt');

async function build() {
  const app = enclave();
  await app.register(jwt, { secret: 'a-secret-long-enough-for-hs256-signing' });
  app.post('/login', async (request: any, reply: any) => {
    const token = await reply.jwtSign({ sub: request.body.user });
    return { token };
  });
  app.get('/me', { onRequest: async (request: any) => request.jwtVerify() }, async (request: any) => ({ sub: request.user.sub }));
  return app;
}

describe('@fastify/jwt', () => {
  test('a token signed at login opens the protected route', async () => {
    const app = await build();
    const login = await app.inject({ method: 'POST', url: '/login', payload: { user: 'ada' } });
    const { token } = login.json();
    const me = await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } });
    assert.equal(me.statusCode, 200);
    assert.deepEqual(me.json(), { sub: 'ada' });
    assert.equal((app as any).jwt.verify(token).sub, 'ada');
    await app.close();
  });

  test('no token and a forged token are 401 with the plugin’s codes', async () => {
    const app = await build();
    const missing = await app.inject('/me');
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().code, 'FST_JWT_NO_AUTHORIZATION_IN_HEADER');
    // The signature's first character changed: it carries six bits of the signature, where the
    // last one's two low bits are padding, so replacing the tail could leave it valid (1 in ~1,000).
    const [header, payload, signature] = ((app as any).jwt.sign({ sub: 'eve' }) as string).split('.') as [string, string, string];
    const forged = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const bad = await app.inject({ url: '/me', headers: { authorization: `Bearer ${forged}` } });
    assert.equal(bad.statusCode, 401);
    assert.equal(bad.json().code, 'FST_JWT_AUTHORIZATION_TOKEN_INVALID');
    await app.close();
  });
});
