// Type tests: error fields (SPEC §6.5, §4.9), errorCodes, listen/inject results, and the
// companion packages' types (@enclavejs/bearer-auth options, @enclavejs/plugin metadata).
import bearerAuth, { type BearerAuthOptions } from '@enclavejs/bearer-auth';
import plugin, { type PluginMetadata } from '@enclavejs/plugin';
import enclave, { type EnclaveError, errorCodes, type FastifyError, type InjectResponse, type ValidationContext, type ValidationIssue } from 'enclavejs';
import type { AddressInfo } from 'node:net';
import { expectTypeOf } from 'expect-type';

const app = enclave();

// ── Errors. ─────────────────────────────────────────────────────────────────────────────────
// Unannotated, the error is `unknown` (as Fastify types it): anything can be thrown, and a plain
// Error reaches the handler without a statusCode.
app.setErrorHandler((error, _request, reply) => {
  expectTypeOf(error).toEqualTypeOf<unknown>();
  // @ts-expect-error narrow it first
  error.message;
  return reply.send(error instanceof Error ? error : new Error(String(error)));
});
// Named, it is what you say it is: Enclave's own errors carry code, statusCode and the validation
// fields; FastifyError's statusCode is optional (an error a handler throws need not carry one).
app.setErrorHandler<FastifyError>((error) => {
  expectTypeOf(error.statusCode).toEqualTypeOf<number | undefined>();
});
app.setErrorHandler<EnclaveError>((error, request, reply) => {
  expectTypeOf(error).toEqualTypeOf<EnclaveError>();
  expectTypeOf(error.statusCode).toEqualTypeOf<number>();
  expectTypeOf(error.code).toEqualTypeOf<string>();
  expectTypeOf(error.hint).toEqualTypeOf<string | undefined>();
  expectTypeOf(error.validation).toEqualTypeOf<ValidationIssue[] | undefined>();
  expectTypeOf(error.validationContext).toEqualTypeOf<ValidationContext | undefined>();
  if (error.validation) {
    const first = error.validation[0];
    if (first) expectTypeOf(first.instancePath).toEqualTypeOf<string>();
    return reply.code(422).send({ part: error.validationContext, issues: error.validation.map((issue) => issue.message) });
  }
  request.log.error({ err: error }, 'failed');
  return reply.send(error);
});
// @ts-expect-error validationContext is one of the four parts
const part: ValidationContext = 'cookies';
void part;

// Your own error type, named on the handler.
class PaymentRequired extends Error {
  readonly statusCode = 402;
}
app.setErrorHandler<PaymentRequired>((error, _request, reply) => reply.code(error.statusCode).send({ message: error.message }));

// errorCodes: constructors with `code` and `statusCode`, usable with and without `new`.
expectTypeOf(errorCodes.FST_ERR_VALIDATION.code).toEqualTypeOf<string>();
expectTypeOf(errorCodes.FST_ERR_NOT_FOUND.statusCode).toEqualTypeOf<number>();
expectTypeOf(new errorCodes.FST_ERR_NOT_FOUND()).toMatchTypeOf<Error>();
expectTypeOf(new errorCodes.FST_ERR_DEC_ALREADY_PRESENT('db').hint).toEqualTypeOf<string | undefined>();
// @ts-expect-error no such code
errorCodes.FST_ERR_DOES_NOT_EXIST;

// Validation with attachValidation: the handler reads request.validationError.
app.post('/attach', { attachValidation: true, schema: { body: { type: 'object' } } }, async (request, reply) => {
  expectTypeOf(request.validationError).toEqualTypeOf<EnclaveError | undefined>();
  if (request.validationError) return reply.code(422).send(request.validationError);
  return 'ok';
});

// ── listen and inject results. ─────────────────────────────────────────────────────────────
async function results() {
  expectTypeOf(await app.listen({ port: 0, host: '127.0.0.1' })).toEqualTypeOf<string>();
  app.listen({ port: 0 }, (error, address) => {
    expectTypeOf(error).toEqualTypeOf<Error | null>();
    expectTypeOf(address).toEqualTypeOf<string | undefined>();
  });
  // @ts-expect-error port is a number or a numeric string
  app.listen({ port: true });
  const response = await app.inject({ method: 'POST', url: '/attach', payload: { a: 1 } });
  expectTypeOf(response).toEqualTypeOf<InjectResponse>();
  expectTypeOf(response.statusCode).toEqualTypeOf<number>();
  expectTypeOf(response.json<{ ok: boolean }>()).toEqualTypeOf<{ ok: boolean }>();
  expectTypeOf(await app.inject().post('/attach').payload({ a: 1 }).end()).toEqualTypeOf<InjectResponse>();
  expectTypeOf(await app.inject().get('/')).toEqualTypeOf<InjectResponse>();
  // A TCP socket's address, or a Unix socket's path.
  expectTypeOf(app.addresses()).toEqualTypeOf<Array<AddressInfo | string>>();
  await app.close();
}
void results;

// ── @enclavejs/bearer-auth options. ─────────────────────────────────────────────────────────
app.register(bearerAuth, { keys: ['a-key'] });
app.register(bearerAuth, { keys: new Set(['a-key']), bearerType: 'Token', specCompliance: 'rfc6749', addHook: false });
app.register(bearerAuth, {
  auth: async (key, request) => key === request.headers['x-expected'],
  errorResponse: (error) => ({ message: error.message }),
  contentType: 'application/problem+json',
});
// @ts-expect-error keys are strings
app.register(bearerAuth, { keys: [42] });
// @ts-expect-error specCompliance is 'rfc6750' or 'rfc6749'
app.register(bearerAuth, { keys: ['k'], specCompliance: 'rfc7235' });
// @ts-expect-error auth returns a boolean (or a promise of one)
app.register(bearerAuth, { auth: () => 'yes' });
const options: BearerAuthOptions = { keys: ['k'], addHook: true };
app.register(bearerAuth, options);

// ── @enclavejs/plugin keeps the function's type, so declared decorators survive the wrapper. ──
const meta: PluginMetadata = { name: 'typed', dependencies: ['db'], decorators: { fastify: ['db'] } };
const wrapped = plugin(async (instance: typeof app, opts: { level: number }) => {
  instance.log.info(opts.level);
}, meta);
app.register(wrapped, { level: 1 });
// @ts-expect-error `level` is required by the wrapped plugin
app.register(wrapped, {});
// @ts-expect-error metadata names are strings
plugin(async () => {}, { name: 1 });
