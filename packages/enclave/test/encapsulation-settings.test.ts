// SPEC §3.2 beyond the Issue 2 matrix: content-type parsers, validator compilers and reply
// serializers follow the same visibility rule, wrapped or not; and the order rule for hooks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import plugin from '@enclavejs/plugin';
import enclave from 'enclavejs';
import fp from 'fastify-plugin';

type Name = 'root' | 'child' | 'grandchild' | 'sibling';
const names: Name[] = ['root', 'child', 'grandchild', 'sibling'];
const parentOf: Record<Name, Name | null> = { root: null, child: 'root', grandchild: 'child', sibling: 'root' };
/** Only these set a compiler and a serializer, so that no two of them ever share a context. */
const setters: Name[] = ['root', 'grandchild', 'sibling'];

interface Variant {
  label: string;
  wrap: ((fn: any, meta?: any) => any) | null;
}
const variants: Variant[] = [
  { label: 'no wrapper', wrap: null },
  { label: '@enclavejs/plugin on grandchild', wrap: plugin as any },
  { label: 'fastify-plugin on grandchild', wrap: fp as any },
];

function ownerOf(variant: Variant, name: Name): Name {
  return variant.wrap !== null && name === 'grandchild' ? 'child' : name;
}

function chainOf(variant: Variant, name: Name): Name[] {
  const chain: Name[] = [];
  for (let current: Name | null = ownerOf(variant, name); current !== null; current = parentOf[current]) chain.push(current);
  return chain;
}

const visibleTo = (variant: Variant, viewer: Name) => names.filter((name) => chainOf(variant, viewer).includes(ownerOf(variant, name)));
const nearestSetter = (variant: Variant, viewer: Name) =>
  chainOf(variant, viewer)
    .map((context) => setters.find((name) => ownerOf(variant, name) === context))
    .find((name) => name !== undefined);

function buildApp(variant: Variant, compiledBy: Record<string, string>) {
  const app = enclave();
  const populate = (instance: any, name: Name) => {
    instance.addContentTypeParser(`application/x-${name}`, { parseAs: 'string' }, (_request: any, body: string, done: any) => {
      done(null, { parsedBy: name, body });
    });
    if (setters.includes(name)) {
      instance.setValidatorCompiler(({ url }: { url: string }) => {
        compiledBy[url] = name;
        return () => true;
      });
      instance.setReplySerializer((payload: unknown) => JSON.stringify({ serializedBy: name, payload }));
    }
    instance.post(`/${name}`, { schema: { body: { type: 'object' } } }, async (request: any) => request.body);
  };
  populate(app, 'root');
  app.register(async function child(instance: any) {
    populate(instance, 'child');
    const grandchild = async function grandchild(inner: any) {
      populate(inner, 'grandchild');
    };
    instance.register(variant.wrap === null ? grandchild : variant.wrap(grandchild, { name: 'grandchild' }));
  });
  app.register(async function sibling(instance: any) {
    populate(instance, 'sibling');
  });
  return app;
}

for (const variant of variants) {
  describe(`settings visibility: ${variant.label}`, () => {
    for (const viewer of names) {
      test(`a route of ${viewer} parses, validates and serializes with what its chain set`, async () => {
        const compiledBy: Record<string, string> = {};
        const app = buildApp(variant, compiledBy);
        await app.ready();
        const expectedSetter = nearestSetter(variant, viewer);
        assert.equal(compiledBy[`/${viewer}`], expectedSetter, 'validator compiler');
        for (const parser of names) {
          const response = await app.inject({
            method: 'POST',
            url: `/${viewer}`,
            headers: { 'content-type': `application/x-${parser}` },
            payload: 'raw',
          });
          if (visibleTo(variant, viewer).includes(parser)) {
            assert.equal(response.statusCode, 200, `${parser} parser: ${response.body}`);
            assert.deepEqual(response.json(), { serializedBy: expectedSetter, payload: { parsedBy: parser, body: 'raw' } });
          } else {
            assert.equal(response.statusCode, 415, `${parser} parser is not visible to ${viewer}`);
          }
        }
        await app.close();
      });
    }
  });
}

describe('order: what a context copies when it is created', () => {
  test('hooks reach child contexts created after them (Fastify semantics), and every route of their own context', async () => {
    const app = enclave();
    const addsHook = (label: string) =>
      plugin(async (instance: any) => {
        instance.addHook('onRequest', async (_request: any, reply: any) => {
          reply.header(`x-${label}`, 'yes');
        });
      });
    app.get('/root-route', async () => 'root');
    app.register(addsHook('before'));
    app.register(async (instance: any) => {
      instance.get('/child-route', async () => 'child');
    });
    app.register(addsHook('after'));
    const rootResponse = await app.inject('/root-route');
    assert.equal(rootResponse.headers['x-before'], 'yes');
    assert.equal(rootResponse.headers['x-after'], 'yes', 'hooks are collected for routes at ready');
    const childResponse = await app.inject('/child-route');
    assert.equal(childResponse.headers['x-before'], 'yes');
    // Like Fastify, a route's hooks are collected from its context and every ancestor at ready,
    // so a hook a parent adds after a child was created still covers the child's routes.
    assert.equal(childResponse.headers['x-after'], 'yes', 'ancestor hooks are collected at ready');
  });

  test('decorators and shared schemas an ancestor adds later are visible in an existing child', async () => {
    const app = enclave();
    let child: any;
    await app.register(async (instance: any) => {
      child = instance;
    });
    app.decorate('lateInstance', 1);
    app.decorateReply('lateReply', () => 'r');
    app.addSchema({ $id: 'late-schema', type: 'string' });
    assert.equal(child.lateInstance, 1);
    assert.equal(child.hasReplyDecorator('lateReply'), true);
    assert.ok(child.getSchema('late-schema'));
  });
});
