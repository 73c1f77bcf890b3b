// Issue 17: once the application is ready, inject() with a callback dispatches at once, as
// Fastify's does: invalid options throw to the caller, and so does a child-logger factory that
// returns no logger (FST_ERR_LOG_INVALID_LOGGER). A real request meeting that factory is
// answered 500 and the server keeps serving.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';
import { captureLogs } from './security-helpers.ts';

test('after ready, inject() with a callback throws at once for an unknown method', async (t) => {
  const app = enclave();
  app.get('/', async () => 'ok');
  t.after(() => app.close());
  await app.ready();
  let called = false;
  assert.throws(() =>
    app.inject({ method: 'NOT-A-METHOD' as 'GET', url: '/' }, () => {
      called = true;
    }),
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(called, false);
});

test('after ready, inject() with a callback runs the request synchronously', async (t) => {
  const app = enclave();
  const trail: string[] = [];
  app.addHook('onRequest', async () => {
    trail.push('onRequest');
  });
  app.get('/', async () => 'ok');
  t.after(() => app.close());
  await app.ready();
  await new Promise<void>((resolve, reject) => {
    app.inject('/', (error, response) => {
      if (error) reject(error);
      else resolve(assert.equal(response?.body, 'ok'));
    });
    trail.push('returned');
  });
  assert.deepEqual(trail, ['onRequest', 'returned']);
});

const missingEveryMethod = 'info,error,debug,fatal,warn,trace,child';

for (const [name, returned, missing] of [
  ['nothing', () => undefined, missingEveryMethod],
  ['a partial logger', () => ({ info() {}, error() {}, debug() {}, warn() {}, trace() {} }), 'fatal,child'],
] as const) {
  test(`a child-logger factory returning ${name}: inject() throws FST_ERR_LOG_INVALID_LOGGER, the callback never runs`, async (t) => {
    const app = enclave();
    app.setChildLoggerFactory(returned as never);
    let handled = false;
    app.get('/', () => {
      handled = true;
      return 'ok';
    });
    t.after(() => app.close());
    await app.ready();
    let called = false;
    assert.throws(
      () =>
        app.inject('/', () => {
          called = true;
        }),
      (error: any) => error.code === 'FST_ERR_LOG_INVALID_LOGGER' && error.message.includes(`'${missing}'`),
    );
    await assert.rejects(app.inject('/'), { code: 'FST_ERR_LOG_INVALID_LOGGER' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(called, false);
    assert.equal(handled, false);
  });
}

test('a child-logger factory returning nothing: a real request is answered 500, logged, and the server keeps serving', async (t) => {
  const { stream, lines } = captureLogs();
  const app = enclave({ logger: { stream } } as any);
  let calls = 0;
  app.setChildLoggerFactory(function (logger, bindings) {
    calls++;
    return calls === 1 ? (undefined as never) : logger.child(bindings);
  });
  let handled = 0;
  app.get('/', () => {
    handled++;
    return 'ok';
  });
  t.after(() => app.close());
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const first = await fetch(address);
  assert.equal(first.status, 500);
  assert.equal(handled, 0);
  assert.ok(lines.some((line) => line.err?.code === 'FST_ERR_LOG_INVALID_LOGGER'));
  const second = await fetch(address);
  assert.equal(second.status, 200);
  assert.equal(await second.text(), 'ok');
});
