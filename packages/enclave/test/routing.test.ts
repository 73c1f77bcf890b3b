// SPEC §4.1: route declaration forms, HEAD twins, prefixes and slashes, router options,
// constraints, introspection and the registration errors.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave, { errorCodes } from 'enclavejs';

describe('route() and its shorthands', () => {
  test('route() with method, url, handler, config, bodyLimit, attachValidation, schema and route hooks', async () => {
    const app = enclave();
    const seen: string[] = [];
    app.route({
      method: 'POST',
      url: '/items/:id',
      bodyLimit: 10,
      attachValidation: true,
      config: { flag: 'on' },
      schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } },
      onRequest: async () => {
        seen.push('onRequest');
      },
      preHandler: [
        async () => {
          seen.push('preHandler1');
        },
        async () => {
          seen.push('preHandler2');
        },
      ],
      handler: async (request) => ({
        id: request.params,
        config: request.routeOptions.config,
        bodyLimit: request.routeOptions.bodyLimit,
        url: request.routeOptions.url,
        method: request.routeOptions.method,
      }),
    });
    const response = await app.inject({ method: 'POST', url: '/items/42', payload: 'hi', headers: { 'content-type': 'text/plain' } });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      id: { id: 42 },
      config: { flag: 'on', url: '/items/:id', method: 'POST' },
      bodyLimit: 10,
      url: '/items/:id',
      method: 'POST',
    });
    assert.deepEqual(seen, ['onRequest', 'preHandler1', 'preHandler2']);
    const tooLarge = await app.inject({ method: 'POST', url: '/items/1', payload: 'x'.repeat(11), headers: { 'content-type': 'text/plain' } });
    assert.equal(tooLarge.statusCode, 413);
  });

  test('route-level validatorCompiler and serializerCompiler are used', async () => {
    const app = enclave();
    app.route({
      method: 'POST',
      url: '/',
      schema: { body: { type: 'object' }, response: { 200: { type: 'object' } } },
      validatorCompiler: () => (data: any) => data.ok === true,
      serializerCompiler: () => () => 'custom-serialized',
      handler: async () => ({ any: 'thing' }),
    });
    const good = await app.inject({ method: 'POST', url: '/', payload: { ok: true } });
    assert.equal(good.statusCode, 200);
    assert.equal(good.body, 'custom-serialized');
    const bad = await app.inject({ method: 'POST', url: '/', payload: { ok: false } });
    assert.equal(bad.statusCode, 400);
  });

  test('shorthands: (path, handler), (path, options, handler), (path, options-with-handler)', async () => {
    const app = enclave();
    app.get('/one', async () => 'one');
    app.get('/two', { config: { name: 'two' } }, async (request) => request.routeOptions.config.name);
    app.get('/three', { config: { name: 'three' }, handler: async (request) => request.routeOptions.config.name });
    for (const name of ['one', 'two', 'three']) {
      const response = await app.inject(`/${name}`);
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, name);
    }
  });

  test('every shorthand method answers its own method, and all() answers each', async () => {
    const app = enclave();
    for (const method of ['get', 'head', 'post', 'put', 'delete', 'options', 'patch'] as const) {
      app[method](`/m/${method}`, async (request, reply) => {
        reply.header('x-method', request.method);
        return request.method === 'HEAD' ? undefined : request.method;
      });
    }
    app.all('/any', async (request) => request.method);
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const response = await app.inject({ method: method as any, url: `/m/${method.toLowerCase()}` });
      assert.equal(response.statusCode, 200, method);
      assert.equal(response.body, method);
      const other = await app.inject({ method: method === 'PUT' ? 'PATCH' : 'PUT', url: `/m/${method.toLowerCase()}` });
      assert.equal(other.statusCode, 404);
      const any = await app.inject({ method: method as any, url: '/any' });
      assert.equal(any.body, method);
    }
    const head = await app.inject({ method: 'HEAD', url: '/m/head' });
    assert.equal(head.headers['x-method'], 'HEAD');
  });

  test('a method array registers each method', async () => {
    const app = enclave();
    app.route({ method: ['GET', 'post'], url: '/both', handler: async (request) => request.method });
    assert.equal((await app.inject({ method: 'GET', url: '/both' })).body, 'GET');
    assert.equal((await app.inject({ method: 'POST', url: '/both' })).body, 'POST');
    assert.equal((await app.inject({ method: 'PUT', url: '/both' })).statusCode, 404);
  });
});

