// SPEC §4.1, route constraints: a strategy whose deriveConstraint answers through a callback
// (routing waits for it; a failure is FST_ERR_ASYNC_CONSTRAINT, answered by frameworkErrors or a
// fixed 500), and the requested version in the request's log lines.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave, { errorCodes } from 'enclavejs';

/** A strategy keyed on `x-region`, derived later in the event loop; `fail` makes it report `failure`. */
function regionStrategy(fail: boolean, failure: unknown = new Error('lookup down')) {
  return {
    name: 'region',
    storage() {
      const stores = new Map<string, unknown>();
      return {
        get: (key: string) => stores.get(key) ?? null,
        set: (key: string, store: unknown) => {
          stores.set(key, store);
        },
      };
    },
    deriveConstraint(req: any, _ctx: unknown, done: (error: unknown, value?: string) => void) {
      setImmediate(() => (fail ? done(failure) : done(null, req.headers['x-region'])));
    },
    validate() {},
  };
}

function appWith(fail: boolean, extra: Record<string, unknown> = {}, failure?: unknown) {
  const app = enclave({ constraints: { region: regionStrategy(fail, failure) }, ...extra } as any);
  app.get('/where', { constraints: { region: 'eu' } }, async () => 'europe');
  app.get('/where', { constraints: { region: 'us' } }, async () => 'america');
  return app;
}

describe('async constraint strategies', () => {
  test('the derived value chooses the route; an unknown one is a 404', async () => {
    const app = appWith(false);
    assert.equal((await app.inject({ url: '/where', headers: { 'x-region': 'eu' } })).body, 'europe');
    assert.equal((await app.inject({ url: '/where', headers: { 'x-region': 'us' } })).body, 'america');
    assert.equal((await app.inject({ url: '/where', headers: { 'x-region': 'ap' } })).statusCode, 404);
  });

  test('a failing derivation is a 500 with the fixed body, whatever the URL', async () => {
    const app = appWith(true);
    for (const url of ['/where', '/elsewhere']) {
      const res = await app.inject({ url, headers: { 'x-region': 'eu' } });
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { error: 'Internal Server Error', message: 'Unexpected error from async constraint', statusCode: 500 });
    }
  });

  test('a falsy value passed as the error is a failure too', async () => {
    const app = appWith(true, {}, 0);
    assert.equal((await app.inject({ url: '/where', headers: { 'x-region': 'eu' } })).statusCode, 500);
  });

  test('frameworkErrors receives FST_ERR_ASYNC_CONSTRAINT with a request and reply', async () => {
    const seen: unknown[] = [];
    const app = appWith(true, {
      genReqId: () => 'req-7',
      frameworkErrors(error: any, request: any, reply: any) {
        seen.push(error instanceof errorCodes.FST_ERR_ASYNC_CONSTRAINT, request.id);
        reply.code(503).send(`${error.code}: ${error.message}`);
      },
    });
    const res = await app.inject({ url: '/where', headers: { 'x-region': 'eu' } });
    assert.equal(res.statusCode, 503);
    assert.equal(res.body, 'FST_ERR_ASYNC_CONSTRAINT: Unexpected error from async constraint');
    assert.deepEqual(seen, [true, 'req-7']);
  });
});

describe('versioned routes in the logs', () => {
  test('the serialized request carries the Accept-Version it asked for', async () => {
    const lines: any[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
        callback();
      },
    });
    const app = enclave({ logger: { level: 'info', stream } });
    app.get('/', { constraints: { version: '2.1.0' } }, async () => {
      throw new Error('broken');
    });
    assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '2.x' } })).statusCode, 500);
    await new Promise((resolve) => setImmediate(resolve));
    const withRequest = lines.filter((line) => line.req !== undefined);
    assert.deepEqual(
      withRequest.map((line) => [line.msg, line.req.version]),
      [
        ['incoming request', '2.x'],
        ['broken', '2.x'],
      ],
    );
  });
});
