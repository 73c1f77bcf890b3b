// handlerTimeout counts until the response is flushed, not just ended: a payload the client
// does not take (an HTTP/2 stream whose flow-control window stays shut) is cut when the timeout
// fires, and the session keeps serving other streams.
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { test } from 'node:test';
import enclave from 'enclavejs';
import { portOf, withTimeout } from './security-helpers.ts';

test('an HTTP/2 response stuck behind flow control is cut at the handler timeout', async (t) => {
  const app = enclave({ http2: true, handlerTimeout: 100 });
  const large = Buffer.alloc(2 * 1024 * 1024, 'z');
  app.get('/large', async (_request, reply) => reply.type('application/octet-stream').send(large));
  app.get('/small', async () => 'still serving');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const session = http2.connect(`http://127.0.0.1:${portOf(app)}`);
  t.after(async () => {
    session.destroy();
    await app.close();
  });
  const status = await withTimeout(
    new Promise<unknown>((resolve) => {
      let seen: unknown;
      const stream = session.request({ ':path': '/large' });
      // Read nothing: the window is never reopened, so the server cannot finish writing.
      stream.on('response', (headers) => {
        seen = headers[':status'];
        stream.pause();
      });
      stream.on('error', () => {});
      stream.on('close', () => resolve(seen));
      stream.end();
    }),
    5000,
    'the stuck stream to be cut',
  );
  assert.equal(status, 200);
  const body = await withTimeout(
    new Promise<string>((resolve, reject) => {
      let text = '';
      const stream = session.request({ ':path': '/small' });
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => (text += chunk));
      stream.on('end', () => resolve(text));
      stream.on('error', reject);
      stream.end();
    }),
    5000,
    'the next stream',
  );
  assert.equal(body, 'still serving');
});