describe('HEAD routes', () => {
  test('a GET route answers HEAD with the headers and no body', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => {
      reply.header('x-custom', 'yes');
      return { hello: 'world' };
    });
    const get = await app.inject('/');
    const head = await app.inject({ method: 'HEAD', url: '/' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['x-custom'], 'yes');
    assert.equal(head.headers['content-type'], get.headers['content-type']);
    assert.equal(head.headers['content-length'], get.headers['content-length']);
  });

  test('exposeHeadRoutes: false and exposeHeadRoute: false turn the twin off; an explicit HEAD route wins', async () => {
    const off = enclave({ exposeHeadRoutes: false });
    off.get('/', async () => 'x');
    assert.equal((await off.inject({ method: 'HEAD', url: '/' })).statusCode, 404);

    const perRoute = enclave();
    perRoute.get('/a', { exposeHeadRoute: false }, async () => 'x');
    perRoute.get('/b', async () => 'x');
    assert.equal((await perRoute.inject({ method: 'HEAD', url: '/a' })).statusCode, 404);
    assert.equal((await perRoute.inject({ method: 'HEAD', url: '/b' })).statusCode, 200);

    const explicit = enclave();
    explicit.head('/', async (_request, reply) => {
      reply.header('x-from', 'head');
    });
    explicit.get('/', async () => 'x');
    const response = await explicit.inject({ method: 'HEAD', url: '/' });
    assert.equal(response.headers['x-from'], 'head');
  });

  test('the HEAD twin is added right after its GET route (printRoutes order); an explicit HEAD must come first', async () => {
    const app = enclave();
    app.get('/page', async () => 'x');
    app.put('/page', async () => 'x');
    assert.ok(app.hasRoute({ method: 'HEAD', url: '/page' }));
    // As in Fastify: the twin takes the path at once, so a HEAD route declared after it is a duplicate...
    app.get('/later', async () => 'x');
    assert.throws(() => app.head('/later', async () => {}), { code: 'FST_ERR_DUPLICATED_ROUTE' });
    // ...and one declared before its GET route wins over the twin.
    app.head('/earlier', async (_request, reply) => {
      reply.header('x-from', 'explicit');
    });
    app.get('/earlier', async () => 'x');
    await app.ready();
    assert.equal(app.printRoutes({ commonPrefix: false }), '├── /page (GET, HEAD, PUT)\n├── /later (GET, HEAD)\n└── /earlier (HEAD, GET)\n');
    assert.equal((await app.inject({ method: 'HEAD', url: '/earlier' })).headers['x-from'], 'explicit');
  });
});

describe('prefixes and slashes', () => {
  test("prefixTrailingSlash: 'both' (default), 'slash', 'no-slash'", async () => {
    const app = enclave();
    app.register(
      async (child) => {
        child.get('/', async () => 'both');
      },
      { prefix: '/both' },
    );
    app.register(
      async (child) => {
        child.get('/', { prefixTrailingSlash: 'slash' }, async () => 'slash');
      },
      { prefix: '/slash' },
    );
    app.register(
      async (child) => {
        child.get('/', { prefixTrailingSlash: 'no-slash' }, async () => 'no-slash');
      },
      { prefix: '/noslash' },
    );
    const status = async (url: string) => (await app.inject(url)).statusCode;
    assert.equal(await status('/both'), 200);
    assert.equal(await status('/both/'), 200);
    assert.equal(await status('/slash/'), 200);
    assert.equal(await status('/slash'), 404);
    assert.equal(await status('/noslash'), 200);
    assert.equal(await status('/noslash/'), 404);
  });

  test('nested prefixes join, and routes get the joined url', async () => {
    const app = enclave();
    app.register(
      async (v1) => {
        v1.register(
          async (users) => {
            users.get('/:id', async (request) => ({ url: request.routeOptions.url, params: request.params }));
          },
          { prefix: 'users' },
        );
      },
      { prefix: '/v1/' },
    );
    const response = await app.inject('/v1/users/7');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { url: '/v1/users/:id', params: { id: '7' } });
  });

  test('ignoreTrailingSlash, ignoreDuplicateSlashes and caseSensitive', async () => {
    const strict = enclave();
    strict.get('/Path/to', async () => 'ok');
    assert.equal((await strict.inject('/Path/to/')).statusCode, 404);
    assert.equal((await strict.inject('/Path//to')).statusCode, 404);
    assert.equal((await strict.inject('/path/to')).statusCode, 404);

    const lenient = enclave({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: false });
    lenient.get('/Path/to', async () => 'ok');
    lenient.register(
      async (child) => {
        child.get('/', async () => 'prefixed');
      },
      { prefix: '/pre' },
    );
    assert.equal((await lenient.inject('/Path/to/')).statusCode, 200);
    assert.equal((await lenient.inject('/Path//to')).statusCode, 200);
    assert.equal((await lenient.inject('/path/TO')).statusCode, 200);
    assert.equal((await lenient.inject('/pre')).body, 'prefixed');
    assert.equal((await lenient.inject('/pre/')).body, 'prefixed');
  });
});

