// The last step of a send: the payload the onSend hooks left, written to the socket as one
// writeHead and end, or piped (a Node stream, a web stream, a Fetch Response's body), with the
// HEAD, no-body-status and trailer variants. send.ts decides what the payload is.
// Imported, not the global: Node defines the global `Buffer` as a getter, which a hot function
// calls through an inline-cache miss on every use (~150 instructions a response).
import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { errorCodes } from '../errors.js';
import { lingerIfBodyUnread } from '../http/lingering-close.js';
import type { CompiledRoute, LifecycleReply } from '../state/application.js';
import { logSafely } from './error-safety.js';
import { needsChunkedWrite, writeInChunks } from './http2-body.js';
import { failSend, refusePayload, thrownToHandler } from './send-failure.js';
import { isStream, isWebStream, pipeToResponse, pipeWebStream } from './send-streams.js';
import { releaseSource } from './stream-source.js';
import { kHeaders, kRoute } from './symbols.js';
import { hasTrailers, pipeWithTrailers, writeWithTrailers } from './trailers.js';

/**
 * A Fetch API Response (checked by tag, as Fastify does, so any realm's Response counts).
 * Object.prototype.toString says '[object Response]' exactly when the value's Symbol.toStringTag
 * reads 'Response' (no built-in tag is that), so the tag is read directly: one property load
 * where the call cost ~0.1k instructions per response.
 */
