// Issue 20: the real @fastify/autoload, unmodified, on Enclave: plugins and routes loaded from
// directories (CommonJS and ES modules), directory names as prefixes, options passed down.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import autoload from '@fastify/autoload';
import enclave from 'enclavejs';

const fixtures = join(import.meta.dirname, 'fixtures', 'autoload');

describe('@fastify/autoload', () => {
  test('wrapped plugins are shared; route files are prefixed by their directory', async () => {
    const app = enclave();
    await app.register(autoload, { dir: join(fixtures, 'plugins') });
    await app.register(autoload, { dir: join(fixtures, 'routes'), options: { marker: 'given' } });
    assert.deepEqual((await app.inject('/')).json(), { greeting: 'hello', prefix: '' });
    assert.deepEqual((await app.inject('/users')).json(), { users: ['ada'], option: 'given' });
    assert.deepEqual((await app.inject('/users/7')).json(), { id: '7' });
    await app.close();
  });

  test('a prefix given to autoload goes in front of the directory prefixes', async () => {
    const app = enclave();
    await app.register(autoload, { dir: join(fixtures, 'plugins') });
    await app.register(autoload, { dir: join(fixtures, 'routes'), options: { prefix: '/api' } });
    assert.equal((await app.inject('/api/users/3')).json().id, '3');
    assert.equal((await app.inject('/users/3')).statusCode, 404);
    await app.close();
  });
});
