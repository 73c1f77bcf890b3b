// Issue 19: apps written for Fastify with its two common type providers run on Enclave with only
// the import changed (`fastify` → `enclavejs`). The code below each comment is written exactly as
// the providers' own documentation shows it for Fastify; this file is also type-checked
// (`npm test` runs tsc over the tests), so the handlers' inferred types are checked as well.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { expectTypeOf } from 'expect-type';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fastify } from 'enclavejs';

describe('TypeBox provider (@fastify/type-provider-typebox)', () => {
  test('body and querystring are validated and typed; the response schema serializes', async () => {
    // --- a Fastify app, import changed ---
    const app = fastify().withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/points',
      {
        schema: {
          body: Type.Object({ x: Type.Number(), y: Type.Number(), label: Type.String() }),
          querystring: Type.Object({ scale: Type.Optional(Type.Number()) }),
          response: { 200: Type.Object({ label: Type.String(), length: Type.Number() }) },
        },
      },
      async (request) => {
        const { x, y, label } = request.body;
        const scale = request.query.scale ?? 1;
        expectTypeOf(request.body).toEqualTypeOf<{ x: number; y: number; label: string }>();
        return { label, length: Math.hypot(x, y) * scale, secret: 'dropped by the response schema' };
      },
    );
    // --- end of the app ---
    const ok = await app.inject({ method: 'POST', url: '/points?scale=2', payload: { x: 3, y: 4, label: 'p' } });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { label: 'p', length: 10 });
    const bad = await app.inject({ method: 'POST', url: '/points', payload: { x: 'three', y: 4, label: 'p' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'FST_ERR_VALIDATION');
  });
});

describe('Zod provider (fastify-type-provider-zod)', () => {
  test("the provider's compilers validate and serialize; the handler sees Zod's output types", async () => {
    // --- a Fastify app, import changed ---
    const app = fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.withTypeProvider<ZodTypeProvider>().route({
      method: 'GET',
      url: '/greet',
      schema: {
        querystring: z.object({ name: z.string().min(4), times: z.coerce.number().int().default(1) }),
        response: { 200: z.object({ greeting: z.string() }) },
      },
      handler: (request, reply) => {
        expectTypeOf(request.query).toEqualTypeOf<{ name: string; times: number }>();
        reply.send({ greeting: `hello ${request.query.name}`.repeat(request.query.times) });
      },
    });
    // --- end of the app ---
    const ok = await app.inject({ url: '/greet?name=ada%20l&times=2' });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { greeting: 'hello ada lhello ada l' });
    const bad = await app.inject({ url: '/greet?name=al' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'FST_ERR_VALIDATION');
  });

  test('without a provider, Enclave still infers a plain JSON Schema route', async () => {
    const app = fastify();
    app.get('/plain', { schema: { querystring: { type: 'object', properties: { q: { type: 'string' } } } } }, async (request) => {
      expectTypeOf(request.query.q).toEqualTypeOf<string | undefined>();
      return { q: request.query.q ?? null };
    });
    assert.deepEqual((await app.inject({ url: '/plain?q=x' })).json(), { q: 'x' });
  });
});
