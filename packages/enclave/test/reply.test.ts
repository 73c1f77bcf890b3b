// SPEC §4.4–4.6: the reply object and how each kind of payload is written.
import assert from 'node:assert/strict';
import http from 'node:http';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave, { errorCodes } from 'enclavejs';

/** A logger instance that records every call as [level, object, message]. */
function recordingLogger() {
  const lines: Array<[string, any, any]> = [];
  const logger: any = { level: 'info' };
  for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace']) {
    logger[level] = (obj: any, msg?: any) => {
      lines.push([level, obj, msg]);
    };
  }
  logger.child = () => logger;
  return { logger, lines };
}

describe('status and headers', () => {
  test('code/status set statusCode; an invalid code is FST_ERR_BAD_STATUS_CODE', async () => {
    const app = enclave();
    const errors: unknown[] = [];
    app.get('/code', async (_request, reply) => reply.code(201).send('created'));
    app.get('/status', async (_request, reply) => {
      reply.status(202);
      return { statusCode: reply.statusCode };
    });
    app.get('/assign', async (_request, reply) => {
      reply.statusCode = 203;
      return 'assigned';
    });
    app.get('/bad', async (_request, reply) => {
      // Out of range, as in Fastify (a fraction inside the range is truncated, see request-path-parity).
      for (const value of [99, 600, 'abc', 599.5]) {
        try {
          reply.code(value as number);
        } catch (error: any) {
          errors.push(error.code);
        }
      }
      return 'still fine';
    });
    assert.equal((await app.inject('/code')).statusCode, 201);
    const status = await app.inject('/status');
    assert.equal(status.statusCode, 202);
    assert.deepEqual(status.json(), { statusCode: 202 });
    assert.equal((await app.inject('/assign')).statusCode, 203);
    const bad = await app.inject('/bad');
    assert.equal(bad.statusCode, 200);
    assert.deepEqual(errors, Array(4).fill('FST_ERR_BAD_STATUS_CODE'));
  });

  test('header, headers, getHeader, getHeaders, hasHeader, removeHeader, type', async () => {
    const app = enclave();
    let seen: Record<string, unknown> = {};
    app.get('/', async (_request, reply) => {
      reply.header('X-One', 1).headers({ 'x-two': 'two', 'x-three': 'three' });
      reply.header('set-cookie', 'a=1').header('set-cookie', 'b=2');
      reply.removeHeader('x-three');
      reply.type('application/vnd.custom+json');
      seen = {
        one: reply.getHeader('x-one'),
        oneUpper: reply.getHeader('X-ONE'),
        has: reply.hasHeader('X-Two'),
        removed: reply.hasHeader('x-three'),
        all: reply.getHeaders(),
      };
      return { ok: true };
    });
    const response = await app.inject('/');
    assert.deepEqual(seen, {
      one: 1,
      oneUpper: 1,
      has: true,
      removed: false,
      all: { 'x-one': 1, 'x-two': 'two', 'set-cookie': ['a=1', 'b=2'], 'content-type': 'application/vnd.custom+json' },
    });
    assert.equal(response.headers['x-one'], '1');
    assert.equal(response.headers['x-two'], 'two');
    assert.equal(response.headers['x-three'], undefined);
    assert.deepEqual(response.headers['set-cookie'], ['a=1', 'b=2']);
    assert.equal(response.headers['content-type'], 'application/vnd.custom+json; charset=utf-8');
    assert.deepEqual(response.json(), { ok: true });
  });

  test('header values are kept as given (numbers stay numbers) and undefined is an empty value', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => {
      reply.header('x-number', 5).header('x-undefined', undefined);
      return { number: reply.getHeader('x-number'), undefined: reply.getHeader('x-undefined') };
    });
    const response = await app.inject('/');
    assert.deepEqual(response.json(), { number: 5, undefined: '' });
    assert.equal(response.headers['x-number'], '5');
    assert.equal(response.headers['x-undefined'], '');
  });

  test('HEAD: the length is that of the payload, unless a bodiless answer announces its own', async () => {
    const app = enclave();
    app.get('/twin', async (_request, reply) => {
      reply.header('content-length', '99');
      return 'abc';
    });
    app.head('/announced', async (_request, reply) => {
      reply.header('content-length', '1234').send();
    });
    assert.equal((await app.inject({ method: 'HEAD', url: '/twin' })).headers['content-length'], '3');
    assert.equal((await app.inject({ method: 'GET', url: '/twin' })).headers['content-length'], '3');
    const announced = await app.inject({ method: 'HEAD', url: '/announced' });
    assert.equal(announced.headers['content-length'], '1234');
    assert.equal(announced.body, '');
  });

  test('CR or LF in a header value is refused and never reaches the wire', async () => {
    const app = enclave();
    let thrown: any;
    app.get('/caught', async (_request, reply) => {
      try {
        reply.header('x-evil', 'a\r\nset-cookie: injected=1');
      } catch (error) {
        thrown = error;
      }
      return 'ok';
    });
    app.get('/uncaught', async (request, reply) => {
      reply.header('location', `/x${(request.query as any).to}`);
      return 'never';
    });
    const caught = await app.inject('/caught');
    assert.equal(caught.statusCode, 200);
    assert.equal(caught.headers['x-evil'], undefined);
    assert.equal(caught.headers['set-cookie'], undefined);
    assert.equal(thrown?.code, 'ERR_INVALID_CHAR');
    const uncaught = await app.inject(`/uncaught?to=${encodeURIComponent('\nset-cookie: a=1')}`);
    assert.equal(uncaught.statusCode, 500);
    assert.equal(uncaught.headers['set-cookie'], undefined);
    assert.equal(uncaught.headers.location, undefined);
  });

  test('redirect: 302 by default, a given code, or a 3xx already set', async () => {
    const app = enclave();
    app.get('/default', async (_request, reply) => reply.redirect('/target'));
    app.get('/given', async (_request, reply) => reply.redirect('/target', 301));
    app.get('/preset', async (_request, reply) => reply.code(307).redirect('/target'));
    for (const [url, code] of [
      ['/default', 302],
      ['/given', 301],
      ['/preset', 307],
    ] as const) {
      const response = await app.inject(url);
      assert.equal(response.statusCode, code);
      assert.equal(response.headers.location, '/target');
      assert.equal(response.body, '');
    }
  });
});

