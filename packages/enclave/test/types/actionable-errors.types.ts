// Type tests for two errors a user must be able to act on (issue 15): wrong plugin options are
// reported at the option, not as "not assignable to parameter of type 'never'" (the wording is
// checked by actionable-errors.test.ts); and a schema whose `$ref` points outside itself (an
// `$id: '#note'` anchor, the root `#`, a shared schema) types its part as `unknown` instead of
// failing with TS2615 (circularity) or typing properties as `never`.
import bearerAuth from '@enclavejs/bearer-auth';
import cors from '@fastify/cors';
import enclave from 'enclavejs';
import { expectTypeOf } from 'expect-type';

const app = enclave();

// ── Plugin options: the error sits on the option that is wrong. ────────────────────────────
app.register(bearerAuth, {
  // @ts-expect-error `keys` is an array or a Set of strings
  keys: 'one-key',
});
app.register(bearerAuth, {
  keys: ['a'],
  // @ts-expect-error `addHook` is a boolean
  addHook: 'no',
});
app.register(bearerAuth, {
  // @ts-expect-error a misspelt option is named
  kyes: ['a'],
});
app.register(async (_child, _options: { url: string }) => {}, {
  // @ts-expect-error `url` is a string
  url: 1,
});
app.register(bearerAuth, { keys: new Set(['a']), addHook: false }); // right options still pass
// A plugin typed for Fastify's instance: its options are checked the same way.
app.register(cors, { origin: true, maxAge: 600 });
app.register(cors, {
  // @ts-expect-error `maxAge` is a number of seconds
  maxAge: 'ten minutes',
});

// ── `$ref` outside the schema: `unknown`, no circularity error. ─────────────────────────────
app.post(
  '/notes',
  {
    schema: {
      body: {
        $id: '#note',
        type: 'object',
        properties: { text: { type: 'string' }, replies: { type: 'array', items: { $ref: '#note' } } },
      },
      response: {
        200: { $id: '#reply', type: 'object', properties: { parent: { $ref: '#reply' } } },
        201: { type: 'object', properties: { self: { $ref: '#' } } },
      },
    },
  },
  async (request) => {
    expectTypeOf(request.body).toBeUnknown();
    return { anything: true };
  },
);

// serialization.md's response schema, written in TypeScript.
app.get(
  '/refs',
  {
    schema: {
      response: {
        200: {
          type: 'object',
          definitions: { note: { $id: '#note', type: 'string' } },
          properties: { remark: { $ref: '#note' }, price: { $ref: 'money#' } },
        },
      },
    },
  },
  async () => ({ price: { amount: 1, currency: 'EUR' } }),
);

// A JSON pointer into the schema itself is still read.
app.post(
  '/points',
  {
    schema: {
      body: {
        type: 'object',
        definitions: { point: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } } },
        required: ['at'],
        properties: { at: { $ref: '#/definitions/point' } },
      },
    },
  },
  async (request) => {
    expectTypeOf(request.body.at.x).toEqualTypeOf<number>();
    return null;
  },
);
