// Hook registration (validated at add time) and the runners the request path uses. A hook runs
// with `this` set to the instance of the context that added it; it may return a promise or take
// `done`, never both. Runners stop as soon as a hook has sent the reply.
import { errorCodes } from '../errors.js';
import type { Context, HookEntry } from '../scope/context.js';
import { doneArity, type HookName, isHookName } from './hook-names.js';

function isAsyncFunction(fn: Function): boolean {
  return fn.constructor.name === 'AsyncFunction';
}

/** Validates a hook; throws the coded error Fastify users expect for each mistake. */
export function validateHook(name: unknown, fn: unknown): asserts name is HookName {
  if (typeof name !== 'string') throw new errorCodes.FST_ERR_HOOK_INVALID_TYPE();
  if (!isHookName(name)) throw new errorCodes.FST_ERR_HOOK_NOT_SUPPORTED(name);
  if (typeof fn !== 'function') throw new errorCodes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn));
  if (isAsyncFunction(fn) && fn.length >= doneArity[name]) throw new errorCodes.FST_ERR_HOOK_INVALID_ASYNC_HANDLER(name);
}

/** Adds a hook to a context (and so to every context created from it afterwards). */
let nextHookOrder = 0;

export function addHookToContext(context: Context, name: HookName, fn: (...args: any[]) => any): void {
  const entry: HookEntry = { fn, instance: context.instance, order: nextHookOrder++ };
  const { applicationHooks } = context.root;
  if (name === 'onReady' || name === 'onListen' || name === 'preClose' || name === 'onClose') {
    applicationHooks[name].push(entry);
    return;
  }
  const list = context.hooks.get(name);
  if (list === undefined) context.hooks.set(name, [entry]);
  else list.push(entry);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as any).then === 'function';
}

type Next = (error?: unknown) => void;

/**
 * Runs `(request, reply, done)` hooks in order. `next(error)` is called once: with the first
 * error, or with nothing when all ran; never when a hook sent the reply.
 */
export function runRequestHooks(hooks: HookEntry[], request: any, reply: any, next: Next): void {
  let index = 0;
  // One pair of promise callbacks for the whole chain, not one per hook.
  const onResolved = () => step();
  const onRejected = (rejected: unknown) => next(rejected ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR());
  function step(error?: unknown): void {
    if (error) {
      next(error);
      return;
    }
    if (reply.sent) return;
    if (index === hooks.length) {
      next();
      return;
    }
    const hook = hooks[index++] as HookEntry;
    let result: unknown;
    try {
      result = hook.fn.call(hook.instance, request, reply, step);
    } catch (thrown) {
      next(thrown ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR());
      return;
    }
    if (isThenable(result)) {
      result.then(onResolved, onRejected);
    } else if (hook.fn.length < 3) {
      // A synchronous hook that does not take `done` has finished when it returns.
      step();
    }
  }
  step();
}

/**
 * Runs `(request, reply, value, done(err, newValue))` hooks (preParsing, preSerialization,
 * onSend): each may replace the value by passing it to `done` or resolving with it.
 */
export function runValueHooks(
  hooks: HookEntry[],
  request: any,
  reply: any,
  value: unknown,
  next: (error: unknown, value?: unknown) => void,
): void {
  let index = 0;
  let current = value;
  const onResolved = (resolved: unknown) => step(null, resolved);
  const onRejected = (rejected: unknown) => next(rejected ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR());
  function step(error?: unknown, replacement?: unknown): void {
    if (error) {
      next(error);
      return;
    }
    if (replacement !== undefined) current = replacement;
    if (index === hooks.length) {
      next(null, current);
      return;
    }
    const hook = hooks[index++] as HookEntry;
    let result: unknown;
    try {
      result = hook.fn.call(hook.instance, request, reply, current, step);
    } catch (thrown) {
      next(thrown ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR());
      return;
    }
    if (isThenable(result)) {
      result.then(onResolved, onRejected);
    } else if (hook.fn.length < 4) {
      step(null, result);
    }
  }
  step();
}

/**
 * Runs hooks whose errors cannot change the response any more (onResponse, onError, onTimeout,
 * onRequestAbort): every hook runs, and errors are handed to `onHookError` (logged).
 */
export function runObserverHooks(
  hooks: HookEntry[],
  args: unknown[],
  onHookError: (error: unknown) => void,
  next?: () => void,
): void {
  let index = 0;
  function step(error?: unknown): void {
    if (error) onHookError(error);
    if (index === hooks.length) {
      next?.();
      return;
    }
    const hook = hooks[index++] as HookEntry;
    try {
      const result = hook.fn.call(hook.instance, ...args, step);
      if (isThenable(result)) result.then(() => step(), (rejected) => step(rejected ?? new Error('hook rejected')));
      else if (hook.fn.length <= args.length) step();
    } catch (thrown) {
      step(thrown ?? new Error('hook threw'));
    }
  }
  step();
}

/**
 * Runs application hooks (onReady, onListen, preClose, onClose) one after the other, each with
 * its own instance as `this`; the first error stops the chain.
 */
export async function runApplicationHooks(hooks: HookEntry[], argsFor: (entry: HookEntry) => unknown[]): Promise<void> {
  for (const hook of hooks) {
    await new Promise<void>((resolve, reject) => {
      const args = argsFor(hook);
      const done = (error?: unknown) => (error ? reject(error) : resolve());
      try {
        const result = hook.fn.call(hook.instance, ...args, done);
        if (isThenable(result)) result.then(() => resolve(), reject);
        else if (hook.fn.length <= args.length) resolve();
      } catch (thrown) {
        reject(thrown);
      }
    });
  }
}
