// Type tests: each hook's signature (SPEC §4.2, §4.3), async and `done` forms, on the instance
// and on a route. One signature per hook, so inline hooks get typed parameters.
import type { Readable } from 'node:stream';
import type { FastifyError as ErrorOfFastifyErrorPackage } from '@fastify/error';
import enclave, {
  type HTTPMethods,
  type EnclaveError,
  type FastifyError,
  type FastifyPluginOptions,
  type FastifySchemaValidationError,
  type RegisterOptions,
  type ValidationContext,
  type EnclaveInstance,
  type EnclaveReply,
  type EnclaveRequest,
  type HookDone,
  type RequestHook,
  type RouteRegistration,
  type SerializedPayload,
} from 'enclavejs';
import { expectTypeOf } from 'expect-type';

const app = enclave();

// ── Request hooks: (request, reply, done) or async (request, reply). ─────────────────────────
for (const name of ['onRequest', 'preValidation', 'preHandler', 'onResponse', 'onTimeout'] as const) {
  app.addHook(name, async function (request, reply) {
    expectTypeOf(this).toEqualTypeOf<EnclaveInstance>();
    expectTypeOf(request).toEqualTypeOf<EnclaveRequest>();
    expectTypeOf(reply).toEqualTypeOf<EnclaveReply>();
  });
  app.addHook(name, (_request, _reply, done) => {
    expectTypeOf(done).toEqualTypeOf<HookDone>();
    done();
  });
}
app.addHook('onRequest', (_request, _reply, done) => done(new Error('refused')));
app.addHook('preHandler', async (request, reply) => {
  if (request.headers.authorization === undefined) return reply.code(401).send({ error: 'no credentials' });
});
// @ts-expect-error `done` takes an Error, not a string
app.addHook('onRequest', (_request, _reply, done) => done('refused'));
// @ts-expect-error a request hook has three parameters at most
app.addHook('onRequest', (_request, _reply, _done, _extra: unknown) => {});
// @ts-expect-error a callback hook returns nothing (or a promise when async)
app.addHook('onResponse', () => 42);
// @ts-expect-error not a hook name
app.addHook('onRequests', async () => {});

// ── preParsing: the body stream, replaceable. ────────────────────────────────────────────────
app.addHook('preParsing', async (_request, _reply, payload) => {
  expectTypeOf(payload).toMatchTypeOf<Readable>();
  expectTypeOf(payload.receivedEncodedLength).toEqualTypeOf<number | undefined>();
  return payload;
});
app.addHook('preParsing', (_request, _reply, payload, done) => done(null, payload));
// @ts-expect-error preParsing must hand back a stream
app.addHook('preParsing', async () => 'not a stream');

// ── preSerialization: the handler's value. ─────────────────────────────────────────────────
app.addHook('preSerialization', async (_request, _reply, payload) => {
  expectTypeOf(payload).toBeUnknown();
  return { wrapped: payload };
});
app.addHook('preSerialization', (_request, _reply, payload, done) => done(null, { wrapped: payload }));

// ── onSend: the serialized payload. ──────────────────────────────────────────────────────────
app.addHook('onSend', async (_request, reply, payload) => {
  expectTypeOf(payload).toEqualTypeOf<SerializedPayload>();
  reply.header('x-length', typeof payload === 'string' ? payload.length : 0);
  return payload;
});
app.addHook('onSend', (_request, _reply, payload, done) => done(null, payload));
// @ts-expect-error onSend hands back a string, Buffer or stream
app.addHook('onSend', async () => ({ not: 'serialized' }));

// ── onError: observes the error; onRequestAbort: the request only. ──────────────────────────
// The error as thrown, typed as Fastify types it: a plain Error from a handler has no statusCode
// (hooks.test.ts, 'onError sees the error as thrown'); a validation error carries its issues.
app.addHook('onError', async (_request, _reply, error) => {
  expectTypeOf(error).toEqualTypeOf<FastifyError>();
  expectTypeOf(error).toEqualTypeOf<ErrorOfFastifyErrorPackage>();
  expectTypeOf(error.statusCode).toEqualTypeOf<number | undefined>();
  expectTypeOf(error.validationContext).toEqualTypeOf<ValidationContext | undefined>();
  expectTypeOf(error.validation).toEqualTypeOf<FastifySchemaValidationError[] | undefined>();
});
// Enclave's own errors are FastifyErrors whose status is always set.
expectTypeOf<EnclaveError>().toMatchTypeOf<FastifyError>();
app.addHook('onError', (_request, _reply, _error, done) => done());
app.addHook('onRequestAbort', async (request) => {
  expectTypeOf(request).toEqualTypeOf<EnclaveRequest>();
});
app.addHook('onRequestAbort', (_request, done) => done());

