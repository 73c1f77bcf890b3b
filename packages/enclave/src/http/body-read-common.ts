// What the two body readers share (readBody's for a preParsing stream, raw-body-read.ts's for
// the request itself): the request's shape, the callback, and the checks and errors of a read.
// Imported, not the global: the global `Buffer` is a getter, called on every use (~150 instructions).
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { errorCodes } from '../errors.js';
import { readSafely } from '../thrown-values.js';

/** The raw request as far as the body reader needs it: an IncomingMessage or a fake of one. */
export interface RawRequestLike {
  headers?: Record<string, string | string[] | undefined>;
  method?: string;
  complete?: boolean;
  httpVersionMajor?: number;
  on?: (event: string, listener: (...args: any[]) => void) => unknown;
  removeListener?: (event: string, listener: (...args: any[]) => void) => unknown;
  resume?: () => unknown;
  pause?: () => unknown;
}

/** Called once with the body, or with a coded error. */
export type BodyReadCallback = (err: Error | null, body?: string | Buffer) => void;

/** Marks an error from the body stream as the client's fault unless it already carries a status. */
export function asClientError(err: unknown, fallbackMessage: string): Error {
  const error = err instanceof Error ? err : new Error(err === undefined || err === null ? fallbackMessage : String(err));
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status !== 'number' || status < 400 || status > 599) {
    try {
      (error as { statusCode?: number }).statusCode = 400;
    } catch {
      return Object.assign(new Error(error.message, { cause: error }), { statusCode: 400 });
    }
  }
  return error;
}

export function createAbortError(): Error {
  return Object.assign(new Error('The client aborted the request before its body was complete'), {
    code: 'ECONNRESET',
    statusCode: 400,
  });
}

export function noop(): void {}

/**
 * Calls `target[method](first, second)` if it is a function, and reports whether it returned.
 * A preParsing hook may resolve any stream look-alike (an EventEmitter with `pipe`, issue 28):
 * a method it lacks, or one that throws, must not throw out of a socket's event listener, where
 * nothing catches it and the process exits.
 */
export function callSafely(target: unknown, method: string, first?: unknown, second?: unknown): boolean {
  const fn = readSafely(target, method);
  if (typeof fn !== 'function') return false;
  try {
    fn.call(target, first, second);
    return true;
  } catch {
    return false;
  }
}

/** A chunk as bytes: node streams in object or string mode may hand over other things. */
export function toBuffer(chunk: unknown): Buffer | undefined {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

export function notBytesError(): Error {
  return Object.assign(new TypeError('The request body stream produced a chunk that is not bytes'), { statusCode: 500 });
}

/** Why a read must stop after `received` bytes (`counted` of them as sent), if it must. */
export function overrun(received: number, counted: number | undefined, declaredLength: number | undefined, limit: number): Error | undefined {
  if (declaredLength !== undefined && counted !== undefined && counted > declaredLength) return errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
  if (received > limit) return errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  return undefined;
}

/**
 * Stops caring about a body that will not be read: a transformed stream (decompression, …) is
 * destroyed so it does no more work. An HTTP/1 request is not read any further: its connection
 * closes after the error response, lingering for a bounded time and size (see handle-request.ts
 * and lingering-close.ts), so a client cannot keep streaming gigabytes into a refused body.
 * Anything else (an HTTP/2 stream, a fake request) is resumed so the rest is discarded as it
 * arrives, never buffered.
 */
export function discardBody(raw: RawRequestLike | undefined, payload: Readable): void {
  callSafely(payload, 'on', 'error', noop);
  if (payload !== (raw as unknown)) callSafely(payload, 'destroy');
  if (raw?.httpVersionMajor === 1 && typeof raw.pause === 'function') raw.pause();
  else if (typeof raw?.resume === 'function') raw.resume();
  else if (payload === (raw as unknown)) callSafely(payload, 'resume');
}
