// Mirrored, type-checked, in packages/enclave/test/types/docs-replies.types.ts
import assert from 'node:assert/strict';
import enclave from 'enclavejs';

const app = enclave();
const response = {
  200: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
  404: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
} as const;

app.get('/count', { schema: { response } }, async () => ({ count: 3 }));

// @ts-expect-error `count` is an integer, not a string
app.get('/count-as-text', { schema: { response } }, async () => ({ count: 'three' }));

app.get('/missing', { schema: { response } }, async (_request, reply) => {
  // @ts-expect-error 404 answers { message }
  if (Math.random() > 2) return reply.code(404).send({ count: 0 });
  return reply.code(404).send({ message: 'nothing here' });
});

assert.deepEqual((await app.inject('/count')).json(), { count: 3 });
assert.equal((await app.inject('/missing')).statusCode, 404);
await app.close();
