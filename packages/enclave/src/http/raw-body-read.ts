// A request's own body, read with four listeners shared by every request (no closure per read)
// and one state object in a slot on the request: the path of nearly every body (see readBody).
// Imported, not the global: the global `Buffer` is a getter, called on every use.
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { errorCodes } from '../errors.js';
import { asClientError, type BodyReadCallback, createAbortError, discardBody, notBytesError, overrun, toBuffer } from './body-read-common.js';

/** The reader's state on the request it reads (its one slot there; see readRawRequest). */
const kRawRead: unique symbol = Symbol('enclave.rawBodyRead');

export type ReadRequest = Readable & { [kRawRead]?: RawBodyRead };

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
 * and is ignored. A request read a second time keeps the listeners it has, which act on the new
 * read: a second 'data' listener would count every chunk twice ('data' is added back only if
 * something removed it; a second 'end', 'error' or 'close' listener would be harmless, as
 * `finished` keeps every event to one answer).
 */
export function readRawRequest(raw: ReadRequest, declaredLength: number | undefined, limit: number, asString: boolean, done: BodyReadCallback): void {
  const read = new RawBodyRead(raw, declaredLength, limit, asString, done);
  const previous = raw[kRawRead];
  raw[kRawRead] = read;
  if (previous === undefined) {
    raw.on('data', onRawData);
    raw.on('end', onRawEnd);
    raw.on('error', onRawError);
    raw.on('close', onRawClose);
  } else if (!raw.listeners('data').includes(onRawData)) {
    raw.on('data', onRawData);
  }
  if (raw.readableEnded) read.end();
  else raw.resume();
}
