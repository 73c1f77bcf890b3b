// The error path's own safety: logging that cannot throw (a logger's serializer reads the
// error's getters too), and the answer written when the error path itself failed (issue 17).
import type { ServerResponse } from 'node:http';

/** A log method called as the lifecycle calls them: `(details, message)` or `(message)`. */
type LogMethod = (detailsOrMessage: Record<string, unknown> | string, message?: string) => void;

/** The logger methods the lifecycle calls on a request's logger. */
export interface ErrorPathLogger {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
}

/**
 * Logs without letting a log call throw: the serializer of a logger reads the error's getters
 * (message, stack, name) too. When it fails, the line is logged again without the error.
 */
export function logSafely(log: ErrorPathLogger, level: 'error' | 'warn' | 'info', details: Record<string, unknown>, message: string): void {
  try {
    log[level](details, message);
  } catch {
    try {
      log[level]({}, `${message} (the error itself could not be logged)`);
    } catch {
      // A logger that throws on a plain line has nothing more to tell us.
    }
  }
}

/** The body of the last-resort answer, byte for byte Fastify's default 500. */
export const INTERNAL_ERROR_BODY = '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}';

/**
 * The answer when the error path itself failed: a plain 500 written straight to the socket, or a
 * cut connection when the headers are already out (the response cannot be honest any more).
 */
export function answerLastResort(res: ServerResponse): void {
  try {
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(INTERNAL_ERROR_BODY.length) });
    res.end(INTERNAL_ERROR_BODY);
  } catch {
    res.destroy();
  }
}