describe('reply properties', () => {
  test('raw, request, server, log, sent, elapsedTime', async () => {
    const app = enclave();
    let seen: Record<string, unknown> = {};
    app.register(async (child) => {
      child.get('/', async (request, reply) => {
        const before = reply.sent;
        await new Promise((resolve) => setTimeout(resolve, 20));
        reply.send('done');
        seen = {
          raw: reply.raw instanceof http.ServerResponse,
          request: reply.request === request,
          server: reply.server === child,
          log: typeof reply.log.warn,
          before,
          after: reply.sent,
          elapsed: reply.elapsedTime >= 15,
        };
        return reply;
      });
    });
    await app.inject('/');
    assert.deepEqual(seen, { raw: true, request: true, server: true, log: 'function', before: false, after: true, elapsed: true });
  });

  test('serializer() overrides one reply; serialize() uses the response schema', async () => {
    const app = enclave();
    app.get('/custom', async (_request, reply) => reply.serializer((data) => `custom:${JSON.stringify(data)}`).send({ a: 1 }));
    app.get(
      '/schema',
      {
        schema: { response: { 200: { type: 'object', properties: { kept: { type: 'string' } } } } },
      },
      async (_request, reply) => reply.serialize({ kept: 'yes', dropped: 'no' }),
    );
    assert.equal((await app.inject('/custom')).body, 'custom:{"a":1}');
    assert.equal((await app.inject('/schema')).body, '{"kept":"yes"}');
  });

  test('hijack: Enclave stops handling the response and the handler writes it', async () => {
    const app = enclave();
    let onSendCalls = 0;
    app.addHook('onSend', async () => {
      onSendCalls++;
    });
    app.get('/', async (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      reply.raw.end('hijacked');
      return 'ignored';
    });
    const response = await app.inject('/');
    assert.equal(response.body, 'hijacked');
    assert.equal(onSendCalls, 0);
  });

  test('a reply is awaitable: it settles when the response has been written', async () => {
    const app = enclave();
    const order: string[] = [];
    app.get('/', async (_request, reply) => {
      setTimeout(() => {
        order.push('send');
        reply.send('late');
      }, 10);
      await reply;
      order.push('awaited');
      return reply;
    });
    const response = await app.inject('/');
    assert.equal(response.body, 'late');
    assert.deepEqual(order, ['send', 'awaited']);
  });

  test('callNotFound answers with the not-found handler', async () => {
    const app = enclave();
    app.get('/hidden', async (_request, reply) => reply.callNotFound());
    const response = await app.inject('/hidden');
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().message, 'Route GET:/hidden not found');
  });
});

