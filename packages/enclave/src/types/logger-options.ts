// The `logger` factory option (pino's options, plus the serializers typed by what Enclave hands
// them) and Fastify's logger type names. Sits above request.ts and reply.ts.
import type pino from 'pino';
import type { FastifyError } from './errors.js';
import type { FastifyBaseLogger, RawServerBase, RawServerDefault } from './fastify-names.js';
import type { FastifyReply } from './reply.js';
import type { FastifyRequest } from './request.js';

/** pino's own options, which the `logger` option passes on to pino. */
export type PinoLoggerOptions = pino.LoggerOptions;

/** Fastify's former name for `FastifyBaseLogger` (deprecated there). */
export type FastifyLoggerInstance = FastifyBaseLogger;

/** Where a `logger: { stream }` option writes its lines. */
export interface FastifyLoggerStreamDestination {
  write(line: string): void;
}

/**
 * The `logger` option's own keys: serializers typed by what Enclave logs (the request, the
 * reply as far as it was built, the error), a `file` or `stream` destination.
 */
export interface FastifyLoggerOptions<
  // biome-ignore lint/correctness/noUnusedVariables: Fastify's server parameter, kept so that Fastify-typed code compiles.
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends FastifyRequest = FastifyRequest,
  RawReply extends FastifyReply = FastifyReply,
> {
  serializers?: {
    req?: (request: RawRequest) => {
      method?: string;
      url?: string;
      version?: string;
      host?: string;
      remoteAddress?: string;
      remotePort?: number;
      [key: string]: unknown;
    };
    // A reply may be logged before its status is final, so only statusCode is sure to be there.
    res?: (reply: Partial<RawReply> & Pick<RawReply, 'statusCode'>) => { statusCode?: string | number; [key: string]: unknown };
    err?: (error: FastifyError) => { type: string; message: string; stack: string; [key: string]: unknown };
  };
  level?: string;
  /** A file to append the log lines to (instead of `stream`). */
  file?: string;
  genReqId?: (request: RawRequest) => string;
  stream?: FastifyLoggerStreamDestination;
}
