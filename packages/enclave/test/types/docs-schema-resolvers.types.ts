// Mirrored, type-checked, in packages/enclave/test/types/docs-schema-resolvers.types.ts
import assert from 'node:assert/strict';
import enclave, { type ValidatorCompiler } from 'enclavejs';

// A stand-in for another schema library: a schema object that knows its static type.
class Codec<Value> {
  declare readonly value: Value;
  constructor(readonly check: (data: unknown) => data is Value) {}
}

// Teach Enclave to read that library's types: one entry, `never` for other schemas.
declare module 'enclavejs' {
  interface SchemaTypeResolvers<Schema> {
    codec: Schema extends Codec<infer Value> ? Value : never;
  }
}

const point = new Codec((data): data is { x: number; y: number } => {
  const candidate = data as { x?: unknown; y?: unknown } | null;
  return typeof candidate?.x === 'number' && typeof candidate.y === 'number';
});

// The run-time side: a validator compiler that understands the library's schemas.
const codecCompiler: ValidatorCompiler =
  ({ schema }) =>
  (data) =>
    (schema as Codec<unknown>).check(data) ? { value: data } : { error: new Error('not a point') };

const app = enclave();
app.post('/distance', { schema: { body: point }, validatorCompiler: codecCompiler }, async (request) => {
  const { x, y } = request.body; // numbers, from the Codec's type
  return { distance: Math.hypot(x, y) };
});

const answer = await app.inject({ method: 'POST', url: '/distance', payload: { x: 3, y: 4 } });
assert.deepEqual(answer.json(), { distance: 5 });
assert.equal((await app.inject({ method: 'POST', url: '/distance', payload: { x: 'three' } })).statusCode, 400);
await app.close();