describe('payloads', () => {
  test('object and array → JSON; string → text/plain; Buffer → octet-stream; undefined → empty', async () => {
    const app = enclave();
    app.get('/object', async () => ({ a: 1 }));
    app.get('/array', async () => [1, 'two']);
    app.get('/string', async () => 'héllo');
    app.get('/typed-string', async (_request, reply) => reply.type('text/html').send('<p>hi</p>'));
    app.get('/json-string', async (_request, reply) => reply.type('application/json').send('{"pre":"serialized"}'));
    app.get('/buffer', async () => Buffer.from([1, 2, 3]));
    app.get('/typed-buffer', async (_request, reply) => reply.type('image/png').send(Buffer.from('png')));
    app.get('/undefined', async (_request, reply) => reply.send());
    app.get('/null', async () => null);
    const expectations: Array<[string, string | undefined, string]> = [
      ['/object', 'application/json; charset=utf-8', '{"a":1}'],
      ['/array', 'application/json; charset=utf-8', '[1,"two"]'],
      ['/string', 'text/plain; charset=utf-8', 'héllo'],
      ['/typed-string', 'text/html', '<p>hi</p>'],
      ['/json-string', 'application/json; charset=utf-8', '{"pre":"serialized"}'],
      ['/buffer', 'application/octet-stream', '\u0001\u0002\u0003'],
      ['/typed-buffer', 'image/png', 'png'],
      ['/undefined', undefined, ''],
      ['/null', 'application/json; charset=utf-8', 'null'],
    ];
    for (const [url, type, body] of expectations) {
      const response = await app.inject(url);
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['content-type'], type, url);
      assert.equal(response.body, body, url);
      assert.equal(response.headers['content-length'], String(Buffer.byteLength(body)), url);
    }
  });

  test('an object with a JSON-like type is serialized (charset added); with another type it goes to onSend as is', async () => {
    const app = enclave();
    app.get('/problem', async (_request, reply) => reply.type('application/problem+json').send({ title: 'x' }));
    app.get('/charset', async (_request, reply) => reply.type('application/json; charset=latin1').send({ a: 1 }));
    app.get('/text', async (_request, reply) => reply.type('text/plain').send({ a: 1 }));
    app.get(
      '/xml',
      {
        onSend: async (_request, _reply, payload: any) => (typeof payload === 'object' ? `<a>${payload.a}</a>` : payload),
      },
      async (_request, reply) => reply.type('application/xml').send({ a: 1 }),
    );
    const problem = await app.inject('/problem');
    assert.equal(problem.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.deepEqual(problem.json(), { title: 'x' });
    assert.equal((await app.inject('/charset')).headers['content-type'], 'application/json; charset=latin1');
    const text = await app.inject('/text');
    assert.equal(text.statusCode, 500);
    assert.equal(text.json().code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE');
    const xml = await app.inject('/xml');
    assert.equal(xml.statusCode, 200);
    assert.equal(xml.body, '<a>1</a>');
    assert.equal(xml.headers['content-type'], 'application/xml');
  });

  test('handler styles: return a value, return the reply, call send, async without return', async () => {
    const app = enclave();
    app.get('/return', async () => 'returned');
    app.get('/reply', async (_request, reply) => {
      reply.send('sent');
      return reply;
    });
    app.get('/sync-send', (_request, reply) => {
      reply.send('sync');
    });
    app.get('/sync-return', () => 'sync-return');
    app.get('/async-undefined', async () => undefined);
    app.get('/later', (_request, reply) => {
      setTimeout(() => reply.send('later'), 5);
    });
    assert.equal((await app.inject('/return')).body, 'returned');
    assert.equal((await app.inject('/reply')).body, 'sent');
    assert.equal((await app.inject('/sync-send')).body, 'sync');
    assert.equal((await app.inject('/sync-return')).body, 'sync-return');
    const empty = await app.inject('/async-undefined');
    assert.equal(empty.statusCode, 200);
    assert.equal(empty.body, '');
    assert.equal((await app.inject('/later')).body, 'later');
  });

  test('a second send is ignored with an FST_ERR_REP_ALREADY_SENT warning, never a crash', async () => {
    const { logger, lines } = recordingLogger();
    const app = enclave({ loggerInstance: logger });
    app.get('/twice', async (_request, reply) => {
      reply.send('first');
      reply.send('second');
      return reply;
    });
    app.get('/send-and-return', async (_request, reply) => {
      reply.send('first');
      return 'second';
    });
    for (const url of ['/twice', '/send-and-return']) {
      lines.length = 0;
      const response = await app.inject(url);
      assert.equal(response.body, 'first');
      const warnings = lines.filter(([level]) => level === 'warn');
      assert.equal(warnings.length, 1, url);
      assert.equal(warnings[0]?.[1].err.code, 'FST_ERR_REP_ALREADY_SENT');
    }
    assert.equal((await app.inject('/twice')).statusCode, 200);
  });

  test('thrown non-Error values do not crash and answer 500', async () => {
    const app = enclave();
    app.get('/string', async () => {
      throw 'a string';
    });
    app.get('/object', async () => {
      throw { some: 'object' };
    });
    app.get('/undefined', async () => {
      throw undefined;
    });
    app.get('/sync', () => {
      throw 42;
    });
    app.get('/with-status', async () => {
      throw { statusCode: 409, reason: 'conflict' };
    });
    for (const url of ['/string', '/object', '/undefined', '/sync']) {
      const response = await app.inject(url);
      assert.equal(response.statusCode, 500, url);
    }
    assert.equal((await app.inject('/string')).body, 'a string');
    const withStatus = await app.inject('/with-status');
    assert.equal(withStatus.statusCode, 409);
    assert.deepEqual(withStatus.json(), { statusCode: 409, reason: 'conflict' });
    // Fastify hands `undefined` itself to the error handlers; the default answers an empty 500.
    assert.equal((await app.inject('/undefined')).body, '');
  });

  test('send(error) goes to the error handler', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => reply.send(Object.assign(new Error('teapot'), { statusCode: 418 })));
    const response = await app.inject('/');
    assert.equal(response.statusCode, 418);
    assert.equal(response.json().message, 'teapot');
  });

  test('204 and 304 carry no body; HEAD keeps the headers', async () => {
    const app = enclave();
    app.get('/204', async (_request, reply) => reply.code(204).send('ignored'));
    app.get('/304', async (_request, reply) => reply.code(304).send());
    const noContent = await app.inject('/204');
    assert.equal(noContent.statusCode, 204);
    assert.equal(noContent.body, '');
    assert.equal(noContent.headers['content-length'], undefined);
    assert.equal(noContent.headers['content-type'], undefined);
    assert.equal((await app.inject('/304')).body, '');
  });

  test('a readable stream is piped, in-process', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => reply.type('text/plain').send(Readable.from(['a', 'b', 'c'])));
    const response = await app.inject('/');
    assert.equal(response.body, 'abc');
    assert.equal(response.headers['content-type'], 'text/plain');
  });

  test('a large stream is piped over a real socket, chunked, completely', async () => {
    const app = enclave();
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const chunks = 64; // 4 MiB
    app.get('/big', async () =>
      Readable.from(
        (function* () {
          for (let i = 0; i < chunks; i++) yield chunk;
        })(),
      ),
    );
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const received = await new Promise<{ bytes: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
        http
          .get(`${address}/big`, (res) => {
            let bytes = 0;
            res.on('data', (data: Buffer) => {
              bytes += data.length;
            });
            res.on('end', () => resolve({ bytes, headers: res.headers }));
            res.on('error', reject);
          })
          .on('error', reject);
      });
      assert.equal(received.bytes, chunk.length * chunks);
      assert.equal(received.headers['transfer-encoding'], 'chunked');
    } finally {
      await app.close();
    }
  });

  test('a stream that fails before the headers answers 500; after, the socket is cut', async () => {
    const app = enclave();
    app.get(
      '/fails',
      async () =>
        new Readable({
          read() {
            this.destroy(new Error('stream broke'));
          },
        }),
    );
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const outcome = await new Promise<string>((resolve) => {
        http
          .get(`${address}/fails`, (res) => {
            res.on('data', () => {});
            res.on('end', () => resolve(`end ${res.statusCode}`));
            res.on('error', () => resolve('aborted'));
          })
          .on('error', () => resolve('request error'));
      });
      assert.notEqual(outcome, 'end 200');
      // The server still serves.
      const again = await fetch(`${address}/fails`).then(
        (r) => r.status,
        () => 'fetch failed',
      );
      assert.ok(again !== undefined);
    } finally {
      await app.close();
    }
  });
});

test('the reply error codes are exported', () => {
  for (const code of ['FST_ERR_BAD_STATUS_CODE', 'FST_ERR_REP_ALREADY_SENT', 'FST_ERR_REP_INVALID_PAYLOAD_TYPE'] as const) {
    assert.equal(errorCodes[code].code, code);
  }
});
