// Type tests: the factory's overloads and type parameters (Fastify's), and its options.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
import enclave, { type EnclaveInstance, type FastifyBaseLogger, type FastifyInstance } from 'enclavejs';
import { expectTypeOf } from 'expect-type';

// A plain call is Enclave's instance, the one users augment.
expectTypeOf(enclave()).toEqualTypeOf<EnclaveInstance>();
expectTypeOf(enclave({ logger: true, trustProxy: ['127.0.0.1'] })).toEqualTypeOf<EnclaveInstance>();

// The server type follows the options.
expectTypeOf(enclave({ http2: true }).server).toEqualTypeOf<Http2Server>();
expectTypeOf(enclave({ http2: true, https: {} }).server).toEqualTypeOf<Http2SecureServer>();
expectTypeOf(enclave({ https: {} }).server).toEqualTypeOf<HttpsServer>();
expectTypeOf(enclave({ https: null }).server).toEqualTypeOf<HttpsServer>();

// Fastify's type parameters may be named: server, raw request, raw reply, logger.
interface QuietLogger extends FastifyBaseLogger {
  quiet(): void;
}
declare const quietLogger: QuietLogger;
const named = enclave<Server, IncomingMessage, ServerResponse, QuietLogger>({ loggerInstance: quietLogger });
expectTypeOf(named).toEqualTypeOf<FastifyInstance<Server, IncomingMessage, ServerResponse, QuietLogger>>();
// The logger's type comes from `loggerInstance` when it is not named.
expectTypeOf(enclave({ loggerInstance: quietLogger }).log).toEqualTypeOf<QuietLogger>();
// @ts-expect-error an http2 server needs `http2: true`
enclave<Http2Server>({ http2: false });

// A hop count is refused, as Fastify's types refuse it: at run time it trusts nobody.
// @ts-expect-error trustProxy takes addresses, `true` or a function, not a number
enclave({ trustProxy: 1 });
// @ts-expect-error a schema bucket has add, getSchema and getSchemas
enclave({ schemaController: { bucket: () => ({}) } });
// @ts-expect-error routerOptions.compile is a boolean
enclave({ routerOptions: { compile: 'yes' } });
enclave({
  genReqId: (raw) => {
    expectTypeOf(raw).toEqualTypeOf<IncomingMessage>();
    return 'id';
  },
  routerOptions: {
    defaultRoute: (raw, res) => {
      expectTypeOf(raw).toEqualTypeOf<IncomingMessage>();
      res.end();
    },
  },
});
