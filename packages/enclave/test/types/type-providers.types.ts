// Type tests for `withTypeProvider()` (issue 19): any interface with Fastify's type-provider
// shape works, without Fastify's types; explicit generics still win; a provider's `unknown`
// falls back to Enclave's own inference.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import enclave, { type TypeProviderShape } from 'enclavejs';
import { expectTypeOf } from 'expect-type';

/** A hand-written provider: schemas are `{ kind: 'text' }` or `{ kind: 'count' }`. */
interface KindProvider extends TypeProviderShape {
  validator: this['schema'] extends { kind: 'text' } ? string : this['schema'] extends { kind: 'count' } ? number : unknown;
  serializer: this['schema'] extends { kind: 'text' } ? string : unknown;
}

const app = enclave().withTypeProvider<KindProvider>();
app
  .post('/kinds', { schema: { body: { kind: 'count' }, querystring: { type: 'object', properties: { q: { type: 'string' } } } } }, async (request) => {
    expectTypeOf(request.body).toEqualTypeOf<number>();
    // Not the provider's kind of schema: Enclave's JSON Schema inference answers.
    expectTypeOf(request.query.q).toEqualTypeOf<string | undefined>();
    return 'ok';
  })
  .get('/chained', { schema: { response: { 200: { kind: 'text' } } } }, async () => {
    return 'typed by the serializer member';
  });
// @ts-expect-error the 200 response is `string` through the provider
app.get('/wrong', { schema: { response: { 200: { kind: 'text' } } } }, async () => 42);

// Explicit generics win over the provider.
app.post<{ Body: { explicit: true } }>('/explicit', { schema: { body: { kind: 'count' } } }, async (request) => {
  expectTypeOf(request.body).toEqualTypeOf<{ explicit: true }>();
});

// The real TypeBox provider.
enclave()
  .withTypeProvider<TypeBoxTypeProvider>()
  .get('/tb', { schema: { params: Type.Object({ id: Type.Integer() }) } }, async (request) => {
    expectTypeOf(request.params.id).toEqualTypeOf<number>();
    // @ts-expect-error not in the schema
    void request.params.other;
  });

// Through a provider too, header names are read lowercased (Node lowercases them).
enclave()
  .withTypeProvider<TypeBoxTypeProvider>()
  .get('/tb-headers', { schema: { headers: Type.Object({ 'X-Count': Type.Number() }) } }, async (request) => {
    expectTypeOf(request.headers['x-count']).toEqualTypeOf<number>();
    expectTypeOf(request.headers['X-Count']).toEqualTypeOf<string | string[] | undefined>();
  });

// A type without the shape is refused.
// @ts-expect-error `validator`/`serializer` are missing
enclave().withTypeProvider<{ schema: unknown }>();

// register() and addHook() keep the provider along the chain, as in Fastify; register() also
// adds the plugin's declared decorators.
declare const clockPlugin: import('enclavejs').Plugin<{}, { clock: () => number }>;
const chained = enclave()
  .withTypeProvider<KindProvider>()
  .register(clockPlugin)
  .addHook('onRequest', async () => {})
  .addHook<{ Body: { sku: string } }>('preHandler', async (request) => {
    expectTypeOf(request.body.sku).toEqualTypeOf<string>();
  });
expectTypeOf(chained.clock).toEqualTypeOf<() => number>();
chained.post('/after-chain', { schema: { body: { kind: 'count' } } }, async (request) => {
  expectTypeOf(request.body).toEqualTypeOf<number>();
});
enclave()
  .withTypeProvider<KindProvider>()
  .register(
    async (child) => {
      child.get('/inside', async () => 'ok');
    },
    { prefix: '/p' },
  )
  .get('/outside', { schema: { querystring: { kind: 'text' } } }, async (request) => {
    expectTypeOf(request.query).toEqualTypeOf<string>();
  });

// route() refuses, through the provider, what the provider's types refuse (the instance's own
// route signatures do not accept it instead).
// @ts-expect-error the 200 response is `string` through the provider
app.route({ method: 'GET', url: '/wrong-route', schema: { response: { 200: { kind: 'text' } } }, handler: async () => 42 });

// A provider-typed instance is a FastifyInstance (issue 31), also after register() and with
// its own logger type.
expectTypeOf(enclave().withTypeProvider<KindProvider>()).toExtend<import('enclavejs').FastifyInstance>();
const ownLogger = { level: 'info', info() {}, warn() {}, error() {}, fatal() {}, trace() {}, debug() {}, silent() {}, child: () => ownLogger };
expectTypeOf(
  enclave({ loggerInstance: ownLogger })
    .withTypeProvider<KindProvider>()
    .register(async () => {}),
).toExtend<
  import('enclavejs').FastifyInstance<
    import('node:http').Server,
    import('node:http').IncomingMessage,
    import('node:http').ServerResponse,
    typeof ownLogger,
    KindProvider
  >
>();
