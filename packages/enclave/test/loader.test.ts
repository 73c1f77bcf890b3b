// The plugin loader (SPEC §3.1, §3.5, §3.6): plugin forms, options, prefixes, load order,
// after(), ready(), awaiting register() and the instance, failures and their propagation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import plugin from '@enclavejs/plugin';
import enclave from 'enclavejs';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('plugin forms', () => {
  test('async plugins and callback plugins both load', async () => {
    const app = enclave();
    const loaded: string[] = [];
    app.register(async function asyncPlugin() {
      await tick();
      loaded.push('async');
    });
    app.register(function callbackPlugin(_instance: any, _opts: any, done: (error?: Error) => void) {
      setTimeout(() => {
        loaded.push('callback');
        done();
      }, 5);
    });
    app.register(function syncPlugin(_instance: any, _opts: any) {
      loaded.push('sync');
    });
    await app.ready();
    assert.deepEqual(loaded, ['async', 'callback', 'sync']);
  });

  test('a callback plugin that passes an error to done fails ready()', async () => {
    const app = enclave();
    const failure = new Error('callback failure');
    app.register(function failing(_instance: any, _opts: any, done: (error?: Error) => void) {
      done(failure);
    });
    await assert.rejects(app.ready(), (error: any) => error === failure && error.plugin === 'failing');
    assert.equal(failure.message, 'callback failure');
  });

  test('an ES module namespace and a promise of one are accepted', async () => {
    const app = enclave();
    const namespace = await import('./fixtures/esm-plugin.mjs');
    app.register(namespace, { value: 'from namespace' });
    app.register(async (instance: any) => {
      instance.register(import('./fixtures/esm-plugin.mjs'), { value: 'from promise', prefix: '/nested' });
    });
    app.register(
      Promise.resolve({
        default: async function inlineDefault(instance: any) {
          instance.decorate('inline', true);
        },
      }) as any,
    );
    await app.ready();
    const first = await app.inject({ method: 'GET', url: '/esm' });
    assert.deepEqual(first.json(), { plugin: 'esmPlugin' });
    const second = await app.inject({ method: 'GET', url: '/nested/esm' });
    assert.deepEqual(second.json(), { plugin: 'esmPlugin' });
    assert.equal(app.hasDecorator('inline'), false);
    assert.equal(app.hasDecorator('fromEsm'), false, 'the module plugin is encapsulated');
  });

  test('a promise of a plain function is accepted', async () => {
    const app = enclave();
    let ran = false;
    app.register(
      Promise.resolve(async () => {
        ran = true;
      }) as any,
    );
    await app.ready();
    assert.equal(ran, true);
  });
});

describe('options', () => {
  test('an options object reaches the plugin; absent options read as an empty object', async () => {
    const app = enclave();
    const received: unknown[] = [];
    app.register(
      async (_instance: any, opts: any) => {
        received.push(opts);
      },
      { answer: 42 },
    );
    app.register(async (_instance: any, opts: any) => {
      received.push(opts);
    });
    await app.ready();
    assert.deepEqual(received, [{ answer: 42 }, {}]);
  });

  test("options may be a function of the plugin's own instance, called when the plugin loads", async () => {
    const app = enclave();
    let received: any;
    let calledWith: any;
    app.register(
      plugin(async (instance: any) => {
        instance.decorate('config', { port: 8080 });
      }),
    );
    app.register(
      async (_instance: any, opts: any) => {
        received = opts;
      },
      (parent: any) => {
        calledWith = parent;
        return { port: parent.config.port };
      },
    );
    await app.ready();
    // Fastify calls it with the instance the plugin will get: a child of the registering one.
    assert.notEqual(calledWith, app);
    assert.ok(Object.prototype.isPrototypeOf.call(app, calledWith));
    assert.deepEqual(received, { port: 8080 });
  });
});

