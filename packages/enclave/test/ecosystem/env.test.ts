// Issue 20: the real @fastify/env, unmodified, on Enclave: configuration validated against a
// JSON schema (with the plugin's own Ajv), decorated as `app.config`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import env from '@fastify/env';
import enclave from 'enclavejs';

const schema = {
  type: 'object',
  required: ['PORT'],
  properties: { PORT: { type: 'integer' }, MODE: { type: 'string', default: 'dev' } },
};

describe('@fastify/env', () => {
  test('valid data is coerced, defaulted and decorated as app.config', async () => {
    const app: any = enclave();
    await app.register(env, { schema, data: { PORT: '8080' } });
    app.get('/config', async function (this: any) {
      return this.config;
    });
    assert.deepEqual((await app.inject('/config')).json(), { PORT: 8080, MODE: 'dev' });
    await app.close();
  });

  test('missing required configuration fails ready() with the plugin’s own message', async () => {
    const app = enclave();
    app.register(env, { schema, data: {} });
    await assert.rejects(app.ready(), (error: any) => {
      assert.equal(error.message, "env must have required property 'PORT'");
      assert.equal(error.plugin, '@fastify/env');
      return true;
    });
  });
});
