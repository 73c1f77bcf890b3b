// Type tests: plugins (async and callback, typed options), decorators typed through
// `register()`/`decorate()`, and decorators declared by interface merging from an ES module
// (the CommonJS side is in ./commonjs/augmentation.types.ts).
import plugin from '@enclavejs/plugin';
import enclave, { type DecoratorsOf, type EnclaveInstance, type Plugin, type PluginDone } from 'enclavejs';
import { expectTypeOf } from 'expect-type';

// ── Interface merging (ESM consumer). Names are unique to this file: merging is global. ────
declare module 'enclavejs' {
  interface EnclaveInstance {
    typeTestsEsmClock: () => number;
  }
  interface EnclaveRequest {
    typeTestsEsmUser: { id: string } | null;
  }
  interface EnclaveReply {
    typeTestsEsmRender: (view: string) => void;
  }
}

const app = enclave();
expectTypeOf(app.typeTestsEsmClock).toEqualTypeOf<() => number>();
app.get('/me', async function (request, reply) {
  expectTypeOf(request.typeTestsEsmUser).toEqualTypeOf<{ id: string } | null>();
  expectTypeOf(this.typeTestsEsmClock).toEqualTypeOf<() => number>();
  reply.typeTestsEsmRender('me');
});
// @ts-expect-error no such decorator anywhere
app.typeTestsNotDeclared;

// ── decorate() returns the instance typed with the decorator. ─────────────────────────────
interface Database {
  query(sql: string): Promise<unknown[]>;
}
declare const database: Database;
const decorated = app.decorate('db', database).decorate('startedAt', { getter: () => new Date() });
expectTypeOf(decorated.db).toEqualTypeOf<Database>();
expectTypeOf(decorated.startedAt).toEqualTypeOf<Date>();
// @ts-expect-error `app` itself was not retyped: only the returned instance has `db`
app.db;

// ── A plugin that declares what it decorates; register() returns the decorated instance. ──
const databasePlugin: Plugin<{ url: string }, { db: Database }> = plugin(async (instance, options) => {
  expectTypeOf(options.url).toEqualTypeOf<string>();
  instance.decorate('db', database);
});
const cachePlugin: Plugin<{}, { cache: Map<string, string> }> = plugin((instance, _options, done) => {
  expectTypeOf(done).toEqualTypeOf<PluginDone>();
  instance.decorate('cache', new Map<string, string>());
  done();
});

expectTypeOf<DecoratorsOf<typeof databasePlugin>>().toEqualTypeOf<{ db: Database }>();
expectTypeOf<DecoratorsOf<() => void>>().toEqualTypeOf<{}>();
const withDatabase = enclave().register(databasePlugin, { url: 'postgres://localhost/shop' });
expectTypeOf(withDatabase.db).toEqualTypeOf<Database>();
const withBoth = withDatabase.register(cachePlugin);
expectTypeOf(withBoth.db).toEqualTypeOf<Database>();
expectTypeOf(withBoth.cache).toEqualTypeOf<Map<string, string>>();
// A handler's `this` is the instance the route is declared on, decorators included.
withBoth.get('/orders', async function () {
  expectTypeOf(this.db).toEqualTypeOf<Database>();
  expectTypeOf(this.cache).toEqualTypeOf<Map<string, string>>();
});
withBoth.route({
  method: 'GET',
  url: '/cache',
  handler: async function () {
    expectTypeOf(this.cache).toEqualTypeOf<Map<string, string>>();
  },
});
enclave().get('/orders', async function () {
  // @ts-expect-error no `db` where it was not decorated
  this.db;
});
withBoth.after((error) => {
  expectTypeOf(error).toEqualTypeOf<Error | null>();
});
expectTypeOf(withBoth.after(() => {}).cache).toEqualTypeOf<Map<string, string>>();

async function awaited() {
  // `await app.register(p)` loads the plugin and resolves with the decorated instance.
  const loaded = await enclave().register(databasePlugin, { url: 'x' });
  expectTypeOf(loaded.db).toEqualTypeOf<Database>();
  // An async function returning the app is a promise of the app (the instance type is not thenable).
  const build = async () => enclave();
  expectTypeOf(build).returns.resolves.toEqualTypeOf<EnclaveInstance>();
  const ready = await withBoth.ready();
  expectTypeOf(ready.cache).toEqualTypeOf<Map<string, string>>();
  // after() and close() resolve with undefined (loader.test.ts).
  expectTypeOf(withBoth.after()).toEqualTypeOf<Promise<undefined>>();
  expectTypeOf(withBoth.close()).toEqualTypeOf<Promise<undefined>>();
}
void awaited;

// register()'s logLevel: pino's levels or a custom level's name, never empty.
enclave().register(async () => {}, { logLevel: 'debug', prefix: '/debug' });
enclave().register(async () => {}, { logLevel: 'audit' });
// @ts-expect-error an empty level names no level
enclave().register(async () => {}, { logLevel: '' });

// A plugin's instance already has what its registering instance has (descendants see ancestors'
// decorators), and a plugin needing a decorator can only be registered where it exists.
withDatabase.register(async (child) => {
  expectTypeOf(child.db).toEqualTypeOf<Database>();
});
const needsDatabase = async (instance: EnclaveInstance & { db: Database }) => {
  await instance.db.query('select 1');
};
withDatabase.register(needsDatabase);
// @ts-expect-error `db` is not decorated on a fresh instance
enclave().register(needsDatabase);

// ── Typed options. ──────────────────────────────────────────────────────────────────────────
// @ts-expect-error `url` is required
enclave().register(databasePlugin);
// @ts-expect-error `url` is a string
enclave().register(databasePlugin, { url: 5 });
enclave().register(databasePlugin, { url: 'x', prefix: '/v1' }); // prefix is always accepted
enclave().register(databasePlugin, (parent) => ({ url: parent.prefix })); // options from the parent
const inline = enclave().register(
  async (child, options) => {
    expectTypeOf(options).toEqualTypeOf<{ level: number }>();
    expectTypeOf(child).toEqualTypeOf<EnclaveInstance>();
  },
  { level: 1 },
);
expectTypeOf(inline).toMatchTypeOf<EnclaveInstance>();

// Callback plugins, ES module namespaces and `import()` promises.
enclave().register((_instance, _options, done) => done());
enclave().register({ default: databasePlugin }, { url: 'x' });
enclave().register(Promise.resolve({ default: cachePlugin }));
// @ts-expect-error a plugin returns nothing or a promise
enclave().register(() => 42);
