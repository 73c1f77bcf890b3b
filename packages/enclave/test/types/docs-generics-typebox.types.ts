// Mirrored, type-checked, in packages/enclave/test/types/docs-generics-typebox.types.ts
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import enclave from 'enclavejs';

interface Book {
  id: number;
  title: string;
}

const app = enclave();

// Fastify-style generics name the types; they win over the schema, part by part.
app.get<{ Params: { id: number }; Reply: Book }>(
  '/books/:id',
  { schema: { params: { $ref: 'book-id#' } } }, // a $ref alone would give `unknown`
  async (request) => ({ id: request.params.id, title: 'Dune' }),
);
app.addSchema({ $id: 'book-id', type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] });

// TypeBox schemas infer through their static type.
const NewBook = Type.Object({ title: Type.String(), tags: Type.Optional(Type.Array(Type.String())) });
app.post('/books', { schema: { body: NewBook } }, async (request) => {
  const tags: string[] = request.body.tags ?? [];
  return { title: request.body.title, tags };
});

assert.deepEqual((await app.inject('/books/7')).json(), { id: 7, title: 'Dune' });
const posted = await app.inject({ method: 'POST', url: '/books', payload: { title: 'Kindred' } });
assert.deepEqual(posted.json(), { title: 'Kindred', tags: [] });
await app.close();
