/**
 * Reads a request body into a string or a Buffer without ever holding more than the limit, and
 * checks it against the declared Content-Length.
 */
// Imported, not the global: the global `Buffer` is a getter, called on every use (~150 instructions).
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { errorCodes } from '../errors.js';

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

function createAbortError(): Error {
  return Object.assign(new Error('The client aborted the request before its body was complete'), {
    code: 'ECONNRESET',
    statusCode: 400,
  });
}

function noop(): void {}

/** A chunk as bytes: node streams in object or string mode may hand over other things. */
function toBuffer(chunk: unknown): Buffer | undefined {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

function notBytesError(): Error {
  return Object.assign(new TypeError('The request body stream produced a chunk that is not bytes'), { statusCode: 500 });
}

/** Why a read must stop after `received` bytes (`counted` of them as sent), if it must. */
function overrun(received: number, counted: number | undefined, declaredLength: number | undefined, limit: number): Error | undefined {
  if (declaredLength !== undefined && counted !== undefined && counted > declaredLength) return errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
  if (received > limit) return errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  return undefined;
}

/**
 * Stops caring about a body that will not be read: a transformed stream (decompression, …) is
 * destroyed so it does no more work. An HTTP/1 request is not read any further: its connection
 * closes after the error response (see handle-request.ts), so a client cannot keep streaming
 * gigabytes into a refused body. Anything else (an HTTP/2 stream, a fake request) is resumed so
 * the rest is discarded as it arrives, never buffered.
 */
export function discardBody(raw: RawRequestLike | undefined, payload: Readable): void {
  payload.on('error', noop);
  if (payload !== (raw as unknown)) payload.destroy();
  if (raw?.httpVersionMajor === 1 && typeof raw.pause === 'function') raw.pause();
  else if (typeof raw?.resume === 'function') raw.resume();
  else if (payload === (raw as unknown)) payload.resume();
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
  if (payload.destroyed && !payload.readableEnded) {
    done(createAbortError());
    return;
  }

  if (payload === (raw as unknown)) readRawRequest(payload, declaredLength, limit, asString, done);
  else readStream(raw, payload, declaredLength, limit, asString, done);
}

/**
 * readBody from a preParsing stream, which stands in for the request: the request's own abort
 * still ends the read. A function of its own because its listeners are function declarations,
 * which V8 creates on entry: inside readBody they cost every request, the common path too,
 * 0.6–0.7 KB of allocation and ~0.1k instructions.
 */
function readStream(raw: RawRequestLike | undefined, payload: Readable, declaredLength: number | undefined, limit: number, asString: boolean, done: BodyReadCallback): void {
  const watchesRaw = typeof raw?.on === 'function' && typeof raw.removeListener === 'function';
  const decoder = asString ? new StringDecoder('utf8') : undefined;
  const chunks: Buffer[] = [];
  let text = '';
  let received = 0;
  let finished = false;

  const encodedLength = (): number | undefined => {
    const reported = (payload as { receivedEncodedLength?: unknown }).receivedEncodedLength;
    return typeof reported === 'number' ? reported : undefined;
  };

  const cleanup = (): void => {
    finished = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    payload.removeListener('close', onClose);
    // A stream may still fail after we stopped listening; an unhandled 'error' would crash.
    payload.on('error', noop);
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

  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.on('close', onClose);
  if (watchesRaw) {
    raw.on!('aborted', onRawAbort);
    raw.on!('close', onRawClose);
  }
  if (payload.readableEnded) onEnd();
  else payload.resume();
}

/** The reader's state on the request it reads (its one slot there; see readRawRequest). */
const kRawRead: unique symbol = Symbol('enclave.rawBodyRead');

type ReadRequest = Readable & { [kRawRead]?: RawBodyRead };

/**
 * One read of a request's own body. Its fields are only declared (`declare`: no class field in
 * the output) and assigned in the constructor: class fields compile to a separate initialiser
 * function, called on every read.
 */
class RawBodyRead {
  declare readonly raw: Readable;
  declare readonly declaredLength: number | undefined;
  declare readonly limit: number;
  declare readonly asString: boolean;
  declare readonly done: BodyReadCallback;
  declare first: Buffer | undefined;
  declare chunks: Buffer[] | undefined;
  declare received: number;
  declare finished: boolean;
  constructor(raw: Readable, declaredLength: number | undefined, limit: number, asString: boolean, done: BodyReadCallback) {
    this.raw = raw;
    this.declaredLength = declaredLength;
    this.limit = limit;
    this.asString = asString;
    this.done = done;
    this.first = undefined;
    this.chunks = undefined;
    this.received = 0;
    this.finished = false;
  }

  // The listeners stay (shared functions, guarded by `finished`, holding nothing), but the bytes
  // must not: the request lives as long as its handler runs, or as long as an oversized upload
  // is being discarded. Removing the 'data' listener cost more than the listener: EventEmitter
  // deletes the event's key, which turns the request's listener table into a dictionary that
  // every later emit looks up the slow way (Node 20 B: ~0.75k instructions per request).
  release(): void {
    this.finished = true;
    this.first = undefined;
    this.chunks = undefined;
  }

  fail(error: Error): void {
    this.release();
    this.done(error);
  }

  stop(error: Error): void {
    this.release();
    discardBody(this.raw, this.raw);
    this.done(error);
  }

  end(): void {
    if (this.finished) return;
    const { declaredLength, received, chunks, first, asString } = this;
    if (declaredLength !== undefined && received !== declaredLength) {
      this.fail(errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    let bytes: Buffer;
    if (chunks !== undefined) bytes = Buffer.concat(chunks, received);
    else if (first === undefined) bytes = Buffer.alloc(0);
    // A Buffer body gets a copy: the one chunk of an injected request is the caller's own buffer.
    else bytes = asString ? first : Buffer.from(first);
    this.release();
    this.done(null, asString ? bytes.toString('utf8') : bytes);
  }
}

// The listeners are shared functions that find the read on the request (`this`, as the emitter
// calls them), not closures: a closure per listener cost its allocation and a lazy compile on its
// first call, ~60 instructions each, four per request.
function onRawData(this: ReadRequest, chunk: unknown): void {
  const read = this[kRawRead];
  if (read === undefined || read.finished) return;
  const buffer = toBuffer(chunk);
  if (buffer === undefined) {
    read.stop(notBytesError());
    return;
  }
  const received = (read.received += buffer.length);
  const error = overrun(received, received, read.declaredLength, read.limit);
  if (error !== undefined) {
    read.stop(error);
    return;
  }
  if (read.first === undefined) read.first = buffer;
  else if (read.chunks === undefined) read.chunks = [read.first, buffer];
  else read.chunks.push(buffer);
}

function onRawEnd(this: ReadRequest): void {
  this[kRawRead]?.end();
}

function onRawError(this: ReadRequest, err: unknown): void {
  const read = this[kRawRead];
  if (read !== undefined && !read.finished) read.fail(asClientError(err, 'Reading the request body failed'));
}

// 'close' without 'end' first: the request was destroyed mid-body.
function onRawClose(this: ReadRequest): void {
  const read = this[kRawRead];
  if (read !== undefined && !read.finished) read.fail(createAbortError());
}

/**
 * readBody when the payload is the request itself, the path of nearly every body: the bytes
 * received are the encoded length, the chunks are decoded once at the end (a character split
 * across chunks survives, as with a StringDecoder), and the listeners stay on the request, which
 * is dropped with them (Node removes 'data' listeners itself when it drains an unread body).
 * Node emits 'error' on a request only while it has listeners, so one that fails later finds ours
 * and is ignored. A request read a
 * second time gets a second set of listeners; the first set then acts on the new read, whose
 * `finished` flag keeps every event to one answer.
 */
function readRawRequest(
  raw: ReadRequest,
  declaredLength: number | undefined,
  limit: number,
  asString: boolean,
  done: BodyReadCallback,
): void {
  const read = new RawBodyRead(raw, declaredLength, limit, asString, done);
  raw[kRawRead] = read;
  raw.on('data', onRawData);
  raw.on('end', onRawEnd);
  raw.on('error', onRawError);
  raw.on('close', onRawClose);
  if (raw.readableEnded) read.end();
  else raw.resume();
}