// ── Application hooks. ─────────────────────────────────────────────────────────────────────
app.addHook('onRoute', (route) => {
  expectTypeOf(route).toEqualTypeOf<RouteRegistration>();
  expectTypeOf(route.routePath).toEqualTypeOf<string>();
  expectTypeOf(route.method).toEqualTypeOf<HTTPMethods | HTTPMethods[]>();
});
app.addHook('onRegister', (instance, options) => {
  expectTypeOf(instance).toEqualTypeOf<EnclaveInstance>();
  // The options given to register(): its own keys typed, the plugin's as Fastify types them.
  expectTypeOf(options).toEqualTypeOf<RegisterOptions & FastifyPluginOptions>();
  expectTypeOf(options.prefix).toEqualTypeOf<string | undefined>();
});
for (const name of ['onReady', 'onListen', 'preClose'] as const) {
  app.addHook(name, async function () {
    expectTypeOf(this).toEqualTypeOf<EnclaveInstance>();
  });
  app.addHook(name, (done) => done());
}
app.addHook('onClose', async (instance) => {
  expectTypeOf(instance).toEqualTypeOf<EnclaveInstance>();
});
app.addHook('onClose', (_instance, done) => done());
// @ts-expect-error onClose's first parameter is the instance, not `done`
app.addHook('onClose', (done: HookDone) => done());

// ── Route-level hooks see the route's inferred types. ─────────────────────────────────────
app.post(
  '/orders',
  {
    schema: { body: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } },
    preHandler: [
      async (request) => {
        expectTypeOf(request.body.sku).toEqualTypeOf<string>();
      },
    ],
    // A route's own onSend takes `unknown`, as Fastify types it there (addHook names the serialized payload).
    onSend: (_request, _reply, payload, done) => {
      expectTypeOf(payload).toEqualTypeOf<unknown>();
      done(null, payload);
    },
  },
  async (request) => request.body.sku,
);

// A hook declared apart.
const audit: RequestHook = async (request) => {
  request.log.info({ url: request.url }, 'audited');
};
app.addHook('onResponse', audit);

// ── Fastify's form: the route generic given first types the request parts in the hook. ───────
interface OrderRoute {
  Body: { sku: string; quantity: number };
  Querystring: { dryRun?: boolean };
}
app
  .addHook<OrderRoute>('preHandler', async (request) => {
    expectTypeOf(request.body.quantity).toEqualTypeOf<number>();
    expectTypeOf(request.query.dryRun).toEqualTypeOf<boolean | undefined>();
  })
  .addHook<OrderRoute>('preValidation', (request, _reply, done) => {
    expectTypeOf(request.body.sku).toEqualTypeOf<string>();
    done();
  })
  // onSend and preSerialization take the payload type first, as in Fastify (`addHook<Payload, Route>`).
  .addHook<SerializedPayload, OrderRoute>('onSend', async (request, _reply, payload) => {
    expectTypeOf(request.body.sku).toEqualTypeOf<string>();
    return payload;
  })
  .addHook<OrderRoute>('onError', async (request, _reply, error) => {
    expectTypeOf(request.query.dryRun).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(error).toEqualTypeOf<FastifyError>();
  });
// @ts-expect-error a route generic means a request hook, not an application hook
app.addHook<OrderRoute>('onReady', async () => {});

// ── Fastify's payload generic: `addHook<Payload>('onSend' | 'preSerialization', …)` types the payload. ──
interface Envelope {
  data: string;
}
app.addHook<Envelope>('preSerialization', async (_request, _reply, payload) => {
  expectTypeOf(payload).toEqualTypeOf<Envelope>();
  return payload;
});
app.addHook<Envelope>('onSend', (_request, _reply, payload, done) => {
  expectTypeOf(payload).toEqualTypeOf<Envelope>();
  done(null, payload);
});

// ── An async hook that also declares `done` is refused, as in Fastify: it would never call it. ──
// @ts-expect-error async, and declares done
app.addHook('onRequest', async (_request, _reply, _done) => {});
// @ts-expect-error async, and declares done
app.addHook('preParsing', async (_request, _reply, payload, _done) => payload);
// @ts-expect-error async, and declares done
app.addHook('onSend', async (_request, _reply, payload, _done) => payload);
// @ts-expect-error async, and declares done
app.addHook('onError', async function (_request, _reply, _error, _done) {});
// @ts-expect-error async, and declares done
app.addHook('onRequestAbort', async (_request, _done) => {});
// @ts-expect-error async, and declares done
app.addHook('onReady', async (_done) => {});
// @ts-expect-error async, and declares done
app.addHook('onClose', async (_instance, _done) => {});
// (With a route generic given, `addHook<OrderRoute>('preHandler', async (request, reply, done) => …)`,
// TypeScript infers nothing from the hook, so the form is not refused there; Fastify's types neither.)
// The same hooks without `done`, or with `done` and no promise, are accepted.
app.addHook('onRequest', async (_request, _reply) => {});
app.addHook('onClose', (_instance, done) => done());
app.addHook('onError', async (_request, _reply, _error) => {});
// Hooks without `done` may be async with all their parameters.
app.addHook('onRegister', async (_instance, _options) => {});
app.addHook('onRoute', async (_route) => {});
