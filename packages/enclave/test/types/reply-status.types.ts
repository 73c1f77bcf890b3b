// Type tests (type-checked by `npm test` through tsconfig.test.json, never run): a reply's
// payload per status (issue 31). A handler may return the payload of any declared status (it may
// have set the status first); `reply.code(status)` narrows `send` to that status's payload; a
// status nothing declares accepts anything. Negative cases are `// @ts-expect-error` lines.
import type { Readable } from 'node:stream';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import enclave from 'enclavejs';
import { expectTypeOf } from 'expect-type';

/** What `send` takes besides a typed payload, whatever the reply type (docs/differences.md). */
type RawPayload = Error | string | Uint8Array | Readable;

const app = enclave();

// ── A `Reply` status map: the handler returns any status's payload. ────────────────────────
interface StatusReplies {
  Reply: { 200: string | { msg: string }; 400: number; '5xx': { error: string } };
}
app.get<StatusReplies>('/each-status', async (_request, reply) => {
  const branch = Math.floor(Math.random() * 4);
  if (branch === 0) return 'ok';
  if (branch === 1) {
    reply.code(400);
    return 42;
  }
  if (branch === 2) return reply.code(503).send({ error: 'down' });
  return { error: 'down' };
});
// @ts-expect-error no declared status answers a boolean
app.get<StatusReplies>('/boolean', async () => false);

// ── `code()` narrows `send`; `send` gives back the handler's reply. ────────────────────────
app.get<StatusReplies>('/narrowed', async (_request, reply) => {
  expectTypeOf(reply.code(400).send).parameter(0).toEqualTypeOf<number | RawPayload>();
  expectTypeOf(reply.status(502).send).parameter(0).toEqualTypeOf<{ error: string } | RawPayload>();
  expectTypeOf(reply.code(400).send(1)).toEqualTypeOf<typeof reply>();
  // @ts-expect-error 400 answers a number
  reply.code(400).send({ count: 400 });
  // A status nothing declares accepts anything (docs/differences.md).
  reply.code(404).send({ anything: true });
  // Before `code()`, `send` takes the success payloads: the status is 200 unless set.
  // @ts-expect-error 200 answers a string or { msg }
  reply.send(42);
  return reply;
});

// ── Response schemas: the same through inference and through a type provider. ─────────────
const responses = {
  200: { type: 'string' },
  400: { type: 'number' },
  500: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
} as const;
app.get('/schema-each-status', { schema: { response: responses } }, async (_request, reply) => {
  expectTypeOf(reply.code(500).send).parameter(0).toEqualTypeOf<{ [x: string]: unknown; error: string } | RawPayload>();
  const branch = Math.floor(Math.random() * 3);
  if (branch === 0) return 'ok';
  if (branch === 1) return 42;
  return { error: 'failed' };
});
// @ts-expect-error no declared status answers a boolean
app.get('/schema-boolean', { schema: { response: responses } }, async () => true);

// Only an error status declared: the implicit 200 has no schema, so the handler returns anything.
app.get('/only-400', { schema: { response: { 400: { type: 'number' } } } }, async () => ({ ok: true }));

const typebox = app.withTypeProvider<TypeBoxTypeProvider>();
typebox.get(
  '/provider-each-status',
  { schema: { response: { 200: Type.String(), 400: Type.Number(), 500: Type.Object({ error: Type.String() }) } } },
  async (_request, reply) => {
    expectTypeOf(reply.code(200).send).parameter(0).toEqualTypeOf<string | RawPayload>();
    expectTypeOf(reply.code(400).send).parameter(0).toEqualTypeOf<number | RawPayload>();
    expectTypeOf(reply.code(500).send).parameter(0).toEqualTypeOf<{ error: string } | RawPayload>();
    return Math.random() > 0.5 ? 42 : { error: 'failed' };
  },
);

// A response declared by media type: the union of the media types' schemas.
typebox.get(
  '/provider-media-types',
  {
    schema: {
      response: {
        200: { content: { 'text/plain': { schema: Type.String() }, 'application/json': { schema: Type.Object({ msg: Type.String() }) } } },
        500: Type.Object({ error: Type.String() }),
      },
    },
  },
  async (_request, reply) => {
    expectTypeOf(reply.code(200).send).parameter(0).toEqualTypeOf<string | { msg: string } | RawPayload>();
    reply.send({ msg: 'hello' });
    return Math.random() > 0.5 ? { msg: 'hello' } : { error: 'failed' };
  },
);
// @ts-expect-error neither media type nor the 500 answers a boolean
typebox.get('/provider-boolean', { schema: { response: { 200: { content: { 'text/plain': { schema: Type.String() } } } } } }, async () => false);
