// Introspection and plugin metadata (SPEC §3.3, §3.8): pluginName, prefix, version, hasPlugin,
// `encapsulate: true`, and printPlugins() drawing the context tree with what each context added.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import plugin from '@enclavejs/plugin';
import enclave from 'enclavejs';
import fp from 'fastify-plugin';

const require = createRequire(import.meta.url);

describe('pluginName', () => {
  test('the root is "fastify"; a plugin is named by its metadata, display name or function name', async () => {
    const app = enclave();
    const names: Record<string, string> = {};
    app.register(async function namedFunction(instance: any) {
      names.functionName = instance.pluginName;
    });
    const displayed = Object.assign(
      async (instance: any) => {
        names.displayName = instance.pluginName;
      },
      { [Symbol.for('fastify.display-name')]: 'shown-name' },
    );
    app.register(displayed);
    app.register(
      fp(
        async (instance: any) => {
          names.encapsulatedMeta = instance.pluginName;
        },
        { name: 'meta-name', encapsulate: true },
      ),
    );
    app.register(async (instance: any) => {
      names.anonymous = instance.pluginName;
    });
    await app.ready();
    assert.equal(app.pluginName, 'fastify');
    assert.equal(names.functionName, 'namedFunction');
    assert.equal(names.displayName, 'shown-name');
    assert.equal(names.encapsulatedMeta, 'meta-name');
    assert.match(names.anonymous as string, /instance/, 'an anonymous plugin is named by the start of its source');
  });

  test('wrapped plugins join the name chain of the context they load into, in boot order', async () => {
    for (const wrap of [plugin, fp] as any[]) {
      const app = enclave();
      let inner = '';
      app.register(
        wrap(
          async (a: any) => {
            a.register(
              wrap(
                async (b: any) => {
                  inner = b.pluginName;
                },
                { name: 'plugin-B' },
              ),
            );
          },
          { name: 'plugin-A' },
        ),
      );
      await app.ready();
      assert.equal(inner, 'fastify -> plugin-A -> plugin-B');
      assert.equal(app.pluginName, 'fastify -> plugin-A -> plugin-B');
    }
  });
});

describe('prefix and version', () => {
  test('prefix is "" at the root and the joined prefix in children', async () => {
    const app = enclave();
    const seen: string[] = [];
    app.register(
      async (a: any) => {
        seen.push(a.prefix);
        a.register(
          async (b: any) => {
            seen.push(b.prefix);
          },
          { prefix: '/b' },
        );
      },
      { prefix: '/a' },
    );
    await app.ready();
    assert.deepEqual([app.prefix, ...seen], ['', '/a', '/a/b']);
  });

  test('version is the package version, the same on every instance', async () => {
    const app = enclave();
    const { version } = require('enclavejs/package.json') as { version: string };
    let childVersion = '';
    app.register(async (child: any) => {
      childVersion = child.version;
    });
    await app.ready();
    assert.equal(app.version, version);
    assert.equal(childVersion, version);
  });
});

describe('hasPlugin', () => {
  test('true for a plugin registered with a metadata name, once it has loaded, from that context down', async () => {
    for (const wrap of [plugin, fp] as any[]) {
      const app = enclave();
      app.register(wrap(async () => {}, { name: 'my-plugin' }));
      assert.equal(app.hasPlugin('my-plugin'), false, 'not before it loads');
      await app.after();
      assert.equal(app.hasPlugin('my-plugin'), true);
      assert.equal(app.hasPlugin('other-plugin'), false);
      let fromChild = false;
      app.register(async (child: any) => {
        fromChild = child.hasPlugin('my-plugin');
      });
      await app.ready();
      assert.equal(fromChild, true);
    }
  });

  test('an encapsulated plugin knows its own name; its parent and siblings do not see names registered inside it', async () => {
    const app = enclave();
    const seen: Record<string, boolean> = {};
    app.register(async function outer(instance: any) {
      seen.ownName = instance.hasPlugin('outer');
      instance.register(plugin(async () => {}, { name: 'inner-plugin' }));
      await instance.after();
      seen.innerInOuter = instance.hasPlugin('inner-plugin');
    });
    app.register(async function sibling(instance: any) {
      seen.innerInSibling = instance.hasPlugin('inner-plugin');
    });
    await app.ready();
    assert.deepEqual(seen, { ownName: true, innerInOuter: true, innerInSibling: false });
    assert.equal(app.hasPlugin('inner-plugin'), false);
    assert.equal(app.hasPlugin('outer'), false, 'only metadata names register in the parent, as Fastify documents');
  });

  test("a plain function's name is visible in its own context only; the root answers to 'fastify'", async () => {
    const app = enclave();
    const seen: Record<string, boolean> = {};
    app.register(function parentPlugin(instance: any, _opts: unknown, done: () => void) {
      seen.parentInParent = instance.hasPlugin('parentPlugin');
      instance.register(async function childPlugin(child: any) {
        seen.parentInChild = child.hasPlugin('parentPlugin');
        seen.childInChild = child.hasPlugin('childPlugin');
      });
      done();
    });
    await app.ready();
    assert.deepEqual(seen, { parentInParent: true, parentInChild: false, childInChild: true });
    assert.equal(app.hasPlugin('fastify'), true);
  });
});

