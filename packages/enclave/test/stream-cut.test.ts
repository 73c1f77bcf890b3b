// Issue 18: a client that goes away while a stream payload is being sent. The source is released
// by whatever means it has (destroy, else close, else abort, else a warning) and the log says the
// stream was cut (info, "stream closed prematurely"), without taking the process down.
import assert from 'node:assert/strict';
import http from 'node:http';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import enclave from 'enclavejs';

/** A stream that sends one chunk and then never ends. */
function endless(): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) this.push('first chunk\n');
      sent = true;
    },
  });
}

/** GETs `path` and destroys the response as soon as its first bytes arrive. */
function cutAfterFirstChunk(address: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(`${address}${path}`, (response) => {
        response.once('data', () => {
          response.destroy();
          resolve(response.statusCode as number);
        });
      })
      .on('error', reject);
  });
}

/** A logger destination that keeps its lines and can wait for one. */
function logSink() {
  const lines: any[] = [];
  const waiters: Array<{ msg: string; resolve: (line: any) => void }> = [];
  const stream = {
    write(text: string) {
      const line = JSON.parse(text);
      lines.push(line);
      for (const waiter of waiters.filter((entry) => entry.msg === line.msg)) waiter.resolve(line);
    },
  };
  const lineSaying = (msg: string) =>
    new Promise<any>((resolve) => {
      const found = lines.find((line) => line.msg === msg);
      if (found !== undefined) resolve(found);
      else waiters.push({ msg, resolve });
    });
  return { lines, logger: { level: 'info', stream }, lineSaying };
}

const withoutDestroy = {
  close: (stream: any, released: () => void) => {
    stream.destroy = undefined;
    stream.close = released;
  },
  abort: (stream: any, released: () => void) => {
    stream.destroy = true;
    stream.abort = released;
  },
};

for (const [means, strip] of Object.entries(withoutDestroy)) {
  test(`a stream payload without destroy() is released through ${means}() when the client goes away`, async () => {
    const { lines, logger } = logSink();
    const app = enclave({ logger } as any);
    let released!: () => void;
    const wasReleased = new Promise<void>((resolve) => {
      released = resolve;
    });
    app.get('/', (_request, reply) => {
      const stream = endless();
      strip(stream, () => released());
      reply.send(stream);
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      assert.equal(await cutAfterFirstChunk(address, '/'), 200);
      await wasReleased;
      const responseLines = lines.filter((line) => line.res !== undefined);
      assert.deepEqual(
        responseLines.map((line) => [line.level, line.msg]),
        [[30, 'stream closed prematurely']],
      );
    } finally {
      await app.close();
    }
  });
}

test('a stream payload with no means of release is reported with a warning', async () => {
  const { logger, lineSaying } = logSink();
  const app = enclave({ logger } as any);
  app.get('/', (_request, reply) => {
    const stream: any = endless();
    stream.destroy = undefined;
    reply.send(stream);
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    await cutAfterFirstChunk(address, '/');
    assert.equal((await lineSaying('stream payload does not end properly')).level, 40);
    assert.equal((await lineSaying('stream closed prematurely')).level, 30);
  } finally {
    await app.close();
  }
});

test('with a logController, a cut stream goes to its streamError() with the premature-close code', async () => {
  const { logger } = logSink();
  let reported!: (code: string) => void;
  const report = new Promise<string>((resolve) => {
    reported = resolve;
  });
  class Watching extends enclave.LogController {
    override streamError(error: Error & { code?: string }) {
      reported(error.code ?? '');
    }
  }
  const app = enclave({ logger, logController: new Watching() } as any);
  app.get('/', (_request, reply) => reply.send(endless()));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    await cutAfterFirstChunk(address, '/');
    assert.equal(await report, 'ERR_STREAM_PREMATURE_CLOSE');
  } finally {
    await app.close();
  }
});
