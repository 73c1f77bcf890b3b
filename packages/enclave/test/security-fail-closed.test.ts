// Issue 17, items 1 and 2: the request path fails closed. Any value a hook throws, rejects or
// passes to `done` is an error (falsy ones included), and the error path is total: whatever is
// thrown, and whatever its getters do, the server answers (500 at worst) and keeps serving.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterEach, describe, test } from 'node:test';
import enclave from 'enclavejs';
import { captureEscapes } from './security-helpers.ts';

const escaped = captureEscapes();

/** Lets pending promise callbacks and timers run, so an escaping rejection is seen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

afterEach(async () => {
  await settle();
  assert.deepEqual(escaped.splice(0), [], 'nothing escaped the request path');
});

const DEFAULT_500 = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' };
const UNDEFINED_ERROR = {
  statusCode: 500,
  code: 'FST_ERR_SEND_UNDEFINED_ERR',
  error: 'Internal Server Error',
  message: 'Undefined error has occurred',
};

/** A logger that really serializes what it is given (pino's err serializer reads getters). */
function loggedApp() {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  return enclave({ logger: { level: 'trace', stream: sink } });
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function errorWithThrowingGetter(property: string): Error {
  const error = new Error('visible');
  Object.defineProperty(error, property, {
    get() {
      throw new Error(`the ${property} getter`);
    },
  });
  return error;
}

describe('falsy errors from request hooks fail closed (issue 17, item 1)', () => {
  const phases = ['onRequest', 'preValidation', 'preHandler'] as const;
  const falsy = [0, false, ''] as const;

  for (const phase of phases) {
    test(`${phase}: throw, reject and done with 0, false, '' answer 500 and never reach the handler`, async () => {
      for (const value of falsy) {
        const styles = {
          sync: () => {
            throw value;
          },
          async: async () => {
            throw value;
          },
          done: (_request: unknown, _reply: unknown, done: (error?: unknown) => void) => done(value),
        };
        for (const [style, hook] of Object.entries(styles)) {
          const app = enclave();
          let handlerRan = false;
          app.register(async (scope) => {
            scope.addHook(phase, hook as never);
            scope.get('/protected', async () => {
              handlerRan = true;
              return { secret: 'data' };
            });
          });
          app.get('/open', async () => ({ ok: true }));
          const response = await app.inject('/protected');
          const label = `${phase} ${style} ${JSON.stringify(value)}`;
          assert.equal(response.statusCode, 500, label);
          assert.equal(handlerRan, false, label);
          assert.doesNotMatch(response.body, /secret/, label);
          if (style === 'async') {
            // A rejection without a truthy reason has nothing to show: Fastify's coded 500.
            assert.deepEqual(response.json(), UNDEFINED_ERROR, label);
          } else {
            // A value thrown or passed to done is the error itself, sent as Fastify sends it.
            assert.equal(response.body, typeof value === 'string' ? value : JSON.stringify(value), label);
          }
          assert.equal((await app.inject('/open')).statusCode, 200, label);
          await app.close();
        }
      }
    });
  }

  test('done(null) and done(undefined) still mean "no error"', async () => {
    const app = enclave();
    app.addHook('onRequest', (_request, _reply, done) => done(null as never));
    app.addHook('preHandler', (_request, _reply, done) => done(undefined));
    app.get('/', async () => 'reached');
    const response = await app.inject('/');
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, 'reached');
  });

  test('a thenable whose then getter throws is the hook failing, not a crash', async () => {
    const app = enclave();
    app.addHook('onRequest', () => revokedProxy() as never);
    app.get('/', async () => 'reached');
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.notEqual(response.body, 'reached');
  });
});