describe('prefix', () => {
  test('opts.prefix prefixes the routes of the child; nested prefixes join', async () => {
    const app = enclave();
    const prefixes: Record<string, string> = {};
    app.register(
      async (v1: any) => {
        prefixes.v1 = v1.prefix;
        v1.get('/status', async () => 'v1 status');
        v1.register(
          async (users: any) => {
            prefixes.users = users.prefix;
            users.get('/', async () => 'users');
            users.get('/:id', async (request: any) => `user ${request.params.id}`);
          },
          { prefix: '/users' },
        );
        v1.register(async (noPrefix: any) => {
          prefixes.noPrefix = noPrefix.prefix;
          noPrefix.get('/plain', async () => 'plain');
        });
      },
      { prefix: '/v1' },
    );
    await app.ready();
    prefixes.root = app.prefix;
    assert.deepEqual(prefixes, { root: '', v1: '/v1', users: '/v1/users', noPrefix: '/v1' });
    assert.equal((await app.inject('/v1/status')).body, 'v1 status');
    assert.equal((await app.inject('/v1/users')).body, 'users');
    assert.equal((await app.inject('/v1/users/7')).body, 'user 7');
    assert.equal((await app.inject('/v1/plain')).body, 'plain');
    assert.equal((await app.inject('/status')).statusCode, 404);
  });

  test('a prefix without a leading slash gets one', async () => {
    const app = enclave();
    app.register(
      async (instance: any) => {
        instance.get('/x', async () => instance.prefix);
      },
      { prefix: 'api' },
    );
    assert.equal((await app.inject('/api/x')).body, '/api');
  });

  test('a wrapped plugin keeps its parent context and so its prefix', async () => {
    const app = enclave();
    app.register(
      async (api: any) => {
        api.register(
          plugin(async (wrapped: any) => {
            wrapped.get('/wrapped', async () => wrapped.prefix);
          }),
          { prefix: '/ignored' },
        );
      },
      { prefix: '/api' },
    );
    assert.equal((await app.inject('/api/wrapped')).body, '/api');
  });
});

describe('load order', () => {
  test('depth first, in registration order; registrations run after the body that made them', async () => {
    const app = enclave();
    const order: string[] = [];
    app.register(async function a(instance: any) {
      order.push('a start');
      instance.register(async function a1(inner: any) {
        order.push('a1');
        inner.register(async function a1x() {
          order.push('a1x');
        });
      });
      instance.register(async function a2() {
        order.push('a2');
      });
      await tick();
      order.push('a end');
    });
    app.register(function b(instance: any, _opts: any, done: () => void) {
      order.push('b');
      instance.register(async function b1() {
        order.push('b1');
      });
      done();
    });
    app.after(() => {
      order.push('after a, b');
    });
    app.register(async function c() {
      order.push('c');
    });
    order.push('sync end');
    await app.ready();
    assert.deepEqual(order, ['sync end', 'a start', 'a end', 'a1', 'a1x', 'a2', 'b', 'b1', 'after a, b', 'c']);
  });
});

