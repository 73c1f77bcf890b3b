// Issue 18: a body refused as too large is not read any further. The 413 says
// Connection: close and the connection closes, so a client cannot stream gigabytes into it.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import enclave from 'enclavejs';
import { portOf, withTimeout } from './security-helpers.ts';

const MiB = 1024 * 1024;
const DECLARED = 100 * 1024 * MiB; // 100 GB
/** The client gives up writing after this much, so the test ends even if the server read on. */
const CLIENT_CAP = 256 * MiB;

interface Exchange {
  response: string;
  clientWrote: number;
  serverRead: number;
}

async function streamHugeBody(path: string, headers: string): Promise<Exchange> {
  const app = enclave();
  app.post(path, async () => 'accepted');
  await app.listen({ port: 0, host: '127.0.0.1' });
  let serverSocket: net.Socket | undefined;
  app.server.on('connection', (socket: net.Socket) => {
    serverSocket = socket;
  });
  try {
    const socket = net.connect(portOf(app), '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk.toString('latin1');
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const ended = new Promise<void>((resolve) => {
      // A reset after the answer is fine: only what the client read matters.
      socket.on('error', () => {});
      socket.on('close', () => resolve());
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
    const pump = () => {
      while (!socket.destroyed && socket.writable && socket.bytesWritten < CLIENT_CAP) {
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (socket.bytesWritten >= CLIENT_CAP) socket.end();
    };
    pump();
    await withTimeout(ended, 20_000, 'the connection closing');
    return { response, clientWrote: socket.bytesWritten, serverRead: serverSocket?.bytesRead ?? -1 };
  } finally {
    await app.close();
  }
}

test('a 100 GB Content-Length is refused with 413 and the server reads under 10 MiB of the body', async () => {
  const result = await streamHugeBody('/upload', `Content-Type: application/json\r\nContent-Length: ${DECLARED}\r\n`);
  assert.match(result.response, /^HTTP\/1\.1 413 /);
  assert.match(result.response, /connection: close/i);
  assert.ok(result.serverRead >= 0 && result.serverRead < 10 * MiB, `server read ${result.serverRead} bytes`);
  assert.ok(result.clientWrote < CLIENT_CAP, `client wrote ${result.clientWrote} bytes before the connection closed`);
});

test('a chunked body that crosses the limit is refused with 413 and not read further', async () => {
  // One endless chunk: the limit (1 MiB by default) is crossed while it streams.
  const result = await streamHugeBody('/upload', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n100000000');
  assert.match(result.response, /^HTTP\/1\.1 413 /);
  assert.match(result.response, /connection: close/i);
  assert.ok(result.serverRead >= 0 && result.serverRead < 10 * MiB, `server read ${result.serverRead} bytes`);
});
