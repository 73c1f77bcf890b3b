// Issue 9: the real @fastify/cookie, unmodified, on Enclave. It decorates request, reply and
// instance, parses the Cookie header in an onRequest hook and writes Set-Cookie from onSend,
// where it reads what the handler already put in the `set-cookie` header (reply.getHeader).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import cookie, { sign } from '@fastify/cookie';
import enclave from 'enclavejs';

describe('@fastify/cookie', () => {
  test('the Cookie header is parsed into request.cookies', async () => {
    const app = enclave();
    await app.register(cookie);
    app.get('/', async (request: any) => ({ cookies: request.cookies }));

    const response = await app.inject({ url: '/', headers: { cookie: 'session=abc; theme=dark%20blue' } });
    assert.deepEqual(response.json(), { cookies: { session: 'abc', theme: 'dark blue' } });
    const none = await app.inject({ url: '/' });
    assert.deepEqual(none.json(), { cookies: {} });
    await app.close();
  });

  test('reply.setCookie writes Set-Cookie with its attributes, next to headers set by hand', async () => {
    const app = enclave();
    await app.register(cookie);
    app.get('/', async (_request, reply: any) => {
      reply.header('set-cookie', 'manual=1');
      reply
        .setCookie('session', 'abc', { path: '/', httpOnly: true, sameSite: 'strict', maxAge: 3600 })
        .cookie('lang', 'en', { domain: 'example.com', secure: true });
      return 'ok';
    });

    const response = await app.inject({ url: '/' });
    const byName = Object.fromEntries(response.cookies.map((c: any) => [c.name, c]));
    assert.deepEqual(Object.keys(byName).sort(), ['lang', 'manual', 'session']);
    assert.equal(byName.session.value, 'abc');
    assert.equal(byName.session.httpOnly, true);
    assert.equal(byName.session.sameSite, 'Strict');
    assert.equal(byName.session.maxAge, 3600);
    assert.equal(byName.lang.domain, 'example.com');
    assert.equal(byName.lang.secure, true);
    await app.close();
  });

  test('clearCookie expires the cookie', async () => {
    const app = enclave();
    await app.register(cookie);
    app.get('/logout', async (_request, reply: any) => reply.clearCookie('session', { path: '/' }).send({ bye: true }));

    const response = await app.inject({ url: '/logout' });
    const [cleared] = response.cookies as any[];
    assert.equal(cleared.name, 'session');
    assert.equal(cleared.value, '');
    assert.ok(new Date(cleared.expires).getTime() <= Date.now());
    assert.deepEqual(response.json(), { bye: true });
    await app.close();
  });

  test('signed cookies: setCookie signs, unsignCookie verifies, a tampered value is invalid', async () => {
    const app = enclave();
    await app.register(cookie, { secret: 'a-long-enough-secret' });
    app.get('/login', async (_request, reply: any) => reply.setCookie('user', 'ada', { signed: true }).send('ok'));
    app.get('/me', async (request: any) => request.unsignCookie(request.cookies.user ?? ''));

    const login = await app.inject({ url: '/login' });
    const signed = (login.cookies as any[])[0].value;
    assert.notEqual(signed, 'ada');
    assert.ok(signed.startsWith('ada.'));

    const me = await app.inject({ url: '/me', cookies: { user: signed } });
    assert.deepEqual(me.json(), { valid: true, renew: false, value: 'ada' });
    const forged = await app.inject({ url: '/me', cookies: { user: 'admin.forged' } });
    assert.deepEqual(forged.json(), { valid: false, renew: false, value: null });
    await app.close();
  });

  test('secret rotation: a cookie signed with an older secret is valid and asks for renewal', async () => {
    const app = enclave();
    await app.register(cookie, { secret: ['new-secret', 'old-secret'] });
    app.get('/me', async (request: any) => request.unsignCookie(request.cookies.user));

    const old = await app.inject({ url: '/me', cookies: { user: sign('ada', 'old-secret') } });
    assert.deepEqual(old.json(), { valid: true, renew: true, value: 'ada' });
    const current = await app.inject({ url: '/me', cookies: { user: sign('ada', 'new-secret') } });
    assert.deepEqual(current.json(), { valid: true, renew: false, value: 'ada' });
    await app.close();
  });

  test('instance decorators: parseCookie, serializeCookie, signCookie and unsignCookie', async () => {
    const app: any = enclave();
    await app.register(cookie, { secret: 'k' });
    await app.ready();
    assert.deepEqual({ ...app.parseCookie('a=1; b=two') }, { a: '1', b: 'two' });
    assert.equal(app.serializeCookie('a', 'b c', { path: '/' }), 'a=b%20c; Path=/');
    assert.deepEqual(app.unsignCookie(app.signCookie('value')), { valid: true, renew: false, value: 'value' });
    await app.close();
  });

  test('`hook: false` leaves parsing to the application', async () => {
    const app: any = enclave();
    await app.register(cookie, { hook: false });
    app.get('/', async (request: any) => ({ parsed: app.parseCookie(request.headers.cookie), cookies: request.cookies ?? null }));

    const response = await app.inject({ url: '/', headers: { cookie: 'x=1' } });
    assert.deepEqual(response.json(), { parsed: { x: '1' }, cookies: null });
    await app.close();
  });
});
