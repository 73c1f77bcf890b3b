// Loads the built `enclavejs` package by name through require(), as a CommonJS user would.
'use strict';
const assert = require('node:assert/strict');
const enclave = require('enclavejs');

assert.equal(typeof enclave, 'function', 'require("enclavejs") is the factory itself');
assert.equal(enclave.default, enclave, '.default is the factory');
assert.equal(enclave.enclave, enclave, '.enclave is the factory');
assert.equal(enclave.errorCodes.FST_ERR_NOT_FOUND.code, 'FST_ERR_NOT_FOUND');
assert.equal(enclave.errorCodes.FST_ERR_NOT_FOUND.statusCode, 404);

const app = enclave();
assert.equal(typeof app.register, 'function');
app.get('/', async () => ({ loadedBy: 'require' }));
app
  .inject({ method: 'GET', url: '/' })
  .then((response) => {
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { loadedBy: 'require' });
    return app.close();
  })
  .then(() => console.log('require enclave: factory, .default, .enclave, errorCodes, inject ok'));
