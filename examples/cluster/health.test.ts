// The health routes and the drain, on one process without nginx or Redis (`npm run
// test:cluster` runs the whole deployment).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { test } from 'node:test';
import enclave from 'enclavejs';
import { drain, health, type Readiness } from './health.js';

function buildApp() {
  const readiness: Readiness = { draining: false };
  const app = enclave();
  app.register(health, { readiness });
  app.get('/books', async () => ['Kindred']);
  app.post('/books', async (_request, reply) => reply.code(201).send({ id: 1 }));
  return { app, readiness };
}

test('ready until the drain starts; then readiness 503, reads 503, writes served, all with Connection: close', async () => {
  const { app, readiness } = buildApp();
  assert.equal((await app.inject('/health/ready')).statusCode, 200);
  readiness.draining = true;
  const ready = await app.inject('/health/ready');
  assert.equal(ready.statusCode, 503);
  assert.deepEqual(ready.json(), { status: 'draining' });
  assert.equal((await app.inject('/health/live')).statusCode, 200);
  const read = await app.inject('/books');
  assert.equal(read.statusCode, 503, 'nginx retries a GET elsewhere and stops choosing this process');
  assert.equal(read.headers['retry-after'], '1');
  assert.equal(read.headers.connection, 'close');
  const write = await app.inject({ method: 'POST', url: '/books', payload: {} });
  assert.equal(write.statusCode, 201, 'nginx would not retry a POST, so it is served');
  assert.equal(write.headers.connection, 'close');
  await app.close();
});

test('readiness turns 503 when close() begins, before in-flight requests finish', async () => {
  const { app, readiness } = buildApp();
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived = () => {};
  const inFlight = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  app.get('/slow', async () => {
    arrived();
    await released;
    return 'done';
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const slow = fetch(`http://127.0.0.1:${port}/slow`).then((response) => response.text());
  await inFlight;
  const closing = app.close();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(readiness.draining, true);
  release();
  assert.equal(await slow, 'done');
  await closing;
});

test('drain waits for the keep-alive connections to end, and gives up at its timeout', async () => {
  const { app, readiness } = buildApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  // A client (nginx, say) holding one idle keep-alive connection.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const outgoing = request({ host: '127.0.0.1', port, path: '/books', agent });
  outgoing.end();
  const [response] = await once(outgoing, 'response');
  response.resume();
  await once(response, 'end');

  assert.equal(await drain(app, readiness, 100), false, 'the idle connection is still open');
  assert.equal(readiness.draining, true);
  const drained = drain(app, readiness, 5000);
  agent.destroy(); // the client lets go, as nginx does when its keepalive_timeout passes
  assert.equal(await drained, true);
  await app.close();
});
