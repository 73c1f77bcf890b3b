// The V8 flags that make two runs of one server execute the same instructions (the instruction
// benchmark and jit-profile.mjs): see bench/README.md, "Instructions per request".
//
// V8 optimizes a function after it has run a while: on Node 24 after 3,000 calls
// (--invocation-count-for-turbofan), on Node 20 after a few exhausted interrupt budgets of 66 KB
// of bytecode each. A function called once per request is therefore compiled by TurboFan around
// request 3,000 — inside any window that valgrind's speed allows — and the compiler's own
// instructions (10k+ per request of the window) land in the difference. Tiering ten times
// earlier puts every compile inside the first N1 requests on both versions; the steady state
// measured is still optimized code.
//
// Two more sources of run-to-run noise are removed: V8 picks a random hash seed per process and
// searches a prime from it (detail::sprp, ±10 million instructions at start-up, which do not
// cancel between two processes), so the seed is fixed; and compiler and GC work on helper
// threads lands wherever valgrind's scheduler runs it (even after the N1 run has exited), so
// --single-threaded does that work on the main thread, when it is triggered; and the memory
// reducer, which starts full GCs when the allocation rate looks low — by the clock, so more
// often the slower the machine is that moment — is off. Every thread is still counted.
//
// Garbage collection itself was the largest noise left: the new space starts at 1 MB and grows
// with what survives, scavenges were started by a task whose turn depends on timing, and what
// they promoted set off an incremental mark-compact somewhere in the run (Enclave's A measured
// 60k and 108k per request in two settings of one build). The new space is therefore fixed at
// its maximum (64 MB, the load benchmark's --max-semi-space-size) and the scavenge task is off,
// so no collection runs at all in a run of a few thousand requests: the figure is the
// mutator's instructions (allocation included, collection excluded), and serve.mjs reports the
// bytes allocated per request beside it, which is what collection would cost in proportion.

import { existsSync } from 'node:fs';

/**
 * The clock, slowed a hundredfold with libfaketime (Debian's `libfaketime` package) when it is
 * installed. Per-second work does not scale with requests — node's Date header string is
 * rebuilt every second, timer lists are walked when a keep-alive timeout comes due — so it was
 * spread over fewer requests the slower valgrind ran, and two repeats of raw A measured 50.3k
 * and 51.6k per request at a load average of 20–25. A hundred times slower clock, a hundred
 * times less of that work; nothing on the request path waits for a timer.
 */
export const FAKETIME_LIBRARY = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

export function slowClockEnv() {
  return existsSync(FAKETIME_LIBRARY) ? { LD_PRELOAD: FAKETIME_LIBRARY, FAKETIME: '+0 x0.01' } : undefined;
}

/** The flags for a server running under `version` (`v20.20.2`). */
export function determinismFlags(version) {
  const major = Number(/^v(\d+)/.exec(version)?.[1]);
  const determinism = ['--single-threaded', '--hash-seed=1', '--random-seed=1', '--no-memory-reducer', '--min-semi-space-size=64', '--no-minor-gc-task'];
  return major >= 22
    ? [...determinism, '--invocation-count-for-turbofan=300', '--invocation-count-for-maglev=40']
    : [...determinism, '--interrupt-budget=6758'];
}
