// Issue 18: what close() does with connections: hook order across contexts, the 503 log line,
// forceCloseConnections, and upgraded or hijacked sockets that must not hold close() for ever.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { test } from 'node:test';
import enclave from 'enclavejs';
import { captureLogs, portOf, withTimeout } from './security-helpers.ts';

test('preClose hooks run in registration order across contexts, onClose hooks last added first', async () => {
  const app = enclave();
  const order: string[] = [];
  app.addHook('preClose', async () => {
    order.push('pre root');
  });
  app.addHook('onClose', async () => {
    order.push('close root');
  });
  app.register(async (child) => {
    child.addHook('preClose', (done: () => void) => {
      order.push('pre child');
      done();
    });
    child.addHook('onClose', (_instance: unknown, done: () => void) => {
      order.push('close child');
      done();
    });
    child.register(async (grandchild) => {
      grandchild.addHook('onClose', async () => {
        order.push('close grandchild');
      });
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  await app.close();
  assert.deepEqual(order, ['pre root', 'pre child', 'close grandchild', 'close child', 'close root']);
});

test('a request refused while closing is answered 503 with Connection: close and logged', async () => {
  const { stream, lines } = captureLogs();
  const app = enclave({ logger: { stream, level: 'info' } } as any);
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  app.addHook('preClose', () => held);
  app.get('/', async () => 'ok');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      http
        .get({ agent, host: '127.0.0.1', port: portOf(app), path: '/' }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode as number, connection: response.headers.connection }));
        })
        .on('error', reject);
    });
  try {
    assert.deepEqual(await get(), { status: 200, connection: 'keep-alive' });
    const closing = app.close();
    assert.deepEqual(await get(), { status: 503, connection: 'close' });
    release();
    await closing;
    const line = lines.find((entry) => entry.msg === 'request aborted - refusing to accept new requests as server is closing');
    assert.equal(line?.level, 30);
    assert.equal(line?.res?.statusCode, 503);
  } finally {
    agent.destroy();
  }
});

test('forceCloseConnections: true ends a connection whose request is still in flight; the default lets it finish', async () => {
  for (const force of [true, 'idle'] as const) {
    const app = enclave({ forceCloseConnections: force });
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => {
      started = resolve;
    });
    app.get('/slow', async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return 'finished';
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const answer = new Promise<string>((resolve) => {
      http
        .get({ host: '127.0.0.1', port: portOf(app), path: '/slow' }, (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () => resolve(`${response.statusCode} ${body}`));
        })
        .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    await inFlight;
    await withTimeout(app.close(), 2000);
    assert.equal(await answer, force === true ? 'ECONNRESET' : '200 finished', `forceCloseConnections: ${force}`);
  }
});

test('an upgraded socket left open, or a hijacked response never ended, does not hold close()', async () => {
  const app = enclave();
  app.server.on('upgrade', (_request: unknown, socket: net.Socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
  });
  app.get('/events', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write('data: first\n\n');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = portOf(app);
  const open = (request: string) =>
    new Promise<net.Socket>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
      socket.on('error', () => {});
      socket.once('data', () => resolve(socket));
    });
  const upgraded = await open('GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
  const streaming = await open('GET /events HTTP/1.1\r\nHost: x\r\n\r\n');
  await withTimeout(app.close(), 2000, 'close()');
  assert.ok(upgraded.destroyed || (await new Promise<boolean>((resolve) => upgraded.once('close', () => resolve(true)))));
  assert.ok(streaming.destroyed || (await new Promise<boolean>((resolve) => streaming.once('close', () => resolve(true)))));
});

test('close() stops the server through server.close(): a wrapper installed there runs, and a client it lets in meanwhile gets a 503', async () => {
  const app = enclave();
  app.get('/', async () => 'ok');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const original = app.server.close;
  let answeredWhileClosing: number | undefined;
  // As @fastify/websocket's own suite does: a new client arrives once close() began, then the
  // wrapper lets the server close.
  app.server.close = function closeAfterOneMoreClient(this: http.Server, callback?: (error?: Error) => void) {
    http
      .get({ agent: false, host: '127.0.0.1', port: portOf(app), path: '/' }, (response) => {
        answeredWhileClosing = response.statusCode;
        response.resume();
        response.on('end', () => original.call(this, callback));
      })
      .on('error', () => original.call(this, callback));
    return this;
  } as typeof original;
  await withTimeout(app.close(), 5000, 'close()');
  assert.equal(answeredWhileClosing, 503);
  assert.equal(app.server.listening, false);
});
