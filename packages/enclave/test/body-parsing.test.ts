import assert from 'node:assert/strict';
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import fastify from 'fastify';
import { type ContentTypeParserFunction, ContentTypeParserStore, parseRequestBody } from '../src/http/content-type-parser.js';

const rootOptions = { bodyLimit: 1024, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' } as const;

interface Outcome {
  err: any;
  body: unknown;
  mediaType: unknown;
  calls: number;
}

type Headers = Record<string, string | undefined>;

function fakeRaw(headers: Headers, chunks: Array<string | Buffer> = [], method = 'POST') {
  const stream = Readable.from(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
  return Object.assign(stream, { headers, method });
}

/** Runs a body through, then waits a little longer to count any extra call of done. */
function run(store: ContentTypeParserStore, raw: any, payload: Readable = raw, limit = 1024): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { err: undefined, body: undefined, mediaType: undefined, calls: 0 };
    parseRequestBody(store, { raw, headers: raw.headers }, payload, limit, (err, body, mediaType) => {
      outcome.calls++;
      if (outcome.calls > 1) return;
      Object.assign(outcome, { err, body, mediaType });
      setTimeout(() => resolve(outcome), 20);
    });
  });
}

function storeWith(matcher: string | RegExp, parser: ContentTypeParserFunction, options = {}): ContentTypeParserStore {
  const store = ContentTypeParserStore.createRoot(rootOptions);
  store.add(matcher, options, parser, undefined);
  return store;
}

