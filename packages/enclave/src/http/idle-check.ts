// close()'s sweeps find a connection idle by a timer, which measures wall-clock time, not whether
// the client had its chance: on a starved machine the sweep's timer can fire before the event
// loop read a request the client sent in time. Closing a socket with unread bytes resets that
// request. So an idle verdict is confirmed only after the loop polled for I/O twice more.
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

/** Calls `act` after two more turns of the event loop (each with its I/O poll) if `stillIdle()`. */
export function whenStillIdle(stillIdle: () => boolean, act: () => void): void {
  realTimers.setImmediate(() =>
    realTimers.setImmediate(() => {
      if (stillIdle()) act();
    }),
  );
}
