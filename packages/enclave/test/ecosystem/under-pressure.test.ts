// Issue 20: the real @fastify/under-pressure, unmodified, on Enclave: its status route, its
// decorators, and the 503 it answers with when a health check says the service is unhealthy.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import underPressure from '@fastify/under-pressure';
import enclave from 'enclavejs';

describe('@fastify/under-pressure', () => {
  test('the status route and the decorators report a healthy process', async () => {
    const app: any = enclave();
    await app.register(underPressure, { exposeStatusRoute: true, maxEventLoopDelay: 10_000 });
    app.get('/', async () => 'ok');
    assert.equal((await app.inject('/')).body, 'ok');
    const status = await app.inject('/status');
    assert.equal(status.statusCode, 200);
    assert.deepEqual(status.json(), { status: 'ok' });
    assert.equal(app.isUnderPressure(), false);
    assert.equal(typeof app.memoryUsage().heapUsed, 'number');
    await app.close();
  });

  test('an unhealthy health check turns every answer into 503 with the plugin’s error', async () => {
    const app = enclave();
    let healthy = true;
    await app.register(underPressure, {
      healthCheck: async () => healthy,
      healthCheckInterval: 10,
      exposeStatusRoute: true,
    });
    app.get('/', async () => 'ok');
    await app.ready();
    assert.equal((await app.inject('/')).statusCode, 200);
    healthy = false;
    await new Promise((resolve) => setTimeout(resolve, 60));
    const refused = await app.inject('/');
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.json().code, 'FST_UNDER_PRESSURE');
    assert.equal(refused.headers['retry-after'], '10');
    await app.close();
  });
});