describe('after()', () => {
  test('after(callback) runs once what was registered before it has loaded; this is the instance', async () => {
    const app = enclave();
    const order: string[] = [];
    let self: unknown;
    app.register(async (instance: any) => {
      order.push('first');
      instance.register(async () => {
        order.push('nested');
      });
    });
    app.after(function (this: unknown, error: Error | null) {
      self = this;
      assert.equal(error, null);
      order.push('after');
    });
    app.register(async () => {
      order.push('second');
    });
    await app.ready();
    assert.deepEqual(order, ['first', 'nested', 'after', 'second']);
    assert.equal(self, app);
  });

  test('after((err, done)) and after((err, instance, done)) finish through done', async () => {
    const app = enclave();
    const order: string[] = [];
    app.register(async () => {
      order.push('plugin');
    });
    // `as any`: the public type of after() declares `done` optional, so a callback that
    // requires it does not type-check (reported).
    app.after(((_error: Error | null, done: () => void) => {
      setTimeout(() => {
        order.push('two-argument after');
        done();
      }, 5);
    }) as any);
    app.after(((_error: Error | null, instance: any, done: () => void) => {
      order.push(`three-argument after (${instance === app})`);
      done();
    }) as any);
    await app.ready();
    assert.deepEqual(order, ['plugin', 'two-argument after', 'three-argument after (true)']);
  });

  test('after() without a callback returns a promise that loads what is queued', async () => {
    const app = enclave();
    app.register(
      plugin(async (instance: any) => {
        instance.decorate('db', 'connected');
      }),
    );
    const result = app.after();
    assert.equal(typeof (result as any).then, 'function');
    // It resolves with undefined, as Fastify's does (its type says Promise<undefined>); so does close().
    assert.equal(await result, undefined);
    assert.equal(app.getDecorator('db'), 'connected');
    assert.equal(await app.close(), undefined);
  });

  test('after receives a plugin error and may handle it, so loading continues', async () => {
    const app = enclave();
    const failure = new Error('broken plugin');
    const order: string[] = [];
    let received: unknown;
    app.register(async function broken() {
      throw failure;
    });
    app.register(async function skipped() {
      order.push('skipped ran');
    });
    app.after((error: Error | null) => {
      received = error;
      order.push('handled');
    });
    app.register(async function later() {
      order.push('later');
    });
    await app.ready();
    assert.equal(received, failure);
    assert.match(failure.message, /broken/);
    assert.deepEqual(order, ['handled', 'later'], 'plugins registered after a failure wait for an after that handles it');
  });

  test('an after that rethrows, or passes the error to done, keeps the failure', async () => {
    const app = enclave();
    const failure = new Error('kept');
    app.register(async function broken() {
      throw failure;
    });
    app.after((error: Error | null) => {
      throw error;
    });
    await assert.rejects(app.ready(), (error) => error === failure);
    const other = enclave();
    other.register(async function broken() {
      throw failure;
    });
    other.after(((error: Error | null, done: (error?: Error | null) => void) => done(error)) as any);
    await assert.rejects(other.ready(), (error) => error === failure);
  });

  test('an after callback that takes no error argument does not swallow one', async () => {
    const app = enclave();
    const failure = new Error('unhandled');
    app.register(async function broken() {
      throw failure;
    });
    app.after(async () => {});
    await assert.rejects(app.ready(), (error) => error === failure);
  });

  test("after inside a plugin handles the errors of that plugin's children", async () => {
    const app = enclave();
    let handled: unknown;
    app.register(async (instance: any) => {
      instance.register(async function inner() {
        throw new Error('inner failure');
      });
      instance.after((error: Error | null) => {
        handled = error;
      });
    });
    await app.ready();
    assert.match(String((handled as Error).message), /inner failure/);
  });
});

