// The per-request log lines, each written by the application's LogController (log-controller.ts)
// when logging is on. A controller may be the user's subclass: its failure is logged, never
// thrown, since these lines are written from response events where a throw would crash the
// process.
import type { LogController } from '../log-controller.js';
import type { LifecycleReply } from '../state/application.js';
import type { EnclaveReply, EnclaveRequest } from '../types.js';
import { logSafely } from './error-safety.js';
import { kRoute } from './symbols.js';

/** The controller for `reply`'s application, or null when logging is off. */
function controllerOf(reply: LifecycleReply): LogController | null {
  const root = reply[kRoute].context.root;
  return root.logging ? root.options.logController : null;
}

/** Writes one line through the controller (the callback picks which). */
export function writeLogLine(reply: LifecycleReply, line: (controller: LogController, request: EnclaveRequest, reply: EnclaveReply) => void): void {
  const controller = controllerOf(reply);
  if (controller === null) return;
  try {
    // The controller is public API: it gets the request and the reply as users see them (the
    // same objects, typed as the public ones).
    line(controller, reply.request as unknown as EnclaveRequest, reply as unknown as EnclaveReply);
  } catch (failure) {
    logSafely(reply.log, 'error', { err: failure }, 'the logController failed');
  }
}

/** Replies whose cut response already has its line (the source stream's own error). */
const cutReported = new WeakSet<object>();

/** The line for a response stream that failed after its headers went out, written once. */
export function writeStreamError(reply: LifecycleReply, error: Error & { code?: string | undefined }): void {
  if (cutReported.has(reply)) return;
  cutReported.add(reply);
  writeLogLine(reply, (controller, request, publicReply) => controller.streamError(error, request, publicReply));
}
