// Issue 17, the error path as Fastify's own tests expect it: where reply misuse surfaces (thrown to
// the handler, or answered), what the client reads, and how often onError hooks run. Each case
// also checks that nothing escapes as an uncaught exception: the path still fails closed.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterEach, describe, test } from 'node:test';
import enclave from 'enclavejs';
import { captureEscapes } from './security-helpers.ts';

const escaped = captureEscapes();

afterEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(escaped.splice(0), [], 'nothing escaped the request path');
});

interface LogLine {
  level: number;
  msg: string;
  err?: { code?: string; message?: string };
}

/** An application whose log lines (at `level` and above) are collected, parsed. */
function appLogging(level: string) {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { app: enclave({ logger: { level, stream } }), lines };
}

describe('an unsendable payload', () => {
  test('sent from a synchronous handler throws FST_ERR_REP_INVALID_PAYLOAD_TYPE there, and the handler may recover', async () => {
    const app = enclave();
    const caught: unknown[] = [];
    app.get('/', (_request, reply) => {
      try {
        reply.type('text/html').send({ not: 'html' });
      } catch (error) {
        caught.push(error);
        reply.type('text/plain').send('recovered');
      }
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, 'recovered');
    assert.equal(caught.length, 1);
    assert.ok(caught[0] instanceof TypeError);
    assert.equal((caught[0] as { code?: string }).code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE');
  });

  test('a reply serializer that returns a non-string throws the same way', async () => {
    const app = enclave();
    const codes: unknown[] = [];
    app.get('/', (_request, reply) => {
      try {
        reply
          .type('text/html')
          .serializer((payload) => payload as string)
          .send({ a: 1 });
      } catch (error) {
        codes.push((error as { code?: string }).code);
        reply.send('<p>fallback</p>');
      }
    });
    const response = await app.inject('/');
    assert.deepEqual(codes, ['FST_ERR_REP_INVALID_PAYLOAD_TYPE']);
    assert.equal(response.body, '<p>fallback</p>');
  });

  test("not caught by the handler, it is answered 500 with Fastify's JSON", async () => {
    const app = enclave();
    app.get('/', (_request, reply) => {
      reply.code(200).headers({ 'content-type': 'text/plain; charset=utf-8' }).send({ a: 1 });
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), {
      statusCode: 500,
      code: 'FST_ERR_REP_INVALID_PAYLOAD_TYPE',
      error: 'Internal Server Error',
      message: "Attempted to send payload of invalid type 'object'. Expected a string or Buffer.",
    });
  });

  test('sent where no handler can catch it (a timer), it is answered 500, never thrown', async () => {
    const app = enclave();
    app.get('/', (_request, reply) => {
      setTimeout(() => reply.type('text/html').send({ a: 1 }), 1);
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE');
  });
});

test("reply.code() with an invalid status throws FST_ERR_BAD_STATUS_CODE with Fastify's message", async () => {
  const app = enclave();
  const messages: string[] = [];
  app.get('/', (_request, reply) => {
    for (const code of [0, 99, 600, 'x', null]) {
      try {
        reply.code(code as number);
      } catch (error) {
        messages.push((error as Error).message);
      }
    }
    reply.send('ok');
  });
  assert.equal((await app.inject('/')).body, 'ok');
  assert.deepEqual(
    messages,
    ['0', '99', '600', 'x', 'null'].map((code) => `Called reply with an invalid status code: ${code}`),
  );
});

describe('how often onError hooks run', () => {
  test('once for the error, once more for the error that broke the default error answer, never a third time', async () => {
    const app = enclave();
    const seen: string[] = [];
    let sends = 0;
    app.addHook('onSend', async () => {
      sends++;
      throw new Error(`onSend ${sends}`);
    });
    app.addHook('onError', async (_request, _reply, error) => {
      seen.push(error.message);
    });
    app.get('/', async () => ({ ok: true }));
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().message, 'onSend 2');
    assert.deepEqual(seen, ['onSend 1', 'onSend 2']);
  });

  test('an error the custom error handler answers runs them once', async () => {
    const app = enclave();
    let calls = 0;
    app.addHook('onError', async () => {
      calls++;
    });
    app.setErrorHandler((_error, _request, reply) => reply.code(418).send('handled'));
    app.get('/', async () => {
      throw new Error('boom');
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 418);
    assert.equal(calls, 1);
  });
});

describe('hooks that send or fail', () => {
  test('a preParsing hook that sends the reply ends the chain: no later preParsing hook, no handler', async () => {
    const app = enclave();
    const ran: string[] = [];
    app.addHook('preParsing', (_request, reply, _payload, done) => {
      ran.push('first');
      reply.send('blocked');
      done();
    });
    app.addHook('preParsing', (_request, _reply, _payload, done) => {
      ran.push('second');
      done();
    });
    app.addHook('onSend', async () => {
      ran.push('onSend');
    });
    app.post('/', async () => {
      ran.push('handler');
      return 'handled';
    });
    const response = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } });
    assert.equal(response.body, 'blocked');
    assert.deepEqual(ran, ['first', 'onSend']);
  });

  test("a failing onResponse hook makes the completion line 'request errored', at error level, after the hooks", async () => {
    const { app, lines } = appLogging('info');
    app.addHook('onResponse', (_request, _reply, done) => done(new Error('kaboom')));
    app.addHook('onResponse', (request, _reply, done) => {
      request.log.info('second onResponse hook');
      done();
    });
    app.get('/', (_request, reply) => {
      reply.send();
    });
    assert.equal((await app.inject('/')).statusCode, 200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(
      lines.map((line) => [line.level, line.msg, line.err?.message]),
      [
        [30, 'incoming request', undefined],
        [30, 'second onResponse hook', undefined],
        [50, 'request errored', 'kaboom'],
      ],
    );
  });
});

describe('after hijack() or the answer, a send or a failure is logged, never answered', () => {
  const summary = (lines: LogLine[]) => lines.map((line) => [line.level, line.err?.code ?? line.err?.message ?? line.msg]);

  test('reply.send() after hijack() warns FST_ERR_REP_ALREADY_SENT, in a hook or a handler', async () => {
    for (const where of ['onRequest', 'handler'] as const) {
      const { app, lines } = appLogging('warn');
      const takeOver = (_request: unknown, reply: any) => {
        reply.hijack();
        reply.raw.end('raw');
        reply.send('ignored');
      };
      if (where === 'onRequest') app.addHook('onRequest', async (request, reply) => takeOver(request, reply));
      app.get('/', where === 'handler' ? takeOver : async () => 'never');
      assert.equal((await app.inject('/')).body, 'raw', where);
      assert.deepEqual(summary(lines), [[40, 'FST_ERR_REP_ALREADY_SENT']], where);
    }
  });

  test('a handler that throws after hijack() warns as for a second send, and logs what it threw', async () => {
    const { app, lines } = appLogging('warn');
    app.get('/', (_request, reply) => {
      reply.hijack();
      reply.raw.end('raw');
      throw new Error('late');
    });
    assert.equal((await app.inject('/')).body, 'raw');
    assert.deepEqual(summary(lines), [
      [40, 'FST_ERR_REP_ALREADY_SENT'],
      [50, 'late'],
    ]);
  });

  test("an async handler that rejects after hijack() logs 'Promise errored, but reply.sent = true was set'", async () => {
    const { app, lines } = appLogging('warn');
    app.get('/', (_request, reply) => {
      reply.hijack();
      reply.raw.end('raw');
      return Promise.reject(new Error('kaboom'));
    });
    assert.equal((await app.inject('/')).body, 'raw');
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(
      lines.map((line) => [line.level, line.msg, line.err?.message]),
      [[50, 'Promise errored, but reply.sent = true was set', 'kaboom']],
    );
  });
});
