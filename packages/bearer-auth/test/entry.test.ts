// The published entries (built by `npm run build`): `require` returns the plugin function
// itself, and the ESM default and named exports are that same function.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import bearerAuth, { bearerAuth as named } from '@enclavejs/bearer-auth';
import enclave from 'enclavejs';

const require = createRequire(import.meta.url);

test('require returns the plugin function, carrying default and bearerAuth', () => {
  const required = require('@enclavejs/bearer-auth') as typeof bearerAuth;
  assert.equal(typeof required, 'function');
  assert.equal(required.default, required);
  assert.equal(required.bearerAuth, required);
});

test('import gives the same function as require, default and named', () => {
  assert.equal(bearerAuth, require('@enclavejs/bearer-auth'));
  assert.equal(named, bearerAuth);
});

test('it carries the plugin protocol so that it lands in the registering context', () => {
  const marked = bearerAuth as unknown as Record<symbol, unknown>;
  assert.equal(marked[Symbol.for('skip-override')], true);
  assert.equal(marked[Symbol.for('fastify.display-name')], '@enclavejs/bearer-auth');
  assert.deepEqual(marked[Symbol.for('plugin-meta')], { name: '@enclavejs/bearer-auth' });
});

test('the built plugin protects a route', async () => {
  const app = enclave();
  app.register(bearerAuth, { keys: ['built'] });
  app.get('/', async () => 'ok');
  assert.equal((await app.inject({ method: 'GET', url: '/' })).statusCode, 401);
  assert.equal((await app.inject({ method: 'GET', url: '/', headers: { authorization: 'Bearer built' } })).statusCode, 200);
});
