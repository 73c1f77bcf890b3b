// Issue 28 (1): a preParsing hook that resolves a stream look-alike (`on` and `pipe`, but no
// `destroy` or `removeListener`) must not let a client's disconnect crash the process. Before the
// fix, the body reader called `payload.destroy()` from the request's 'aborted' listener and the
// TypeError ended the process. The server runs in its own process: a crash is its exit.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { startServerProcess } from './reliability-helpers.ts';
import { rawExchange, waitFor, withTimeout } from './security-helpers.ts';

/** Sends the head and part of a body, then disconnects once the server has read them. */
function sendPartOfABodyAndLeave(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n`);
      socket.write('a'.repeat(1000));
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 100);
    });
    socket.on('error', reject);
  });
}

test('a client that disconnects mid-body while a preParsing look-alike stream is read: the process survives, the socket is released', async () => {
  const server = await startServerProcess('look-alike');
  try {
    for (const path of ['/upload', '/bare']) {
      for (let attempt = 0; attempt < 3; attempt++) await sendPartOfABodyAndLeave(server.port, path);
    }
    await waitFor(async () => server.exited() || (await server.ask('connections')).connections === 0, 5000, 'every connection released');
    assert.equal(server.exited(), false, `the server process exited (${server.exited() ? await server.exit : ''})`);
    // The look-alikes work for a whole body (they forward the request's events), and the server
    // still serves.
    for (const path of ['/upload', '/bare']) {
      const whole = await rawExchange(
        server.port,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`,
      );
      assert.equal(whole.status, 200, whole.text);
      assert.match(whole.text, /\r\n\r\nhello$/);
    }
  } finally {
    await withTimeout(server.stop(), 5000, 'the server process to end');
  }
});
