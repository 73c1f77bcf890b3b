// Type tests (type-checked by `npm test` through tsconfig.test.json, never run): what a route
// infers from its schema (SPEC §9, issue 7 parts 2 and 3). Positive cases use expect-type;
// negative cases are `// @ts-expect-error` lines that fail the type-check if they compile.
import { Type } from '@sinclair/typebox';
import enclave, { type EnclaveRequest, type RouteHandler, type SchemaToType } from 'enclavejs';
import { expectTypeOf } from 'expect-type';
import TypeBox1 from 'typebox';

const app = enclave();

// ── No schema: every part is `unknown`, never `any`. ────────────────────────────────────────
app.get('/plain', async (request, reply) => {
  expectTypeOf(request.params).toBeUnknown();
  expectTypeOf(request.query).toBeUnknown();
  expectTypeOf(request.body).toBeUnknown();
  expectTypeOf(request.headers).toEqualTypeOf<import('node:http').IncomingHttpHeaders>();
  // @ts-expect-error unknown data must be narrowed before use
  request.body.name;
  reply.send({ anything: 'goes' });
  reply.send(); // no reply type: no payload needed
  return 'any payload';
});

// ── Header names are read lowercased (Node lowercases them), as the schema spells them or not. ─
app.get(
  '/headers',
  { schema: { headers: { type: 'object', properties: { 'X-Token': { type: 'string' }, Retries: { type: 'integer' } }, required: ['X-Token'] } } },
  async (request) => {
    expectTypeOf(request.headers['x-token']).toEqualTypeOf<string>();
    expectTypeOf(request.headers.retries).toEqualTypeOf<number | undefined>();
    // The schema's own spelling is only Node's index signature: never the schema's type.
    expectTypeOf(request.headers['X-Token']).toEqualTypeOf<string | string[] | undefined>();
  },
);
app.get<{ Headers: { 'X-Tenant': string } }>('/headers-generic', async (request) => {
  expectTypeOf(request.headers['x-tenant']).toEqualTypeOf<string>();
});

// ── Inline JSON Schema, without `as const` (a `const` type parameter keeps the literals). ───
app.post(
  '/users/:team',
  {
    schema: {
      params: { type: 'object', properties: { team: { type: 'string' } }, required: ['team'] },
      querystring: { type: 'object', properties: { dryRun: { type: 'boolean' } } },
      headers: { type: 'object', properties: { 'x-trace': { type: 'string' } }, required: ['x-trace'] },
      body: {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['name'],
        additionalProperties: false,
      },
      response: { 201: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
    },
  },
  async (request, reply) => {
    expectTypeOf(request.params.team).toEqualTypeOf<string>();
    expectTypeOf(request.query.dryRun).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(request.headers['x-trace']).toEqualTypeOf<string>();
    expectTypeOf(request.body).toEqualTypeOf<{ name: string; age?: number; tags?: string[] }>();
    // @ts-expect-error `nickname` is not in the body schema (additionalProperties: false)
    request.body.nickname;
    // @ts-expect-error `team` is a string
    const teamNumber: number = request.params.team;
    // @ts-expect-error `dryRun` may be absent
    const dryRun: boolean = request.query.dryRun;
    // @ts-expect-error the `x-trace` header is a string
    const trace: string[] = request.headers['x-trace'];
    // @ts-expect-error `name` is required, so never undefined
    const missingName: undefined = request.body.name;
    void [teamNumber, dryRun, trace, missingName];
    // @ts-expect-error the 201 schema requires `id`
    reply.code(201).send({});
    return reply.code(201).send({ id: 'u1' });
  },
);

// ── A schema declared apart, `as const`; the `query` alias; route() with everything in one object.
const searchQuery = {
  type: 'object',
  properties: { q: { type: 'string' }, limit: { type: 'integer', default: 10 } },
  required: ['q'],
} as const;

app.route({
  method: 'GET',
  url: '/search',
  schema: { query: searchQuery, response: { 200: { type: 'array', items: { type: 'string' } } } },
  handler: async (request) => {
    // `default` makes the property present: Ajv's useDefaults fills it in (SPEC §6.2).
    expectTypeOf(request.query).toEqualTypeOf<{ [key: string]: unknown; q: string; limit: number }>();
    return [request.query.q];
  },
});

// @ts-expect-error the 200 response is an array of strings (reported on the call: @fastify/websocket,
// loaded by other files of this program, adds a `route` overload, and no overload matches)
app.route({
  method: 'GET',
  url: '/search-wrong',
  schema: { query: searchQuery, response: { 200: { type: 'array', items: { type: 'string' } } } },
  handler: async () => [1, 2],
});

// ── A schema widened to `string` keywords (declared apart without `as const`) gives `unknown`.
const widened = { type: 'object', properties: { a: { type: 'string' } } };
app.post('/widened', { schema: { body: widened } }, async (request) => {
  expectTypeOf(request.body).toBeUnknown();
});

// ── `$ref` to a shared schema: only the store can resolve it, so `unknown` (name the type instead).
app.post('/ref', { schema: { body: { $ref: 'user#' } } }, async (request) => {
  expectTypeOf(request.body).toBeUnknown();
});

// ── The contract shorthand (no `type`, no `properties`): the keys are the properties. ──────
app.get('/shorthand', { schema: { querystring: { page: { type: 'integer' } } } }, async (request) => {
  expectTypeOf(request.query).toEqualTypeOf<{ [key: string]: unknown; page?: number }>();
});

// ── Reply payload checks: handler return and reply.send, per status. ─────────────────────────
const replySchemas = {
  response: {
    200: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    '4xx': { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
  },
} as const;

app.get('/reply-ok', { schema: replySchemas }, async () => ({ ok: true }));
// @ts-expect-error `ok` must be a boolean
app.get('/reply-bad', { schema: replySchemas }, async () => ({ ok: 'yes' }));
app.get('/reply-send', { schema: replySchemas }, async (_request, reply) => {
  reply.code(404).send({ error: 'not here' }); // the class key '4xx'
  // @ts-expect-error the 4xx schema requires `error`
  reply.code(404).send({ ok: true });
  // @ts-expect-error the 200 schema requires `ok`
  reply.send({ error: 'x' });
  reply.code(500).send({ whatever: 1 }); // no schema for 5xx: anything
  reply.send(new Error('errors are always accepted'));
  // @ts-expect-error a declared reply type needs its payload (as in Fastify)
  reply.send();
  return reply;
});

// A reply type whose keys are not all HTTP statuses is a payload type, not a status map.
app.get<{ Reply: { 200: string; 999: boolean } }>('/not-a-status-map', async (_request, reply) => reply.send({ 200: 'ok', 999: true }));

// '2xx', 'default' and several success statuses: the handler may return any of them.
app.post('/several', { schema: { response: { 200: { type: 'string' }, 201: { type: 'number' }, default: { type: 'null' } } } }, async (_request, reply) => {
  if (Math.random() > 0.5) return reply.code(201).send(1);
  // @ts-expect-error the default response is null, not a string
  reply.code(500).send(true);
  return 'two hundred';
});

// A content map (SPEC §7.1): the union of its schemas.
app.get(
  '/content',
  {
    schema: {
      response: { 200: { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } } } },
    },
  },
  async () => ({ id: 1 }),
);

