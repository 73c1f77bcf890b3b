// Issue 18: requests Node's HTTP parser refuses are answered as Fastify answers them (JSON 400,
// 408, 431 and the socket closed), through the clientErrorHandler option, and logged.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import enclave from 'enclavejs';
import { captureLogs, portOf, withTimeout } from './security-helpers.ts';

/** Sends raw bytes, resolves with everything the server wrote before closing the connection. */
async function exchange(port: number, raw: string): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(raw);
  await withTimeout(closed, 5000, 'the server closing the connection');
  return received;
}

test('a malformed request gets a JSON 400 and the connection closes; it is logged at trace', async () => {
  const { stream, lines } = captureLogs();
  const app = enclave({ logger: { stream, level: 'trace' } } as any);
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const received = await exchange(portOf(app), 'NOT A REQUEST\r\n\r\n');
    const body = '{"error":"Bad Request","message":"Client Error","statusCode":400}';
    assert.equal(received, `HTTP/1.1 400 Bad Request\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`);
    assert.ok(lines.some((line) => line.level === 10 && line.msg === 'client error'));
  } finally {
    await app.close();
  }
});

test('headers over the size limit get a JSON 431', async () => {
  const app = enclave();
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const received = await exchange(portOf(app), `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    assert.match(received, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    assert.match(received, /"message":"Exceeded maximum allowed HTTP header size","statusCode":431}$/);
  } finally {
    await app.close();
  }
});

test('clientErrorHandler replaces the default, with the application as this; a throwing one does not crash', async () => {
  let self: unknown;
  const app = enclave({
    clientErrorHandler(error, socket) {
      self = this;
      assert.ok(error instanceof Error);
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 4\r\n\r\nnope');
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    assert.equal(await exchange(portOf(app), 'oops\r\n\r\n'), 'HTTP/1.1 400 Bad Request\r\nContent-Length: 4\r\n\r\nnope');
    assert.equal(self, app);
  } finally {
    await app.close();
  }
  const throwing = enclave({
    clientErrorHandler() {
      throw new Error('handler broke');
    },
  });
  await throwing.listen({ port: 0, host: '127.0.0.1' });
  try {
    assert.equal(await exchange(portOf(throwing), 'oops\r\n\r\n'), '');
  } finally {
    await throwing.close();
  }
});

test('a reset or destroyed socket is left alone', () => {
  const app = enclave();
  const untouchable = {
    destroyed: true,
    write: () => assert.fail('nothing is written to a destroyed socket'),
    destroy: () => assert.fail('a destroyed socket is not destroyed again'),
  };
  app.server.emit('clientError', new Error('gone'), untouchable);
  const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
  app.server.emit('clientError', reset, { ...untouchable, destroyed: false });
});
