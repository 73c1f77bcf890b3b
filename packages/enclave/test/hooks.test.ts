// SPEC §4.2–4.3: request hooks (order, arguments, styles, early replies, errors, route-level
// hooks, `this`, payload replacement, onError, onRequestAbort, onTimeout) and application
// hooks (onRoute is in routing.test.ts; onRegister, onReady, onListen, preClose, onClose).
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave, { errorCodes, type FastifyError } from 'enclavejs';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Fails after `ms` instead of hanging; the timer keeps the process alive until then. */
function withTimeout<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const requestPhases = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

describe('request hook order and arguments', () => {
  test('the whole lifecycle runs in order', async () => {
    const app = enclave();
    const trace: string[] = [];
    const responded = deferred();
    app.addHook('onRequest', async () => {
      trace.push('onRequest');
    });
    app.addHook('preParsing', async () => {
      trace.push('preParsing');
    });
    app.addHook('preValidation', async () => {
      trace.push('preValidation');
    });
    app.addHook('preHandler', async () => {
      trace.push('preHandler');
    });
    app.addHook('preSerialization', async () => {
      trace.push('preSerialization');
    });
    app.addHook('onSend', async () => {
      trace.push('onSend');
    });
    app.addHook('onResponse', async () => {
      trace.push('onResponse');
      responded.resolve();
    });
    app.post(
      '/',
      {
        schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
      async (request) => {
        trace.push('handler');
        return { body: request.body };
      },
    );
    const response = await app.inject({ method: 'POST', url: '/', payload: { n: '5' } });
    await withTimeout(responded.promise);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { body: { n: 5 } });
    assert.deepEqual(trace, ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse']);
  });

  test('hooks get the documented arguments', async () => {
    const app = enclave();
    const seen: Record<string, unknown> = {};
    const responded = deferred();
    app.addHook('onRequest', (request, reply, done) => {
      seen.onRequest = [request.url, typeof reply.send, typeof done];
      done();
    });
    app.addHook('preParsing', (request, _reply, payload, done) => {
      seen.preParsing = payload === request.raw && typeof payload.pipe === 'function';
      done(null, payload);
    });
    app.addHook('preValidation', (request, _reply, done) => {
      seen.preValidation = request.body;
      done();
    });
    app.addHook('preSerialization', (_request, _reply, payload, done) => {
      seen.preSerialization = payload;
      done(null, payload);
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      seen.onSend = [payload, reply.getHeader('content-type')];
      done(null, payload);
    });
    app.addHook('onResponse', (_request, reply, done) => {
      seen.onResponse = reply.statusCode;
      done();
      responded.resolve();
    });
    app.post('/x', async (request, reply) => {
      reply.code(201);
      return { got: request.body };
    });
    const response = await app.inject({ method: 'POST', url: '/x', payload: { a: 1 } });
    await withTimeout(responded.promise);
    assert.equal(response.statusCode, 201);
    assert.deepEqual(seen, {
      onRequest: ['/x', 'function', 'function'],
      preParsing: true,
      preValidation: { a: 1 },
      preSerialization: { got: { a: 1 } },
      onSend: ['{"got":{"a":1}}', 'application/json; charset=utf-8'],
      onResponse: 201,
    });
  });

  test('a sync hook without done continues when it returns', async () => {
    const app = enclave();
    const trace: string[] = [];
    app.addHook('onRequest', function (_request: any, _reply: any) {
      trace.push('sync');
    } as any);
    app.get('/', async () => {
      trace.push('handler');
      return 'ok';
    });
    const response = await app.inject('/');
    assert.equal(response.body, 'ok');
    assert.deepEqual(trace, ['sync', 'handler']);
  });

  test('an async hook that also declares done is refused at registration', () => {
    const app = enclave();
    const asyncWithDone = async (_request: unknown, _reply: unknown, _done: unknown) => {};
    assert.throws(() => app.addHook('onRequest', asyncWithDone as any), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' });
    assert.throws(() => app.addHook('preHandler', asyncWithDone as any), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' });
    assert.throws(() => app.addHook('onSend', (async (_a: unknown, _b: unknown, _c: unknown, _done: unknown) => {}) as any), {
      code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER',
    });
    assert.throws(() => app.get('/', { preHandler: asyncWithDone as any }, async () => 'x'), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' });
    // An async payload hook with three parameters is fine: the third is the payload.
    app.addHook('onSend', (async (_a: unknown, _b: unknown, _payload: unknown) => {}) as any);
    assert.throws(() => app.addHook('onRequest', 'nope' as any), { code: 'FST_ERR_HOOK_INVALID_HANDLER' });
    assert.throws(() => app.addHook('onSomething' as any, async () => {}), { code: 'FST_ERR_HOOK_NOT_SUPPORTED' });
  });
});

describe('early replies and errors', () => {
  for (const phase of requestPhases) {
    test(`${phase}: a hook that sends ends the chain (async and done styles)`, async () => {
      for (const style of ['async', 'done'] as const) {
        const app = enclave();
        const trace: string[] = [];
        const hook =
          style === 'async'
            ? async (_request: any, reply: any) => {
                trace.push(phase);
                reply.code(418).send('early');
                return reply;
              }
            : phase === 'preParsing'
              ? (_request: any, reply: any, _payload: any, _done: any) => {
                  trace.push(phase);
                  reply.code(418).send('early');
                }
              : (_request: any, reply: any, _done: any) => {
                  trace.push(phase);
                  reply.code(418).send('early');
                };
        app.addHook(phase as any, hook as any);
        for (const later of requestPhases) {
          if (later !== phase)
            app.addHook(later as any, async () => {
              trace.push(later);
            });
        }
        app.post('/', async () => {
          trace.push('handler');
          return 'handler';
        });
        const response = await app.inject({ method: 'POST', url: '/', payload: 'x', headers: { 'content-type': 'text/plain' } });
        assert.equal(response.statusCode, 418, `${phase} ${style}`);
        assert.equal(response.body, 'early');
        assert.ok(!trace.includes('handler'), `${phase} ${style}: ${trace.join()}`);
        assert.equal(trace.at(-1), phase);
      }
    });
  }

  for (const phase of [...requestPhases, 'preSerialization', 'onSend'] as const) {
    test(`${phase}: thrown, rejected and done(error) errors reach the error handler`, async () => {
      for (const style of ['throw', 'reject', 'done'] as const) {
        const app = enclave();
        let handled: unknown;
        app.setErrorHandler<FastifyError>(async (error, _request, reply) => {
          handled = error.message;
          reply.code(409).send({ handled: error.message });
        });
        const payloadHook = phase === 'preParsing' || phase === 'preSerialization' || phase === 'onSend';
        const error = new Error(`${phase}-${style}`);
        // Each hook fails once: the error handler's own reply runs the payload hooks again.
        let failures = 0;
        const once = () => failures++ === 0;
        const hook =
          style === 'throw'
            ? payloadHook
              ? function (_a: any, _b: any, c: any, done: any) {
                  if (once()) throw error;
                  done(null, c);
                }
              : function (_a: any, _b: any, done: any) {
                  if (once()) throw error;
                  done();
                }
            : style === 'reject'
              ? async () => {
                  if (once()) throw error;
                }
              : payloadHook
                ? (_a: any, _b: any, c: any, done: any) => (once() ? done(error) : done(null, c))
                : (_a: any, _b: any, done: any) => (once() ? done(error) : done());
        app.addHook(phase as any, hook as any);
        app.post('/', async () => ({ ok: true }));
        const response = await app.inject({ method: 'POST', url: '/', payload: 'x', headers: { 'content-type': 'text/plain' } });
        assert.equal(handled, `${phase}-${style}`);
        assert.equal(response.statusCode, 409, `${phase} ${style}`);
        assert.deepEqual(response.json(), { handled: `${phase}-${style}` });
        assert.equal(failures, phase === 'preSerialization' || phase === 'onSend' ? 2 : 1);
      }
    });
  }

  test('an error in onResponse is logged, not sent', async () => {
    const lines: any[] = [];
    const logged = deferred();
    const loggerInstance: any = {
      level: 'info',
      info() {},
      warn() {},
      debug() {},
      trace() {},
      fatal() {},
      error(obj: any) {
        lines.push(obj);
        logged.resolve();
      },
      child() {
        return loggerInstance;
      },
    };
    const app = enclave({ loggerInstance });
    app.addHook('onResponse', async () => {
      throw new Error('after the fact');
    });
    app.get('/', async () => 'ok');
    const response = await app.inject('/');
    assert.equal(response.statusCode, 200);
    await withTimeout(logged.promise);
    assert.equal(lines[0].err.message, 'after the fact');
  });
});

describe('route-level hooks, encapsulation and this', () => {
  test("route hooks (function or array) run after the context's hooks of the same name", async () => {
    const app = enclave();
    const trace: string[] = [];
    app.addHook('preHandler', async () => {
      trace.push('root');
    });
    app.register(async (child) => {
      child.addHook('preHandler', async () => {
        trace.push('child');
      });
      child.get(
        '/fn',
        {
          preHandler: async () => {
            trace.push('route');
          },
        },
        async () => 'ok',
      );
      child.get(
        '/array',
        {
          onRequest: [
            async () => {
              trace.push('route-onRequest');
            },
          ],
          preHandler: [
            async () => {
              trace.push('route1');
            },
            (_request, _reply, done) => {
              trace.push('route2');
              done();
            },
          ],
        },
        async () => 'ok',
      );
    });
    await app.inject('/fn');
    assert.deepEqual(trace, ['root', 'child', 'route']);
    trace.length = 0;
    await app.inject('/array');
    assert.deepEqual(trace, ['route-onRequest', 'root', 'child', 'route1', 'route2']);
  });

  test("a child's hooks do not run for its parent's or sibling's routes", async () => {
    const app = enclave();
    const trace: string[] = [];
    app.get('/root', async () => 'ok');
    app.register(async (child) => {
      child.addHook('onRequest', async () => {
        trace.push('child');
      });
      child.get('/child', async () => 'ok');
    });
    app.register(async (sibling) => {
      sibling.get('/sibling', async () => 'ok');
    });
    await app.inject('/root');
    await app.inject('/sibling');
    assert.deepEqual(trace, []);
    await app.inject('/child');
    assert.deepEqual(trace, ['child']);
  });

  test('a hook a parent adds after a child has loaded still applies to the child (as in Fastify)', async () => {
    const app = enclave();
    const calls: string[] = [];
    await app.register(async (early) => {
      early.get('/early', async () => 'early');
    });
    // Added after /early's context exists: it must still guard /early (an auth hook added late
    // would otherwise silently leave earlier plugins' routes open).
    app.addHook('onRequest', async (request) => {
      calls.push(request.url);
    });
    app.register(async (late) => {
      late.get('/late', async () => 'late');
    });
    await app.inject('/early');
    await app.inject('/late');
    assert.deepEqual(calls, ['/early', '/late']);
  });

  test("this is the route's own instance, whoever added the hook (as in Fastify)", async () => {
    const app = enclave();
    const seen: Record<string, unknown> = {};
    let child: any;
    app.decorate('who', 'root');
    app.addHook('onRequest', async function (this: any) {
      seen.root = this.who;
      seen.rootHookThis = this === child;
    });
    app.register(async (instance) => {
      child = instance;
      instance.decorate('only', 'child');
      instance.addHook('preHandler', async function (this: any) {
        seen.childThis = this === instance;
        seen.only = this.only;
      });
      instance.get('/', async function (this: any) {
        seen.handlerThis = this === instance;
        return 'ok';
      });
    });
    app.get('/root', async () => 'root');
    await app.inject('/');
    assert.deepEqual(seen, { root: 'root', rootHookThis: true, childThis: true, only: 'child', handlerThis: true });
    await app.inject('/root');
    assert.equal(seen.rootHookThis, false);
  });

  test('arrow functions are called without `this`; methods whose source looks like an arrow still get theirs', async () => {
    const app = enclave();
    const seen: string[] = [];
    // Methods named `async`, and a method with an arrow function as a default value: their source
    // starts like an arrow function's without being one.
    const methods = {
      async(this: unknown) {
        seen.push(`async method: ${this === app}`);
      },
      withDefault(this: unknown, _request: unknown, _reply: unknown = () => 1) {
        seen.push(`default arrow: ${this === app}`);
      },
      payload(this: unknown, _request: unknown, _reply: unknown, payload: unknown, done: (error: null, value: any) => void): void {
        seen.push(`onSend method: ${this === app}`);
        done(null, payload);
      },
      handler(this: unknown) {
        return { handler: this === app };
      },
    };
    app.addHook('onRequest', methods.async);
    app.addHook('preHandler', methods.withDefault);
    app.addHook('preHandler', async (request) => {
      seen.push(`arrow: ${request.url}`);
    });
    app.addHook('onSend', methods.payload);
    app.addHook('onSend', async (_request, _reply, payload) => `${payload}!`);
    app.get('/', methods.handler);
    app.get('/arrow', async () => ({ arrow: true }));
    const response = await app.inject('/');
    assert.equal(response.body, '{"handler":true}!');
    assert.deepEqual(seen, ['async method: true', 'default arrow: true', 'arrow: /', 'onSend method: true']);
    assert.equal((await app.inject('/arrow')).body, '{"arrow":true}!');
  });
});

describe('payload hooks', () => {
  test('preSerialization replaces the value; onSend replaces the serialized payload', async () => {
    const app = enclave();
    app.addHook('preSerialization', async (_request, _reply, payload: any) => ({ ...payload, wrapped: true }));
    app.addHook('preSerialization', (_request, _reply, payload: any, done) => done(null, { outer: payload }));
    app.addHook('onSend', async (_request, _reply, payload: any) => `${payload}\n`);
    app.get('/', async () => ({ value: 1 }));
    const response = await app.inject('/');
    assert.equal(response.body, '{"outer":{"value":1,"wrapped":true}}\n');
    assert.equal(response.headers['content-length'], String(response.body.length));
  });

  test('preSerialization does not run for strings, Buffers and streams', async () => {
    const app = enclave();
    let calls = 0;
    app.addHook('preSerialization', async () => {
      calls++;
    });
    app.get('/s', async () => 'text');
    app.get('/b', async () => Buffer.from('bytes'));
    app.get('/r', async () => Readable.from(['stream']));
    assert.equal((await app.inject('/s')).body, 'text');
    assert.equal((await app.inject('/b')).body, 'bytes');
    assert.equal((await app.inject('/r')).body, 'stream');
    assert.equal(calls, 0);
  });

  test('onSend may replace the payload with a Buffer or a stream', async () => {
    const app = enclave();
    app.get('/buffer', { onSend: async () => Buffer.from('buffer!') }, async () => 'x');
    app.get('/stream', { onSend: async () => Readable.from(['st', 'ream']) }, async () => 'x');
    assert.equal((await app.inject('/buffer')).body, 'buffer!');
    assert.equal((await app.inject('/stream')).body, 'stream');
  });

  test('onSend replacing the payload with a number is a 500, not a crash', async () => {
    const app = enclave();
    app.get('/', { onSend: async () => 42 as any }, async () => 'x');
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE');
  });

  test('an onSend hook that fails on every send still ends with an answer carrying the last error', async () => {
    const app = enclave();
    let calls = 0;
    app.setErrorHandler<FastifyError>(async (error, _request, reply) => {
      reply.code(409).send({ handled: error.message });
    });
    app.addHook('onSend', async () => {
      calls++;
      throw new Error(`onSend ${calls}`);
    });
    app.get('/', async () => 'x');
    const response = await app.inject('/');
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().message, 'onSend 3');
    assert.equal(calls, 3);
  });
});

describe('onError', () => {
  test('sees the error once, before the error handlers, even when a child handler rethrows', async () => {
    const app = enclave();
    const seen: unknown[] = [];
    const order: string[] = [];
    app.addHook('onError', async (_request, reply, error: any) => {
      seen.push(error.message);
      order.push(`onError:${reply.statusCode}`);
    });
    app.setErrorHandler<FastifyError>(async (error, _request, reply) => {
      order.push('parent');
      reply.code(503).send({ parent: error.message });
    });
    app.register(async (child) => {
      child.setErrorHandler(async (error) => {
        order.push('child');
        throw error;
      });
      child.get('/', async () => {
        throw Object.assign(new Error('boom'), { statusCode: 422 });
      });
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), { parent: 'boom' });
    assert.deepEqual(seen, ['boom']);
    // As in Fastify, the status is the default handler's to set: the hooks see it untouched.
    assert.deepEqual(order, ['onError:200', 'child', 'parent']);
  });

  test('a failing onError hook does not stop the error response', async () => {
    const app = enclave();
    // Fastify's types give onError's `done` no parameter; a JavaScript hook may still pass an error.
    app.addHook('onError', (_request, _reply, _error, done) => (done as (error: Error) => void)(new Error('hook failed')));
    app.get('/', async () => {
      throw new Error('original');
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().message, 'original');
  });

  test('sees the error as thrown: a plain Error has no statusCode, a validation error its issues', async () => {
    // Why onError's error is typed FastifyError (statusCode optional), not EnclaveError.
    const app = enclave();
    const seen: Array<{ statusCode: number | undefined; context: string | undefined }> = [];
    app.addHook('onError', async (_request, _reply, error) => {
      seen.push({ statusCode: error.statusCode, context: error.validationContext });
    });
    app.get('/plain', async () => {
      throw new Error('plain');
    });
    app.get('/checked', { schema: { querystring: { type: 'object', required: ['q'] } } }, async () => 'never');
    assert.equal((await app.inject('/plain')).statusCode, 500);
    assert.equal((await app.inject('/checked')).statusCode, 400);
    assert.deepEqual(seen, [
      { statusCode: undefined, context: undefined },
      { statusCode: 400, context: 'querystring' },
    ]);
  });

  test('does not run for a successful request', async () => {
    const app = enclave();
    let calls = 0;
    app.addHook('onError', async () => {
      calls++;
    });
    app.get('/', async () => 'ok');
    await app.inject('/');
    assert.equal(calls, 0);
  });
});

describe('socket hooks', () => {
  test('onRequestAbort fires when the client disconnects mid-handler', async () => {
    const app = enclave();
    const aborted = deferred<string>();
    const handlerStarted = deferred();
    const responseHook: string[] = [];
    app.addHook('onRequestAbort', async (request) => {
      aborted.resolve(request.url);
    });
    app.addHook('onResponse', async () => {
      responseHook.push('onResponse');
    });
    app.get('/slow', async (_request, reply) => {
      handlerStarted.resolve();
      // Answer only once the abort was seen (or after a cap), so load cannot reorder the two.
      await Promise.race([aborted.promise, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      return reply.send('late');
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = new URL(address);
      const socket = net.connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
      await withTimeout(handlerStarted.promise);
      socket.destroy();
      assert.equal(await withTimeout(aborted.promise, 4000), '/slow');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(responseHook, []);
    } finally {
      await app.close();
    }
  });

  test('onTimeout fires when connectionTimeout expires', async () => {
    const app = enclave({ connectionTimeout: 150 });
    const timedOut = deferred<string>();
    app.addHook('onTimeout', async (request) => {
      timedOut.resolve(request.url);
    });
    // The handler never answers: the socket times out and the server destroys it.
    app.get('/never', async (_request, reply) => reply);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const request = http.get(`${address}/never`);
      const failed = new Promise((resolve) => request.on('error', resolve));
      assert.equal(await withTimeout(timedOut.promise), '/never');
      await withTimeout(failed);
    } finally {
      await app.close();
    }
  });
});

describe('application hooks', () => {
  test('onRegister runs for each new context with its options, not for plugin-wrapped ones', async () => {
    const app = enclave();
    const seen: unknown[] = [];
    app.addHook('onRegister', (instance, options) => {
      seen.push([instance.prefix, options.tag]);
    });
    const skip = Object.assign(async () => {}, { [Symbol.for('skip-override')]: true });
    app.register(
      async (child) => {
        child.register(async () => {}, { tag: 'grandchild', prefix: '/b' });
      },
      { tag: 'child', prefix: '/a' },
    );
    app.register(skip, { tag: 'skipped' });
    await app.ready();
    assert.deepEqual(seen, [
      ['/a', 'child'],
      ['/a/b', 'grandchild'],
    ]);
  });

  test('onReady runs once at ready with this = its instance; an error fails ready()', async () => {
    const app = enclave();
    const seen: unknown[] = [];
    app.addHook('onReady', async function (this: any) {
      seen.push(this === app);
    });
    app.register(async (child) => {
      child.addHook('onReady', function (this: any, done: () => void) {
        seen.push(this === child);
        done();
      });
    });
    await app.ready();
    await app.ready();
    assert.deepEqual(seen, [true, true]);

    const failing = enclave();
    failing.addHook('onReady', async () => {
      throw new Error('not ready');
    });
    await assert.rejects(failing.ready(), /not ready/);
  });

  test('onListen runs after listen; preClose before close; onClose after, in reverse order', async () => {
    const app = enclave();
    const trace: string[] = [];
    app.addHook('onListen', async function (this: any) {
      trace.push(`onListen:${this === app}`);
    });
    app.addHook('preClose', (done) => {
      trace.push('preClose');
      done();
    });
    app.addHook('onClose', async (instance) => {
      trace.push(`onClose-first:${instance === app}`);
    });
    app.register(async (child) => {
      child.addHook('onClose', (instance, done) => {
        trace.push(`onClose-second:${instance === child}`);
        done();
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    assert.deepEqual(trace, ['onListen:true']);
    await app.close();
    assert.deepEqual(trace, ['onListen:true', 'preClose', 'onClose-second:true', 'onClose-first:true']);
  });

  test('onClose runs on close() without listen, and only once', async () => {
    const app = enclave();
    let calls = 0;
    app.addHook('onClose', async () => {
      calls++;
    });
    await app.ready();
    await app.close();
    await app.close();
    assert.equal(calls, 1);
  });

  test('request hooks cannot be added once ready', async () => {
    const app = enclave();
    await app.ready();
    assert.throws(() => app.addHook('onRequest', async () => {}));
  });
});

// Keep the import of errorCodes meaningful: the codes tested above exist.
test('the hook error codes are exported', () => {
  for (const code of ['FST_ERR_HOOK_INVALID_ASYNC_HANDLER', 'FST_ERR_HOOK_INVALID_HANDLER', 'FST_ERR_HOOK_NOT_SUPPORTED'] as const) {
    assert.equal(errorCodes[code].code, code);
  }
});
