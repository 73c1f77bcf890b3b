// Type tests: the logger types (`FastifyBaseLogger`, `LogLevel`); what a handler's request and
// reply carry of their instance (logger, raw request and reply types) and of their route (`config`);
// and the route generic a handler typed apart gives its route method.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import enclave, {
  type FastifyBaseLogger,
  type FastifyLogFn,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
  type FastifyTypeProviderDefault,
  type LogLevel,
  type RouteGenericInterface,
  type RouteHandlerMethod,
} from 'enclavejs';
import { expectTypeOf } from 'expect-type';

const log = enclave().log;
// Every level, `silent` included, has its method: a level held in a variable indexes the logger.
declare const level: LogLevel;
expectTypeOf(log[level]).toEqualTypeOf<FastifyLogFn>();
expectTypeOf(log[level]('message')).toEqualTypeOf<void>();

// `child` takes pino's child options; an unknown one is refused.
expectTypeOf(log.child({}, { level: 'silent', redact: ['password'] })).toEqualTypeOf<FastifyBaseLogger>();
// @ts-expect-error `nonExist` is not a child logger option
log.child({}, { nonExist: true });

// A handler's request.log has the instance's logger type, as `this.log` has.
interface AuditLogger extends FastifyBaseLogger {
  audit(message: string): void;
}
declare const auditLogger: AuditLogger;
const audited = enclave({ loggerInstance: auditLogger });
audited.get('/', function (request, reply) {
  expectTypeOf(this.log).toEqualTypeOf<AuditLogger>();
  expectTypeOf(request.log).toEqualTypeOf<AuditLogger>();
  expectTypeOf(reply.raw).toEqualTypeOf<ServerResponse>();
});
audited.route({
  method: 'GET',
  url: '/route',
  handler(request) {
    expectTypeOf(request.log).toEqualTypeOf<AuditLogger>();
  },
});
// A handler typed apart names the logger among Fastify's parameters.
const audit: RouteHandlerMethod<
  Server,
  IncomingMessage,
  ServerResponse,
  RouteGenericInterface,
  unknown,
  FastifySchema,
  FastifyTypeProviderDefault,
  AuditLogger
> = function (request) {
  expectTypeOf(request.log).toEqualTypeOf<AuditLogger>();
};
audited.get('/apart', audit);
// A plain instance's request keeps the base logger type.
enclave().get('/', (request) => {
  expectTypeOf(request.log).toEqualTypeOf<FastifyBaseLogger>();
  expectTypeOf(request.raw).toEqualTypeOf<IncomingMessage>();
});

// Raw request and reply types named on the factory (a custom serverFactory's) reach the handler.
interface TracedRequest extends IncomingMessage {
  traceId?: string;
}
interface TracedResponse extends ServerResponse {
  traced?: true;
}
enclave<Server, TracedRequest, TracedResponse>().get('/', (request, reply) => {
  expectTypeOf(request.raw).toEqualTypeOf<TracedRequest>();
  expectTypeOf(reply.raw).toEqualTypeOf<TracedResponse>();
});

// The route's `config` type reaches request.routeOptions.config and reply.routeOptions.config.
enclave().get<RouteGenericInterface, { cached: boolean }>('/', { config: { cached: true } }, (request, reply) => {
  expectTypeOf(request.routeOptions.config.cached).toEqualTypeOf<boolean>();
  expectTypeOf(reply.routeOptions.config.cached).toEqualTypeOf<boolean>();
  expectTypeOf(request.routeOptions.config.url).toEqualTypeOf<string>();
});
// The route's errorHandler sees it too.
enclave().get<RouteGenericInterface, { cached: boolean }>('/error-config', {
  config: { cached: true },
  handler: () => 'ok',
  errorHandler: (_error, request) => {
    expectTypeOf(request.routeOptions.config.cached).toEqualTypeOf<boolean>();
  },
});

// A handler whose request is typed `FastifyRequest<…>` gives the route method its route generic.
type TypedRequest = FastifyRequest<{ Params: { id: number }; Body: { name: string } | undefined }>;
function putHandler(request: TypedRequest, _reply: FastifyReply) {
  expectTypeOf(request.params.id).toEqualTypeOf<number>();
}
enclave().put('/:id', putHandler);
