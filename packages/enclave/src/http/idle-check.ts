// close()'s sweeps find a connection idle by a timer, which measures wall-clock time, not whether
// the client had its chance: on a starved machine the sweep's timer can fire before the event
// loop read a request the client sent in time. Closing a socket with unread bytes resets that
// request. So an idle verdict is confirmed only after the loop polled for I/O twice more.

/** Calls `act` after two more turns of the event loop (each with its I/O poll) if `stillIdle()`. */
export function whenStillIdle(stillIdle: () => boolean, act: () => void): void {
  setImmediate(() =>
    setImmediate(() => {
      if (stillIdle()) act();
    }),
  );
}
