// Which loading plugin a `register`, `after` or `await` belongs to, known without async context
// tracking (see currentRecord). The loader keeps the loading plugins on a stack per application.
import type { Context, RootState } from '../state/application.js';
import type { LoaderState, PluginRecord } from '../state/plugins.js';

/** Each application's loader state, beside its root state (nothing else reads it). */
const loaderStates = new WeakMap<RootState, LoaderState>();

/** The loader state of `root`'s application, created on first use. */
export function loaderStateOf(root: RootState): LoaderState {
  let state = loaderStates.get(root);
  if (state === undefined) {
    state = { rootPlugin: { name: 'root', queue: [] }, loadingStack: [], runningBody: null };
    loaderStates.set(root, state);
  }
  return state;
}

/**
 * The plugin a call to `register`, `after` or `then` on `context`'s instance belongs to, found
 * without async context tracking: on Node 20 and 22 an AsyncLocalStorage installs promise hooks,
 * which turns off V8's inlining of promise code for the rest of the process (~5% of a request).
 * A call made while a plugin's body (or an `after` callback) runs synchronously belongs to that
 * plugin. A later call (after the body's first `await`) belongs to the innermost loading plugin
 * whose body got this instance, else to the innermost loading plugin at all (a body calling its
 * parent's instance), as avvio does; with nothing loading, to the root. `then` is read while the
 * awaiting code runs, so `await instance` is decided there, not when the promise job calls it.
 * Without the caller's async context some calls are guessed, e.g. top-level code that awaits the
 * application while a plugin's body is suspended at an `await` waits for that plugin's queue
 * so far, not the whole load (Fastify's avvio does the same); `ready()` waits for everything.
 */
export function currentRecord(context: Context): PluginRecord {
  const loader = loaderStateOf(context.root);
  if (loader.runningBody !== null) return loader.runningBody;
  const stack = loader.loadingStack;
  let innermost: PluginRecord | null = null;
  for (let index = stack.length - 1; index >= 0; index--) {
    const record = stack[index] as PluginRecord;
    if (record.context === undefined) continue;
    if (record.context === context) return record;
    innermost ??= record;
  }
  return innermost ?? loader.rootPlugin;
}

/** Runs `body` as code of `record`'s plugin: what it registers synchronously queues there. */
export function runAs<T>(root: RootState, record: PluginRecord, body: () => T): T {
  const loader = loaderStateOf(root);
  const previous = loader.runningBody;
  loader.runningBody = record;
  try {
    return body();
  } finally {
    loader.runningBody = previous;
  }
}
