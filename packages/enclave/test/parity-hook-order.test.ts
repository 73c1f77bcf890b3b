// Issue 20 (and issue 17's "hooks added to a parent after a child context exists"): a hook takes
// effect after the plugins registered before it have loaded, as in Fastify, so a plugin
// registered first runs its hooks first (@fastify/multipart's cleanup and @fastify/cookie's
// onSend depend on it). The expected orders are what Fastify 5 gives for the same code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';

test('a hook added after register() runs after the hooks of that plugin', async () => {
  const app = enclave();
  const order: string[] = [];
  app.register(async (child) => {
    child.addHook('onRequest', async () => {
      order.push('child');
    });
    child.get('/a', async () => order);
  });
  app.addHook('onRequest', async () => {
    order.push('parent');
  });
  const response = await app.inject('/a');
  assert.deepEqual(response.json(), ['child', 'parent']);
});

test('hooks of an awaited plugin and of its parent interleave in the order they were added', async () => {
  const app = enclave();
  const order: string[] = [];
  app.addHook('onRequest', async () => {
    order.push('parent-1');
  });
  await app.register(async (child) => {
    child.addHook('onRequest', async () => {
      order.push('child');
    });
    child.get('/b', async () => order);
  });
  app.addHook('onRequest', async () => {
    order.push('parent-2');
  });
  const response = await app.inject('/b');
  assert.deepEqual(response.json(), ['parent-1', 'child', 'parent-2']);
});

test("a grandchild loaded with await runs its onSend before its parent's later one", async () => {
  const app = enclave();
  const order: string[] = [];
  app.register(async (child) => {
    await child.register(async (grandchild) => {
      grandchild.addHook('onSend', async () => {
        order.push('grandchild');
      });
      grandchild.get('/c', async () => 'c');
    });
    child.addHook('onSend', async () => {
      order.push('child');
    });
  });
  await app.inject('/c');
  assert.deepEqual(order, ['grandchild', 'child']);
});

test('a wrapped plugin registered first runs its hooks before the ones added after it', async () => {
  const app = enclave();
  const order: string[] = [];
  const wrapped = Object.assign(
    async (instance: any) => {
      instance.addHook('onResponse', async () => {
        order.push('wrapped');
      });
    },
    { [Symbol.for('skip-override')]: true },
  );
  app.register(wrapped);
  app.addHook('onResponse', async () => {
    order.push('app');
  });
  app.get('/', async () => 'ok');
  await app.inject('/');
  assert.deepEqual(order, ['wrapped', 'app']);
});
