import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import plugin from '../src/index.ts';

const skipOverride = Symbol.for('skip-override');
const displayName = Symbol.for('fastify.display-name');
const pluginMeta = Symbol.for('plugin-meta');

type Marked = Record<PropertyKey, unknown>;
const read = (fn: unknown): Marked => fn as Marked;

describe('plugin() marks the function with the three global symbols', () => {
  test('returns the same function, marked to skip the child context', () => {
    const database = async (_app: unknown, _opts: unknown) => {};
    const meta = { name: 'database', dependencies: ['config'] };
    const marked = plugin(database, meta);
    assert.equal(marked, database);
    assert.equal(read(marked)[skipOverride], true);
    assert.equal(read(marked)[displayName], 'database');
    assert.equal(read(marked)[pluginMeta], meta, 'a named metadata object is stored as given');
  });

  test('the symbols are the global-registry ones, readable without importing this package', () => {
    const marked = plugin(async function registryCheck() {}, { name: 'registry-check' });
    const ownSymbols = Object.getOwnPropertySymbols(marked).map((symbol) => Symbol.keyFor(symbol));
    assert.deepEqual(ownSymbols.sort(), ['fastify.display-name', 'plugin-meta', 'skip-override']);
  });

  test('encapsulate: true keeps the child context but keeps the name and metadata', () => {
    const meta = { name: 'isolated', encapsulate: true };
    const marked = plugin(async () => {}, meta);
    assert.equal(read(marked)[skipOverride], false);
    assert.equal(read(marked)[displayName], 'isolated');
    assert.equal(read(marked)[pluginMeta], meta);
  });

  test('encapsulate: false (or any non-true value) still skips the child context', () => {
    assert.equal(read(plugin(async () => {}, { encapsulate: false }))[skipOverride], true);
  });

  test('callback-style plugins are accepted unchanged', () => {
    const callbackStyle = (_app: unknown, _opts: unknown, done: () => void) => done();
    assert.equal(plugin(callbackStyle, { name: 'callback-style' }), callbackStyle);
  });
});

describe('names', () => {
  test('an explicit name is the display name, verbatim', () => {
    assert.equal(read(plugin(async function ignored() {}, { name: 'chosen' }))[displayName], 'chosen');
  });

  test('without a name, the function name plus an -auto-<n> suffix, also stored in the metadata', () => {
    const meta = { dependencies: ['a'] };
    const marked = read(plugin(async function sessions() {}, meta));
    assert.match(String(marked[displayName]), /^sessions-auto-\d+$/);
    const stored = marked[pluginMeta] as { name: string; dependencies: string[] };
    assert.equal(stored.name, marked[displayName]);
    assert.deepEqual(stored.dependencies, ['a']);
    assert.equal('name' in meta, false, "the caller's metadata object is not mutated");
  });

  test('each automatic name is distinct, so none can satisfy a dependency by accident', () => {
    const first = read(plugin(async function twin() {}))[displayName];
    const second = read(plugin(async function twin() {}))[displayName];
    assert.notEqual(first, second);
  });

  test('an anonymous function is named after the file that wrapped it', () => {
    const marked = read(plugin(async () => {}));
    assert.match(String(marked[displayName]), /^plugin\.test-auto-\d+$/);
  });

  test('an empty or null name counts as no name', () => {
    assert.match(String(read(plugin(async function blank() {}, { name: '' }))[displayName]), /^blank-auto-/);
    const nullName = { name: null } as unknown as plugin.PluginMetadata;
    assert.match(String(read(plugin(async function nil() {}, nullName))[displayName]), /^nil-auto-/);
  });
});

describe('metadata forms', () => {
  test('a string is the version range', () => {
    const marked = read(plugin(async function ranged() {}, '5.x'));
    const stored = marked[pluginMeta] as plugin.PluginMetadata;
    assert.equal(stored.fastify, '5.x');
    assert.match(String(stored.name), /^ranged-auto-\d+$/);
    assert.equal(marked[skipOverride], true);
  });

  test('no metadata at all', () => {
    const marked = read(plugin(async function bare() {}));
    assert.deepEqual(Object.keys(marked[pluginMeta] as object), ['name']);
    assert.equal(marked[skipOverride], true);
  });

  test('dependencies, decorators and the version range are stored as given', () => {
    const meta: plugin.PluginMetadata = {
      name: 'full',
      fastify: '>=5',
      dependencies: ['one', 'two'],
      decorators: { fastify: ['db'], request: ['user'], reply: [Symbol.for('x')] },
    };
    assert.equal(read(plugin(async () => {}, meta))[pluginMeta], meta);
  });
});

describe('inputs', () => {
  test('an ES module namespace is unwrapped to its default export', async () => {
    const fn = async function fromModule() {};
    assert.equal(plugin({ default: fn }, { name: 'from-module' }), fn);
    const moduleSource = 'data:text/javascript,export default async function realNamespace() {}';
    const namespace: { default: () => Promise<void> } = await import(moduleSource);
    const marked = plugin(namespace, { name: 'real-namespace' });
    assert.equal(marked, namespace.default);
    assert.equal(read(marked)[displayName], 'real-namespace');
  });

  test('sets fn.default = fn and a camel-cased alias for CommonJS default and named imports', () => {
    const marked = read(plugin(async () => {}, { name: '@acme/rate-limit' }));
    assert.equal(marked.default, marked);
    assert.equal(marked.acmeRateLimit, marked);
    assert.equal(read(plugin(async () => {}, { name: 'db-pool' })).dbPool !== undefined, true);
  });

  test('never overwrites an existing default or alias, and adds no alias for automatic names', () => {
    const own = () => {};
    const fn = Object.assign(async function keep() {}, { default: own, keep: own });
    const marked = read(plugin(fn, { name: 'keep' }));
    assert.equal(marked.default, own);
    assert.equal(marked.keep, own);
    const unnamed = read(plugin(async function unnamedOne() {}));
    assert.equal(unnamed.unnamedOne, undefined);
  });

  test('wrapping twice keeps the last metadata', () => {
    const fn = async () => {};
    plugin(fn, { name: 'first' });
    plugin(fn, { name: 'second', encapsulate: true });
    assert.equal(read(fn)[displayName], 'second');
    assert.equal(read(fn)[skipOverride], false);
  });

  test('a non-function is a TypeError that says what was given', () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /got a value of type 'undefined'/],
      [null, /got null/],
      [42, /got a value of type 'number'/],
      [{}, /got a value of type 'object'/],
      [{ default: 'nope' }, /got a value of type 'string'/],
      [[], /got an array/],
    ];
    for (const [input, message] of cases) {
      assert.throws(
        () => plugin(input as never),
        (error: unknown) => {
          assert.ok(error instanceof TypeError);
          assert.match(error.message, /expected a plugin function/);
          assert.match(error.message, message);
          return true;
        },
      );
    }
  });

  test('malformed metadata is a TypeError', () => {
    const cases: [unknown, RegExp][] = [
      [null, /metadata must be an object/],
      [[], /metadata must be an object or a version-range string, got an array/],
      [7, /metadata must be an object/],
      [{ fastify: 5 }, /metadata\.fastify must be a version-range string/],
      [{ name: 42 }, /metadata\.name must be a string/],
    ];
    for (const [meta, message] of cases) {
      assert.throws(() => plugin(async () => {}, meta as never), { name: 'TypeError', message });
    }
  });
});

describe('module shape', () => {
  test('the export is the function itself, also as .default and .plugin', () => {
    assert.equal(typeof plugin, 'function');
    assert.equal(plugin.default, plugin);
    assert.equal(plugin.plugin, plugin);
  });
});
