// Logging is off unless asked for. When off, every log call is a no-op on one shared object,
// so the request path pays nothing for it, and pino is not even loaded: an application
// without a logger does not pay pino's start-up either.
import type pinoModule from 'pino';
import { errorCodes } from './errors.js';

type Pino = typeof pinoModule;

/**
 * The logger interface Enclave needs (pino's, and any compatible instance). The log methods are
 * methods, so a logger whose own take narrower arguments (`info(message: string)`) still fits;
 * Enclave calls them as pino's: `(details, message)` or `(message)`.
 */
export interface Logger {
  level: string;
  fatal(...args: unknown[]): void;
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  info(...args: unknown[]): void;
  debug(...args: unknown[]): void;
  trace(...args: unknown[]): void;
  silent?(...args: unknown[]): void;
  /** pino's level table; a route's `logLevel` must name one of them when it is there. */
  levels?: { values: Record<string, number> };
  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): Logger;
}

const noop = (): void => {};

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

let loadedPino: Pino | undefined;
/** pino, loaded the first time a logger is asked for. */
function loadPino(): Pino {
  loadedPino ??= require('pino') as Pino;
  return loadedPino;
}

const requiredMethods = ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child'] as const;

/**
 * Whether `value` is a logger: true when it has every required method, false when it has none
 * (so it may be options); a partial logger (say `console`, without `fatal` and `child`) is refused.
 * `strict`: anything but a whole logger is refused (what a child-logger factory returns).
 */
export function isLogger(value: unknown, strict = false): boolean {
  const missing = requiredMethods.filter((name) => typeof (value as Record<string, unknown> | null | undefined)?.[name] !== 'function');
  if (missing.length === 0) return true;
  if (missing.length === requiredMethods.length && !strict) return false;
  throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','));
}

/**
 * The request and response serializers: the fields log pipelines read from Fastify's lines
 * (`req.method`, `req.url`, `req.version`, `req.host`, `req.remoteAddress`, `req.remotePort`,
 * `res.statusCode`), and never a body or a header value beyond `accept-version`.
 */
/** What the request serializer reads of a request (the fields may be missing on a foreign object). */
interface LoggedRequest {
  method?: unknown;
  url?: unknown;
  headers?: Record<string, unknown>;
  host?: unknown;
  ip?: unknown;
  socket?: { remotePort?: unknown };
}

function defaultSerializers(pino: Pino) {
  return {
    req(request: LoggedRequest) {
      return {
        method: request.method,
        url: request.url,
        version: request.headers?.['accept-version'],
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      };
    },
    res(reply: { statusCode?: unknown }) {
      return { statusCode: reply.statusCode };
    },
    err: pino.stdSerializers.err,
  };
}

/**
 * A logger instance the application gave: used through a child that adds the request and
 * response serializers where the instance has none of its own (its own win).
 */
function wrapInstance(instance: Logger): Logger {
  const pino = loadPino();
  const own = (instance as unknown as Record<symbol, Record<string, unknown> | undefined>)[pino.symbols.serializersSym];
  return instance.child({}, { serializers: { ...defaultSerializers(pino), ...own } });
}

/** A pino logger from the `logger` options (`stream` or `file` as its destination). */
function createPinoLogger(given: object): Logger {
  const pino = loadPino();
  // Every own property, enumerable or not, as given (an option object may define them any way).
  const options: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(given)) options[key] = (given as Record<string | symbol, unknown>)[key];
  if (options.stream !== undefined && options.file !== undefined) {
    throw new errorCodes.FST_ERR_LOG_INVALID_DESTINATION();
  }
  const { stream, file, ...rest } = options;
  // pino's own options, handed to pino as given (it checks them), with Enclave's defaults.
  const pinoOptions = rest as pinoModule.LoggerOptions;
  pinoOptions.level ||= 'info';
  pinoOptions.serializers = { ...defaultSerializers(pino), ...pinoOptions.serializers };
  const destination = (file !== undefined ? pino.destination(file as Parameters<Pino['destination']>[0]) : stream) as pinoModule.DestinationStream | undefined;
  const instance = destination !== undefined ? pino(pinoOptions, destination) : pino(pinoOptions);
  return instance as unknown as Logger;
}

/**
 * Builds the application logger from the `logger` and `loggerInstance` factory options.
 * Returns the logger and whether logging is actually on.
 */
export function createLogger(logger: unknown, loggerInstance: unknown): { log: Logger; enabled: boolean } {
  if (loggerInstance && logger) throw new errorCodes.FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED();
  if (!loggerInstance && !logger) return { log: createSilentLogger(), enabled: false };
  if (isLogger(loggerInstance)) return { log: wrapInstance(loggerInstance as Logger), enabled: true };
  // An instance belongs in `loggerInstance`; `logger` takes options (Fastify 5).
  if (isLogger(logger)) throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER_CONFIG();
  if (loggerInstance) throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER_INSTANCE();
  if (logger === true) return { log: createPinoLogger({}), enabled: true };
  if (typeof logger !== 'object') throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER_CONFIG();
  return { log: createPinoLogger(logger as object), enabled: true };
}
