import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';

const adminKey = 'test-admin-key-0123456789';
const auth = { authorization: `Bearer ${adminKey}` };

test('lists books with querystring coercion and hides internal fields', async () => {
  const app = buildApp({ adminKey });
  const response = await app.inject({ url: '/books?tag=classic&limit=1' });
  assert.equal(response.statusCode, 200);
  const body = response.json();
  assert.equal(body.count, 1);
  assert.equal(body.items.length, 1);
  assert.ok(body.items[0].tags.includes('classic'));
  assert.equal(body.items[0].supplierCost, undefined);
  await app.close();
});

test('refuses a bad querystring with a problem+json answer', async () => {
  const app = buildApp({ adminKey });
  const response = await app.inject({ url: '/books?limit=0' });
  assert.equal(response.statusCode, 400);
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
  const problem = response.json();
  assert.equal(problem.status, 400);
  assert.equal(problem.code, 'FST_ERR_VALIDATION');
  assert.equal(problem.errors[0].pointer, '/querystring/limit');
  await app.close();
});

test('reads one book and answers 404 for a missing one', async () => {
  const app = buildApp({ adminKey });
  const found = await app.inject({ url: '/books/2' });
  assert.equal(found.statusCode, 200);
  assert.equal(found.json().author, 'Octavia E. Butler');
  const missing = await app.inject({ url: '/books/999' });
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().code, 'BOOK_NOT_FOUND');
  const badId = await app.inject({ url: '/books/abc' });
  assert.equal(badId.statusCode, 400);
  await app.close();
});

test('the admin scope needs the bearer key; the public scope does not', async () => {
  const app = buildApp({ adminKey });
  const payload = { title: 'Dune', author: 'Frank Herbert', year: 1965 };
  const anonymous = await app.inject({ method: 'POST', url: '/admin/books', payload });
  assert.equal(anonymous.statusCode, 401);
  const wrongKey = await app.inject({ method: 'POST', url: '/admin/books', payload, headers: { authorization: 'Bearer nope' } });
  assert.equal(wrongKey.statusCode, 401);
  const publicList = await app.inject({ url: '/books' });
  assert.equal(publicList.statusCode, 200);
  await app.close();
});

test('creates, updates and deletes a book with validated bodies', async () => {
  const app = buildApp({ adminKey });
  const created = await app.inject({
    method: 'POST',
    url: '/admin/books',
    headers: auth,
    payload: { title: 'Dune', author: 'Frank Herbert', year: 1965, supplierCost: 2 },
  });
  assert.equal(created.statusCode, 201);
  const book = created.json();
  assert.deepEqual(book.tags, []);
  assert.equal(book.supplierCost, undefined);
  const invalid = await app.inject({ method: 'POST', url: '/admin/books', headers: auth, payload: { title: '' } });
  assert.equal(invalid.statusCode, 400);
  assert.match(invalid.json().detail, /^body/);
  const updated = await app.inject({ method: 'PATCH', url: `/admin/books/${book.id}`, headers: auth, payload: { year: 1966 } });
  assert.equal(updated.statusCode, 200);
  assert.equal(updated.json().year, 1966);
  const emptyPatch = await app.inject({ method: 'PATCH', url: `/admin/books/${book.id}`, headers: auth, payload: {} });
  assert.equal(emptyPatch.statusCode, 400);
  const deleted = await app.inject({ method: 'DELETE', url: `/admin/books/${book.id}`, headers: auth });
  assert.equal(deleted.statusCode, 204);
  const gone = await app.inject({ url: `/books/${book.id}` });
  assert.equal(gone.statusCode, 404);
  await app.close();
});

test('npm start prints the address, the key and three working curl commands, and shuts down on SIGTERM', async () => {
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./server.ts', import.meta.url))], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.setEncoding('utf8');
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 20 s: ${output}`)), 20_000);
      server.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Try:') && output.trimEnd().endsWith('\'{"title":"No key"}\'')) {
          clearTimeout(timer);
          resolve();
        }
      });
      server.once('exit', (code) => reject(new Error(`server exited early (${code}): ${output}`)));
    });
    const address = /listening at (\S+)/.exec(output)?.[1] as string;
    const key = /Admin key[^:]*: (\S+)/.exec(output)?.[1] as string;
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/);
    const list = await fetch(`${address}/books?tag=classic&limit=2`);
    assert.equal(list.status, 200);
    assert.equal(((await list.json()) as { count: number }).count, 2);
    const create = await fetch(`${address}/admin/books`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Dune', author: 'Frank Herbert', year: 1965, tags: ['sf'] }),
    });
    assert.equal(create.status, 201);
    const created = (await create.json()) as Record<string, unknown>;
    assert.equal(typeof created.id, 'number');
    assert.equal(created.title, 'Dune');
    assert.equal(created.supplierCost, undefined);
    const refused = await fetch(`${address}/admin/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'No key' }),
    });
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), { error: 'missing authorization header' });
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
    server.kill('SIGTERM');
    const [code] = await once(server, 'exit');
    assert.equal(code, 0);
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
  }
});
