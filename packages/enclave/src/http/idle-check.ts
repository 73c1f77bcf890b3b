// close()'s sweeps find a connection idle by a timer, which measures wall-clock time, not whether
// the client had its chance: on a starved machine the sweep's timer can fire before the event
// loop read a request the client sent in time. Closing a socket with unread bytes resets that
// request, and even a lingering close (lingering-close.ts) can only drop it unanswered. So an idle
// verdict is confirmed by a turn of the event loop (with its I/O poll) that was quick: a process
// descheduled for tens of milliseconds between its poll and the verdict (measured under load: up
// to 74 ms) would otherwise close a connection whose next request sat unread in the kernel.
//
// The sweeps and this check measure the real time a client has to reuse its connection, whatever
// clock an application's tests fake: they use the timers as they were when Enclave was loaded,
// so a close() under node:test's mock.timers or @sinonjs/fake-timers ends, as Fastify's does
// (it waits on no timer there: it drops idle connections at once) (issue 32).

/** The timers close()'s grace period runs on: the real ones, captured at load. */
export const realTimers = {
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
};

/** A loop turn at most this long leaves no time for a request to arrive unseen before the verdict. */
const QUICK_TURN_MS = 5;

/** After this many slow turns the verdict stands: close() must end on a machine that stays slow. */
const MAX_TURNS = 20;

/**
 * Calls `act` once a quick turn of the event loop (with its I/O poll) has passed with `stillIdle()`
 * true throughout; gives up as soon as it is false.
 *
 * @example
 * whenStillIdle(() => socket.bytesRead === seen, () => closeLingering(socket, 64 * 1024))
 */
export function whenStillIdle(stillIdle: () => boolean, act: () => void): void {
  let turns = 0;
  let previous = 0;
  const check = () => {
    if (!stillIdle()) return;
    const now = performance.now();
    // The poll between the previous check and this one saw what had arrived by then; only a
    // short gap makes that the present.
    if (turns > 0 && (now - previous <= QUICK_TURN_MS || turns >= MAX_TURNS)) {
      act();
      return;
    }
    turns++;
    previous = now;
    realTimers.setImmediate(check);
  };
  realTimers.setImmediate(check);
}
