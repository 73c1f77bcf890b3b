// Issue 20: the real @fastify/view (with ejs), unmodified, on Enclave: `reply.view()` renders a
// template from the configured root; `app.view()` renders outside a request.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import view from '@fastify/view';
import enclave from 'enclavejs';

// ejs ships no type declarations; the plugin only needs the engine object.
const ejs: unknown = createRequire(import.meta.url)('ejs');

const root = join(import.meta.dirname, 'fixtures', 'views');

describe('@fastify/view', () => {
  test('reply.view renders the template as HTML', async () => {
    const app: any = enclave();
    await app.register(view, { engine: { ejs }, root });
    app.get('/', async (request: any, reply: any) => reply.view('hello.ejs', { name: request.query.name }));
    const response = await app.inject('/?name=Ada');
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(response.body.trim(), '<p>Hello, Ada!</p>');
    assert.equal((await app.view('hello.ejs', { name: 'Bob' })).trim(), '<p>Hello, Bob!</p>');
    await app.close();
  });
});