describe('ready()', () => {
  test('as a promise and as a callback; resolves once, plugins run once', async () => {
    const app = enclave();
    let runs = 0;
    app.register(async () => {
      runs++;
    });
    const first = app.ready();
    const second = app.ready();
    assert.equal(await first, app);
    assert.equal(await second, app);
    await new Promise<void>((resolve, reject) => {
      app.ready((error) => (error ? reject(error) : resolve()));
    });
    assert.equal(runs, 1);
  });

  test('rejects with the first plugin error, the very object thrown, naming the plugin', async () => {
    const app = enclave();
    const first = new Error('first failure');
    app.register(async function firstBroken() {
      throw first;
    });
    app.register(async function secondBroken() {
      throw new Error('second failure');
    });
    const outcomes: unknown[] = [];
    await app.ready().catch((error) => outcomes.push(error));
    await app.ready().catch((error) => outcomes.push(error));
    await new Promise<void>((resolve) =>
      app.ready((error) => {
        outcomes.push(error);
        resolve();
      }),
    );
    assert.deepEqual(
      outcomes.map((error) => error === first),
      [true, true, true],
    );
    // The message stays the plugin's own; the plugin's name is a property.
    assert.equal(first.message, 'first failure');
    assert.equal((first as any).plugin, 'firstBroken');
  });

  test('a nested failure names the innermost plugin', async () => {
    const app = enclave();
    app.register(async function outer(instance: any) {
      instance.register(async function innermost() {
        throw new TypeError('deep');
      });
    });
    await assert.rejects(app.ready(), (error: any) => {
      assert.equal(error.message, 'deep');
      assert.equal(error.plugin, 'innermost');
      assert.ok(error instanceof TypeError);
      return true;
    });
  });

  test('a failing plugin is logged once, by name, with its own error', async () => {
    const lines: any[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    const app = enclave({ logger: { stream } });
    const failure = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    app.register(async function outer(instance: any) {
      instance.register(async function database() {
        throw failure;
      });
    });
    await assert.rejects(app.ready(), (error) => error === failure);
    const logged = lines.filter((line) => line.level === 50);
    assert.equal(logged.length, 1, 'the innermost plugin only; its parents fail with the same error');
    assert.equal(logged[0].plugin, 'database');
    assert.equal(logged[0].msg, "plugin 'database' failed to load");
    assert.equal(logged[0].err.message, 'connect ECONNREFUSED 127.0.0.1:5432');
    assert.equal(failure.message, 'connect ECONNREFUSED 127.0.0.1:5432');
  });

  test('a failure stays until an after() callback handles it: awaiting register, after() and ready() all report it', async () => {
    const app = enclave();
    const failure = new Error('kaboom');
    const loaded: string[] = [];
    await assert.rejects(
      (async () => {
        await app.register(async () => {
          throw failure;
        });
      })(),
      (error) => error === failure,
    );
    app.register(async () => {
      loaded.push('skipped while the failure stands');
    });
    await assert.rejects(app.after(), (error) => error === failure);
    await assert.rejects(app.ready(), (error) => error === failure);
    assert.deepEqual(loaded, []);
  });

  test('an after() callback that takes the error clears it, and later plugins load', async () => {
    const app = enclave();
    const loaded: string[] = [];
    await assert.rejects(async () => {
      await app.register(async () => {
        throw new Error('handled below');
      });
    });
    app.after((error: Error | null) => {
      loaded.push(`after saw ${error?.message}`);
    });
    app.register(async () => {
      loaded.push('loaded');
    });
    await app.ready();
    assert.deepEqual(loaded, ['after saw handled below', 'loaded']);
  });

  test('a non-Error rejection becomes an error naming the plugin', async () => {
    const app = enclave();
    app.register(async function throwsString() {
      throw 'just a string';
    });
    await assert.rejects(app.ready(), (error: any) => error.plugin === 'throwsString' && /just a string/.test(error.message));
  });

  test('registering after ready is refused', async () => {
    const app = enclave();
    await app.ready();
    assert.throws(() => app.register(async () => {}), { code: 'FST_ERR_ROOT_PLG_BOOTED' });
  });
});

describe('awaiting register and the instance', () => {
  test('await app.register(p) loads p and what was queued before it, so decorators are usable next line', async () => {
    const app = enclave();
    const order: string[] = [];
    app.register(async () => {
      order.push('earlier');
    });
    const loaded = await app.register(
      plugin(async (instance: any) => {
        order.push('awaited');
        instance.decorate('db', { query: () => 'rows' });
      }),
    );
    // It resolves with the instance, as Fastify's run time does (Fastify's types say undefined).
    assert.equal(loaded, app);
    assert.deepEqual(order, ['earlier', 'awaited']);
    assert.equal(app.getDecorator<{ query(): string }>('db').query(), 'rows');
    app.register(async () => {
      order.push('later');
    });
    await app.ready();
    assert.deepEqual(order, ['earlier', 'awaited', 'later']);
  });

  test('await instance.register(x) inside a plugin loads x before the next line', async () => {
    const app = enclave();
    const order: string[] = [];
    app.register(async function outer(instance: any) {
      await instance.register(
        plugin(async (inner: any) => {
          order.push('inner');
          inner.decorate('fromInner', 1);
        }),
      );
      order.push(`outer sees fromInner: ${instance.hasDecorator('fromInner')}`);
      instance.register(async () => {
        order.push('queued after');
      });
    });
    await app.ready();
    assert.deepEqual(order, ['inner', 'outer sees fromInner: true', 'queued after']);
    assert.equal(app.hasDecorator('fromInner'), false);
  });

  test('register() chains, and awaiting it loads nested wrapped plugins too', async () => {
    const app = enclave();
    const order: string[] = [];
    const inner = plugin(
      async (instance: any) => {
        instance.decorate('innerThing', 'inner');
      },
      { name: 'inner' },
    );
    const outer = plugin(
      async (instance: any) => {
        instance.register(inner);
        order.push('outer');
      },
      { name: 'outer' },
    );
    await app
      .register(async () => {
        order.push('first');
      })
      .register(outer)
      .after(() => {
        order.push('after both');
      });
    assert.deepEqual(order, ['first', 'outer', 'after both']);
    assert.equal(app.getDecorator('innerThing'), 'inner');
    assert.equal(app.hasPlugin('inner'), true);
  });

  test('await app.register(bad) rejects with the plugin error', async () => {
    const app = enclave();
    const failure = new Error('nope');
    await assert.rejects(
      async () => {
        await app.register(async function bad() {
          throw failure;
        });
      },
      (error) => error === failure,
    );
  });

  test('the instance is awaitable and can be returned from an async function', async () => {
    const app = enclave();
    let loaded = false;
    app.register(async () => {
      loaded = true;
    });
    const awaited = await app;
    assert.equal(awaited, app);
    assert.equal(loaded, true);
    // Returning the instance from an async function resolves to the instance (it is not
    // followed forever). `Promise<any>`: the public type makes the instance PromiseLike<undefined>.
    async function build(): Promise<any> {
      const inner = enclave();
      inner.decorate('built', true);
      return inner;
    }
    const built = await build();
    assert.equal(built.built, true);
    await built.ready();
    assert.equal(await app.ready(), app);
  });
});

describe('plugin errors stop later plugins', () => {
  test('plugins registered after a failure are not loaded', async () => {
    const app = enclave();
    const loaded: string[] = [];
    app.register(async function broken() {
      throw new Error('stop');
    });
    app.register(async function never() {
      loaded.push('never');
    });
    await assert.rejects(app.ready(), /stop/);
    assert.deepEqual(loaded, []);
  });
});

describe('concurrent waits on the loader', () => {
  test('awaiting the app while ready() is loading a slow plugin waits for that plugin and its children', async () => {
    const app = enclave();
    const order: string[] = [];
    app.register(async function slow(instance: any) {
      order.push('slow start');
      instance.register(async function slowChild() {
        order.push('slow child');
      });
      await tick();
      order.push('slow end');
    });
    app.register(async function next() {
      order.push('next');
    });
    const ready = app.ready();
    await app;
    order.push('await app resolved');
    await ready;
    assert.deepEqual(order, ['slow start', 'slow end', 'slow child', 'next', 'await app resolved']);
  });

  test('ready() and after() waiting together both see the same plugin failure', async () => {
    const app = enclave();
    const failure = new Error('shared failure');
    app.register(async function slowBroken() {
      await tick();
      throw failure;
    });
    const outcomes = await Promise.allSettled([app.ready(), app.after(), app.ready()]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const outcome of outcomes) assert.equal((outcome as PromiseRejectedResult).reason, failure);
  });

  test('a plugin body that does not await its after() still loads its children once, in order', async () => {
    const app = enclave();
    const order: string[] = [];
    app.register(async (instance: any) => {
      instance.register(async function first() {
        await tick();
        order.push('first');
      });
      void instance.after();
      instance.register(async function second() {
        order.push('second');
      });
    });
    await app.ready();
    assert.deepEqual(order, ['first', 'second']);
  });
});

describe('options function failures', () => {
  test('an options function that throws fails ready() with its error, naming the plugin', async () => {
    const app = enclave();
    const failure = new Error('no config');
    app.register(
      async function needsConfig() {},
      () => {
        throw failure;
      },
    );
    await assert.rejects(app.ready(), (error: any) => error === failure && error.plugin === 'needsConfig');
    assert.equal(failure.message, 'no config');
  });

  test('whatever an options function returns is the options the plugin gets, as in Fastify', async () => {
    const app = enclave();
    const received: unknown[] = [];
    app.register(
      async (_instance: any, opts: unknown) => {
        received.push(opts);
      },
      (() => 'text') as any,
    );
    app.register(
      async (_instance: any, opts: unknown) => {
        received.push(opts);
      },
      (() => undefined) as any,
    );
    await app.ready();
    assert.deepEqual(received, ['text', undefined]);
  });

  test('a prefix property on an options function prefixes the routes', async () => {
    const app = enclave();
    const options = Object.assign(() => ({ greeting: 'hi' }), { prefix: '/v2' });
    app.register(async (instance: any, opts: any) => {
      instance.get('/hello', async () => opts.greeting);
    }, options as any);
    const response = await app.inject('/v2/hello');
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, 'hi');
  });
});
