/**
 * Reads a request body into a string or a Buffer without ever holding more than the limit, and
 * checks it against the declared Content-Length.
 */
// Imported, not the global: the global `Buffer` is a getter, called on every use (~150 instructions).
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { errorCodes } from '../errors.js';
import { readSafely } from '../thrown-values.js';
import {
  asClientError,
  type BodyReadCallback,
  callSafely,
  createAbortError,
  discardBody,
  noop,
  notBytesError,
  overrun,
  type RawRequestLike,
  toBuffer,
} from './body-read-common.js';
import { type ReadRequest, readRawRequest } from './raw-body-read.js';

/**
 * Reads the Content-Length header: `undefined` when absent, `null` when it is not a plain
 * decimal number (RFC 9110 section 8.6: `Content-Length = 1*DIGIT`).
 *
 * @example
 * readDeclaredLength('42') // → 42
 * readDeclaredLength('4e1') // → null
 */
export function readDeclaredLength(header: string | string[] | undefined): number | undefined | null {
  if (header === undefined) return undefined;
  if (typeof header !== 'string') return null;
  // Node trims header values, a fake request's may not be: trim only what does not end in digits.
  const value = isDigit(header.charCodeAt(0)) && isDigit(header.charCodeAt(header.length - 1)) ? header : header.trim();
  if (value.length === 0) return null;
  let length = 0;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (!isDigit(code)) return null;
    length = length * 10 + (code - 0x30);
  }
  // Summed digit by digit the value is exact below 2^53 (15 digits); past that Number() rounds
  // once, as before. The sum saves Number()'s string-to-number conversion on every request.
  return value.length <= 15 ? length : Number(value);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * Reads `payload` completely as a utf-8 string (decoded with a StringDecoder, so a character
 * split across chunks survives) or as one Buffer. Fails with 413 when `declaredLength` or the
 * bytes actually received exceed `limit`, and with 400 when the bytes received disagree with
 * `declaredLength`. The length check applies when `payload` is the raw request, or when a
 * preParsing stream reports the bytes it consumed as `receivedEncodedLength`.
 *
 * @example
 * readBody(request.raw, request.raw, 11, 1024, true, (err, text) => {})
 */
export function readBody(
  raw: RawRequestLike | undefined,
  payload: Readable,
  declaredLength: number | undefined,
  limit: number,
  asString: boolean,
  done: BodyReadCallback,
): void {
  if (declaredLength !== undefined && declaredLength > limit) {
    discardBody(raw, payload);
    done(errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  if (payload === (raw as unknown)) {
    if (payload.destroyed && !payload.readableEnded) done(createAbortError());
    else readRawRequest(payload as ReadRequest, declaredLength, limit, asString, done);
    return;
  }
  readStream(raw, payload, declaredLength, limit, asString, done);
}

/**
 * readBody from a preParsing stream, which stands in for the request: the request's own abort
 * still ends the read. A function of its own because its listeners are function declarations,
 * which V8 creates on entry: inside readBody they cost every request, the common path too,
 * 0.6–0.7 KB of allocation and ~0.1k instructions.
 */
function readStream(
  raw: RawRequestLike | undefined,
  payload: Readable,
  declaredLength: number | undefined,
  limit: number,
  asString: boolean,
  done: BodyReadCallback,
): void {
  // The stream is the hook's: every read of it and every call on it is guarded (callSafely,
  // readSafely), since a look-alike may lack `destroy` or `removeListener`, and a throw in an
  // event listener would end the process (issue 28).
  if (readSafely(payload, 'destroyed') === true && readSafely(payload, 'readableEnded') !== true) {
    done(createAbortError());
    return;
  }
  const watchesRaw = typeof raw?.on === 'function' && typeof raw.removeListener === 'function';
  const decoder = asString ? new StringDecoder('utf8') : undefined;
  const chunks: Buffer[] = [];
  let text = '';
  let received = 0;
  let finished = false;

  const encodedLength = (): number | undefined => {
    const reported = readSafely(payload, 'receivedEncodedLength');
    return typeof reported === 'number' ? reported : undefined;
  };

  const cleanup = (): void => {
    finished = true;
    callSafely(payload, 'removeListener', 'data', onData);
    callSafely(payload, 'removeListener', 'end', onEnd);
    callSafely(payload, 'removeListener', 'error', onError);
    callSafely(payload, 'removeListener', 'close', onClose);
    // A stream may still fail after we stopped listening; an unhandled 'error' would crash.
    callSafely(payload, 'on', 'error', noop);
    if (watchesRaw) {
      raw.removeListener!('aborted', onRawAbort);
      raw.removeListener!('close', onRawClose);
    }
  };

  const stop = (error: Error): void => {
    cleanup();
    discardBody(raw, payload);
    done(error);
  };

  function onData(chunk: unknown) {
    if (finished) return;
    const buffer = toBuffer(chunk);
    if (buffer === undefined) return stop(notBytesError());
    const error = overrun((received += buffer.length), encodedLength(), declaredLength, limit);
    if (error !== undefined) return stop(error);
    if (decoder) text += decoder.write(buffer);
    else chunks.push(buffer);
  }

  function onEnd(): void {
    if (finished) return;
    cleanup();
    const counted = encodedLength();
    if (declaredLength !== undefined && counted !== undefined && counted !== declaredLength) {
      done(errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    done(null, decoder ? text + decoder.end() : Buffer.concat(chunks, received));
  }

  function onError(err: unknown): void {
    if (finished) return;
    cleanup();
    if (typeof raw?.resume === 'function') raw.resume();
    done(asClientError(err, 'Reading the request body failed'));
  }

  function onClose(): void {
    // 'close' without 'end' first: the stream was destroyed mid-body.
    if (finished) return;
    cleanup();
    done(createAbortError());
  }

  function onRawAbort(): void {
    if (finished) return;
    stop(createAbortError());
  }

  function onRawClose(): void {
    if (raw?.complete === false) onRawAbort();
  }

  // A stream whose `on` throws cannot be read: the hook's error (500), not a crash.
  if (!(callSafely(payload, 'on', 'data', onData) && callSafely(payload, 'on', 'end', onEnd) && callSafely(payload, 'on', 'error', onError))) {
    stop(unreadableStreamError());
    return;
  }
  callSafely(payload, 'on', 'close', onClose);
  if (watchesRaw) {
    raw.on!('aborted', onRawAbort);
    raw.on!('close', onRawClose);
  }
  if (readSafely(payload, 'readableEnded') === true) onEnd();
  else callSafely(payload, 'resume');
}

function unreadableStreamError(): Error {
  return Object.assign(new TypeError('The stream a preParsing hook resolved cannot be listened to'), { statusCode: 500 });
}
