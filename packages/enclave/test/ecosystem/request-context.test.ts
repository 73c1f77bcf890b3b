// Issue 20: the real @fastify/request-context, unmodified, on Enclave: a store per request,
// kept across the hooks and the handler through AsyncLocalStorage and an AsyncResource.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fastifyRequestContext, requestContext } from '@fastify/request-context';
import enclave from 'enclavejs';

describe('@fastify/request-context', () => {
  test('values set in a hook are read in the handler, and never leak between requests', async () => {
    const app = enclave();
    await app.register(fastifyRequestContext, { defaultStoreValues: () => ({ user: 'anonymous' }) });
    app.addHook('preHandler', async (request: any) => {
      const user = request.headers['x-user'];
      if (typeof user === 'string') request.requestContext.set('user', user);
    });
    app.post('/', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { user: requestContext.get('user' as never) };
    });
    const [ada, nobody, bob] = await Promise.all([
      app.inject({ method: 'POST', url: '/', headers: { 'x-user': 'ada' }, payload: { a: 1 } }),
      app.inject({ method: 'POST', url: '/', payload: { a: 2 } }),
      app.inject({ method: 'POST', url: '/', headers: { 'x-user': 'bob' }, payload: { a: 3 } }),
    ]);
    assert.deepEqual(ada.json(), { user: 'ada' });
    assert.deepEqual(nobody.json(), { user: 'anonymous' });
    assert.deepEqual(bob.json(), { user: 'bob' });
    await app.close();
  });
});
