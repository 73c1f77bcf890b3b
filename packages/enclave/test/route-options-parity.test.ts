// Issue 17: route-level behaviour Fastify's route tests expect — a route's own child-logger
// factory, the automatic HEAD route taking its path at once, a HEAD answer that cancels a web
// stream, and the error for a route added once the application is ready.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave, { errorCodes } from 'enclavejs';

/** A child-logger factory whose loggers say which factory built them. */
function taggingFactory(tag: string) {
  return (logger: any, bindings: Record<string, unknown>, options: Record<string, unknown>) => {
    const child = Object.create(logger.child(bindings, options));
    child.builtBy = tag;
    return child;
  };
}

describe('the childLoggerFactory route option', () => {
  test("builds that route's request loggers; other routes keep their context's factory", async () => {
    const app = enclave();
    app.setChildLoggerFactory(taggingFactory('context'));
    app.get('/own', { childLoggerFactory: taggingFactory('route') }, async (request: any) => ({ builtBy: request.log.builtBy }));
    app.get('/inherited', async (request: any) => ({ builtBy: request.log.builtBy }));
    assert.deepEqual((await app.inject('/own')).json(), { builtBy: 'route' });
    assert.deepEqual((await app.inject('/inherited')).json(), { builtBy: 'context' });
  });

  test('works without any factory set on the context', async () => {
    const app = enclave();
    app.get('/own', { childLoggerFactory: taggingFactory('route') }, async (request: any) => ({ builtBy: request.log.builtBy ?? null }));
    app.get('/plain', async (request: any) => ({ builtBy: request.log.builtBy ?? null }));
    assert.deepEqual((await app.inject('/own')).json(), { builtBy: 'route' });
    assert.deepEqual((await app.inject('/plain')).json(), { builtBy: null });
  });
});

describe('the automatic HEAD route', () => {
  test('takes its path when the GET route is declared: a later HEAD route for that path is a duplicate', () => {
    const app = enclave();
    app.get('/books/:id', async () => 'book');
    // Another parameter name is the same path to the router.
    assert.throws(() => app.head('/books/:bookId', async () => ''), { code: 'FST_ERR_DUPLICATED_ROUTE' });
  });

  test('with exposeHeadRoute: false, a HEAD route may follow', async () => {
    const app = enclave();
    app.get('/books', { exposeHeadRoute: false }, async () => 'books');
    app.head('/books', async (_request, reply) => {
      reply.header('x-from', 'head');
    });
    assert.equal((await app.inject({ method: 'HEAD', url: '/books' })).headers['x-from'], 'head');
  });

  test('cancels a web stream it does not read, and logs a cancel that fails instead of crashing', async () => {
    const lines: any[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(JSON.parse(String(chunk)));
        callback();
      },
    });
    const app = enclave({ logger: { level: 'error', stream } });
    const reasons: unknown[] = [];
    app.get('/feed', async () => {
      return new ReadableStream({
        start(controller) {
          controller.enqueue('never read');
        },
        cancel(reason) {
          reasons.push(reason);
          throw new Error('the source refused to stop');
        },
      });
    });
    const response = await app.inject({ method: 'HEAD', url: '/feed' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '');
    assert.equal(response.headers['content-length'], undefined, 'the length of an unread stream is unknown');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(reasons, ['Stream cancelled by HEAD route']);
    const logged = lines.find((line) => line.msg === 'Error on Stream found for HEAD route');
    assert.equal(logged?.err?.message, 'the source refused to stop');
  });
});

test('a route added after ready() is FST_ERR_INSTANCE_ALREADY_LISTENING, as Fastify words its detail', async () => {
  const app = enclave();
  await app.ready();
  assert.throws(() => app.get('/late', async () => 'late'), new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot add route!'));
});