describe('constraints', () => {
  test('version via Accept-Version', async () => {
    const app = enclave();
    app.get('/', { constraints: { version: '1.2.0' } }, async () => 'v1');
    app.get('/', { constraints: { version: '2.0.0' } }, async () => 'v2');
    assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '1.x' } })).body, 'v1');
    assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '2.0.0' } })).body, 'v2');
    assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '3.x' } })).statusCode, 404);
  });

  test('host', async () => {
    const app = enclave();
    app.get('/', { constraints: { host: 'a.example' } }, async () => 'a');
    app.get('/', { constraints: { host: /^b\./ } }, async () => 'b');
    app.get('/', async () => 'any');
    assert.equal((await app.inject({ url: '/', headers: { host: 'a.example' } })).body, 'a');
    assert.equal((await app.inject({ url: '/', headers: { host: 'b.example' } })).body, 'b');
    assert.equal((await app.inject({ url: '/', headers: { host: 'c.example' } })).body, 'any');
  });

  test('a custom constraint strategy from the factory options', async () => {
    const app = enclave({
      constraints: {
        tenant: {
          name: 'tenant',
          storage() {
            const map = new Map<string, unknown>();
            return {
              get: (k: string) => map.get(k) ?? null,
              set: (k: string, v: unknown) => {
                map.set(k, v);
              },
            };
          },
          deriveConstraint: (req: any) => req.headers['x-tenant'],
          mustMatchWhenDerived: true,
        },
      },
    });
    app.get('/', { constraints: { tenant: 'acme' } }, async () => 'acme');
    assert.equal((await app.inject({ url: '/', headers: { 'x-tenant': 'acme' } })).body, 'acme');
    assert.equal((await app.inject({ url: '/', headers: { 'x-tenant': 'other' } })).statusCode, 404);
  });
});

