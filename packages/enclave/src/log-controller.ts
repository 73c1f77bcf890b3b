// Fastify 5.12's pluggable request logging: every per-request log line Enclave writes goes
// through one `LogController`, the one the `logController` factory option gives (an instance of
// `LogController` or of a subclass overriding some of its methods), else a default one built
// from `disableRequestLogging` and `requestIdLogLabel`. The messages are Fastify's, word for
// word: log pipelines match on them. The methods get the request and the reply as users see them
// (Fastify's signatures: a subclass's overrides are typed as in Fastify).
import type { Logger } from './logger.js';
import type { EnclaveInstance } from './types/instance.js';
import type { EnclaveReply as Reply } from './types/reply.js';
import type { EnclaveRequest as Request } from './types/request.js';

export interface LogControllerOptions {
  disableRequestLogging?: boolean | ((request: Request) => boolean);
  requestIdLogLabel?: string;
}

/**
 * Decides whether and how each request-related line is logged. Subclass it and override a
 * method to change one line; pass the instance as the `logController` option.
 *
 * @example
 * class Quiet extends LogController { incomingRequest() {} }
 * enclave({ logger: true, logController: new Quiet() })
 */
export class LogController {
  disableRequestLogging: boolean | ((request: Request) => boolean);
  requestIdLogLabel: string;

  constructor(options: LogControllerOptions = {}) {
    this.disableRequestLogging = options.disableRequestLogging ?? false;
    this.requestIdLogLabel = options.requestIdLogLabel ?? 'reqId';
  }

  isLogDisabled(request: Request): boolean {
    const setting = this.disableRequestLogging;
    return typeof setting === 'function' ? Boolean(setting(request)) : setting === true;
  }

  incomingRequest(request: Request, _reply: Reply, _metadata?: Record<string, unknown>): void {
    if (!this.isLogDisabled(request)) request.log.info({ req: request }, 'incoming request');
  }

  requestCompleted(error: Error | null | undefined, request: Request, reply: Reply, _metadata?: Record<string, unknown>): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  defaultErrorLog(error: Error, request: Request, reply: Reply, _metadata?: Record<string, unknown>): void {
    if (this.isLogDisabled(request)) return;
    if (reply.statusCode >= 500) reply.log.error({ req: request, res: reply, err: error }, error?.message);
    else reply.log.info({ res: reply, err: error }, error?.message);
  }

  streamError(error: Error & { code?: string | undefined }, request: Request, reply: Reply, _metadata?: Record<string, unknown>): void {
    if (this.isLogDisabled(request)) return;
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') reply.log.info({ res: reply }, 'stream closed prematurely');
    else reply.log.warn({ err: error }, 'response terminated with an error with headers already sent');
  }

  routeNotFound(request: Request, _reply: Reply, _metadata?: Record<string, unknown>): void {
    if (!this.isLogDisabled(request)) request.log.info(`Route ${request.raw.method}:${request.raw.url} not found`);
  }

  writeHeadError(error: Error, request: Request, reply: Reply, _metadata?: Record<string, unknown>): void {
    if (!this.isLogDisabled(request)) reply.log.warn({ req: request, res: reply, err: error }, error?.message);
  }

  serializerError(error: Error, request: Request, reply: Reply, metadata: { statusCode: number }): void {
    if (!this.isLogDisabled(request)) reply.log.error({ err: error, statusCode: metadata.statusCode }, 'The serializer for the given status code failed');
  }

  serviceUnavailable(logger: Logger, _server: EnclaveInstance | undefined): void {
    logger.info({ res: { statusCode: 503 } }, 'request aborted - refusing to accept new requests as server is closing');
  }
}
