// SPEC §3 and §8: the plugin protects the context it is registered in and that context's
// descendants; parents, siblings and the root stay open.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import bearerAuth from '@enclavejs/bearer-auth';
import { createApp, get, missingBody } from './helpers.ts';

const key = 'scope-key';

async function treeApp() {
  const { app } = createApp();
  app.get('/root', async () => 'root');
  app.register(async (parent) => {
    parent.get('/parent', async () => 'parent');
    parent.register(async (child) => {
      // Routes declared before the plugin in the same context are protected too: the
      // hook belongs to the context, not to the routes that follow it.
      child.get('/child/early', async () => 'child early');
      child.register(bearerAuth, { keys: [key] });
      child.get('/child', async () => 'child');
      child.register(async (grandchild) => {
        grandchild.get('/grandchild', async () => 'grandchild');
      });
    });
    parent.register(async (sibling) => {
      sibling.get('/sibling', async () => 'sibling');
    });
  });
  app.register(async (uncle) => {
    uncle.get('/uncle', async () => 'uncle');
  });
  await app.ready();
  // Wrapped: an app is itself thenable, and an async function would await it.
  return { app };
}

test('the registering context and its descendants need a token', async () => {
  const { app } = await treeApp();
  for (const url of ['/child', '/child/early', '/grandchild']) {
    const refused = await get(app, url);
    assert.equal(refused.statusCode, 401, url);
    assert.deepEqual(refused.json(), missingBody);
    const accepted = await get(app, url, `Bearer ${key}`);
    assert.equal(accepted.statusCode, 200, url);
  }
});

test('the root, the parent, a sibling and a sibling of the parent stay open', async () => {
  const { app } = await treeApp();
  for (const url of ['/root', '/parent', '/sibling', '/uncle']) {
    const answer = await get(app, url);
    assert.equal(answer.statusCode, 200, url);
    assert.equal(answer.body, url.slice(1));
    assert.equal(answer.headers['www-authenticate'], undefined);
    // A wrong token is irrelevant where there is no protection.
    assert.equal((await get(app, url, 'Bearer wrong')).statusCode, 200, url);
  }
});

test('registered on the root, it protects every route of the app', async () => {
  const { app } = createApp();
  app.register(bearerAuth, { keys: [key] });
  app.get('/top', async () => 'top');
  app.register(async (child) => {
    child.get('/nested', async () => 'nested');
  });
  for (const url of ['/top', '/nested']) {
    assert.equal((await get(app, url)).statusCode, 401, url);
    assert.equal((await get(app, url, `Bearer ${key}`)).statusCode, 200, url);
  }
});

test('two siblings may each have their own keys', async () => {
  const { app } = createApp();
  app.register(async (first) => {
    first.register(bearerAuth, { keys: ['first-key'] });
    first.get('/first', async () => 'first');
  });
  app.register(async (second) => {
    second.register(bearerAuth, { keys: ['second-key'] });
    second.get('/second', async () => 'second');
  });
  assert.equal((await get(app, '/first', 'Bearer first-key')).statusCode, 200);
  assert.equal((await get(app, '/first', 'Bearer second-key')).statusCode, 401);
  assert.equal((await get(app, '/second', 'Bearer second-key')).statusCode, 200);
  assert.equal((await get(app, '/second', 'Bearer first-key')).statusCode, 401);
});

test('nested registrations stack: a descendant needs a token both accept', async () => {
  const { app } = createApp();
  app.register(async (outer) => {
    outer.register(bearerAuth, { keys: ['outer-key', 'shared-key'] });
    outer.get('/outer', async () => 'outer');
    outer.register(async (inner) => {
      inner.register(bearerAuth, { keys: ['inner-key', 'shared-key'] });
      inner.get('/inner', async () => 'inner');
    });
  });
  assert.equal((await get(app, '/outer', 'Bearer outer-key')).statusCode, 200);
  assert.equal((await get(app, '/inner', 'Bearer outer-key')).statusCode, 401);
  assert.equal((await get(app, '/inner', 'Bearer inner-key')).statusCode, 401);
  assert.equal((await get(app, '/inner', 'Bearer shared-key')).statusCode, 200);
});

test('a prefixed child is protected under its prefix only', async () => {
  const { app } = createApp();
  app.get('/api-docs', async () => 'docs');
  app.register(
    async (api) => {
      api.register(bearerAuth, { keys: [key] });
      api.get('/items', async () => []);
    },
    { prefix: '/api' },
  );
  assert.equal((await get(app, '/api/items')).statusCode, 401);
  assert.equal((await get(app, '/api/items', `Bearer ${key}`)).statusCode, 200);
  assert.equal((await get(app, '/api-docs')).statusCode, 200);
});
