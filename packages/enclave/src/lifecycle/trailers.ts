// Response trailers (`reply.trailer(name, fn)`): each function computes its value once the
// payload is known, by callback or promise; the body then goes out chunked with the trailers
// after it. A trailer function that fails is left out (the response is already on its way).
import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { errorCodes } from '../errors.js';
import type { LifecycleReply, TrailerFunction } from '../state/application.js';
import { needsChunkedWrite, writeInChunks } from './http2-body.js';
import { releaseSource } from './stream-source.js';
import { kTrailers } from './symbols.js';

// RFC 9110 §6.5.1: fields a trailer must not carry (framing, routing, authentication, content).
const forbidden = new Set([
  'transfer-encoding',
  'content-length',
  'host',
  'cache-control',
  'max-forwards',
  'te',
  'authorization',
  'set-cookie',
  'content-encoding',
  'content-type',
  'content-range',
  'trailer',
]);

// In a slot of the reply (null until the first trailer) rather than a WeakMap: every response
// asks whether it has trailers, and a WeakMap.get costs ~60 instructions more than a slot.
function trailersOf(reply: LifecycleReply): Map<string, TrailerFunction> | undefined {
  return reply[kTrailers] ?? undefined;
}

export const trailerMethods = {
  trailer(this: LifecycleReply, name: string, fn: TrailerFunction) {
    const key = String(name).toLowerCase();
    if (forbidden.has(key)) throw new errorCodes.FST_ERR_BAD_TRAILER_NAME(name);
    if (typeof fn !== 'function') throw new errorCodes.FST_ERR_BAD_TRAILER_VALUE(name, typeof fn);
    let trailers = trailersOf(this);
    if (trailers === undefined) this[kTrailers] = trailers = new Map();
    trailers.set(key, fn);
    return this;
  },
  hasTrailer(this: LifecycleReply, name: string) {
    return trailersOf(this)?.has(String(name).toLowerCase()) === true;
  },
  removeTrailer(this: LifecycleReply, name: string) {
    trailersOf(this)?.delete(String(name).toLowerCase());
    return this;
  },
};

export function hasTrailers(reply: LifecycleReply): boolean {
  const trailers = trailersOf(reply);
  return trailers !== undefined && trailers.size > 0;
}

/** The head of a response with trailers: chunked, announcing the trailer names. */
function writeTrailerHead(reply: LifecycleReply, headers: OutgoingHttpHeaders): void {
  delete headers['content-length'];
  // HTTP/2 frames the body itself and forbids Transfer-Encoding (RFC 9113 §8.2.2).
  if (reply.request.raw.httpVersionMajor < 2) headers['transfer-encoding'] = 'chunked';
  // Names separated by a space, as Fastify writes them (clients split on either).
  headers.trailer = [...(trailersOf(reply) as Map<string, TrailerFunction>).keys()].join(' ');
  reply.raw.writeHead(reply.raw.statusCode, headers);
}

/** Writes the head and body chunked, then the trailers once every trailer function answered. */
export function writeWithTrailers(reply: LifecycleReply, headers: OutgoingHttpHeaders, payload: unknown, isHead: boolean): void {
  writeTrailerHead(reply, headers);
  const body = isHead ? null : (payload as string | Uint8Array | null | undefined);
  if (body != null && needsChunkedWrite(reply.request.raw, Buffer.byteLength(body))) {
    writeInChunks(reply.raw, body, () => endWithTrailers(reply, payload));
    return;
  }
  if (body != null) reply.raw.write(body);
  endWithTrailers(reply, payload);
}

/**
 * Streams the payload chunked; the trailers follow its end (their functions get `null` for the
 * payload, as in Fastify). A trailer removed while the stream runs is left out.
 */
export function pipeWithTrailers(reply: LifecycleReply, headers: OutgoingHttpHeaders, payload: Readable, isHead: boolean): void {
  const res = reply.raw;
  writeTrailerHead(reply, headers);
  if (isHead || payload.readableEnded) {
    releaseSource(reply, payload);
    endWithTrailers(reply, null);
    return;
  }
  res.once('close', () => releaseSource(reply, payload));
  // A failing source after the head went out: the only honest answer is a cut response.
  payload.once('error', () => {
    if (!res.writableEnded) res.destroy();
  });
  payload.once('end', () => endWithTrailers(reply, null));
  payload.pipe(res, { end: false });
}

function endWithTrailers(reply: LifecycleReply, payload: unknown): void {
  const res = reply.raw;
  const trailers = trailersOf(reply) as Map<string, TrailerFunction>;
  const values: Record<string, string> = {};
  let pending = trailers.size;
  if (pending === 0) {
    res.end();
    return;
  }
  const finish = () => {
    if (--pending > 0) return;
    res.addTrailers(values);
    res.end();
  };
  for (const [name, fn] of trailers) {
    let answered = false;
    const done = (error: unknown, value?: string) => {
      if (answered) return;
      answered = true;
      if (error === null || error === undefined) {
        if (value !== undefined) values[name] = value;
      } else {
        reply.log.debug({ err: error }, `the trailer '${name}' failed`);
      }
      process.nextTick(finish);
    };
    try {
      const result = fn(reply, payload, done) as PromiseLike<string> | undefined;
      if (result !== null && typeof result?.then === 'function')
        result.then(
          (value) => done(null, value),
          (error) => done(error ?? new Error('trailer rejected')),
        );
    } catch (error) {
      done(error ?? new Error('trailer threw'));
    }
  }
}
