// Issue 20: the real @fastify/auth, unmodified, on Enclave: `app.auth([...])` composes
// decorated strategies into a preHandler, with `or` and `and` relations.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import auth from '@fastify/auth';
import enclave from 'enclavejs';

function refuse(message: string) {
  return Object.assign(new Error(message), { statusCode: 401 });
}

async function build() {
  const app: any = enclave();
  await app.register(auth);
  app.decorate('byKey', async (request: any) => {
    if (request.headers['x-key'] !== 'k1') throw refuse('bad key');
  });
  app.decorate('byUser', (request: any, _reply: any, done: (error?: Error) => void) => {
    done(request.headers['x-user'] === 'ada' ? undefined : refuse('bad user'));
  });
  app.get('/either', { preHandler: app.auth([app.byKey, app.byUser]) }, async () => 'either');
  app.get('/both', { preHandler: app.auth([app.byKey, app.byUser], { relation: 'and' }) }, async () => 'both');
  return app;
}

describe('@fastify/auth', () => {
  test("relation 'or': one passing strategy is enough", async () => {
    const app = await build();
    assert.equal((await app.inject({ url: '/either', headers: { 'x-user': 'ada' } })).body, 'either');
    const none = await app.inject('/either');
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().message, 'bad user');
    await app.close();
  });

  test("relation 'and': every strategy must pass", async () => {
    const app = await build();
    const one = await app.inject({ url: '/both', headers: { 'x-key': 'k1' } });
    assert.equal(one.statusCode, 401);
    assert.equal(one.json().message, 'bad user');
    const all = await app.inject({ url: '/both', headers: { 'x-key': 'k1', 'x-user': 'ada' } });
    assert.equal(all.body, 'both');
    await app.close();
  });
});
