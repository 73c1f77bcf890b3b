// Stream payloads when the response cannot take them as planned: a client that goes away (the
// source is released, old-style streams included, and the log says the stream was cut short),
// a socket that refuses more (a WHATWG stream is not read ahead of it), and headers the handler
// already wrote itself (the body still goes out, with a warning).
import assert from 'node:assert/strict';
import http from 'node:http';
import { Readable } from 'node:stream';
import { ReadableStream } from 'node:stream/web';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import { captureLogs, portOf, waitFor, withTimeout } from './security-helpers.ts';

/** A Node stream that sends one chunk, then waits forever; `strip` removes destroy (and close). */
function endlessSource(strip: 'destroy' | 'destroy-and-close') {
  let sent = false;
  const source = new Readable({
    read() {
      if (!sent) this.push('first chunk\n');
      sent = true;
    },
  }) as Readable & Record<string, unknown>;
  source.destroy = undefined as never;
  if (strip === 'destroy-and-close') source.close = undefined;
  return source;
}

/** GETs `/` and destroys the response as soon as its first bytes arrive. */
function fetchAndHangUp(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/' }, (response) => {
        response.once('data', () => {
          response.destroy();
          resolve(response.statusCode ?? 0);
        });
      })
      .on('error', reject);
  });
}

describe('a client that goes away mid-stream', () => {
  for (const [strip, release] of [
    ['destroy', 'close'],
    ['destroy-and-close', 'abort'],
  ] as const) {
    test(`a source without ${strip === 'destroy' ? 'destroy()' : 'destroy() or close()'} is released by ${release}()`, async (t) => {
      const { stream, lines } = captureLogs();
      const app = enclave({ logger: { level: 'info', stream } });
      t.after(() => app.close());
      let released = false;
      app.get('/', (_request, reply) => {
        const source = endlessSource(strip);
        source[release] = () => {
          released = true;
        };
        reply.send(source);
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      assert.equal(await fetchAndHangUp(portOf(app)), 200);
      await waitFor(() => released && lines.some((line) => line.res !== undefined), 5000, 'the release and the closing log line');
      // One closing line, and it says why: not a generic "aborted".
      const closing = lines.filter((line) => line.res !== undefined).map((line) => [line.msg, line.level]);
      assert.deepEqual(closing, [['stream closed prematurely', 30]]);
    });
  }
});

describe('WHATWG streams', () => {
  test('a socket that refuses the first chunk, then closes, cancels the stream before it is read further', async (t) => {
    const app = enclave();
    t.after(() => app.close());
    let pulls = 0;
    let markCancelled = () => {};
    const cancelled = new Promise<void>((resolve) => {
      markCancelled = resolve;
    });
    app.get('/', (_request, reply) => {
      const raw = reply.raw;
      // The socket takes nothing more after the first chunk, and the connection then drops.
      raw.write = ((_chunk: unknown, _encoding?: unknown, callback?: unknown) => {
        if (typeof callback === 'function') callback();
        setImmediate(() => raw.destroy());
        return false;
      }) as typeof raw.write;
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('one'));
        },
        pull(controller) {
          pulls++;
          controller.enqueue(new TextEncoder().encode('two'));
          controller.close();
        },
        cancel() {
          markCancelled();
        },
      });
      reply.header('content-type', 'text/plain').send(body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => {
      http.get({ host: '127.0.0.1', port: portOf(app), path: '/' }, (response) => response.resume().once('close', resolve)).once('error', () => resolve());
    });
    await withTimeout(cancelled, 5000, 'the cancellation of the stream');
    assert.ok(pulls <= 1, `the stream was read ahead of the socket (${pulls} pulls)`);
  });
});

describe('headers already written with res.writeHead', () => {
  for (const kind of ['Node', 'WHATWG'] as const) {
    test(`a ${kind} stream body still goes out, with a warning`, async () => {
      const warnings: string[] = [];
      const logger: any = {
        level: 'warn',
        warn: (...args: unknown[]) => warnings.push(String(args.find((arg) => typeof arg === 'string'))),
        fatal() {},
        error() {},
        info() {},
        debug() {},
        trace() {},
        child: () => logger,
      };
      const app = enclave({ loggerInstance: logger });
      app.get('/', (_request, reply) => {
        reply.raw.writeHead(201, { 'content-type': 'text/plain' });
        const body =
          kind === 'Node'
            ? Readable.from(['streamed ', 'anyway'])
            : new ReadableStream({
                start(controller) {
                  controller.enqueue('streamed ');
                  controller.enqueue('anyway');
                  controller.close();
                },
              });
        reply.send(body);
      });
      const response = await withTimeout(app.inject('/'), 5000, 'the response');
      assert.equal(response.statusCode, 201);
      assert.equal(response.body, 'streamed anyway');
      assert.ok(
        warnings.some((message) => message.includes('res.writeHead in stream mode')),
        warnings.join('; '),
      );
    });
  }
});