describe("instance[Symbol.for('registered-plugin')]", () => {
  const kRegisteredPlugins = Symbol.for('registered-plugin');

  test('lists the metadata names registered in the context and above, as Fastify does', async () => {
    const app: any = enclave();
    let inChild: unknown;
    app.register(fp(async () => {}, { name: 'first' }));
    app.register(async function child(instance: any) {
      instance.register(plugin(async () => {}, { name: 'inner' }));
      await instance.after();
      inChild = instance[kRegisteredPlugins];
    });
    app.register(fp(async () => {}, { name: 'second' }));
    await app.ready();
    // @fastify/view's own test reads the list this way.
    assert.ok(app[kRegisteredPlugins].find((name: string) => name === 'second'));
    assert.deepEqual(app[kRegisteredPlugins], ['first', 'second'], 'a name registered inside a child stays there');
    assert.deepEqual(inChild, ['first', 'inner'], "a child sees its ancestors' names, then its own");
  });

  test('is a copy: changing it changes neither hasPlugin nor dependency checks', async () => {
    const app: any = enclave();
    app[kRegisteredPlugins].push('forged');
    assert.equal(app.hasPlugin('forged'), false);
    app.register(fp(async () => {}, { name: 'needs-forged', dependencies: ['forged'] }));
    await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED' });
  });
});

describe('encapsulate: true', () => {
  for (const [label, wrap] of [
    ['@enclavejs/plugin', plugin],
    ['fastify-plugin', fp],
  ] as Array<[string, any]>) {
    test(`${label}: keeps a context of its own while carrying metadata`, async () => {
      const app = enclave();
      app.register(
        wrap(
          async (instance: any) => {
            instance.decorate('kept', true);
          },
          { name: 'kept-inside', encapsulate: true },
        ),
      );
      app.register(wrap(async () => {}, { name: 'after-it', dependencies: ['kept-inside'] }));
      await app.ready();
      assert.equal(app.hasDecorator('kept'), false);
      assert.equal(app.hasPlugin('kept-inside'), true);
    });
  }
});

describe('printPlugins()', () => {
  test("shows the context tree with each context's own decorators, hooks and schemas", async () => {
    const app = enclave();
    app.decorate('config', {});
    app.addHook('onRequest', async () => {});
    app.addSchema({ $id: 'base', type: 'object' });
    app.register(
      async function api(instance: any) {
        instance.decorateRequest('user', null);
        instance.addHook('preHandler', async () => {});
        instance.register(
          plugin(
            async (wrapped: any) => {
              wrapped.decorateReply('view', null);
            },
            { name: 'views' },
          ),
        );
        instance.register(
          async function v2(inner: any) {
            inner.addSchema({ $id: 'v2-schema', type: 'string' });
            inner.addHook('onReady', async () => {});
          },
          { prefix: '/v2' },
        );
      },
      { prefix: '/api' },
    );
    app.register(async function other(instance: any) {
      instance.decorate('otherThing', 1);
    });
    await app.ready();
    const lines = app.printPlugins().trimEnd().split('\n');
    assert.equal(lines.length, 4, app.printPlugins());
    const [root, api, v2, other] = lines as [string, string, string, string];
    assert.match(root, /^root\b/);
    assert.match(root, /config/);
    assert.match(root, /onRequest/);
    assert.match(root, /base/);
    assert.match(api, /^├── api\b/);
    assert.match(api, /views/, 'a wrapped plugin is listed with the context it loaded into');
    assert.match(api, /\/api/);
    assert.match(api, /user/);
    assert.match(api, /view\b/);
    assert.match(api, /preHandler/);
    assert.doesNotMatch(api, /onRequest|config|base/, 'inherited things are shown where they were added only');
    assert.match(v2, /^│ {3}└── v2\b/, 'v2 is nested under api');
    assert.match(v2, /v2-schema/);
    assert.match(v2, /onReady/);
    assert.match(v2, /\/api\/v2/);
    assert.match(other, /^└── other\b/);
    assert.match(other, /otherThing/);
    assert.doesNotMatch(other, /user|preHandler/);
  });

  test('printPlugins on a child shows its subtree', async () => {
    const app = enclave();
    let subtree = '';
    app.register(async function parent(instance: any) {
      instance.register(async function kid(inner: any) {
        inner.decorate('kidThing', 1);
      });
      await instance.after();
      subtree = instance.printPlugins();
    });
    await app.ready();
    assert.match(subtree, /^parent/);
    assert.match(subtree, /kid \[decorators: kidThing\]/);
    assert.doesNotMatch(subtree, /root/);
  });
});

describe('onRegister', () => {
  test('runs for each new context with its instance and options, never for wrapped plugins', async () => {
    const app = enclave();
    const seen: Array<[string, unknown]> = [];
    app.addHook('onRegister', (instance: any, options: any) => {
      seen.push([instance.pluginName, options]);
    });
    app.register(
      async function encapsulated(instance: any) {
        instance.register(async function nested() {});
      },
      { flag: 1 },
    );
    app.register(plugin(async function wrapped() {}, { name: 'wrapped' }));
    await app.ready();
    assert.deepEqual(seen, [
      ['encapsulated', { flag: 1 }],
      ['nested', {}],
    ]);
  });
});

describe('printPlugins() hook counts', () => {
  test("a hook a parent adds after a child exists does not hide the child's own hooks", async () => {
    const app = enclave();
    app.addHook('onRequest', async () => {});
    await app.register(async function child(instance: any) {
      instance.addHook('onRequest', async () => {});
    });
    app.addHook('onRequest', async () => {});
    app.addHook('onRequest', async () => {});
    await app.ready();
    const [root, child] = app.printPlugins().trimEnd().split('\n') as [string, string];
    assert.match(root, /onRequest×3/);
    assert.match(child, /child \[hooks: onRequest\]/);
  });
});