// ── Explicit generics, Fastify style, win over the schema part by part. ───────────────────────
interface Book {
  id: number;
  title: string;
}
app.get<{ Params: { id: number }; Reply: Book }>(
  '/books/:id',
  { schema: { params: { $ref: 'id-params#' }, querystring: { type: 'object', properties: { full: { type: 'boolean' } } } } },
  async (request, reply) => {
    expectTypeOf(request.params).toEqualTypeOf<{ id: number }>();
    expectTypeOf(request.query).toBeUnknown(); // explicit generics switch schema inference off for the route
    if (request.params.id === 0) return reply.code(404).send(new Error('missing'));
    // @ts-expect-error `title` is missing
    reply.send({ id: 1 });
    return { id: 1, title: 'Dune' };
  },
);
// @ts-expect-error the reply is a Book
app.get<{ Reply: Book }>('/books', async () => ({ id: 'one' }));

// A `Reply` status map, as Fastify 5 accepts it.
app.get<{ Reply: { 200: Book; '4xx': { message: string } } }>('/map', async (_request, reply) => {
  reply.code(404).send({ message: 'no' });
  // @ts-expect-error 404 answers { message }
  reply.code(404).send({ id: 1, title: 't' });
  return { id: 1, title: 't' };
});

// ── TypeBox schemas infer through their static type. ─────────────────────────────────────────
const NewBook = Type.Object({ title: Type.String(), year: Type.Optional(Type.Integer()) });
app.post('/typebox', { schema: { body: NewBook, response: { 200: Type.Object({ id: Type.Number() }) } } }, async (request) => {
  expectTypeOf(request.body).toEqualTypeOf<{ title: string; year?: number }>();
  return { id: 1 };
});
// @ts-expect-error the TypeBox response says `id` is a number
app.post('/typebox-bad', { schema: { response: { 200: Type.Object({ id: Type.Number() }) } } }, async () => ({ id: 'x' }));

// ── TypeBox 1.x (the `typebox` package) infers exactly too: closed objects, no index signature.
const NewBook1 = TypeBox1.Object({ title: TypeBox1.String(), year: TypeBox1.Optional(TypeBox1.Number()) });
app.post('/typebox-1', { schema: { body: NewBook1, response: { 200: TypeBox1.Object({ id: TypeBox1.Number() }) } } }, async (request) => {
  expectTypeOf(request.body).toEqualTypeOf<{ title: string; year?: number }>();
  return { id: 1 };
});
// @ts-expect-error the TypeBox 1.x response says `id` is a number
app.post('/typebox-1-bad', { schema: { response: { 200: TypeBox1.Object({ id: TypeBox1.Number() }) } } }, async () => ({ id: 'x' }));

// ── Handlers declared apart take the resolved route type. ───────────────────────────────────
const handler: RouteHandler<{ Params: { slug: string } }> = async (request) => request.params.slug;
app.get<{ Params: { slug: string } }>('/posts/:slug', handler);
expectTypeOf<EnclaveRequest<{ Body: { a: 1 } }>['body']>().toEqualTypeOf<{ a: 1 }>();
expectTypeOf<SchemaToType<{ type: 'string'; enum: ['a', 'b'] }>>().toEqualTypeOf<'a' | 'b'>();
expectTypeOf<SchemaToType<unknown>>().toBeUnknown();
