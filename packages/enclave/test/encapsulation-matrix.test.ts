// SPEC §3.2–§3.4: the visibility matrix. Four logical plugins (root, child, grandchild,
// sibling) each add one of every encapsulated thing; every route reports what it can see.
// The same table runs unwrapped, and with one plugin wrapped by @enclavejs/plugin and by the real
// fastify-plugin: a wrapped plugin's registrations land in the context that registered it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import plugin from '@enclavejs/plugin';
import enclave from 'enclavejs';
import fp from 'fastify-plugin';

type Name = 'root' | 'child' | 'grandchild' | 'sibling';
const names: Name[] = ['root', 'child', 'grandchild', 'sibling'];
const parentOf: Record<Name, Name | null> = { root: null, child: 'root', grandchild: 'child', sibling: 'root' };
/** The order plugin bodies run in: depth first, in registration order. */
const loadOrder: Name[] = ['root', 'child', 'grandchild', 'sibling'];

type Wrapper = (fn: any, meta?: any) => any;
interface Variant {
  label: string;
  wrap: Wrapper | null;
  wrapped: Name[];
}

const variants: Variant[] = [
  { label: 'no wrapper', wrap: null, wrapped: [] },
  { label: '@enclavejs/plugin on child', wrap: plugin as Wrapper, wrapped: ['child'] },
  { label: 'fastify-plugin on child', wrap: fp as unknown as Wrapper, wrapped: ['child'] },
  { label: '@enclavejs/plugin on grandchild', wrap: plugin as Wrapper, wrapped: ['grandchild'] },
  { label: 'fastify-plugin on grandchild', wrap: fp as unknown as Wrapper, wrapped: ['grandchild'] },
];

/** The logical plugin whose context actually holds what `name` registers. */
function ownerOf(variant: Variant, name: Name): Name {
  const parent = parentOf[name];
  if (parent === null || !variant.wrapped.includes(name)) return name;
  return ownerOf(variant, parent);
}

/** Effective contexts from `name`'s up to the root. */
function chainOf(variant: Variant, name: Name): Name[] {
  const chain: Name[] = [];
  for (let current: Name | null = ownerOf(variant, name); current !== null; current = parentOf[current]) {
    const owner = ownerOf(variant, current);
    if (!chain.includes(owner)) chain.push(owner);
  }
  return chain;
}

function expectedVisible(variant: Variant, viewer: Name): Name[] {
  const chain = chainOf(variant, viewer);
  return names.filter((name) => chain.includes(ownerOf(variant, name)));
}

/** The error handler a route of `viewer` uses: the last one loaded into the nearest context that has one. */
function expectedErrorHandler(variant: Variant, viewer: Name): Name {
  for (const context of chainOf(variant, viewer)) {
    const setters = loadOrder.filter((name) => ownerOf(variant, name) === context);
    const last = setters[setters.length - 1];
    if (last !== undefined) return last;
  }
  throw new Error('unreachable');
}

interface Seen {
  instance: Name[];
  request: Name[];
  reply: Name[];
  schemas: Name[];
  hooks: Name[];
  requestValues: Record<string, unknown>;
}

/** Adds one of everything to `instance` in the name of `name`. */
function populate(instance: any, name: Name): void {
  instance.decorate(`dec_${name}`, `instance-${name}`);
  instance.decorateRequest(`req_${name}`, `request-${name}`); // a primitive: a per-request field
  instance.decorateReply(`rep_${name}`, function replyDecorator(this: any) {
    // a function: on the prototype
    return this;
  });
  instance.addHook('onRequest', async (_request: any, reply: any) => {
    reply.header(`x-hook-${name}`, 'yes');
  });
  instance.addSchema({ $id: `schema_${name}`, type: 'string' });
  instance.setErrorHandler((_error: any, _request: any, reply: any) => {
    reply.code(418).send({ handledBy: name });
  });
}

/**
 * Routes reporting what they see. Declared after the plugin's own registrations: Fastify fixes a
 * route's error handler once what was registered before the route has loaded, Enclave at ready;
 * routes declared last get the same handler under both rules.
 */
function declareRoutes(instance: any, name: Name): void {
  instance.get(`/${name}`, async (request: any, reply: any) => {
    const seen: Seen = {
      instance: names.filter((other) => instance.hasDecorator(`dec_${other}`) && instance[`dec_${other}`] === `instance-${other}`),
      request: names.filter((other) => request[`req_${other}`] !== undefined),
      reply: names.filter((other) => reply[`rep_${other}`] !== undefined),
      schemas: names.filter((other) => `schema_${other}` in instance.getSchemas()),
      hooks: [],
      requestValues: Object.fromEntries(names.map((other) => [other, request[`req_${other}`]])),
    };
    return seen;
  });
  instance.get(`/${name}/fail`, async () => {
    throw new Error(`failure in ${name}`);
  });
}

