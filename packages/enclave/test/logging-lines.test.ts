// The log lines users' pipelines read, as Fastify 5 writes them: which options make a logger,
// the fields of the request lines, the per-plugin and per-route level and serializers, and the
// LogController that writes every per-request line.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import pino from 'pino';
import { captureLogs as captureStream } from './security-helpers.ts';

/** Waits until the response-side log lines have been written (they follow the response). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('which options make a logger', () => {
  test('pino is loaded only once a logger is asked for', () => {
    const script = (factoryOptions: string) =>
      `const enclave = require('enclavejs'); enclave(${factoryOptions}); process.stdout.write(String(require.cache[require.resolve('pino')] !== undefined));`;
    const run = (factoryOptions: string) => execFileSync(process.execPath, ['-e', script(factoryOptions)], { cwd: import.meta.dirname, encoding: 'utf8' });
    assert.equal(run(''), 'false');
    assert.equal(run('{ logger: false }'), 'false');
    assert.equal(run('{ logger: { level: "silent" } }'), 'true');
  });

  test('`logger` takes options, an instance goes to `loggerInstance`; partial loggers are named', () => {
    assert.throws(() => enclave({ logger: pino() as any }), { code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG' });
    assert.throws(
      () => enclave({ logger: console as any }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'FST_ERR_LOG_INVALID_LOGGER');
        assert.match(error.message, /fatal,child/);
        return true;
      },
    );
    assert.throws(() => enclave({ loggerInstance: { level: 'info' } as any }), { code: 'FST_ERR_LOG_INVALID_LOGGER_INSTANCE' });
    // `logger: false` beside an instance is no conflict.
    assert.equal(typeof enclave({ logger: false, loggerInstance: pino({ level: 'silent' }) as any }).log.info, 'function');
  });

  test('an option defined as a non-enumerable property still counts', () => {
    const app = enclave({ logger: Object.defineProperty({}, 'level', { value: 'warn' }) as any });
    assert.equal(app.log.level, 'warn');
  });

  test("a loggerInstance keeps its own serializers and gains Enclave's for the response", async () => {
    const { lines, stream } = captureStream();
    const instance = pino({ serializers: { req: (request: any) => ({ path: request.url }) } }, stream);
    const app = enclave({ loggerInstance: instance as any });
    app.get('/own', async () => 'ok');
    await app.inject('/own');
    await settle();
    const byMessage = Object.fromEntries(lines.map((line) => [line.msg, line]));
    assert.deepEqual(byMessage['incoming request'].req, { path: '/own' });
    assert.deepEqual(byMessage['request completed'].res, { statusCode: 200 });
  });

  test("the incoming line's req carries Fastify's fields, the client's accept-version included", async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream } });
    app.get('/v', async () => 'ok');
    await app.inject({ url: '/v', headers: { host: 'api.test', 'accept-version': '2.x' } });
    await settle();
    const incoming = lines.find((line) => line.msg === 'incoming request');
    assert.ok(incoming);
    // remotePort too, but inject's fake socket has none, and JSON drops an undefined field.
    assert.deepEqual(Object.keys(incoming.req).sort(), ['host', 'method', 'remoteAddress', 'url', 'version']);
    assert.equal(incoming.req.version, '2.x');
  });
});

describe('log level and serializers per plugin and per route', () => {
  test("register's logLevel sets the level of the plugin's routes, its children's and its not-found handler", async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ loggerInstance: pino({ level: 'error' }, stream) as any });
    app.get('/root', async (request) => {
      request.log.info('root info');
      return 'ok';
    });
    app.register(
      async (plugin) => {
        plugin.get('/route', async (request) => {
          request.log.info('plugin info');
          request.log.debug('plugin debug');
          return 'ok';
        });
        plugin.register(async (child) => {
          child.get('/child', async (request) => {
            request.log.info('child info');
            return 'ok';
          });
        });
        plugin.setNotFoundHandler(async (request, reply) => {
          request.log.info('plugin not found');
          return reply.code(404).send('none');
        });
      },
      { prefix: '/p', logLevel: 'info' },
    );
    await app.inject('/root');
    await app.inject('/p/route');
    await app.inject('/p/child');
    await app.inject('/p/nowhere');
    await settle();
    const messages = lines.map((line) => line.msg);
    assert.ok(!messages.includes('root info'));
    assert.ok(!messages.includes('plugin debug'));
    for (const shown of ['plugin info', 'child info', 'plugin not found']) assert.ok(messages.includes(shown), shown);
    // The request lines of the plugin's requests are at its level too, the root's are not.
    assert.equal(lines.filter((line) => line.msg === 'incoming request').length, 3);
  });

  test("logSerializers add up from plugin to child to route, the nearest winning; a route's logLevel beats its plugin's", async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ loggerInstance: pino({ level: 'info', serializers: { a: (v: string) => `root:${v}` } }, stream) as any });
    app.register(
      async (plugin) => {
        plugin.register(
          async (child) => {
            child.get('/x', { logSerializers: { c: (v: string) => `route:${v}` }, logLevel: 'warn' }, async (request) => {
              request.log.info('hidden by the route level');
              request.log.warn({ a: 1, b: 2, c: 3 }, 'values');
              return 'ok';
            });
          },
          { logSerializers: { b: (v: string) => `child:${v}` } },
        );
      },
      { logSerializers: { b: (v: string) => `plugin:${v}`, c: (v: string) => `plugin:${v}` }, logLevel: 'debug' },
    );
    await app.inject('/x');
    await settle();
    assert.deepEqual(
      lines.map((line) => line.msg),
      ['values'],
    );
    const [values] = lines;
    assert.ok(values);
    assert.deepEqual([values.a, values.b, values.c], ['root:1', 'child:2', 'route:3']);
  });

  test('a route level the logger does not know is refused where the route is declared; null inherits', async () => {
    const app = enclave({ logger: { level: 'silent' } });
    assert.throws(() => app.get('/bad', { logLevel: 'loud' }, async () => 'x'), {
      code: 'FST_ERR_ROUTE_LOG_LEVEL_INVALID',
      statusCode: 500,
    });
    app.get('/null', { logLevel: null as any }, async () => 'fine');
    assert.equal((await app.inject('/null')).body, 'fine');
    // Without a logger there are no levels to check against, as in Fastify.
    assert.doesNotThrow(() => enclave().get('/any', { logLevel: 'loud' }, async () => 'x'));
  });

  test("a route's childLoggerFactory builds its request loggers, over the instance's factory", async () => {
    const seen: string[] = [];
    const app = enclave({ logger: { level: 'silent' } });
    app.setChildLoggerFactory((logger, bindings, options) => {
      seen.push('instance');
      return logger.child(bindings, options);
    });
    app.get(
      '/own',
      {
        logLevel: 'warn',
        childLoggerFactory: (logger, bindings, options, raw) => {
          seen.push(`route ${options.level} ${raw.url} ${Object.keys(bindings)}`);
          return logger.child(bindings, options);
        },
      },
      async () => 'ok',
    );
    app.get('/other', async () => 'ok');
    await app.inject('/own');
    await app.inject('/other');
    assert.deepEqual(seen, ['route warn /own reqId', 'instance']);
  });

  test('a plugin without a prefix that sets a not-found handler answers for the root paths', async () => {
    const app = enclave();
    app.register(async (plugin) => {
      plugin.setNotFoundHandler(async (_request, reply) => reply.code(404).send('from the plugin'));
    });
    assert.equal((await app.inject('/anything')).body, 'from the plugin');
  });
});

describe('the LogController writes every per-request line', () => {
  test('the default 404 handler logs the route that was not found, between the request pair', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream } });
    await app.inject('/nowhere?x=1');
    await settle();
    assert.deepEqual(
      lines.map((line) => [line.level, line.msg]),
      [
        [30, 'incoming request'],
        [30, 'Route GET:/nowhere?x=1 not found'],
        [30, 'request completed'],
      ],
    );
  });

  test('disableRequestLogging: true leaves no line for a bad URL or an unknown route', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream }, disableRequestLogging: true });
    assert.equal((await app.inject('/%c0')).statusCode, 400);
    assert.equal((await app.inject('/missing')).statusCode, 404);
    await settle();
    assert.deepEqual(lines, []);
  });

  test("a subclass sees the error, not-found, stream and serializer lines, with Fastify's arguments", async () => {
    const calls: unknown[][] = [];
    class Recorder extends enclave.LogController {
      override defaultErrorLog(error: Error, _request: unknown, reply: any) {
        calls.push(['defaultErrorLog', error.message, reply.statusCode]);
      }
      override routeNotFound(request: any) {
        calls.push(['routeNotFound', request.url]);
      }
      override streamError(error: Error) {
        calls.push(['streamError', error.message]);
      }
      override serializerError(error: Error, _request: unknown, _reply: unknown, metadata: { statusCode: number }) {
        calls.push(['serializerError', error.message, metadata.statusCode]);
      }
    }
    const app = enclave({ logger: { level: 'silent' }, logController: new Recorder() });
    app.get('/fail', async () => {
      throw new Error('failed');
    });
    app.get(
      '/unserializable',
      {
        schema: { response: { 500: { type: 'object', properties: { message: { type: 'string' } } } } },
        serializerCompiler: () => () => {
          throw new Error('cannot serialize');
        },
      },
      async () => {
        throw new Error('first');
      },
    );
    app.get('/stream', (_request, reply) => {
      let sent = false;
      const body = new Readable({
        read() {
          if (sent) return;
          sent = true;
          this.push('partial');
          setTimeout(() => this.destroy(new Error('source failed')), 5);
        },
      });
      reply.send(body);
    });
    await app.inject('/fail');
    await app.inject('/missing');
    await app.inject('/unserializable');
    await app.inject('/stream').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(calls, [
      ['defaultErrorLog', 'failed', 500],
      ['routeNotFound', '/missing'],
      ['defaultErrorLog', 'first', 500],
      ['serializerError', 'cannot serialize', 500],
      ['streamError', 'source failed'],
    ]);
  });

  test('a controller that throws is logged as such and the request is answered as usual', async () => {
    const { lines, stream } = captureStream();
    class Broken extends enclave.LogController {
      override requestCompleted(): void {
        throw new Error('controller bug');
      }
    }
    const app = enclave({ logger: { stream }, logController: new Broken() });
    app.get('/', async () => 'ok');
    assert.equal((await app.inject('/')).body, 'ok');
    await settle();
    assert.equal(lines.find((line) => line.msg === 'the logController failed')?.err?.message, 'controller bug');
  });
});
