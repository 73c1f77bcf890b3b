// Mirrored, type-checked, in packages/enclave/test/types/docs-type-providers.types.ts
import assert from 'node:assert/strict';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fastify } from 'enclavejs';

// TypeBox, as its README shows it for Fastify.
const typebox = fastify().withTypeProvider<TypeBoxTypeProvider>();
typebox.post('/sum', { schema: { body: Type.Object({ a: Type.Number(), b: Type.Number() }) } }, async (request) => {
  const { a, b } = request.body; // numbers
  return { sum: a + b };
});
assert.deepEqual((await typebox.inject({ method: 'POST', url: '/sum', payload: { a: 1, b: 2 } })).json(), { sum: 3 });

// Zod: the provider's compilers validate and serialize; its provider types the handler.
const zod = fastify();
zod.setValidatorCompiler(validatorCompiler);
zod.setSerializerCompiler(serializerCompiler);
zod.withTypeProvider<ZodTypeProvider>().get(
  '/hello',
  { schema: { querystring: z.object({ name: z.string().min(2) }), response: { 200: z.object({ text: z.string() }) } } },
  async (request) => ({ text: `hello ${request.query.name}` }), // request.query.name: string
);
assert.deepEqual((await zod.inject({ url: '/hello?name=ada' })).json(), { text: 'hello ada' });
assert.equal((await zod.inject({ url: '/hello?name=a' })).statusCode, 400);
await Promise.all([typebox.close(), zod.close()]);
