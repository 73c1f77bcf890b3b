// How the send path fails: an error met before anything was written goes to the error handlers
// (the reply can still carry it), and a payload nothing could turn into bytes is refused where the
// handler can still catch it. Below send.ts and write-response.ts, which both fail this way.
import { errorCodes } from '../errors.js';
import type { LifecycleReply } from '../state/application.js';
import { handleError } from './error-handling.js';
import { kInHandler, kSent } from './symbols.js';

/** Errors on their way back to the handler that called reply.send(): the send path's catches let them through. */
export const thrownToHandler = new WeakSet<object>();

/**
 * A payload nothing turned into bytes. Sent synchronously from the handler, it throws there, as
 * in Fastify (the handler may catch it and send something else; uncaught, it comes back as the
 * handler's error). Anywhere else (an async hook, a timer) nobody could catch it: it is the
 * reply's error, answered by the error handlers, never an uncaught exception.
 */
export function refusePayload(reply: LifecycleReply, payload: unknown): void {
  const error = new errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload);
  if (!reply[kInHandler]) {
    failSend(reply, error);
    return;
  }
  reply[kSent] = false;
  thrownToHandler.add(error);
  throw error;
}

/** A failure before anything was written: the reply can still carry the error. */
export function failSend(reply: LifecycleReply, error: unknown): void {
  reply[kSent] = false;
  handleError(reply, error);
}
