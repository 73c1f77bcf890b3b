// Loads the built `@enclavejs/bearer-auth` package by name through import and uses it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import bearerAuth from '@enclavejs/bearer-auth';
import enclave from 'enclavejs';

assert.equal(typeof bearerAuth, 'function', 'the default import is the plugin');
assert.equal(bearerAuth.default, bearerAuth);
assert.equal(createRequire(import.meta.url)('@enclavejs/bearer-auth'), bearerAuth, 'import and require share one instance');

const app = enclave();
await app.register(bearerAuth, { keys: new Set(['secret']) });
app.get('/', async () => ({ ok: true }));
assert.equal((await app.inject({ url: '/' })).statusCode, 401);
const allowed = await app.inject({ url: '/', headers: { authorization: 'Bearer secret' } });
assert.equal(allowed.statusCode, 200);
await app.close();
console.log('import @enclavejs/bearer-auth: default, same instance as require, 401 without key, 200 with key');
