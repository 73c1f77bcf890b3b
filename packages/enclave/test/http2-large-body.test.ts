// Issue 18: a large body over HTTP/2 is written in chunks with back-pressure, so a client that
// cancels the download keeps a working session: its next stream is served, not refused.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http2 from 'node:http2';
import { test } from 'node:test';
import enclave from 'enclavejs';

const LARGE = Buffer.alloc(24 * 1024 * 1024, 'x');

/** Opens `path`, pauses at the response head, cancels the stream, then resolves. */
async function startThenCancel(client: http2.ClientHttp2Session, path: string): Promise<void> {
  const stream = client.request({ ':path': path });
  stream.on('error', () => {});
  stream.end();
  await once(stream, 'response');
  stream.pause();
  stream.close(http2.constants.NGHTTP2_CANCEL);
}

function getText(client: http2.ClientHttp2Session, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = client.request({ ':path': path });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      body += chunk;
    });
    stream.on('end', () => resolve(body));
    stream.on('error', reject);
    stream.end();
  });
}

for (const withTrailer of [false, true]) {
  test(`a cancelled ${LARGE.length >> 20} MiB HTTP/2 reply leaves the session usable${withTrailer ? ' (with a trailer)' : ''}`, async () => {
    const app = enclave({ http2: true } as any);
    app.get('/large', async (_request, reply) => {
      reply.header('content-type', 'application/octet-stream');
      if (withTrailer) reply.trailer('x-done', () => 'yes');
      return LARGE;
    });
    app.get('/small', async () => 'small');
    const client = http2.connect(await app.listen({ port: 0, host: '127.0.0.1' }));
    client.on('error', () => {});
    try {
      await startThenCancel(client, '/large');
      assert.equal(await getText(client, '/small'), 'small');
    } finally {
      client.close();
      await app.close();
    }
  });
}

test('a large HTTP/2 reply read to its end arrives whole', async () => {
  const app = enclave({ http2: true } as any);
  app.get('/large', async () => LARGE);
  const client = http2.connect(await app.listen({ port: 0, host: '127.0.0.1' }));
  try {
    const stream = client.request({ ':path': '/large' });
    stream.end();
    let length = 0;
    let mismatch = false;
    for await (const chunk of stream) {
      length += chunk.length;
      if ((chunk as Buffer).some((byte) => byte !== 0x78)) mismatch = true;
    }
    assert.equal(length, LARGE.length);
    assert.equal(mismatch, false);
  } finally {
    client.close();
    await app.close();
  }
});
