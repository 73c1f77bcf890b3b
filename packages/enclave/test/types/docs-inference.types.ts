// Mirrored, type-checked, in packages/enclave/test/types/docs-inference.types.ts
import assert from 'node:assert/strict';
import enclave from 'enclavejs';

const app = enclave();

app.post(
  '/shelves/:shelf/books',
  {
    schema: {
      params: { type: 'object', properties: { shelf: { type: 'string' } }, required: ['shelf'] },
      querystring: { type: 'object', properties: { notify: { type: 'boolean', default: false } } },
      body: {
        type: 'object',
        properties: { title: { type: 'string' }, year: { type: 'integer' } },
        required: ['title'],
        additionalProperties: false,
      },
      response: {
        201: {
          type: 'object',
          properties: { id: { type: 'integer' }, title: { type: 'string' } },
          required: ['id', 'title'],
        },
        '4xx': { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
      },
    },
  },
  async (request, reply) => {
    const shelf: string = request.params.shelf;
    const notify: boolean = request.query.notify; // present: Ajv applies the default
    const { title, year } = request.body; // string, and number | undefined
    if (shelf === 'closed') return reply.code(409).send({ error: 'this shelf is closed' });
    return reply.code(201).send({ id: year ?? 0, title: notify ? `${title} (announced)` : title });
  },
);

// Without a schema, every part is `unknown`: narrow it before use.
app.get('/echo', async (request) => {
  const query = request.query; // unknown
  return typeof query === 'object' && query !== null ? query : {};
});

const created = await app.inject({ method: 'POST', url: '/shelves/sf/books', payload: { title: 'Dune', year: 1965 } });
assert.equal(created.statusCode, 201);
assert.deepEqual(created.json(), { id: 1965, title: 'Dune' });
const refused = await app.inject({ method: 'POST', url: '/shelves/closed/books', payload: { title: 'Dune' } });
assert.deepEqual(refused.json(), { error: 'this shelf is closed' });
await app.close();