describe('introspection', () => {
  test('hasRoute and findRoute, with constraints', async () => {
    const app = enclave();
    app.get('/users/:id', { config: { tag: 'user' } }, async () => 'x');
    app.get('/v', { constraints: { version: '1.0.0' } }, async () => 'x');
    assert.equal(app.hasRoute({ method: 'GET', url: '/users/:id' }), true);
    assert.equal(app.hasRoute({ method: 'get', url: '/users/:id' }), true);
    assert.equal(app.hasRoute({ method: 'POST', url: '/users/:id' }), false);
    assert.equal(app.hasRoute({ method: 'GET', url: '/v', constraints: { version: '1.0.0' } }), true);
    assert.equal(app.hasRoute({ method: 'GET', url: '/v', constraints: { version: '2.0.0' } }), false);
    const found = app.findRoute({ method: 'GET', url: '/users/:id' });
    assert.ok(found !== null);
    assert.deepEqual(found.params, { id: ':id' });
    assert.equal(app.findRoute({ method: 'DELETE', url: '/users/:id' }), null);
  });

  test('findRoute matches the URL as a request would, in any method case, and leaks nothing', async () => {
    const app = enclave();
    const handler = async () => 'x';
    app.get('/shelves/:shelf/books/:book', handler);
    const found = app.findRoute({ method: 'get', url: '/shelves/7/books/42' });
    assert.ok(found !== null);
    assert.deepEqual(found.params, { shelf: '7', book: '42' });
    assert.equal(found.handler, handler);
    assert.equal('store' in found, false);
    // The answer is a copy: changing it changes nothing for the next caller.
    found.params.shelf = 'changed';
    assert.equal(app.findRoute({ method: 'GET', url: '/shelves/7/books/42' })?.params.shelf, '7');
  });

  test('printRoutes lists the routes', async () => {
    const app = enclave();
    app.get('/alpha', async () => 'x');
    app.post('/alpha/beta', async () => 'x');
    await app.ready();
    assert.equal(app.printRoutes(), '└── /\n    └── alpha (GET, HEAD)\n        └── /beta (POST)\n');
    assert.equal(app.printRoutes({ commonPrefix: false }), '└── /alpha (GET, HEAD)\n    └── /beta (POST)\n');
  });

  test("printRoutes includeMeta shows Fastify's keys (error handler, log level, hooks); includeHooks lists the hooks", async () => {
    const app = enclave();
    app.addHook('onRequest', async function checkAuth() {});
    app.get(
      '/a',
      {
        logLevel: 'warn',
        onSend: async function stamp(_request, _reply, payload) {
          return payload;
        },
      },
      async () => 'x',
    );
    await app.ready();
    assert.equal(
      app.printRoutes({ commonPrefix: false, includeMeta: true }),
      '└── /a (GET, HEAD)\n    • (errorHandler) "defaultErrorHandler()"\n    • (logLevel) "warn"\n    • (onRequest) ["checkAuth()"]\n    • (onSend) ["stamp()"]\n',
    );
    assert.equal(
      app.printRoutes({ commonPrefix: false, includeHooks: true, includeMeta: ['logLevel'] }),
      '└── /a (GET, HEAD)\n    • (onRequest) ["checkAuth()"]\n    • (onSend) ["stamp()"]\n    • (logLevel) "warn"\n',
    );
  });
});