function buildApp(variant: Variant) {
  const app = enclave();
  const maybeWrap = (name: Name, fn: any) => (variant.wrap !== null && variant.wrapped.includes(name) ? variant.wrap(fn, { name }) : fn);
  populate(app, 'root');
  const grandchild = maybeWrap('grandchild', async function grandchild(instance: any) {
    populate(instance, 'grandchild');
    declareRoutes(instance, 'grandchild');
  });
  app.register(
    maybeWrap('child', async function child(instance: any) {
      populate(instance, 'child');
      instance.register(grandchild);
      declareRoutes(instance, 'child');
    }),
  );
  app.register(
    maybeWrap('sibling', async function sibling(instance: any) {
      populate(instance, 'sibling');
      declareRoutes(instance, 'sibling');
    }),
  );
  declareRoutes(app, 'root');
  return app;
}

for (const variant of variants) {
  describe(`visibility matrix: ${variant.label}`, () => {
    for (const viewer of names) {
      test(`a route of ${viewer} sees exactly its own and its ancestors' registrations`, async () => {
        const app = buildApp(variant);
        const response = await app.inject({ method: 'GET', url: `/${viewer}` });
        assert.equal(response.statusCode, 200, response.body);
        const seen = response.json() as Seen;
        const visible = expectedVisible(variant, viewer);
        assert.deepEqual(seen.instance, visible, 'instance decorators');
        assert.deepEqual(seen.request, visible, 'request decorators');
        assert.deepEqual(seen.reply, visible, 'reply decorators');
        assert.deepEqual(seen.schemas, visible, 'shared schemas');
        const hooks = names.filter((name) => response.headers[`x-hook-${name}`] === 'yes');
        assert.deepEqual(hooks, visible, 'onRequest hooks');
        for (const name of names) {
          // SPEC §3.4: an invisible request decorator reads as undefined, a visible one has its value.
          assert.equal(seen.requestValues[name], visible.includes(name) ? `request-${name}` : undefined);
        }
        await app.close();
      });

      test(`an error in a route of ${viewer} reaches the nearest visible error handler`, async () => {
        const app = buildApp(variant);
        const response = await app.inject({ method: 'GET', url: `/${viewer}/fail` });
        assert.equal(response.statusCode, 418, response.body);
        assert.deepEqual(response.json(), { handledBy: expectedErrorHandler(variant, viewer) });
        await app.close();
      });
    }

    test('has*Decorator and getSchemas seen from each plugin instance agree with the table', async () => {
      const app = enclave();
      const instances = {} as Record<Name, any>;
      const maybeWrap = (name: Name, fn: any) => (variant.wrap !== null && variant.wrapped.includes(name) ? variant.wrap(fn, { name }) : fn);
      const record = (name: Name, instance: any) => {
        instance.decorate(`dec_${name}`, name);
        instance.decorateRequest(`req_${name}`, null);
        instance.decorateReply(`rep_${name}`, null);
        instance.addSchema({ $id: `schema_${name}` });
        instances[name] = instance;
      };
      record('root', app);
      app.register(
        maybeWrap('child', async function child(instance: any) {
          record('child', instance);
          instance.register(
            maybeWrap('grandchild', async function grandchild(inner: any) {
              record('grandchild', inner);
            }),
          );
        }),
      );
      app.register(
        maybeWrap('sibling', async function sibling(instance: any) {
          record('sibling', instance);
        }),
      );
      await app.ready();
      for (const viewer of names) {
        const visible = expectedVisible(variant, viewer);
        const instance = instances[viewer];
        assert.deepEqual(
          names.filter((name) => instance.hasDecorator(`dec_${name}`)),
          visible,
          `${viewer}: hasDecorator`,
        );
        assert.deepEqual(
          names.filter((name) => instance.hasRequestDecorator(`req_${name}`)),
          visible,
          `${viewer}: hasRequestDecorator`,
        );
        assert.deepEqual(
          names.filter((name) => instance.hasReplyDecorator(`rep_${name}`)),
          visible,
          `${viewer}: hasReplyDecorator`,
        );
        assert.deepEqual(Object.keys(instance.getSchemas()).sort(), visible.map((name) => `schema_${name}`).sort(), `${viewer}: getSchemas`);
        for (const name of names) {
          assert.equal(instance.getSchema(`schema_${name}`) !== undefined, visible.includes(name), `${viewer}: getSchema(${name})`);
        }
      }
      await app.close();
    });
  });
}
