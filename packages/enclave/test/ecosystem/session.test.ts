// Issue 20: the real @fastify/session (with @fastify/cookie), unmodified, on Enclave: a signed
// session cookie, data kept in the store between requests, destroy().
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import cookie from '@fastify/cookie';
import session from '@fastify/session';
import enclave from 'enclavejs';

describe('@fastify/session', () => {
  test('a value set in one request is there in the next one with the session cookie', async () => {
    const app = enclave();
    await app.register(cookie);
    await app.register(session, { secret: 'a secret with minimum length of 32 characters', cookie: { secure: false } });
    app.post('/visit', async (request: any) => {
      request.session.set('visits', (request.session.get('visits') ?? 0) + 1);
      return { visits: request.session.get('visits') };
    });
    app.post('/logout', async (request: any) => {
      await request.session.destroy();
      return { out: true };
    });

    const first = await app.inject({ method: 'POST', url: '/visit' });
    assert.deepEqual(first.json(), { visits: 1 });
    const sessionCookie = first.cookies.find((each) => each.name === 'sessionId');
    assert.ok(sessionCookie, 'the session cookie is set');
    const cookieHeader = `sessionId=${sessionCookie.value}`;
    const second = await app.inject({ method: 'POST', url: '/visit', headers: { cookie: cookieHeader } });
    assert.deepEqual(second.json(), { visits: 2 });

    await app.inject({ method: 'POST', url: '/logout', headers: { cookie: cookieHeader } });
    const after = await app.inject({ method: 'POST', url: '/visit', headers: { cookie: cookieHeader } });
    assert.deepEqual(after.json(), { visits: 1 });
    await app.close();
  });
});
