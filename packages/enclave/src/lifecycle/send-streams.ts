// Stream payloads on their way to the socket: a Node stream is piped, a WHATWG ReadableStream
// is read chunk by chunk (so that a client going away cancels it before it produced the rest).
// Either way the source is watched (stream-source.ts): released when the response closes early,
// and the request's log line then says the stream was cut short.
import type { ServerResponse } from 'node:http';
import { finished, type Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream, ReadableStreamDefaultReader } from 'node:stream/web';
import type { LifecycleReply } from '../state/application.js';
import { writeStreamError } from './log-lines.js';
import { releaseSource, sourceDone, watchSource } from './stream-source.js';
import { kHeaders } from './symbols.js';

export function isStream(payload: unknown): payload is Readable {
  return payload !== null && typeof payload === 'object' && typeof (payload as Readable).pipe === 'function';
}

export function isWebStream(payload: unknown): payload is WebReadableStream {
  return payload !== null && typeof payload === 'object' && typeof (payload as WebReadableStream).getReader === 'function';
}

/**
 * The reply's headers go out with the first byte (setHeader, not writeHead), so a source that
 * fails before it still reaches the error handler. Headers the user already wrote with
 * res.writeHead win: the reply's are dropped, with a warning, and the body still goes out.
 * Returns the names staged, to take back if the source fails first.
 */
function stageHeaders(reply: LifecycleReply, res: ServerResponse): string[] {
  if (res.headersSent) {
    reply.log.warn("the response is sent, but the reply's headers are lost: don't use res.writeHead in stream mode");
    return [];
  }
  const staged = Object.keys(reply[kHeaders]);
  for (const name of staged) res.setHeader(name, reply[kHeaders][name] as string | number | readonly string[]);
  return staged;
}

/** A source that failed before any byte went out: the reply can still answer with the error. */
function failBeforeBody(reply: LifecycleReply, res: ServerResponse, staged: string[], error: unknown, fail: (error: unknown) => void): void {
  for (const name of staged) res.removeHeader(name);
  // They described the stream, not the error answer (Fastify drops them for its handlers).
  delete reply[kHeaders]['content-type'];
  delete reply[kHeaders]['content-length'];
  fail(error);
}

/**
 * Pipes a Node stream: `pipe` and one listener on each side, rather than `pipeline`, which puts
 * four more 'close' listeners on the response — with plugins that watch it as well
 * (@fastify/static, @fastify/compress, @fastify/multipart) Node warned of a leak.
 */
export function pipeToResponse(reply: LifecycleReply, payload: Readable, res: ServerResponse, fail: (error: unknown) => void): void {
  const staged = stageHeaders(reply, res);
  watchSource(reply, payload);
  // The client went away: release the source (a file descriptor, a compression stream).
  res.once('close', () => releaseSource(reply, payload));
  finished(payload, { readable: true, writable: false }, (error) => {
    sourceDone(reply);
    if (!error) return;
    if (!res.headersSent && !res.destroyed) {
      payload.unpipe(res);
      failBeforeBody(reply, res, staged, error, fail);
      return;
    }
    // The source failed after the headers went out: the only honest answer is a cut response.
    writeStreamError(reply, error);
    if (!res.writableEnded) res.destroy();
  });
  payload.pipe(res);
}

/**
 * Reads a WHATWG stream one chunk at a time, waiting for 'drain' when the socket is full; a
 * response that is gone by then (or closes meanwhile) cancels the stream, so its source stops
 * producing.
 */
export function pipeWebStream(reply: LifecycleReply, payload: WebReadableStream, res: ServerResponse, fail: (error: unknown) => void): void {
  const reader: ReadableStreamDefaultReader<unknown> = payload.getReader();
  const staged = stageHeaders(reply, res);
  let settled = false;
  // What stream-source.ts reads of a source: whether it has ended.
  const progress = { readableEnded: false };
  watchSource(reply, progress);
  const cancel = () => {
    if (settled) return;
    settled = true;
    reader.cancel().catch(() => {});
  };
  res.once('close', cancel);
  const onChunk = (result: { done: boolean; value?: unknown }) => {
    if (settled) return;
    if (result.done) {
      settled = true;
      progress.readableEnded = true;
      sourceDone(reply);
      res.end();
      return;
    }
    if (res.destroyed) {
      cancel();
      return;
    }
    if (res.write(result.value)) readNext();
    else res.once('drain', () => (res.destroyed ? cancel() : readNext()));
  };
  const onError = (error: unknown) => {
    if (settled) return;
    settled = true;
    sourceDone(reply);
    if (!res.headersSent && !res.destroyed) {
      failBeforeBody(reply, res, staged, error, fail);
      return;
    }
    writeStreamError(reply, error as Error);
    if (!res.writableEnded) res.destroy();
  };
  const readNext = () => {
    reader.read().then((result) => {
      try {
        onChunk(result);
      } catch (error) {
        // res.write refusing a chunk (not a string or bytes) fails the stream like a read would.
        onError(error);
        reader.cancel().catch(() => {});
      }
    }, onError);
  };
  readNext();
}
