// Issue 17: the request handler is published on node:diagnostics_channel under Fastify's names
// (the TracingChannel `fastify.request.handler`, and `fastify.initialization`), so tracing tools
// written for Fastify see Enclave applications. The `error` event reports the status the error
// will be answered with.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { test, type TestContext } from 'node:test';
import enclave from 'enclavejs';

const events = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

interface Seen {
  event: (typeof events)[number];
  context: any;
  /** reply.statusCode when the event was published. */
  status: number;
}

/** Records every event of `app`'s handler traces until the test ends. */
function record(t: TestContext, app: object): Seen[] {
  const seen: Seen[] = [];
  for (const event of events) {
    const name = `tracing:fastify.request.handler:${event}`;
    const listener = (context: any) => {
      if (context.request.server === app) seen.push({ event, context, status: context.reply.statusCode });
    };
    diagnostics.subscribe(name, listener);
    t.after(() => diagnostics.unsubscribe(name, listener));
  }
  return seen;
}

const order = (seen: Seen[]) => seen.map((each) => each.event);

test('a synchronous handler is traced start then end, with one context carrying request, reply and route', async (t) => {
  const app = enclave();
  const seen = record(t, app);
  let handlerRequest: unknown;
  app.get('/books/:id', (request) => {
    handlerRequest = request;
    return { ok: true };
  });
  const res = await app.inject('/books/7');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(order(seen), ['start', 'end']);
  const [start, end] = seen as [Seen, Seen];
  assert.equal(start.context, end.context);
  assert.equal(start.context.request, handlerRequest);
  assert.equal(start.context.reply.request, handlerRequest);
  assert.deepEqual(start.context.route, { url: '/books/:id', method: 'GET' });
  assert.equal(start.context.async, false);
  assert.equal('error' in start.context, false);
});

test('an async handler adds asyncStart and asyncEnd around its answer', async (t) => {
  const app = enclave();
  const seen = record(t, app);
  app.post('/', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return 'done';
  });
  const res = await app.inject({ method: 'POST', url: '/' });
  assert.equal(res.body, 'done');
  assert.deepEqual(order(seen), ['start', 'end', 'asyncStart', 'asyncEnd']);
  assert.ok(seen.every((each) => each.context === seen[0]?.context));
  assert.equal(seen[0]?.context.async, true);
});

test('the handler runs inside the stores bound to the start channel', async (t) => {
  const app = enclave();
  const storage = new AsyncLocalStorage<{ traced: unknown }>();
  const start = diagnostics.channel('tracing:fastify.request.handler:start');
  start.bindStore(storage, (context) => ({ traced: context }));
  t.after(() => start.unbindStore(storage));
  const seen = record(t, app);
  let inHandler: unknown;
  app.get('/', async () => {
    await Promise.resolve();
    inHandler = storage.getStore()?.traced;
    return 'ok';
  });
  await app.inject('/');
  assert.ok(inHandler !== undefined);
  assert.equal(inHandler, seen[0]?.context);
});

for (const [name, make, expected] of [
  ['its own statusCode', () => Object.assign(new Error('busy'), { statusCode: 503 }), 503],
  ['its own status', () => Object.assign(new Error('teapot'), { status: 418 }), 418],
  ['no status', () => new Error('plain'), 500],
  ['an invalid statusCode', () => Object.assign(new Error('too big'), { statusCode: 600 }), 500],
] as const) {
  for (const style of ['throws', 'rejects'] as const) {
    test(`a handler that ${style} an error with ${name} is traced with the status it is answered with (${expected})`, async (t) => {
      const app = enclave();
      const seen = record(t, app);
      const error = make();
      app.get(
        '/',
        style === 'throws'
          ? () => {
              throw error;
            }
          : () => Promise.reject(error),
      );
      const res = await app.inject('/');
      assert.equal(res.statusCode, expected);
      assert.deepEqual(order(seen), style === 'throws' ? ['start', 'error', 'end'] : ['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
      const failure = seen.find((each) => each.event === 'error') as Seen;
      assert.equal(failure.context.error, error);
      assert.equal(failure.status, expected);
    });
  }
}

test('a custom error handler runs after the error event, and sees that status only when someone subscribes', async (t) => {
  const app = enclave();
  const statusSeenByHandler: number[] = [];
  app.setErrorHandler(async (error: Error, _request, reply) => {
    statusSeenByHandler.push(reply.statusCode);
    await new Promise((resolve) => setImmediate(resolve));
    return reply.code(502).send({ failed: error.message });
  });
  app.get('/', () => {
    throw new Error('nope');
  });
  // No subscriber yet: the status stays untouched until the default handler.
  assert.equal((await app.inject('/')).statusCode, 502);
  const seen = record(t, app);
  const res = await app.inject('/');
  assert.equal(res.statusCode, 502);
  assert.deepEqual(res.json(), { failed: 'nope' });
  // The async error handler continues the same trace.
  assert.deepEqual(order(seen), ['start', 'error', 'end', 'asyncStart', 'asyncEnd']);
  assert.equal(seen[1]?.status, 500);
  assert.deepEqual(statusSeenByHandler, [200, 500]);
  assert.equal(seen[0]?.context.async, true);
});

test('a preHandler hook failure is traced as the handler would be', async (t) => {
  const app = enclave();
  const seen = record(t, app);
  let handled = false;
  app.get('/', {
    preHandler: async () => {
      throw Object.assign(new Error('forbidden'), { statusCode: 403 });
    },
    handler: () => {
      handled = true;
      return 'secret';
    },
  });
  const res = await app.inject('/');
  assert.equal(res.statusCode, 403);
  assert.equal(handled, false);
  assert.deepEqual(order(seen), ['start', 'error', 'end']);
  assert.equal(seen[1]?.status, 403);
  assert.equal(seen[1]?.context.error.message, 'forbidden');
});

test('not-found handlers are not traced; callNotFound stays in the calling route trace', async (t) => {
  const app = enclave();
  const seen = record(t, app);
  app.get('/gone', (_request, reply) => {
    reply.callNotFound();
  });
  const missing = await app.inject('/nowhere');
  assert.equal(missing.statusCode, 404);
  assert.deepEqual(order(seen), []);
  const gone = await app.inject('/gone');
  assert.equal(gone.statusCode, 404);
  assert.deepEqual(order(seen), ['start', 'end']);
  assert.equal(seen[0]?.context.route.url, '/gone');
});

test('each application is published on fastify.initialization when created', (t) => {
  const published: unknown[] = [];
  const listener = (message: unknown) => published.push(message);
  diagnostics.subscribe('fastify.initialization', listener);
  t.after(() => diagnostics.unsubscribe('fastify.initialization', listener));
  const app = enclave();
  assert.equal(published.length, 1);
  assert.equal((published[0] as { fastify: unknown }).fastify, app);
});
