// Loads the built `@enclavejs/bearer-auth` package by name through require() and uses it.
'use strict';
const assert = require('node:assert/strict');
const bearerAuth = require('@enclavejs/bearer-auth');
const enclave = require('enclavejs');

assert.equal(typeof bearerAuth, 'function', 'require("@enclavejs/bearer-auth") is the plugin itself');
assert.equal(bearerAuth.default, bearerAuth);
assert.equal(bearerAuth[Symbol.for('skip-override')], true, 'it protects the context that registers it');

const app = enclave();
app.register(bearerAuth, { keys: ['secret'] });
app.get('/', async () => ({ ok: true }));
(async () => {
  assert.equal((await app.inject({ url: '/' })).statusCode, 401);
  const allowed = await app.inject({ url: '/', headers: { authorization: 'Bearer secret' } });
  assert.equal(allowed.statusCode, 200);
  await app.close();
  console.log('require @enclavejs/bearer-auth: plugin, .default, 401 without key, 200 with key');
})();
