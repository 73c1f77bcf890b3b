// Every loader and decorator error: the code users test for, Fastify's message, and an
// explanation (the message, or Enclave's hint beside it) naming the plugin or decorator involved
// (SPEC §3.3, §3.5, §3.7).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import plugin from '@enclavejs/plugin';
import enclave from 'enclavejs';
import fp from 'fastify-plugin';
import { assertCoded, explanation } from './coded-error-helpers.js';

describe('decorator errors', () => {
  test('FST_ERR_DEC_ALREADY_PRESENT names the decorator, also when an ancestor has it', async () => {
    const app = enclave();
    app.decorate('db', 1);
    assert.throws(
      () => app.decorate('db', 2),
      (error) => assertCoded(error, 'FST_ERR_DEC_ALREADY_PRESENT', /'db'/),
    );
    app.decorateRequest('user', null);
    assert.throws(
      () => app.decorateRequest('user', null),
      (error) => assertCoded(error, 'FST_ERR_DEC_ALREADY_PRESENT', /'user'/),
    );
    app.decorateReply('render', () => 'x');
    assert.throws(
      () => app.decorateReply('render', () => 'y'),
      (error) => assertCoded(error, 'FST_ERR_DEC_ALREADY_PRESENT', /'render'/),
    );
    let inChild: unknown;
    app.register(async (child: any) => {
      try {
        child.decorate('db', 3);
      } catch (error) {
        inChild = error;
      }
    });
    await app.ready();
    assertCoded(inChild, 'FST_ERR_DEC_ALREADY_PRESENT', /'db'/);
  });

  test('FST_ERR_DEC_MISSING_DEPENDENCY names the decorator and the missing dependency', () => {
    const app = enclave();
    assert.throws(
      () => app.decorate('guard', {}, ['db']),
      (error) => assertCoded(error, 'FST_ERR_DEC_MISSING_DEPENDENCY', /'guard'/, /'db'/),
    );
    assert.throws(
      () => app.decorateRequest('session', null, ['cookies']),
      (error) => assertCoded(error, 'FST_ERR_DEC_MISSING_DEPENDENCY', /'session'/, /'cookies'/),
    );
    assert.throws(
      () => app.decorateReply('view', null, ['engine']),
      (error) => assertCoded(error, 'FST_ERR_DEC_MISSING_DEPENDENCY', /'view'/, /'engine'/),
    );
    assert.equal(app.hasDecorator('guard'), false);
  });

  test('FST_ERR_DEC_REFERENCE_TYPE refuses object and array values for request and reply decorators', () => {
    const app = enclave();
    // One signature for both methods: TypeScript resolves no call on a union of overloaded methods.
    for (const method of ['decorateRequest', 'decorateReply'] as const) {
      const decorateObject: (name: string, value: unknown) => unknown = app[method].bind(app);
      assert.throws(
        () => decorateObject('settings', { a: 1 }),
        (error) => assertCoded(error, 'FST_ERR_DEC_REFERENCE_TYPE', /'settings'/, /object/),
      );
      assert.throws(
        () => decorateObject('list', []),
        (error) => assertCoded(error, 'FST_ERR_DEC_REFERENCE_TYPE', /'list'/, /array/),
      );
    }
    assert.equal(app.hasRequestDecorator('settings'), false);
    // An instance decorator may be an object: there is one instance.
    app.decorate('settings', { a: 1 });
  });

  test('FST_ERR_DEC_AFTER_START names the decorator', async () => {
    const app = enclave();
    await app.ready();
    assert.throws(
      () => app.decorate('late', 1),
      (error) => assertCoded(error, 'FST_ERR_DEC_AFTER_START', /'late'/),
    );
    assert.throws(
      () => app.decorateRequest('lateRequest', null),
      (error) => assertCoded(error, 'FST_ERR_DEC_AFTER_START', /'lateRequest'/),
    );
    assert.throws(
      () => app.decorateReply('lateReply', null),
      (error) => assertCoded(error, 'FST_ERR_DEC_AFTER_START', /'lateReply'/),
    );
  });

  test('FST_ERR_DEC_DEPENDENCY_INVALID_TYPE names the decorator', () => {
    const app = enclave();
    app.decorate('db', 1);
    assert.throws(
      () => app.decorate('guard', 1, 'db' as any),
      (error) => assertCoded(error, 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE', /'guard'/),
    );
    assert.throws(
      () => app.decorateRequest('user', null, { db: true } as any),
      (error) => assertCoded(error, 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE', /'user'/),
    );
  });

  test('FST_ERR_DEC_UNDECLARED from getDecorator names the decorator', async () => {
    const app = enclave();
    app.decorate('present', 42);
    assert.equal(app.getDecorator('present'), 42);
    assert.throws(
      () => app.getDecorator('absent'),
      (error) => assertCoded(error, 'FST_ERR_DEC_UNDECLARED', /'absent'/),
    );
  });
});

describe('plugin loading errors', () => {
  test('FST_ERR_PLUGIN_TIMEOUT names the plugin that never finished', async () => {
    const app = enclave({ pluginTimeout: 50 });
    app.register(function neverDone(_instance: any, _opts: any, _done: () => void) {
      // never calls done
    });
    await assert.rejects(app.ready(), (error) => assertCoded(error, 'FST_ERR_PLUGIN_TIMEOUT', /neverDone/, /50/));
  });

  test('FST_ERR_PLUGIN_TIMEOUT also for a promise that never settles', async () => {
    const app = enclave({ pluginTimeout: 50 });
    app.register(function hangs() {
      return new Promise(() => {});
    });
    await assert.rejects(app.ready(), (error) => assertCoded(error, 'FST_ERR_PLUGIN_TIMEOUT', /hangs/));
  });

  test('FST_ERR_PLUGIN_NOT_VALID for a non-function, at register time', () => {
    const app = enclave();
    for (const bad of [42, 'plugin', null, undefined, {}, { default: 'x' }]) {
      assert.throws(
        () => app.register(bad as any),
        (error) => assertCoded(error, 'FST_ERR_PLUGIN_NOT_VALID', /plugin/i, /"root"/),
      );
    }
  });

  test('FST_ERR_PLUGIN_NOT_VALID for a promise resolving to a non-function', async () => {
    const app = enclave();
    app.register(Promise.resolve({ default: 42 }) as any);
    await assert.rejects(app.ready(), (error) => assertCoded(error, 'FST_ERR_PLUGIN_NOT_VALID', /number/));
    const other = enclave();
    other.register(Promise.resolve('nope') as any);
    await assert.rejects(other.ready(), (error) => assertCoded(error, 'FST_ERR_PLUGIN_NOT_VALID', /nope/));
  });

  test('a plugin promise that rejects before ready() fails ready() with its error, without crashing', async () => {
    const app = enclave();
    app.register(import('./fixtures/does-not-exist.mjs' as string));
    await new Promise((resolve) => setTimeout(resolve, 30));
    await assert.rejects(app.ready(), { code: 'ERR_MODULE_NOT_FOUND' });
  });

  test('FST_ERR_PLUGIN_CALLBACK_NOT_FN for after() with something other than a function', () => {
    const app = enclave();
    assert.throws(
      () => app.after('later' as any),
      (error) => assertCoded(error, 'FST_ERR_PLUGIN_CALLBACK_NOT_FN', /after\(\)/, /later/),
    );
  });

  test('FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER names the async plugin that takes done', async () => {
    const app = enclave();
    app.register(async function mixedStyles(_instance: any, _opts: any, _done: () => void) {});
    await assert.rejects(app.ready(), (error) => assertCoded(error, 'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER', /mixedStyles/));
  });

  test('FST_ERR_ROOT_PLG_BOOTED when registering after ready', async () => {
    const app = enclave();
    await app.ready();
    assert.throws(
      () => app.register(async function late() {}),
      (error) => assertCoded(error, 'FST_ERR_ROOT_PLG_BOOTED', /'late'/, /ready/),
    );
  });

  test('FST_ERR_PARENT_PLUGIN_BOOTED when registering on a child whose plugin has already loaded', async () => {
    const app = enclave();
    let captured: any;
    await app.register(async function owner(instance: any) {
      captured = instance;
    });
    assert.throws(
      () => captured.register(async function tooLate() {}),
      (error) => assertCoded(error, 'FST_ERR_PARENT_PLUGIN_BOOTED', /'tooLate'/, /'owner'/),
    );
    app.register(async function stillFine() {});
    await app.ready();
  });

  test('FST_ERR_INSTANCE_ALREADY_LISTENING for route and addHook after ready', async () => {
    const app = enclave();
    await app.ready();
    assert.throws(
      () => app.get('/late', async () => 'x'),
      (error) => assertCoded(error, 'FST_ERR_INSTANCE_ALREADY_LISTENING', /route|get/i),
    );
    assert.throws(
      () => app.route({ method: 'GET', url: '/late2', handler: async () => 'x' }),
      (error) => assertCoded(error, 'FST_ERR_INSTANCE_ALREADY_LISTENING', /route/),
    );
    assert.throws(
      () => app.addHook('onRequest', async () => {}),
      (error) => assertCoded(error, 'FST_ERR_INSTANCE_ALREADY_LISTENING', /addHook/),
    );
  });

  test('FST_ERR_OPTIONS_NOT_OBJ for plugin options that are not an object or function', () => {
    const app = enclave();
    assert.throws(
      () => app.register(async function greeter() {}, 'options' as any),
      (error) => assertCoded(error, 'FST_ERR_OPTIONS_NOT_OBJ', /string/, /'greeter'/),
    );
    assert.throws(
      () => app.register(async function counter() {}, 7 as any),
      (error) => assertCoded(error, 'FST_ERR_OPTIONS_NOT_OBJ', /number/, /'counter'/),
    );
    assert.throws(
      () => enclave('bad' as any),
      (error) => assertCoded(error, 'FST_ERR_OPTIONS_NOT_OBJ', /string/),
    );
  });
});

describe('plugin metadata errors (both wrappers)', () => {
  for (const [label, wrap] of [
    ['@enclavejs/plugin', plugin],
    ['fastify-plugin', fp],
  ] as Array<[string, any]>) {
    test(`${label}: FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED names both plugins`, async () => {
      const app = enclave();
      app.register(wrap(async () => {}, { name: 'needs-db', dependencies: ['db-plugin'] }));
      await assert.rejects(app.ready(), (error) => assertCoded(error, 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', /needs-db/, /db-plugin/));
    });

    test(`${label}: a dependency registered before is accepted`, async () => {
      const app = enclave();
      app.register(wrap(async () => {}, { name: 'db-plugin' }));
      app.register(wrap(async () => {}, { name: 'needs-db', dependencies: ['db-plugin'] }));
      await app.ready();
      assert.equal(app.hasPlugin('needs-db'), true);
    });

    test(`${label}: FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE names the plugin and the decorator`, async () => {
      for (const kind of ['fastify', 'request', 'reply'] as const) {
        const app = enclave();
        app.register(wrap(async () => {}, { name: `needs-${kind}`, decorators: { [kind]: ['missingThing'] } }));
        await assert.rejects(app.ready(), (error) => assertCoded(error, 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', new RegExp(`needs-${kind}`), /missingThing/));
      }
    });

    test(`${label}: declared decorators that exist are accepted`, async () => {
      const app = enclave();
      app.decorate('db', {});
      app.decorateRequest('user', null);
      app.decorateReply('view', null, []);
      app.register(wrap(async () => {}, { name: 'needs-all', decorators: { fastify: ['db'], request: ['user'], reply: ['view'] } }));
      await app.ready();
    });
  }
});

describe('issue 2 item 7: errors say where an invisible piece lives', () => {
  test('a plugin dependency registered in a sibling context is located, and the wrapper suggested', async () => {
    const app = enclave();
    app.register(async function holder(instance: any) {
      instance.register(plugin(async () => {}, { name: 'db-plugin' }));
    });
    app.register(plugin(async () => {}, { name: 'needs-db', dependencies: ['db-plugin'] }));
    await assert.rejects(app.ready(), (error) =>
      assertCoded(error, 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', /needs-db/, /db-plugin/, /holder/, /@enclavejs\/plugin|wrap/),
    );
  });

  test('a required decorator that lives in a descendant context is located', async () => {
    const app = enclave();
    app.register(async function provider(instance: any) {
      instance.decorate('db', {});
      instance.decorateRequest('user', null);
    });
    app.register(plugin(async () => {}, { name: 'consumer', decorators: { fastify: ['db'] } }));
    await assert.rejects(app.ready(), (error) =>
      assertCoded(error, 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', /consumer/, /'db'/, /provider/, /@enclavejs\/plugin|wrap/),
    );
    const other = enclave();
    other.register(async function provider(instance: any) {
      instance.decorateRequest('user', null);
    });
    other.register(plugin(async () => {}, { name: 'consumer', decorators: { request: ['user'] } }));
    await assert.rejects(other.ready(), (error) => assertCoded(error, 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', /consumer/, /'user'/, /provider/));
  });

  test('a decorator dependency that lives in a sibling context is located', async () => {
    const app = enclave();
    let thrown: unknown;
    app.register(async function provider(instance: any) {
      instance.decorate('db', {});
    });
    app.register(async function consumer(instance: any) {
      try {
        instance.decorate('repo', {}, ['db']);
      } catch (error) {
        thrown = error;
      }
    });
    await app.ready();
    assertCoded(thrown, 'FST_ERR_DEC_MISSING_DEPENDENCY', /'repo'/, /'db'/, /provider/, /@enclavejs\/plugin|wrap/);
  });

  test('getDecorator of a decorator living in a child says where it lives', async () => {
    const app = enclave();
    app.register(async function provider(instance: any) {
      instance.decorate('db', {});
    });
    await app.ready();
    assert.throws(
      () => app.getDecorator('db'),
      (error) => assertCoded(error, 'FST_ERR_DEC_UNDECLARED', /'db'/, /provider/),
    );
  });

  test('nothing is suggested when the name exists nowhere', async () => {
    const app = enclave();
    app.register(plugin(async () => {}, { name: 'consumer', decorators: { fastify: ['nowhere'] } }));
    await assert.rejects(app.ready(), (error) => {
      assertCoded(error, 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', /consumer/, /nowhere/);
      assert.doesNotMatch(explanation(error), /wrap/);
      return true;
    });
  });
});
