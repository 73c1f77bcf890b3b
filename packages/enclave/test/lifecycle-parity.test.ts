// Issue 18: server lifecycle parity with Fastify 5 (inject while closing, onListen errors,
// onReady timeouts and ready() callbacks, listen callbacks and addresses, Unix sockets).
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import enclave from 'enclavejs';

test('inject() during and after close() rejects with FST_ERR_REOPENED_CLOSE_SERVER, promise and callback forms', async () => {
  const app = enclave();
  app.get('/', async () => 'ok');
  assert.equal((await app.inject('/')).statusCode, 200);
  const closing = app.close();
  await assert.rejects(app.inject('/'), { code: 'FST_ERR_REOPENED_CLOSE_SERVER' });
  await closing;
  const error = await new Promise<any>((resolve) => app.inject('/', (err) => resolve(err)));
  assert.equal(error?.code, 'FST_ERR_REOPENED_CLOSE_SERVER');
});

test('a failing onListen hook is logged at warn; the others run and listen() succeeds', async () => {
  const lines: any[] = [];
  const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
  const app = enclave({ logger: { stream, level: 'info' } } as any);
  const order: number[] = [];
  app.addHook('onListen', (done: () => void) => {
    order.push(1);
    done();
  });
  app.addHook('onListen', () => {
    order.push(2);
    throw new Error('onListen broke');
  });
  app.register(async (child) => {
    child.addHook('onListen', async () => {
      order.push(3);
    });
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.deepEqual(order, [1, 2, 3]);
  const warning = lines.find((line) => line.level === 40);
  assert.match(warning?.msg ?? '', /onListen broke/);
  await app.close();
});

test('an onReady hook that never finishes fails ready() with FST_ERR_HOOK_TIMEOUT after pluginTimeout', async () => {
  const app = enclave({ pluginTimeout: 50 });
  app.addHook('onReady', function stuckHook(_done: () => void) {});
  const error: any = await app.ready().then(
    () => null,
    (err) => err,
  );
  assert.equal(error?.code, 'FST_ERR_HOOK_TIMEOUT');
  assert.match(error.message, /stuckHook/);
  assert.equal(error.cause?.code, 'AVV_ERR_READY_TIMEOUT');
  assert.match(error.cause.message, /stuckHook/);
});

test('ready(cb) gets (null, instance); plugin ready() callbacks run before onReady hooks; onReady may decorate', async () => {
  const app = enclave();
  const order: string[] = [];
  app.register((child: any, _opts: unknown, done: () => void) => {
    child.ready(() => order.push('child ready'));
    child.addHook('onReady', () => {
      order.push('child onReady');
    });
    done();
  });
  app.addHook('onReady', function (this: any) {
    order.push('root onReady');
    this.decorate('late', 1);
  });
  const instance = await new Promise<any>((resolve, reject) => app.ready((err, value) => (err ? reject(err) : resolve(value))));
  assert.equal(instance, app);
  assert.deepEqual(order, ['child ready', 'root onReady', 'child onReady']);
  assert.equal((app as any).late, 1);
});

test('close() before ready() loads plugins and runs their onClose hooks', async () => {
  const app = enclave();
  let closedWith: unknown;
  app.register(async (child) => {
    child.addHook('onClose', (instance: unknown, done: () => void) => {
      closedWith = instance;
      done();
    });
  });
  await app.close();
  assert.ok(closedWith !== undefined);
});

test('listen() calls back (error, null) on failure; 0.0.0.0 reports a reachable address; Unix sockets', async () => {
  const app = enclave();
  const address = await app.listen({ port: 0, host: '0.0.0.0' });
  assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/);
  const result = await new Promise<unknown[]>((resolve) => app.listen({ port: 0 }, (...args: unknown[]) => resolve(args)));
  assert.equal((result[0] as any)?.code, 'FST_ERR_REOPENED_SERVER');
  assert.equal(result[1], null);
  await app.close();
  const socketPath = path.join(os.tmpdir(), `enclave-${process.pid}-${Date.now()}.sock`);
  const unix = enclave();
  const unixAddress = await unix.listen({ path: socketPath } as any);
  assert.equal(unixAddress, socketPath);
  assert.equal(unix.server.address(), socketPath);
  await unix.close();
});

test('an HTTP/2 server takes connectionTimeout as its timeout, as in Fastify', () => {
  const app = enclave({ http2: true, connectionTimeout: 3 } as any);
  assert.equal((app.server as any).timeout, 3);
});

test('listen() with an aborted signal does not listen, closes the application and resolves undefined', async () => {
  const app = enclave();
  let closed = false;
  app.addHook('onClose', async () => {
    closed = true;
  });
  const controller = new AbortController();
  controller.abort();
  const address = await app.listen({ port: 0, host: '127.0.0.1', signal: controller.signal });
  assert.equal(address, undefined);
  assert.equal(app.server.listening, false);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(closed, true);
  assert.throws(() => enclave().listen({ port: 0, signal: {} as AbortSignal }), { code: 'FST_ERR_LISTEN_OPTIONS_INVALID' });
});

test('aborting the signal after listen() closes the application', async () => {
  const app = enclave();
  const closed = new Promise<void>((resolve) => app.addHook('onClose', async () => resolve()));
  const controller = new AbortController();
  await app.listen({ port: 0, host: '127.0.0.1', signal: controller.signal });
  controller.abort();
  await closed;
  assert.equal(app.server.listening, false);
});

test('addresses() reports a Unix socket by its path; forceCloseConnections idle needs closeIdleConnections', async () => {
  const socketPath = path.join(os.tmpdir(), `enclave-addr-${process.pid}-${Date.now()}.sock`);
  const app = enclave();
  await app.listen({ path: socketPath } as any);
  assert.deepEqual(app.addresses(), [socketPath]);
  await app.close();
  assert.throws(() => enclave({ forceCloseConnections: 'idle', serverFactory: () => ({ on() {} }) as any }), {
    code: 'FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE',
  });
});

test('an onReady hook may add an onReady hook (which does not run)', async () => {
  const app = enclave();
  let late = false;
  app.addHook('onReady', async () => {
    app.addHook('onReady', async () => {
      late = true;
    });
  });
  await app.ready();
  assert.equal(late, false);
});

test('an onClose hook may be a disposable resource; the application itself is async-disposable', async () => {
  const app = enclave();
  const disposed: string[] = [];
  app.addHook('onClose', {
    [Symbol.asyncDispose]: async () => {
      disposed.push('async');
    },
    [Symbol.dispose]: () => {
      disposed.push('sync');
    },
  } as any);
  app.addHook('onClose', {
    [Symbol.dispose]: () => {
      disposed.push('only sync');
    },
  } as any);
  await app.ready();
  assert.deepEqual(disposed, []);
  await (app as any)[Symbol.asyncDispose]();
  assert.deepEqual(disposed, ['only sync', 'async']);
  const failing = enclave();
  failing.addHook('onClose', {
    [Symbol.asyncDispose]: async () => {
      throw new Error('dispose failed');
    },
  } as any);
  await assert.rejects(failing.close(), /dispose failed/);
  assert.throws(() => enclave().addHook('onClose', {} as any), { code: 'FST_ERR_HOOK_INVALID_HANDLER' });
});