describe('is there a body?', () => {
  test('no Content-Type and no body: nothing parsed, nothing read', async () => {
    const store = storeWith('*', () => assert.fail('catch-all must not run'));
    for (const headers of [{}, { 'content-length': '0' }]) {
      const raw = fakeRaw(headers, ['unread']);
      const outcome = await run(store, raw);
      assert.deepEqual(outcome, { err: null, body: undefined, mediaType: undefined, calls: 1 });
      assert.equal(raw.readableFlowing, null, 'the stream was left alone');
    }
  });

  test('a body without Content-Type is refused with 415 when there is no catch-all', async () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    for (const headers of [{ 'content-length': '5' }, { 'transfer-encoding': 'chunked' }]) {
      const outcome = await run(store, fakeRaw(headers, ['hello']));
      assert.equal(outcome.err.code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
      assert.equal(outcome.err.statusCode, 415);
      assert.equal(outcome.calls, 1);
    }
  });

  test('a body without Content-Type goes to the catch-all, with no essence', async () => {
    const store = storeWith('*', async (_request, body) => `catch-all:${body}`, { parseAs: 'string' });
    const outcome = await run(store, fakeRaw({ 'content-length': '5' }, ['hello']));
    assert.deepEqual(outcome, { err: null, body: 'catch-all:hello', mediaType: undefined, calls: 1 });
  });

  test('DELETE and OPTIONS parse only a body announced by a Content-Type, an empty one included', async () => {
    const store = storeWith('*', async () => 'parsed');
    store.add('text/plain', { parseAs: 'string' }, async (_request, body) => `text:${body}`, null);
    for (const method of ['DELETE', 'OPTIONS']) {
      const unannounced = await run(store, fakeRaw({ 'content-length': '2' }, ['{}'], method));
      assert.equal(unannounced.body, undefined);
      // Clients send an empty DELETE without Content-Length: the Content-Type still announces it.
      const emptyText = await run(store, fakeRaw({ 'content-type': 'text/plain' }, [], method));
      assert.deepEqual(emptyText, { err: null, body: 'text:', mediaType: 'text/plain', calls: 1 });
      const emptyJson = await run(store, fakeRaw({ 'content-type': 'application/json' }, [], method));
      assert.equal(emptyJson.err?.code, 'FST_ERR_CTP_EMPTY_JSON_BODY');
      const announced = await run(store, fakeRaw({ 'content-type': 'application/json', 'content-length': '7' }, ['{"a":1}'], method));
      assert.deepEqual(announced.body, { a: 1 });
    }
  });

  test('GET, HEAD and TRACE bodies are not parsed (the method sets decide, see fastify-parity.test.ts)', async () => {
    const app = enclave();
    app.addContentTypeParser('*', () => assert.fail('must not run'));
    for (const method of ['GET', 'HEAD', 'TRACE'] as const) {
      app.route({ method, url: `/${method}`, handler: async (request) => ({ body: request.body ?? null }) });
    }
    await app.ready();
    for (const method of ['GET', 'TRACE']) {
      const response = await app.inject({ method: method as 'GET', url: `/${method}`, payload: '{}', headers: { 'content-type': 'application/json' } });
      assert.deepEqual(response.json(), { body: null }, method);
    }
    const head = await app.inject({ method: 'HEAD', url: '/HEAD', payload: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(head.statusCode, 200);
    await app.close();
  });

  test('POST with a Content-Type but no body still runs the parser (empty JSON is refused)', async () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    const outcome = await run(store, fakeRaw({ 'content-type': 'application/json' }));
    assert.equal(outcome.err.code, 'FST_ERR_CTP_EMPTY_JSON_BODY');
  });
});

describe('choosing the parser', () => {
  const store = ContentTypeParserStore.createRoot(rootOptions);

  test('malformed and unsupported Content-Types are 415', async () => {
    for (const contentType of ['application/json garbage', 'application/', ';application/json', 'text/plain; charset="x', 'application/xml', '*/*', '']) {
      const outcome = await run(store, fakeRaw({ 'content-type': contentType, 'content-length': '2' }, ['{}']));
      assert.equal(outcome.err?.statusCode, 415, contentType);
      assert.equal(outcome.err.code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    }
  });

  test('a Content-Type sent as an array is refused', async () => {
    const outcome = await run(store, fakeRaw({ 'content-type': ['application/json'] as unknown as string, 'content-length': '2' }, ['{}']));
    assert.equal(outcome.err.statusCode, 415);
  });

  test('text/plain with a content-type parameter is text, never JSON', async () => {
    const outcome = await run(store, fakeRaw({ 'content-type': 'text/plain; content-type="application/json"', 'content-length': '7' }, ['{"a":1}']));
    assert.equal(outcome.body, '{"a":1}');
    assert.equal(outcome.mediaType, 'text/plain');
  });

  test('the essence is normalized before it is returned', async () => {
    const outcome = await run(store, fakeRaw({ 'content-type': '\tApplication/JSON ; charset=UTF-8 ', 'content-length': '2' }, ['[]']));
    assert.deepEqual(outcome.body, []);
    assert.equal(outcome.mediaType, 'application/json');
  });

  test('a stream parser receives the payload stream, not the raw request', async () => {
    const raw = fakeRaw({ 'content-type': 'a/b', 'content-length': '3' }, ['raw']);
    const payload = Readable.from([Buffer.from('transformed')]);
    let received: unknown;
    const outcome = await run(
      storeWith('a/b', async (_request, stream) => {
        received = stream;
        let text = '';
        for await (const chunk of stream) text += chunk;
        return text;
      }),
      raw,
      payload,
    );
    assert.equal(received, payload);
    assert.equal(outcome.body, 'transformed');
  });

  test('parseAs buffer hands over one Buffer of all chunks', async () => {
    const store = storeWith('application/octet-stream', async (_request, body) => body, { parseAs: 'buffer' });
    const outcome = await run(
      store,
      fakeRaw({ 'content-type': 'application/octet-stream', 'content-length': '6' }, [Buffer.from([0, 1, 2]), Buffer.from([253, 254, 255])]),
    );
    assert.ok(Buffer.isBuffer(outcome.body));
    assert.deepEqual([...(outcome.body as Buffer)], [0, 1, 2, 253, 254, 255]);
  });
});

describe('parser styles and parser errors', () => {
  const headers = { 'content-type': 'a/b', 'content-length': '2' };

  test('callback parser', async () => {
    const store = storeWith('a/b', (_request, body, done) => setImmediate(() => done!(null, `cb:${body}`)), { parseAs: 'string' });
    assert.equal((await run(store, fakeRaw(headers, ['hi']))).body, 'cb:hi');
  });

  test('async parser', async () => {
    const store = storeWith('a/b', async (_request, body) => `async:${body}`, { parseAs: 'string' });
    assert.equal((await run(store, fakeRaw(headers, ['hi']))).body, 'async:hi');
  });

  test('a wrapper taking rest arguments still reports through done', async () => {
    const inner = (_request: unknown, body: string, done: (err: Error | null, body?: unknown) => void) => setImmediate(() => done(null, `wrapped:${body}`));
    const store = storeWith('a/b', (...args: any[]) => (inner as any)(...args), { parseAs: 'string' });
    const outcome = await run(store, fakeRaw(headers, ['hi']));
    assert.equal(outcome.body, 'wrapped:hi');
    assert.equal(outcome.calls, 1);
  });

  test('a parser throwing after it reported neither crashes nor reports again', async () => {
    const store = storeWith(
      'a/b',
      (_request, body, done) => {
        done!(null, body);
        throw new Error('after done');
      },
      { parseAs: 'string' },
    );
    const outcome = await run(store, fakeRaw(headers, ['hi']));
    assert.equal(outcome.body, 'hi');
    assert.equal(outcome.err, null);
    assert.equal(outcome.calls, 1);
  });

  test("an exception from the caller's own callback is not swallowed", () => {
    const store = storeWith('a/b', (_request, _payload, done) => done!(null, 'x'));
    const raw = fakeRaw({ 'content-type': 'a/b', 'content-length': '2' }, ['hi']);
    assert.throws(
      () =>
        parseRequestBody(store, { raw, headers: raw.headers }, raw, 1024, () => {
          throw new Error('caller bug');
        }),
      { message: 'caller bug' },
    );
  });

  test('a parser error reaches the error path as it is: its own value and status (Fastify: 500 without one)', async () => {
    const bad = new Error('bad');
    const failures: Array<[string, ContentTypeParserFunction, unknown]> = [
      ['done(err)', (_r, _b, done) => done!(bad), bad],
      [
        'throw',
        () => {
          throw bad;
        },
        bad,
      ],
      [
        'reject',
        async () => {
          throw bad;
        },
        bad,
      ],
      ['reject with a string', () => Promise.reject('bad'), 'bad'],
      ['done with a falsy value', (_r, _b, done) => done!(0 as never), 0],
      [
        'throw false',
        () => {
          throw false;
        },
        false,
      ],
    ];
    for (const [name, parser, expected] of failures) {
      const outcome = await run(storeWith('a/b', parser, { parseAs: 'string' }), fakeRaw(headers, ['hi']));
      assert.equal(outcome.err, expected, name);
      assert.equal(outcome.calls, 1, name);
    }
    const kept = await run(
      storeWith(
        'a/b',
        async () => {
          throw Object.assign(new Error('nope'), { statusCode: 422 });
        },
        { parseAs: 'string' },
      ),
      fakeRaw(headers, ['hi']),
    );
    assert.equal(kept.err.statusCode, 422);
    // Nothing to show for itself: a coded 500 rather than success.
    for (const parser of [
      () => Promise.reject(undefined),
      () => Promise.reject(''),
      () => {
        throw null;
      },
    ] as ContentTypeParserFunction[]) {
      const outcome = await run(storeWith('a/b', parser, { parseAs: 'string' }), fakeRaw(headers, ['hi']));
      assert.equal(outcome.err.code, 'FST_ERR_SEND_UNDEFINED_ERR');
    }
  });

  test('done is called once even when a parser reports twice', async () => {
    const twice: ContentTypeParserFunction[] = [
      (_r, _b, done) => {
        done!(null, 'first');
        done!(null, 'second');
        done!(new Error('third'));
      },
      async (_r, _b, done) => {
        done!(null, 'first');
        return 'second';
      },
      (_r, _b, done) => {
        done!(null, 'first');
        return Promise.reject(new Error('late'));
      },
    ];
    for (const parser of twice) {
      const outcome = await run(storeWith('a/b', parser, { parseAs: 'string' }), fakeRaw(headers, ['hi']));
      assert.equal(outcome.body, 'first');
      assert.equal(outcome.err, null);
      assert.equal(outcome.calls, 1);
    }
  });
});

describe('client aborts', () => {
  function abortable(headers: Headers) {
    return Object.assign(new PassThrough(), { headers, method: 'POST', complete: false });
  }
  const textStore = ContentTypeParserStore.createRoot(rootOptions);

  test('destroyed mid-body: done once with a 400, no throw', async () => {
    const raw = abortable({ 'content-type': 'text/plain', 'content-length': '100' });
    const pending = run(textStore, raw);
    raw.write('partial');
    setImmediate(() => raw.destroy());
    const outcome = await pending;
    assert.equal(outcome.err.statusCode, 400);
    assert.equal(outcome.err.code, 'ECONNRESET');
    assert.equal(outcome.calls, 1);
  });

  test('errored mid-body: done once with the error marked 400, later errors are harmless', async () => {
    const raw = abortable({ 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
    const pending = run(textStore, raw);
    raw.write('partial');
    setImmediate(() => raw.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
    const outcome = await pending;
    assert.equal(outcome.err.message, 'aborted');
    assert.equal(outcome.err.statusCode, 400);
    assert.equal(outcome.calls, 1);
    raw.emit('error', new Error('after the fact'));
  });

  test('the raw request aborting under a transformed payload ends the read', async () => {
    const raw = abortable({ 'content-type': 'text/plain', 'content-length': '100' });
    const payload = new PassThrough();
    raw.pipe(payload);
    const pending = run(textStore, raw, payload);
    raw.write('partial');
    setImmediate(() => {
      raw.emit('aborted');
      raw.emit('close');
    });
    const outcome = await pending;
    assert.equal(outcome.err.statusCode, 400);
    assert.equal(outcome.calls, 1);
    assert.equal(payload.destroyed, true, 'the transform stops working');
  });

  test('a payload already destroyed is reported, not waited on', async () => {
    const raw = abortable({ 'content-type': 'text/plain', 'content-length': '5' });
    raw.destroy();
    const outcome = await run(textStore, raw);
    assert.equal(outcome.err.statusCode, 400);
    assert.equal(outcome.calls, 1);
  });

  test('stream parsers see aborts through their own stream', async () => {
    const raw = abortable({ 'content-type': 'a/b', 'content-length': '100' });
    const store = storeWith('a/b', (_request, stream: Readable, done) => {
      stream.on('error', (err: Error) => done!(err));
      stream.on('close', () => done!(new Error('closed early')));
      stream.resume();
    });
    const pending = run(store, raw);
    setImmediate(() => raw.destroy(new Error('aborted')));
    const outcome = await pending;
    assert.equal(outcome.err.message, 'aborted');
    // The parser's own error, untouched: no status was added on the way.
    assert.equal(outcome.err.statusCode, undefined);
    assert.equal(outcome.calls, 1);
  });
});

describe('over a real socket', () => {
  async function withServer(limit: number, onResult: (outcome: { err: any; body: unknown }) => void, fn: (port: number) => Promise<void>) {
    const server = http.createServer((req, res) => {
      let calls = 0;
      parseRequestBody(ContentTypeParserStore.createRoot(rootOptions), { raw: req, headers: req.headers }, req, limit, (err, body) => {
        calls++;
        assert.equal(calls, 1);
        onResult({ err, body });
        res.statusCode = err ? ((err as any).statusCode ?? 500) : 200;
        res.end(err ? (err as any).code : String(body));
      });
    });
    server.listen(0);
    await once(server, 'listening');
    try {
      await fn((server.address() as AddressInfo).port);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }

  function request(port: number, headers: Record<string, string>, chunks: string[]): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ port, method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  test('a chunked body over the limit is 413, and the server keeps serving', async () => {
    const results: Array<{ err: any; body: unknown }> = [];
    await withServer(
      64,
      (outcome) => results.push(outcome),
      async (port) => {
        const big = await request(
          port,
          { 'content-type': 'text/plain' },
          Array.from({ length: 20 }, () => 'x'.repeat(16)),
        );
        assert.equal(big.status, 413);
        assert.equal(big.text, 'FST_ERR_CTP_BODY_TOO_LARGE');
        const small = await request(port, { 'content-type': 'text/plain' }, ['ok ', 'then']);
        assert.deepEqual(small, { status: 200, text: 'ok then' });
      },
    );
    assert.equal(results.length, 2);
  });

  test('a client that disconnects mid-body gets done called exactly once', async () => {
    const results: Array<{ err: any; body: unknown }> = [];
    await withServer(
      1024,
      (outcome) => results.push(outcome),
      async (port) => {
        const { connect } = await import('node:net');
        const socket = connect(port);
        await once(socket, 'connect');
        socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\npartial');
        await new Promise((resolve) => setTimeout(resolve, 30));
        socket.destroy();
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    );
    assert.equal(results.length, 1);
    assert.equal(results[0]?.err.statusCode, 400);
  });
});

describe('the request async context survives body parsing', () => {
  test('a store set by an onRequest hook is seen by the handler and the error handler, whatever context the parser calls back from', async () => {
    const storage = new AsyncLocalStorage<{ id: string }>();
    const elsewhere = new AsyncResource('parser-owned-resource');
    const app = enclave();
    app.addHook('onRequest', (request: any, _reply: any, done: () => void) => {
      storage.run({ id: request.headers['x-id'] }, done);
    });
    // Calls back from a context of its own, where the request's store is not set.
    app.addContentTypeParser('application/x-later', { parseAs: 'string' }, (_request: any, body: any, done: any) => {
      elsewhere.runInAsyncScope(() => setImmediate(() => (body === 'fail' ? done(new Error('refused')) : done(null, body))));
    });
    app.setErrorHandler((error: Error, _request: any, reply: any) => {
      reply.code(400).send({ error: error.message, id: storage.getStore()?.id });
    });
    app.post('/', async (request: any) => ({ body: request.body, id: storage.getStore()?.id }));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const post = async (id: string, type: string, body: string) => {
        const response = await fetch(address, { method: 'POST', headers: { 'content-type': type, 'x-id': id }, body });
        return { status: response.status, json: await response.json() };
      };
      const answers = await Promise.all([
        post('json', 'application/json', '{"a":1}'),
        post('later', 'application/x-later', 'text'),
        post('failing', 'application/x-later', 'fail'),
      ]);
      assert.deepEqual(answers, [
        { status: 200, json: { body: { a: 1 }, id: 'json' } },
        { status: 200, json: { body: 'text', id: 'later' } },
        { status: 400, json: { error: 'refused', id: 'failing' } },
      ]);
    } finally {
      elsewhere.emitDestroy();
      await app.close();
    }
  });
});

describe('requests refused on their headers alone, as Fastify answers them', () => {
  test('a custom error handler sees the status already set for a malformed Content-Type or a QUERY without one, not for a type without a parser', async () => {
    const answers = async (factory: (options?: object) => any) => {
      const app = factory();
      app.setErrorHandler((error: any, _request: any, reply: any) => {
        reply.send({ seen: reply.statusCode, code: error.code });
      });
      app.post('/r', async () => 'handled');
      app.query('/q', async () => 'handled');
      const cases: Array<[string, string, string | undefined]> = [
        ['POST', '/r', 'undefined'],
        ['POST', '/r', 'application/xml'],
        ['QUERY', '/q', undefined],
        ['POST', '/missing', 'undefined'],
        ['POST', '/missing', 'application/xml'],
      ];
      const results = [];
      for (const [method, url, type] of cases) {
        const response = await app.inject({ method, url, payload: 'hello', headers: type === undefined ? {} : { 'content-type': type } });
        results.push([method, url, type, response.statusCode, response.json()]);
      }
      await app.close();
      return results;
    };
    const ours = await answers(enclave as any);
    assert.deepEqual(ours, await answers(fastify as any));
    assert.deepEqual(
      ours.map((result) => result[3]),
      [415, 200, 400, 415, 404],
    );
  });
});
