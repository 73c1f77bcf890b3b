// A stream payload being piped into a response, and what happens to it when the client goes
// away first: the source is released (a file descriptor, a compression stream) by whatever means
// it has, and the request's log says the stream was cut rather than that the request aborted.
import type { Readable } from 'node:stream';

/** What is read of a source: a Readable, or the progress of a WHATWG stream being read. */
type Source = Pick<Readable, 'readableEnded'>;

/** Replies whose stream payload is being piped and has not ended. */
const openSources = new WeakMap<object, Source>();

/** Records `payload` as the source of `reply`'s response (until `sourceDone`). */
export function watchSource(reply: object, payload: Source): void {
  openSources.set(reply, payload);
}

/** The source ended or failed: it no longer feeds the response. */
export function sourceDone(reply: object): void {
  openSources.delete(reply);
}

/** Whether `reply`'s response was being fed by a stream that had not ended. */
export function hasOpenSource(reply: object): boolean {
  const payload = openSources.get(reply);
  return payload !== undefined && !payload.readableEnded;
}

/**
 * Stops a source nobody reads any more. Not every stream-like payload is a full Readable:
 * as in Fastify, `destroy()`, else `close()`, else `abort()`, else a warning.
 */
export function releaseSource(reply: { log: { warn(message: string): void } }, payload: Readable): void {
  if (payload.readableEnded) return;
  const source = payload as unknown as Record<string, unknown>;
  if (typeof source.destroy === 'function') payload.destroy();
  else if (typeof source.close === 'function') (source.close as (callback: () => void) => void).call(payload, () => {});
  else if (typeof source.abort === 'function') (source.abort as () => void).call(payload);
  else reply.log.warn('stream payload does not end properly');
}

/** The error a log controller's streamError() gets for a cut stream (Node's code for it). */
export function prematureClose(): Error & { code: string } {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