describe('the error path is total (issue 17, item 2)', () => {
  test('an Error whose statusCode, message, headers, code, name, stack or toJSON getter throws gets the default JSON', async () => {
    for (const property of ['statusCode', 'status', 'message', 'headers', 'code', 'name', 'stack', 'toJSON']) {
      const app = loggedApp();
      app.get('/', async () => {
        throw errorWithThrowingGetter(property);
      });
      app.get('/next', async () => 'still serving');
      const response = await app.inject('/');
      assert.equal(response.statusCode, 500, property);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8', property);
      // What can be read is shown; an unreadable message reads as the status text.
      const message = property === 'message' ? 'Internal Server Error' : 'visible';
      assert.deepEqual(response.json(), { ...DEFAULT_500, message }, property);
      assert.equal((await app.inject('/next')).body, 'still serving', property);
      await app.close();
    }
  });

  test('a revoked Proxy thrown, rejected or sent from a handler, a hook or an error handler', async () => {
    const app = loggedApp();
    app.get('/throw', () => {
      throw revokedProxy();
    });
    app.get('/reject', async () => {
      throw revokedProxy();
    });
    app.get('/send', (_request, reply) => {
      reply.send(revokedProxy());
    });
    app.get('/return', () => revokedProxy());
    app.register(async (scope) => {
      scope.addHook('onSend', async () => {
        throw revokedProxy();
      });
      scope.get('/on-send', async () => 'never sent');
    });
    app.register(async (scope) => {
      scope.setErrorHandler(() => {
        throw revokedProxy();
      });
      scope.get('/error-handler', async () => {
        throw new Error('first');
      });
    });
    app.get('/next', async () => 'still serving');
    for (const url of ['/throw', '/reject', '/send', '/return', '/on-send', '/error-handler']) {
      const response = await app.inject(url);
      assert.equal(response.statusCode, 500, url);
      if (url === '/send' || url === '/return') {
        // Sent as a payload: the check that refuses it is the error answered (the same shape).
        assert.deepEqual(Object.keys(response.json()), ['statusCode', 'error', 'message'], url);
        assert.match(response.json().message, /revoked/, url);
      } else {
        assert.deepEqual(response.json(), DEFAULT_500, url);
      }
      assert.equal((await app.inject('/next')).body, 'still serving', url);
    }
    await app.close();
  });

  test('an async preParsing hook that throws a falsy value answers 500; one resolving null or false keeps the body', async () => {
    const app = enclave();
    app.register(async (scope) => {
      scope.addHook('preParsing', async () => {
        throw false;
      });
      scope.post('/throws', async (request) => request.body);
    });
    for (const resolved of [null, false]) {
      app.register(async (scope) => {
        scope.addHook('preParsing', async () => resolved as never);
        scope.post(`/resolves-${resolved}`, async (request) => request.body);
      });
    }
    app.register(async (scope) => {
      scope.addHook('preParsing', async () => 'not a stream' as never);
      scope.post('/not-a-stream', async (request) => request.body);
    });
    const post = (url: string) => app.inject({ method: 'POST', url, payload: { kept: true } });
    const thrown = await post('/throws');
    assert.equal(thrown.statusCode, 500);
    assert.equal(thrown.json().code, 'FST_ERR_SEND_UNDEFINED_ERR');
    for (const url of ['/resolves-null', '/resolves-false']) {
      const response = await post(url);
      assert.equal(response.statusCode, 200, url);
      assert.deepEqual(response.json(), { kept: true }, url);
    }
    const notStream = await post('/not-a-stream');
    assert.equal(notStream.statusCode, 500);
    await app.close();
  });

  test('Symbols, BigInts, functions and null-prototype objects thrown by a handler', async () => {
    // JSON has no text for a Symbol or a function: an empty 500, as Fastify answers.
    const thrown: Array<[string, unknown, (body: string) => void]> = [
      ['symbol', Symbol('s'), (body) => assert.equal(body, '')],
      ['function', () => {}, (body) => assert.equal(body, '')],
      ['bigint', 10n, (body) => assert.equal(JSON.parse(body).statusCode, 500)],
      ['null prototype', Object.assign(Object.create(null), { a: 1 }), (body) => assert.deepEqual(JSON.parse(body), { a: 1 })],
    ];
    for (const [name, value, check] of thrown) {
      const app = loggedApp();
      app.get('/', () => {
        throw value;
      });
      const response = await app.inject('/');
      assert.equal(response.statusCode, 500, name);
      check(response.body);
      await app.close();
    }
  });

  test('an error response that cannot be completed still answers, over a real socket too', async () => {
    const app = loggedApp();
    // Every onSend fails with something hostile, the error response's own included.
    app.addHook('onSend', async () => {
      throw errorWithThrowingGetter('message');
    });
    app.get('/', async () => 'never');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (let round = 0; round < 3; round++) {
        const response = await fetch(address);
        assert.equal(response.status, 500);
        assert.deepEqual(await response.json(), DEFAULT_500);
      }
    } finally {
      await app.close();
    }
  });
});