describe('registration errors', () => {
  test('duplicate route → FST_ERR_DUPLICATED_ROUTE', () => {
    const app = enclave();
    app.get('/dup', async () => 'x');
    assert.throws(() => app.get('/dup', async () => 'y'), errorCodes.FST_ERR_DUPLICATED_ROUTE);
    assert.throws(() => app.get('/dup', async () => 'y'), { code: 'FST_ERR_DUPLICATED_ROUTE', message: "Method 'GET' already declared for route '/dup'" });
    // Fastify's message shows a declared method array as util.format shows an array.
    assert.throws(() => app.route({ method: ['POST', 'GET'], url: '/dup', handler: async () => 'y' }), {
      code: 'FST_ERR_DUPLICATED_ROUTE',
      message: "Method '[ 'POST', 'GET' ]' already declared for route '/dup'",
      hint: 'Change its method or path, or tell the two routes apart with constraints',
    });
  });

  test('a duplicate inside a plugin fails ready()', async () => {
    const app = enclave();
    app.register(async (child) => {
      child.get('/same', async () => 'x');
      child.get('/same', async () => 'y');
    });
    await assert.rejects(app.ready(), { code: 'FST_ERR_DUPLICATED_ROUTE' });
  });

  test('bad method, handler, url and options are refused with their codes', () => {
    const app = enclave();
    const handler = async () => 'x';
    assert.throws(() => app.route({ method: 'FETCH', url: '/', handler }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED' });
    assert.throws(() => app.route({ method: 42 as any, url: '/', handler }), { code: 'FST_ERR_ROUTE_METHOD_INVALID' });
    assert.throws(() => app.route({ method: [] as any, url: '/', handler }), { code: 'FST_ERR_ROUTE_METHOD_INVALID' });
    assert.throws(() => app.route({ method: 'GET', url: '/', handler: 'nope' as any }), { code: 'FST_ERR_ROUTE_HANDLER_NOT_FN' });
    assert.throws(() => app.route({ method: 'GET', url: '/' } as any), { code: 'FST_ERR_ROUTE_MISSING_HANDLER' });
    assert.throws(() => app.route({ method: 'GET', url: 42 as any, handler }), { code: 'FST_ERR_INVALID_URL' });
    assert.throws(() => app.get('/', { handler }, handler), { code: 'FST_ERR_ROUTE_DUPLICATED_HANDLER' });
    assert.throws(() => app.get('/', 'options' as any, handler), { code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ' });
    assert.throws(() => app.route({ method: 'GET', url: '/', bodyLimit: -1, handler }), { code: 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT' });
    assert.throws(() => app.route({ method: 'GET', url: '/b', schema: { body: { type: 'object' } }, handler }), {
      code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED',
    });
    assert.throws(() => app.route({ method: 'GET', url: '/', handler, preHandler: 'x' as any }), { code: 'FST_ERR_HOOK_INVALID_HANDLER' });
  });

  test('prototype-named methods are refused, prototype-named paths are plain paths', async () => {
    const app = enclave();
    assert.throws(() => app.route({ method: '__proto__', url: '/', handler: async () => 'x' }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED' });
    assert.throws(() => app.route({ method: 'constructor', url: '/', handler: async () => 'x' }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED' });
    app.get('/constructor', async () => 'c');
    app.get('/__proto__', async () => 'p');
    assert.equal((await app.inject('/constructor')).body, 'c');
    assert.equal((await app.inject('/__proto__')).body, 'p');
    assert.equal((await app.inject('/toString')).statusCode, 404);
  });

  test('routes after ready are refused', async () => {
    const app = enclave();
    await app.ready();
    assert.throws(() => app.get('/late', async () => 'x'));
  });
});

describe('onRoute', () => {
  test('sees every route with its options and may change them', async () => {
    const app = enclave();
    const seen: Array<{ method: unknown; url: unknown; routePath: unknown; prefix: unknown }> = [];
    app.addHook('onRoute', (options) => {
      seen.push({ method: options.method, url: options.url, routePath: options.routePath, prefix: options.prefix });
      options.config = { ...(options.config ?? {}), added: true };
      if (options.routePath === '/rewritten') {
        options.handler = async () => 'replaced';
      }
    });
    app.register(
      async (child) => {
        child.get('/rewritten', async () => 'original');
      },
      { prefix: '/p' },
    );
    await app.ready();
    // As in Fastify, the HEAD route derived from a GET route is announced too.
    assert.deepEqual(seen, [
      { method: 'GET', url: '/p/rewritten', routePath: '/rewritten', prefix: '/p' },
      { method: 'HEAD', url: '/p/rewritten', routePath: '/rewritten', prefix: '/p' },
    ]);
    const response = await app.inject('/p/rewritten');
    assert.equal(response.body, 'replaced');
  });

  test("an onRoute hook in a child does not see the parent's routes", async () => {
    const app = enclave();
    const seen: string[] = [];
    app.get('/root', async () => 'x');
    app.register(async (child) => {
      child.addHook('onRoute', (options) => {
        seen.push(options.url);
      });
      child.get('/child', async () => 'x');
    });
    app.register(async (sibling) => {
      sibling.get('/sibling', async () => 'x');
    });
    await app.ready();
    assert.deepEqual(seen, ['/child', '/child'], 'GET /child and its HEAD twin');
  });

  test('runs before the route hooks are checked: it may replace a declared null hook, as in Fastify', async () => {
    // @fastify/compress turns `onRequest: null` into its own hook array in its onRoute hook.
    const app = enclave();
    app.addHook('onRoute', (options) => {
      if (options.onRequest === null)
        options.onRequest = [
          async (_request: any, reply: any) => {
            reply.header('x-added', 'yes');
          },
        ];
    });
    app.get('/null-hook', { onRequest: null } as any, async () => 'x');
    const response = await app.inject('/null-hook');
    assert.equal(response.headers['x-added'], 'yes');
    const plain = enclave();
    assert.throws(() => plain.get('/null-hook', { onRequest: null } as any, async () => 'x'), { code: 'FST_ERR_HOOK_INVALID_HANDLER' });
  });

  test('runs with `this` the instance the route is declared on, not the one that added the hook', async () => {
    // @fastify/otel names its spans after `this.pluginName` in its root-level onRoute hook.
    const app = enclave();
    const seen: Array<[string, unknown]> = [];
    app.addHook('onRoute', function (this: any, options) {
      seen.push([options.url, this.hasDecorator('inChild')]);
    });
    app.get('/root', async () => 'x');
    app.register(async (child) => {
      child.decorate('inChild', true);
      child.get('/child', async () => 'x');
    });
    await app.ready();
    assert.deepEqual(seen, [
      ['/root', false],
      ['/root', false],
      ['/child', true],
      ['/child', true],
    ]);
  });
});
