// Logging is off unless asked for. When off, every log call is a no-op on one shared object,
// so the request path pays nothing for it.
import pino from 'pino';
import { errorCodes } from './errors.js';

type LogFn = (...args: any[]) => void;

/** The logger interface Enclave needs (pino's, and any compatible instance). */
export interface Logger {
  level: string;
  fatal: LogFn;
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  trace: LogFn;
  silent?: LogFn;
  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): Logger;
}

const noop: LogFn = () => {};

function createSilentLogger(): Logger {
  const logger: Logger = {
    level: 'silent',
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    child: () => logger,
  };
  return logger;
}

const requiredMethods = ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child'] as const;

/** Serializers that keep request/response logs small and free of bodies. */
const serializers = {
  req(request: any) {
    return {
      method: request.method,
      url: request.url,
      // The version a versioned route was asked for (find-my-way's Accept-Version constraint).
      version: request.headers?.['accept-version'],
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  res(reply: any) {
    return { statusCode: reply.statusCode };
  },
  err: pino.stdSerializers.err,
};

/**
 * Builds the application logger from the `logger` and `loggerInstance` factory options.
 * Returns the logger and whether logging is actually on.
 */
export function createLogger(logger: unknown, loggerInstance: unknown): { log: Logger; enabled: boolean } {
  if (loggerInstance !== undefined && logger !== undefined && logger !== false) {
    throw new errorCodes.FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED();
  }
  if (loggerInstance !== undefined) {
    if (loggerInstance === null || typeof loggerInstance !== 'object') {
      throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER_INSTANCE();
    }
    const missing = requiredMethods.filter((name) => typeof (loggerInstance as any)[name] !== 'function');
    if (missing.length > 0) throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','));
    return { log: loggerInstance as Logger, enabled: true };
  }
  if (logger === undefined || logger === false || logger === null) {
    return { log: createSilentLogger(), enabled: false };
  }
  if (logger === true) return { log: pino({ serializers }) as unknown as Logger, enabled: true };
  if (typeof logger !== 'object') throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER_CONFIG();
  const options = logger as Record<string, any>;
  // A pino-like instance passed as `logger` (Fastify 4 style) is accepted as an instance.
  if (requiredMethods.every((name) => typeof options[name] === 'function')) {
    return { log: options as unknown as Logger, enabled: true };
  }
  if (options.stream !== undefined && options.file !== undefined) {
    throw new errorCodes.FST_ERR_LOG_INVALID_DESTINATION();
  }
  const { stream, file, ...pinoOptions } = options;
  const destination = file !== undefined ? pino.destination(file) : stream;
  const merged = { ...pinoOptions, serializers: { ...serializers, ...(pinoOptions.serializers ?? {}) } };
  const instance = destination !== undefined ? pino(merged, destination) : pino(merged);
  return { log: instance as unknown as Logger, enabled: true };
}
