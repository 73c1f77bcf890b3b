// Fastify 5.12's pluggable request logging: the `logController` factory option takes an
// instance of `LogController` (or of a subclass that overrides some of its methods); Enclave
// calls it for the per-request log lines. Without the option, Enclave logs as before.

type Request = { log: any; raw: { url?: string | undefined; method?: string | undefined } };
type Reply = { log: any; statusCode: number; elapsedTime: number };

export interface LogControllerOptions {
  disableRequestLogging?: boolean | ((request: any) => boolean);
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
  disableRequestLogging: boolean | ((request: any) => boolean);
  requestIdLogLabel: string;

  constructor(options: LogControllerOptions = {}) {
    this.disableRequestLogging = options.disableRequestLogging ?? false;
    this.requestIdLogLabel = options.requestIdLogLabel ?? 'reqId';
  }

  isLogDisabled(request: Request): boolean {
    const setting = this.disableRequestLogging;
    return typeof setting === 'function' ? setting(request) === true : setting === true;
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

  streamError(error: Error & { code?: string }, request: Request, reply: Reply, _metadata?: Record<string, unknown>): void {
    if (this.isLogDisabled(request)) return;
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') reply.log.info({ res: reply }, 'stream closed prematurely');
    else reply.log.warn({ err: error }, 'the response stream failed after the headers were sent');
  }

  routeNotFound(request: Request, _reply: Reply, _metadata?: Record<string, unknown>): void {
    if (!this.isLogDisabled(request)) request.log.info(`Route ${request.raw.method}:${request.raw.url} not found`);
  }

  writeHeadError(error: Error, request: Request, reply: Reply, _metadata?: Record<string, unknown>): void {
    if (!this.isLogDisabled(request)) reply.log.warn({ req: request, res: reply, err: error }, error?.message);
  }

  serializerError(error: Error, request: Request, reply: Reply, metadata: { statusCode: number }): void {
    if (!this.isLogDisabled(request)) reply.log.error({ err: error, statusCode: metadata.statusCode }, 'the serializer for the status code failed');
  }

  serviceUnavailable(logger: any, _server: unknown): void {
    logger.info({ res: { statusCode: 503 } }, 'request refused: the server is closing');
  }
}
