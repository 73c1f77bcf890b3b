// A one-time signal: the root's "every plugin has loaded" (RootState.loaded), which ready() of a
// plugin's instance waits for and the boot settles.

/** A one-time signal with synchronous listeners, so they run in the order they were added. */
export class Milestone {
  #outcome: { failed: boolean; error: unknown } | null = null;
  #waiters: Array<(failed: boolean, error: unknown) => void> = [];

  settle(failed: boolean, error?: unknown): void {
    if (this.#outcome !== null) return;
    this.#outcome = { failed, error };
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter(failed, error);
  }

  /** Calls `waiter` once settled (at once if it already is). */
  wait(waiter: (failed: boolean, error: unknown) => void): void {
    if (this.#outcome === null) this.#waiters.push(waiter);
    else waiter(this.#outcome.failed, this.#outcome.error);
  }
}
