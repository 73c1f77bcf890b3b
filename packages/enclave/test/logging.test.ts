// SPEC §2 / §4: logging with pino when `logger` is set; silent otherwise.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave, { errorCodes } from 'enclavejs';
import pino from 'pino';
import { captureLogs } from './security-helpers.ts';

/** The parsed lines, loosely typed: these tests read fields of lines they just found. */
function captureStream(): { lines: any[]; stream: ReturnType<typeof captureLogs>['stream'] } {
  return captureLogs();
}

/** Waits until the response-side log lines have been written (they follow the response). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('request logging', () => {
  test('an incoming/completed pair per request, both carrying the request id; request.log is a child with it', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { level: 'info', stream } });
    app.get('/hello', async (request) => {
      request.log.info({ custom: true }, 'inside the handler');
      return { id: request.id };
    });
    const response = await app.inject({ url: '/hello', headers: { host: 'example.test' } });
    await settle();
    const { id } = response.json();
    const mine = lines.filter((line) => line.reqId === id);
    assert.deepEqual(
      mine.map((line) => line.msg),
      ['incoming request', 'inside the handler', 'request completed'],
    );
    const [incoming, custom, completed] = mine;
    assert.equal(incoming.level, 30);
    assert.deepEqual({ method: incoming.req.method, url: incoming.req.url, host: incoming.req.host }, { method: 'GET', url: '/hello', host: 'example.test' });
    assert.equal(custom.custom, true);
    assert.equal(completed.res.statusCode, 200);
    assert.equal(typeof completed.responseTime, 'number');
  });

  test('requestIdLogLabel renames the id field', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream }, requestIdLogLabel: 'requestId', genReqId: () => 'fixed-id' });
    app.get('/', async () => 'ok');
    await app.inject('/');
    await settle();
    const requestLines = lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed');
    assert.equal(requestLines.length, 2);
    for (const line of requestLines) {
      assert.equal(line.requestId, 'fixed-id');
      assert.equal(line.reqId, undefined);
    }
  });

  test("disableRequestLogging drops the pair and the default error handler's line, but keeps the application's logs", async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream }, disableRequestLogging: true });
    app.get('/', async (request) => {
      request.log.info('still logged');
      return 'ok';
    });
    app.get('/fail', async () => {
      throw new Error('server side');
    });
    await app.inject('/');
    await app.inject('/fail');
    await settle();
    const messages = lines.map((line) => line.msg);
    assert.ok(messages.includes('still logged'));
    assert.ok(!messages.includes('incoming request'));
    assert.ok(!messages.includes('request completed'));
    // Fastify 5's LogController counts the default error log among the request lines.
    assert.ok(!lines.some((line) => line.err?.message === 'server side'));
  });

  test('a pino instance given as loggerInstance is used, with child loggers per request', async () => {
    const { lines, stream } = captureStream();
    const logger = pino({ base: { app: 'mine' } }, stream);
    const app = enclave({ loggerInstance: logger as any });
    app.get('/', async (request) => {
      request.log.warn('careful');
      return 'ok';
    });
    await app.inject('/');
    await settle();
    const warning = lines.find((line) => line.msg === 'careful');
    assert.ok(warning);
    assert.equal(warning.app, 'mine');
    assert.equal(warning.level, 40);
    assert.equal(typeof warning.reqId, 'string');
    // app.log writes through the instance (a child of it, as in Fastify, adding serializers).
    app.log.info('from the app');
    assert.equal(lines.find((line) => line.msg === 'from the app')?.app, 'mine');
  });
});

describe('error logging levels', () => {
  test('5xx errors are logged at error level, 4xx at info', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream } });
    app.get('/500', async () => {
      throw new Error('broken');
    });
    app.get('/404', async () => {
      throw Object.assign(new Error('missing thing'), { statusCode: 404 });
    });
    app.post('/400', { schema: { body: { type: 'object', required: ['x'] } } }, async () => 'ok');
    await app.inject('/500');
    await app.inject('/404');
    await app.inject({ method: 'POST', url: '/400', payload: {} });
    await settle();
    const errorLine = lines.find((line) => line.err?.message === 'broken');
    assert.equal(errorLine?.level, 50);
    assert.equal(typeof errorLine?.err.stack, 'string');
    const infoLine = lines.find((line) => line.err?.message === 'missing thing');
    assert.equal(infoLine?.level, 30);
    const validationLine = lines.find((line) => line.err?.code === 'FST_ERR_VALIDATION');
    assert.equal(validationLine?.level, 30);
  });

  test('a custom error handler replaces the default error log', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream } });
    app.setErrorHandler(async (_error, _request, reply) => reply.code(500).send('handled'));
    app.get('/', async () => {
      throw new Error('quietly handled');
    });
    await app.inject('/');
    await settle();
    assert.equal(lines.filter((line) => line.err?.message === 'quietly handled').length, 0);
  });

  test('a second send is warned about with FST_ERR_REP_ALREADY_SENT', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream } });
    app.get('/', async (_request, reply) => {
      reply.send('one');
      return 'two';
    });
    const response = await app.inject('/');
    await settle();
    assert.equal(response.body, 'one');
    const warning = lines.find((line) => line.level === 40);
    assert.equal(warning?.err?.code, errorCodes.FST_ERR_REP_ALREADY_SENT.code);
  });
});

describe('logger options', () => {
  test('off by default: no logger output and a silent log object', async () => {
    const app = enclave();
    assert.equal(typeof app.log.info, 'function');
    app.get('/', async (request) => {
      request.log.info('nothing');
      return 'ok';
    });
    assert.equal((await app.inject('/')).body, 'ok');
  });

  test('the logger level is honoured', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { level: 'warn', stream } });
    app.get('/', async (request) => {
      request.log.info('hidden');
      request.log.warn('shown');
      return 'ok';
    });
    await app.inject('/');
    await settle();
    assert.deepEqual(
      lines.map((line) => line.msg),
      ['shown'],
    );
  });

  test("a route's logLevel sets the level of its request logger", async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { level: 'info', stream } });
    app.get('/quiet', { logLevel: 'warn' }, async (request) => {
      request.log.info('hidden info');
      request.log.warn('shown warning');
      return 'ok';
    });
    app.get('/verbose', { logLevel: 'debug' }, async (request) => {
      request.log.debug('shown debug');
      return 'ok';
    });
    await app.inject('/quiet');
    await app.inject('/verbose');
    await settle();
    const messages = lines.map((line) => line.msg);
    assert.ok(!messages.includes('hidden info'));
    assert.ok(messages.includes('shown warning'));
    assert.ok(messages.includes('shown debug'));
    // The quiet route's request pair is below its level.
    assert.equal(lines.filter((line) => line.msg === 'incoming request').length, 1);
  });

  test('listen logs the address', async () => {
    const { lines, stream } = captureStream();
    const app = enclave({ logger: { stream } });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    await app.close();
    await settle();
    assert.ok(lines.some((line) => line.level === 30 && typeof line.msg === 'string' && line.msg.includes(address)));
  });

  test('invalid logger options are refused with their codes', () => {
    assert.throws(() => enclave({ logger: 'yes' as any }), { code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG' });
    assert.throws(() => enclave({ loggerInstance: { info() {} } as any }), { code: 'FST_ERR_LOG_INVALID_LOGGER' });
    assert.throws(() => enclave({ logger: true, loggerInstance: pino() as any }), { code: 'FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED' });
  });
});
