// Issue 20: prefixes joined and routes announced the way Fastify 5 does it, and the automatic
// HEAD route as a route of its own. The expected values are Fastify's answers to the same code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import rateLimit from '@fastify/rate-limit';
import enclave from 'enclavejs';
import fastify from 'fastify';

describe('prefix joining', () => {
  test("prefix '/' and route '/first' give /first", async () => {
    const app = enclave();
    app.register(
      async (child) => {
        child.get('/first', async () => 'first');
      },
      { prefix: '/' },
    );
    assert.equal((await app.inject('/first')).body, 'first');
    assert.equal((await app.inject('//first')).statusCode, 404);
  });

  test("prefix '/prefix' and route '*' give /prefix*", async () => {
    const app = enclave();
    app.register(
      async (child) => {
        child.get('*', async (request) => request.url);
      },
      { prefix: '/prefix' },
    );
    assert.equal((await app.inject('/prefixed')).body, '/prefixed');
    assert.equal((await app.inject('/prefix/inner')).body, '/prefix/inner');
  });

  test('a prefix keeps its trailing slash; a route path with a slash does not double it', async () => {
    const app = enclave();
    let seenPrefix = '';
    app.register(
      async (child) => {
        seenPrefix = child.prefix;
        child.get('/x', async () => 'x');
        child.register(
          async (inner) => {
            inner.get('/y', async () => 'y');
          },
          { prefix: 'inner' },
        );
      },
      { prefix: '/v1/' },
    );
    assert.equal((await app.inject('/v1/x')).body, 'x');
    assert.equal((await app.inject('/v1/inner/y')).body, 'y');
    assert.equal(seenPrefix, '/v1/');
  });

  test("a '/' route under a prefix is announced at the prefix, and its options then describe prefix + '/'", async () => {
    const app = enclave();
    const announced: string[] = [];
    const kept: Array<Record<string, any>> = [];
    app.addHook('onRoute', (routeOptions) => {
      announced.push(`${routeOptions.method} ${routeOptions.url} ${JSON.stringify(routeOptions.routePath)}`);
      kept.push(routeOptions);
    });
    app.register(
      async (child) => {
        child.get('/', async () => 'list');
      },
      { prefix: '/users' },
    );
    await app.ready();
    assert.deepEqual(announced, ['GET /users ""', 'HEAD /users ""', 'HEAD /users/ "/"']);
    assert.deepEqual(
      kept.map((options) => `${options.method} ${options.url}`),
      ['GET /users/', 'HEAD /users', 'HEAD /users/'],
    );
    assert.equal((await app.inject('/users')).body, 'list');
    assert.equal((await app.inject('/users/')).body, 'list');
  });
});

describe('the automatic HEAD route', () => {
  test('onRoute receives fresh options for it, not the GET route object', async () => {
    const app = enclave();
    const seen: Array<Record<string, any>> = [];
    app.addHook('onRoute', (routeOptions: any) => {
      seen.push(routeOptions);
      routeOptions.preHandler = [
        ...(routeOptions.preHandler ?? []),
        async (_request: any, reply: any) => {
          reply.header(`x-${routeOptions.method.toLowerCase()}`, 'hooked');
        },
      ];
    });
    app.get('/', async () => 'body');
    await app.ready();
    assert.equal(seen.length, 2);
    assert.notEqual(seen[0], seen[1]);
    const get = await app.inject('/');
    const head = await app.inject({ method: 'HEAD', url: '/' });
    assert.equal(get.headers['x-get'], 'hooked');
    assert.equal(get.headers['x-head'], undefined);
    assert.equal(head.headers['x-head'], 'hooked');
    assert.equal(head.headers['x-get'], undefined);
    assert.equal(head.headers['content-length'], '4');
  });

  test('per-route plugin state is its own: @fastify/rate-limit counts HEAD apart from GET', async () => {
    const app = enclave();
    await app.register(rateLimit, { global: false });
    app.get('/limited', { config: { rateLimit: { max: 2, timeWindow: 60_000 } } }, async () => 'ok');
    assert.equal((await app.inject('/limited')).statusCode, 200);
    assert.equal((await app.inject('/limited')).statusCode, 200);
    assert.equal((await app.inject({ method: 'HEAD', url: '/limited' })).statusCode, 200);
    assert.equal((await app.inject('/limited')).statusCode, 429);
    await app.close();
  });

  test('an empty answer to the automatic HEAD route announces Content-Length: 0', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => reply.send());
    const head = await app.inject({ method: 'HEAD', url: '/' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-length'], '0');
  });
});

describe('routeOptions of a route declared with a method array', () => {
  type Seen = Record<string, { method: unknown; configMethod: unknown; same: boolean }>;
  async function methodsSeen(factory: (options?: object) => any): Promise<Seen> {
    const app = factory();
    const seen: Seen = {};
    const handler = async (request: any) => {
      const { method, config } = request.routeOptions;
      seen[`${request.method} ${request.url}`] = { method, configMethod: config.method, same: method === config.method };
      return 'ok';
    };
    app.route({ method: ['GET', 'POST', 'delete'], url: '/many', handler });
    app.route({ method: ['GET'], url: '/one', handler });
    app.route({ method: 'get', url: '/plain', handler });
    for (const [method, url] of [
      ['GET', '/many'],
      ['DELETE', '/many'],
      ['HEAD', '/many'],
      ['GET', '/one'],
      ['GET', '/plain'],
      ['HEAD', '/plain'],
    ]) {
      await app.inject({ method, url });
    }
    return seen;
  }

  test('config.method is the declared array, the very routeOptions.method (issue 32; @fastify/http-proxy reads it)', async () => {
    const [expected, actual] = await Promise.all([methodsSeen(fastify as never), methodsSeen(enclave as never)]);
    assert.deepEqual(actual['GET /many'], { method: ['GET', 'POST', 'DELETE'], configMethod: ['GET', 'POST', 'DELETE'], same: true });
    assert.deepStrictEqual(actual, expected);
  });
});
