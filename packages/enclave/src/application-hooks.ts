// The runner of application hooks (onReady, onListen, preClose, onClose): one after the other,
// each with its own instance as `this`, in the three forms (sync, `done`, promise).
import { errorCodes, loaderErrors } from './errors.js';
import type { HookEntry } from './scope/context.js';
import { rejectionAsError, thrownAsError } from './thrown-values.js';

export interface ApplicationHookOptions {
  /** Milliseconds a hook may take before it fails with FST_ERR_HOOK_TIMEOUT (0: no limit). */
  timeout?: number;
  /**
   * Where a failed hook's error goes when the chain should go on (onListen: the server already
   * listens, so a failing hook must not undo that). Without it, the first error stops the chain.
   */
  onError?: (error: unknown, hook: HookEntry) => void;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

function hookLabel(hook: HookEntry): string {
  return hook.fn.name === '' ? '' : ` "${hook.fn.name}"`;
}

/** A hook that never settles would hang ready() for good: fail it after `timeout` ms instead. */
function timeoutError(name: string, hook: HookEntry, timeout: number): Error {
  // The cause is the error avvio gives the same failure, whose code Fastify users test for.
  const cause = Object.assign(new loaderErrors.AVV_ERR_READY_TIMEOUT(hook.fn.name || 'anonymous'), { fn: hook.fn });
  return new errorCodes.FST_ERR_HOOK_TIMEOUT(name, hookLabel(hook), timeout, { cause });
}

function runOne(name: string, hook: HookEntry, args: unknown[], timeout: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      // Any value passed as an error is one, falsy ones included, except "nothing".
      if (error === undefined || error === null) resolve();
      else reject(error);
    };
    if (timeout > 0) {
      timer = setTimeout(() => finish(timeoutError(name, hook, timeout)), timeout);
    }
    try {
      const result = hook.fn.call(hook.instance, ...args, finish);
      if (isThenable(result)) {
        result.then(
          () => finish(),
          (rejected) => finish(rejectionAsError(rejected)),
        );
      } else if (hook.fn.length <= args.length) {
        finish();
      }
    } catch (thrown) {
      finish(thrownAsError(thrown));
    }
  });
}

/** Runs `hooks` in order; see ApplicationHookOptions for timeouts and errors. */
export async function runApplicationHooks(
  name: 'onReady' | 'onListen' | 'preClose' | 'onClose',
  hooks: readonly HookEntry[],
  argsFor: (entry: HookEntry) => unknown[],
  options: ApplicationHookOptions = {},
): Promise<void> {
  for (const hook of hooks) {
    try {
      await runOne(name, hook, argsFor(hook), options.timeout ?? 0);
    } catch (error) {
      if (options.onError === undefined) throw error;
      options.onError(error, hook);
    }
  }
}
