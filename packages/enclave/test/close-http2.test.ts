// Issue 18: closing an HTTP/2 server. A stream the client opened just before close() reached the
// server is answered (503, or served with return503OnClosing: false) rather than refused, then its
// session is closed; forceCloseConnections: true closes sessions at once but gracefully.
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { test } from 'node:test';
import enclave from 'enclavejs';

interface Outcome {
  status?: number | undefined;
  body?: string;
  error?: string;
}

/** Opens a GET stream at once; settles with its answer or the error that ended it. */
function openStream(client: http2.ClientHttp2Session, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const stream = client.request({ ':path': path });
    let status: number | undefined;
    let body = '';
    stream.on('response', (headers) => {
      status = Number(headers[':status']);
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      body += chunk;
    });
    stream.on('end', () => resolve({ status, body }));
    stream.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.message }));
    stream.end();
  });
}

async function connected(address: string): Promise<http2.ClientHttp2Session> {
  const client = http2.connect(address);
  client.on('error', () => {});
  await new Promise((resolve) => client.once('connect', resolve));
  return client;
}

for (const return503OnClosing of [true, false]) {
  test(`a stream opened as close() starts is answered (return503OnClosing: ${return503OnClosing}), then its session closes`, async () => {
    const app = enclave({ http2: true, return503OnClosing } as any);
    app.get('/', async () => 'served');
    const client = await connected(await app.listen({ port: 0, host: '127.0.0.1' }));
    const sessionClosed = new Promise((resolve) => client.once('close', resolve));
    try {
      // Same tick: the server reads the stream only after close() began.
      const answer = openStream(client, '/');
      const closing = app.close();
      const outcome = await answer;
      if (return503OnClosing) {
        assert.equal(outcome.status, 503);
        assert.equal(JSON.parse(outcome.body ?? '').statusCode, 503);
      } else {
        assert.deepEqual(outcome, { status: 200, body: 'served' });
      }
      // The server closed the session (the client did not), so close() is not held.
      await sessionClosed;
      await closing;
    } finally {
      client.destroy();
    }
  });
}

test('forceCloseConnections: true closes sessions at once, gracefully: an open stream finishes, a new one is refused', async () => {
  const app = enclave({ http2: true, forceCloseConnections: true } as any);
  let started!: () => void;
  const handlerStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  app.get('/slow', async () => {
    started();
    await released;
    return 'slow done';
  });
  app.get('/', async () => 'fast');
  const client = await connected(await app.listen({ port: 0, host: '127.0.0.1' }));
  try {
    const slow = openStream(client, '/slow');
    await handlerStarted;
    const closing = app.close();
    const late = await openStream(client, '/');
    assert.match(late.error ?? '', /NGHTTP2_REFUSED_STREAM/);
    release();
    assert.deepEqual(await slow, { status: 200, body: 'slow done' });
    await closing;
  } finally {
    release();
    client.destroy();
  }
});
