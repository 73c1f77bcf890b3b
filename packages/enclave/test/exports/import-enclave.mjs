// Loads the built `enclavejs` package by name through import, as an ES-module user would.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import enclave, { errorCodes, enclave as named } from 'enclavejs';
import * as namespace from 'enclavejs';

assert.equal(typeof enclave, 'function', 'the default import is the factory');
assert.equal(named, enclave, 'the named import is the same factory');
assert.equal(namespace.default, enclave);
assert.equal(errorCodes.FST_ERR_NOT_FOUND.code, 'FST_ERR_NOT_FOUND');
assert.equal(errorCodes, enclave.errorCodes, 'one set of error classes for both module systems');
assert.equal(createRequire(import.meta.url)('enclavejs'), enclave, 'import and require share one instance');

const app = enclave();
assert.equal(typeof app.register, 'function');
app.get('/', async () => ({ loadedBy: 'import' }));
const response = await app.inject({ method: 'GET', url: '/' });
assert.equal(response.statusCode, 200);
assert.deepEqual(response.json(), { loadedBy: 'import' });
await app.close();
console.log('import enclave: default, { enclave }, { errorCodes }, same instance as require, inject ok');
