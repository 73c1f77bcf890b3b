// `addHook: false`: no hook, a `verifyBearerAuth` decorator for routes that opt in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import bearerAuth, { type BearerAuthOptions, type VerifyBearerAuth } from '@enclavejs/bearer-auth';
import { createApp, get } from './helpers.ts';

type WithVerifier = { verifyBearerAuth: VerifyBearerAuth };

async function appWithVerifier(options: BearerAuthOptions = { keys: ['route-key'], addHook: false }) {
  const { app, logs } = createApp();
  await app.register(bearerAuth, options);
  const { verifyBearerAuth } = app as unknown as WithVerifier;
  app.get('/open', async () => 'open');
  app.get('/guarded', { onRequest: verifyBearerAuth }, async () => 'guarded');
  app.get('/late', { preHandler: verifyBearerAuth }, async () => 'late');
  await app.ready();
  return { app, logs, verifyBearerAuth };
}

test('the instance is decorated and no hook is installed', async () => {
  const { app, verifyBearerAuth } = await appWithVerifier();
  assert.equal(typeof verifyBearerAuth, 'function');
  assert.equal(app.hasDecorator('verifyBearerAuth'), true);
  const open = await get(app, '/open');
  assert.equal(open.statusCode, 200);
  assert.equal(open.body, 'open');
});

test('used as a route onRequest hook it lets a known key through', async () => {
  const { app } = await appWithVerifier();
  const answer = await get(app, '/guarded', 'Bearer route-key');
  assert.equal(answer.statusCode, 200);
  assert.equal(answer.body, 'guarded');
});

test('a rejection goes to the error handler as a coded 401 with the challenge', async () => {
  const { app } = await appWithVerifier();
  for (const url of ['/guarded', '/late']) {
    const invalid = await get(app, url, 'Bearer wrong');
    assert.equal(invalid.statusCode, 401, url);
    assert.equal(invalid.headers['www-authenticate'], 'Bearer error="invalid_token"');
    const body = invalid.json() as { code: string; message: string };
    assert.equal(body.code, 'FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER');
    assert.equal(body.message, 'invalid authorization header');

    const missing = await get(app, url);
    assert.equal(missing.statusCode, 401, url);
    assert.equal(missing.headers['www-authenticate'], 'Bearer');
    assert.equal((missing.json() as { code: string }).code, 'FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER');
  }
});

test('a custom error handler sees the coded error and decides the body', async () => {
  const { app } = createApp();
  await app.register(bearerAuth, { keys: ['k'], addHook: false });
  const { verifyBearerAuth } = app as unknown as WithVerifier;
  app.setErrorHandler(async (error: Error & { statusCode?: number; code?: string }, _request, reply) => {
    reply.code(error.statusCode ?? 500).send({ denied: error.code });
  });
  app.get('/', { onRequest: verifyBearerAuth }, async () => 'ok');
  const answer = await get(app, '/', 'Basic abc');
  assert.equal(answer.statusCode, 401);
  assert.deepEqual(answer.json(), { denied: 'FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER' });
});

test('a broken auth is a 500 through the error handler, and is logged', async () => {
  const { app, logs } = await appWithVerifier({
    addHook: false,
    auth: async () => {
      throw new Error('token store unreachable');
    },
  });
  const answer = await get(app, '/guarded', 'Bearer any');
  assert.equal(answer.statusCode, 500);
  assert.equal(answer.headers['www-authenticate'], undefined);
  assert.equal((answer.json() as { code: string }).code, 'FST_BEARER_AUTH_AUTH_FUNCTION_FAILED');
  assert.ok(logs.some((line) => JSON.stringify(line).includes('token store unreachable')));
});

test('the decorator is visible in child contexts of the registering one', async () => {
  const { app } = createApp();
  await app.register(bearerAuth, { keys: ['k'], addHook: false, bearerType: 'Token' });
  app.register(async (child) => {
    const { verifyBearerAuth } = child as unknown as WithVerifier;
    child.get('/child', { onRequest: verifyBearerAuth }, async () => 'child');
  });
  assert.equal((await get(app, '/child', 'Token k')).statusCode, 200);
  assert.equal((await get(app, '/child', 'Bearer k')).headers['www-authenticate'], 'Token error="invalid_token"');
});

test('registered in a child, the decorator does not leak to the parent', async () => {
  const { app } = createApp();
  app.register(async (child) => {
    child.register(bearerAuth, { keys: ['k'], addHook: false });
  });
  await app.ready();
  assert.equal(app.hasDecorator('verifyBearerAuth'), false);
});