export function isFetchResponse(payload: unknown): payload is Response {
  return payload !== null && typeof payload === 'object' && (payload as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Response';
}

export function isBytes(payload: unknown): payload is Uint8Array {
  return payload instanceof Uint8Array;
}

/** A Fetch API Response gives the reply its status and headers; its body is what is sent. */
function unwrapFetchResponse(reply: LifecycleReply, response: Response): unknown {
  if (typeof response.status === 'number') reply.code(response.status);
  for (const [name, value] of response.headers) reply.header(name, value);
  if (response.body !== null && response.bodyUsed) throw new errorCodes.FST_ERR_REP_RESPONSE_BODY_CONSUMED();
  return response.body;
}

const headStreamError = 'Error on Stream found for HEAD route';

function checkUnlocked(payload: WebReadableStream): WebReadableStream {
  if (payload.locked) throw new errorCodes.FST_ERR_REP_READABLE_STREAM_LOCKED();
  return payload;
}

/**
 * A HEAD answer never reads a web stream: it is cancelled, and a cancel() that fails (its
 * source's own cancel hook threw) is logged, since nothing else would ever see that rejection.
 * An empty stream stands in for it, so the answer takes the stream path (no Content-Length).
 */
function cancelUnread(reply: LifecycleReply, payload: WebReadableStream): Readable {
  payload.cancel('Stream cancelled by HEAD route').catch((error: unknown) => logSafely(reply.log, 'error', { err: error }, headStreamError));
  return Readable.from([]);
}

export function writeResponse(reply: LifecycleReply, payload: unknown): void {
  try {
    writeToSocket(reply, payload);
  } catch (error) {
    if (thrownToHandler.has(error as object)) throw error;
    // writeHead refusing what it was given (an invalid status or header) is still answerable;
    // past the headers the only honest answer is a cut response.
    if (reply.raw.headersSent) {
      reply.log.warn({ err: error }, 'writing the response failed');
      reply.raw.destroy();
    } else {
      failSend(reply, error);
    }
  }
}

function writeToSocket(reply: LifecycleReply, given: unknown): void {
  const res = reply.raw;
  let payload = given;
  // Headers the user wrote with res.writeHead still leave room for a stream's body (it goes out
  // with a warning, as in Fastify); nothing else can be sent any more.
  const streaming = isStream(payload) || isWebStream(payload) || isFetchResponse(payload);
  if (res.destroyed || res.writableEnded || (res.headersSent && !streaming)) {
    if (isStream(payload)) releaseSource(reply, payload);
    else if (isWebStream(payload)) payload.cancel().catch(() => {});
    return;
  }
  const isHead = reply.request.raw.method === 'HEAD';
  try {
    if (isFetchResponse(payload)) payload = unwrapFetchResponse(reply, payload);
    if (isWebStream(payload)) payload = isHead ? cancelUnread(reply, payload) : checkUnlocked(payload);
  } catch (error) {
    failSend(reply, error);
    return;
  }
  const headers = reply[kHeaders];
  const route = reply[kRoute] as CompiledRoute;
  // Answered before the body arrived (a hook's 401, a 404, a GET with a body): read at most a
  // bodyLimit more of it, then close (issue 28). One load on every response, false but for those
  // (and for a reply that streams the request back).
  if (reply.request.raw.complete === false && payload !== reply.request.raw) lingerIfBodyUnread(reply.request.raw, res, route.bodyLimit);
  const statusCode: number = res.statusCode;
  const noBody = statusCode < 200 || statusCode === 204 || statusCode === 304;
  // No payload: the headers go out as the handler and the hooks left them (a plugin may set
  // `Content-Length: 0` on a 204 on purpose); only a status with content gets a zero length.
  if (payload === undefined || payload === null) {
    // Trailers still go out after an empty chunked body (their functions see the payload as is).
    if (!noBody && hasTrailers(reply)) {
      writeWithTrailers(reply, headers, payload, isHead);
      return;
    }
    if (!noBody && (!isHead || route.isHeadTwin === true)) headers['content-length'] = '0';
    res.writeHead(statusCode, headers);
    res.end();
    return;
  }
  if (isWebStream(payload)) {
    if (res.headersSent || (!noBody && !isHead && !hasTrailers(reply))) {
      pipeWebStream(reply, payload, res, (error) => failSend(reply, error));
      return;
    }
    // The rarer paths (no body, HEAD, trailers) share the Node stream handling below.
    payload = Readable.fromWeb(payload);
  }
  if (res.headersSent) {
    pipeToResponse(reply, payload as Readable, res, (error) => failSend(reply, error));
    return;
  }
  // A payload on a 1xx or 204 is dropped, and so are the headers that would describe it.
  if (statusCode < 200 || statusCode === 204) {
    delete headers['content-type'];
    delete headers['content-length'];
    res.writeHead(statusCode, headers);
    res.end();
    // Drained rather than destroyed, as Fastify does: the source still ends (and says so).
    if (isStream(payload)) {
      payload.on('error', () => {});
      payload.resume();
    }
    return;
  }
  if (isStream(payload)) {
    if (hasTrailers(reply)) {
      pipeWithTrailers(reply, headers, payload, isHead);
      return;
    }
    if (isHead) {
      res.writeHead(statusCode, headers);
      // The stream is not read, but it may still fail (its source was already at work): an
      // error without a listener would be an uncaught exception, so it is logged instead.
      payload.on('error', (error) => logSafely(reply.log, 'error', { err: error }, headStreamError));
      releaseSource(reply, payload);
      res.end();
      return;
    }
    pipeToResponse(reply, payload, res, (error) => failSend(reply, error));
    return;
  }
  if (typeof payload !== 'string' && !isBytes(payload)) {
    refusePayload(reply, payload);
    return;
  }
  if (hasTrailers(reply)) {
    writeWithTrailers(reply, headers, payload, isHead);
    return;
  }
  const length = Buffer.byteLength(payload);
  // A HEAD answer without a body may announce the length a GET would have (RFC 9110 §9.3.2).
  if (!(isHead && length === 0 && headers['content-length'] !== undefined)) headers['content-length'] = `${length}`;
  res.writeHead(statusCode, headers);
  if (isHead || length === 0) res.end();
  else if (needsChunkedWrite(reply.request.raw, length)) writeInChunks(res, payload, () => res.end());
  else res.end(payload);
}
