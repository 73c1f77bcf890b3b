// Issue 17: the querystringParser factory option is asked about every request's query, an absent
// one included (with ''), as in Fastify; the default parser is not called for an absent query.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';

test('a custom querystringParser is called with an empty string when the URL has no query', async () => {
  const seen: string[] = [];
  const app = enclave({
    querystringParser: (text: string) => {
      seen.push(text);
      return { parsedFrom: text };
    },
  });
  app.get('/', async (request) => request.query);
  assert.deepEqual((await app.inject('/')).json(), { parsedFrom: '' });
  assert.deepEqual((await app.inject('/?a=1')).json(), { parsedFrom: 'a=1' });
  assert.deepEqual(seen, ['', 'a=1']);
});

test('without a custom parser an absent query is an empty object', async () => {
  const app = enclave();
  app.get('/', async (request) => ({ query: request.query, keys: Object.keys(request.query as object).length }));
  assert.deepEqual((await app.inject('/')).json(), { query: {}, keys: 0 });
});
