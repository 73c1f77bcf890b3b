// SPEC §4.2, §4.4, §4.10, §11: faults on real sockets. Clients that vanish mid-body, mid-response
// and mid-handler; handlers that throw after sending or send twice; response streams that fail
// halfway; user code that throws before a reply exists (a querystring parser, genReqId); hooks
// that never finish, bounded by connectionTimeout and requestTimeout. In every case nothing
// crashes, nothing stays open, and the server keeps serving. Every test is bounded in time even
// when it fails (timeouts on every wait, connections closed in `finally`).
import assert from 'node:assert/strict';
import net from 'node:net';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import { captureLogs, connectionsOf, portOf, rawExchange, waitFor, withTimeout } from './security-helpers.ts';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Opens a socket, writes `data`, and destroys the socket when `until` resolves. */
function connectAndDrop(port: number, data: string, until: (socket: net.Socket) => Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', async () => {
      socket.write(data);
      await until(socket);
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

/** Starts `app`, runs `body`, then checks the server still answers and holds no connection. */
async function onSocket(app: any, body: (port: number) => Promise<void>) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = portOf(app);
  try {
    await body(port);
    const exchange = await rawExchange(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(exchange.status, 200, `the server stopped serving: ${exchange.text}`);
    await waitFor(async () => (await connectionsOf(app.server)) === 0, 2000, 'no open connection');
  } finally {
    // Whatever happened above, nothing may keep the process alive.
    app.server.closeAllConnections();
    await withTimeout(app.close(), 2000, 'close');
  }
}

function appWithLogs(options: Record<string, unknown> = {}) {
  const logs = captureLogs();
  const app = enclave({ ...options, logger: { level: 'warn', stream: logs.stream } });
  app.get('/ok', async () => 'ok');
  return { app, logs };
}

describe('clients that disconnect', () => {
  test('mid-body: the handler never runs, onRequestAbort fires, nothing stays open', async () => {
    const { app } = appWithLogs();
    const aborted = deferred<string>();
    let handled = false;
    app.post('/upload', { onRequestAbort: async (request: any) => aborted.resolve(request.url) }, async () => {
      handled = true;
      return 'done';
    });
    await onSocket(app, async (port) => {
      const head = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n';
      await connectAndDrop(port, `${head}${'a'.repeat(1000)}`, () => new Promise((r) => setTimeout(r, 50)));
      assert.equal(await withTimeout(aborted.promise, 2000, 'onRequestAbort'), '/upload');
    });
    assert.equal(handled, false);
  });

  test('mid-response: a large streamed reply is destroyed and stops producing', async () => {
    const { app } = appWithLogs();
    const streamClosed = deferred();
    let produced = 0;
    const total = 200 * 1024 * 1024;
    app.get('/big', async (_request: any, reply: any) => {
      const chunk = Buffer.alloc(64 * 1024, 120);
      const stream = new Readable({
        read() {
          produced += chunk.length;
          this.push(produced > total ? null : chunk);
        },
      });
      stream.on('close', () => streamClosed.resolve());
      return reply.type('application/octet-stream').send(stream);
    });
    await onSocket(app, async (port) => {
      await connectAndDrop(port, 'GET /big HTTP/1.1\r\nHost: x\r\n\r\n', (socket) => new Promise((r) => socket.once('data', r)));
      await withTimeout(streamClosed.promise, 2000, 'the response stream closing');
    });
    assert.ok(produced < total / 4, `produced ${produced} bytes for a client that left after the first chunk`);
  });

  test("a client that stops reading a stream is logged as Fastify logs it: 'stream closed prematurely', at info", async () => {
    const logs = captureLogs();
    const app = enclave({ logger: { level: 'info', stream: logs.stream } });
    app.get('/ok', async () => 'ok');
    app.get('/endless', async (_request: any, reply: any) =>
      reply.send(
        new Readable({
          read() {
            this.push('tick\n');
          },
        }),
      ),
    );
    const isClosingLine = (line: Record<string, any>) => line.res !== undefined && line.msg !== 'request completed';
    await onSocket(app, async (port) => {
      await connectAndDrop(port, 'GET /endless HTTP/1.1\r\nHost: x\r\n\r\n', (socket) => new Promise((r) => socket.once('data', r)));
      await waitFor(async () => logs.lines.some(isClosingLine), 2000, 'the line for the cut response');
    });
    const closing = logs.lines.filter(isClosingLine);
    assert.deepEqual(
      closing.map((line) => [line.msg, line.level]),
      [['stream closed prematurely', 30]],
    );
  });

  test("while the handler awaits: onRequestAbort fires, the handler's finally runs, its late send is harmless", async () => {
    const { app, logs } = appWithLogs();
    const entered = deferred();
    const release = deferred();
    const aborted = deferred();
    const finallyRan = deferred();
    app.addHook('onRequestAbort', async () => aborted.resolve());
    app.get('/slow', async () => {
      entered.resolve();
      try {
        await release.promise;
        return { late: true };
      } finally {
        finallyRan.resolve();
      }
    });
    await onSocket(app, async (port) => {
      await connectAndDrop(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', () => entered.promise);
      await withTimeout(aborted.promise, 2000, 'onRequestAbort');
      release.resolve();
      await withTimeout(finallyRan.promise, 2000, "the handler's finally");
    });
    assert.deepEqual(
      logs.lines.filter((line) => line.level >= 60),
      [],
      'nothing fatal',
    );
  });
});

describe('handlers that misbehave', () => {
  test('throwing after sending: logged, no crash, and the whole response still arrives', async () => {
    const { app, logs } = appWithLogs();
    const size = 20_000_000;
    app.get('/sync', (_request: any, reply: any) => {
      reply.send(Buffer.alloc(size, 97));
      throw new Error('thrown after send');
    });
    app.get('/async', async (_request: any, reply: any) => {
      reply.send('first');
      throw new Error('rejected after send');
    });
    await onSocket(app, async (port) => {
      // A slow reader: most of the body is still buffered on the server when the handler throws.
      const received = await new Promise<number>((resolve) => {
        let bytes = 0;
        const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /sync HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
        socket.pause();
        setTimeout(() => socket.resume(), 200);
        socket.on('data', (chunk) => {
          bytes += chunk.length;
        });
        socket.on('close', () => resolve(bytes));
      });
      assert.ok(received > size, `received ${received} bytes of a ${size}-byte body`);
      const exchange = await rawExchange(port, 'GET /async HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.equal(exchange.status, 200);
      assert.match(exchange.text, /first$/);
    });
    const errors = logs.lines.filter((line) => line.level === 50).map((line) => line.err?.message);
    assert.ok(errors.includes('thrown after send') && errors.includes('rejected after send'), JSON.stringify(errors));
  });

  test('a second send is ignored with a warning', async () => {
    const { app, logs } = appWithLogs();
    app.get('/twice', async (_request: any, reply: any) => {
      reply.send('one');
      reply.send('two');
      return reply;
    });
    await onSocket(app, async (port) => {
      const exchange = await rawExchange(port, 'GET /twice HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.match(exchange.text, /\r\n\r\none$/);
    });
    assert.ok(
      logs.lines.some((line) => line.level === 40 && line.err?.code === 'FST_ERR_REP_ALREADY_SENT'),
      'the second send is warned about',
    );
  });

  test('a response stream that errors halfway ends the connection; the server keeps serving', async () => {
    const { app, logs } = appWithLogs();
    app.get('/broken', async (_request: any, reply: any) => {
      let sent = 0;
      const stream = new Readable({
        read() {
          sent++;
          if (sent <= 2) this.push(`chunk ${sent}\n`);
          else setImmediate(() => this.destroy(new Error('disk vanished')));
        },
      });
      return reply.type('text/plain').send(stream);
    });
    await onSocket(app, async (port) => {
      const exchange = await rawExchange(port, 'GET /broken HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.equal(exchange.ended, 'closed', 'the server ended the connection');
      assert.equal(exchange.status, 200);
      assert.match(exchange.text, /chunk 1/);
      assert.doesNotMatch(exchange.text, /\r\n0\r\n\r\n$/, 'a truncated body must not look complete');
    });
    assert.ok(
      logs.lines.some((line) => line.err?.message === 'disk vanished'),
      'the stream error is logged',
    );
  });
});

describe('user code on the request path that throws', () => {
  test('a querystring parser that throws answers 400; the server keeps serving', async () => {
    const querystringParser = (text: string) => {
      if (text.includes('%')) throw new URIError('malformed escape');
      return Object.fromEntries(new URLSearchParams(text));
    };
    const { app } = appWithLogs({ querystringParser });
    app.get('/q', async (request: any) => request.query);
    await onSocket(app, async (port) => {
      const bad = await rawExchange(port, 'GET /q?a=%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.equal(bad.status, 400, bad.text);
      const good = await rawExchange(port, 'GET /q?a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.match(good.text, /\{"a":"1"\}$/);
    });
  });

  test('a genReqId that throws answers 500 and is logged; the server keeps serving', async () => {
    const genReqId = (raw: any) => {
      if (raw.url === '/boom') throw new Error('no id for you');
      return 'fine';
    };
    const { app, logs } = appWithLogs({ genReqId });
    app.get('/boom', async () => 'never');
    await onSocket(app, async (port) => {
      const exchange = await rawExchange(port, 'GET /boom HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.equal(exchange.status, 500, exchange.text);
    });
    assert.ok(
      logs.lines.some((line) => line.level === 50 && line.err?.message === 'no id for you'),
      'the failure is logged',
    );
  });
});

describe('hooks that never finish', () => {
  test('connectionTimeout closes the socket within the bound and onTimeout fires', async () => {
    const { app } = appWithLogs({ connectionTimeout: 300 });
    const timedOut = deferred<string>();
    app.get(
      '/stuck',
      { onRequest: (_request: any, _reply: any, _done: () => void) => {}, onTimeout: async (request: any) => timedOut.resolve(request.url) },
      async () => 'never',
    );
    await onSocket(app, async (port) => {
      const exchange = await rawExchange(port, 'GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n', { timeoutMs: 3000 });
      assert.equal(exchange.ended, 'closed');
      assert.ok(exchange.ms < 2000, `closed after ${exchange.ms} ms for a 300 ms timeout`);
      assert.equal(await withTimeout(timedOut.promise, 1000, 'onTimeout'), '/stuck');
    });
  });

  test('requestTimeout closes a request whose body never completes, while a hook hangs', async () => {
    const { app } = appWithLogs({ requestTimeout: 300 });
    app.post('/stuck', { preParsing: (_request: any, _reply: any, _payload: any, _done: () => void) => {} }, async () => 'never');
    await onSocket(app, async (port) => {
      const head = 'POST /stuck HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\npartial';
      const exchange = await rawExchange(port, head, { timeoutMs: 4000 });
      assert.notEqual(exchange.ended, 'client-timeout', 'the server never closed the connection');
      assert.ok(exchange.ms < 3000, `closed after ${exchange.ms} ms for a 300 ms timeout`);
      if (exchange.status !== undefined) assert.equal(exchange.status, 408);
    });
  });
});
