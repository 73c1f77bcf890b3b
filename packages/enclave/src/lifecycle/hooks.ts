// Hook registration (validated at add time) and the runners the request path uses. A hook runs
// with `this` set to the instance of the context that added it; it may return a promise or take
// `done`, never both. Runners stop as soon as a hook has sent the reply.
import { errorCodes } from '../errors.js';
import type { Context } from '../state/application.js';
import type { HookEntry, HookFunction } from '../state/entries.js';
import { rejectionAsError, thrownAsError } from '../thrown-values.js';
import { doneArity, type HookName, isHookName } from './hook-names.js';

function isAsyncFunction(fn: Function): boolean {
  return fn.constructor.name === 'AsyncFunction';
}

const functionSource = Function.prototype.toString;
// The start of an arrow function's source: `async`, then one parameter name or a parenthesized
// list without parentheses, quotes or slashes inside, then `=>`. No other function's source can
// start so (a function's starts with `function` or `async function`, a class's with `class`, a
// method's with its name and `(`…`) {`, a bound or native one's with `function`); an arrow
// function with a more complex parameter list is not recognized and is called as any other.
const arrowStart = /^(?:async\s*)?(?:\([^()'"`/]*\)|[\w$]+)\s*=>/;

/**
 * Whether `fn` is an arrow function, whose `this` is its own: calling it with or without a
 * receiver is the same call. V8 inlines a function called directly into an optimized caller,
 * but not one called through Function.prototype.call (~45 instructions per hook on Node 20).
 */
export function hasLexicalThis(fn: Function): boolean {
  try {
    return arrowStart.test(functionSource.call(fn));
  } catch {
    return false;
  }
}

/**
 * Validates a hook; throws the coded error Fastify users expect for each mistake. Returns the
 * function, which the runners call with the arguments its kind of hook takes.
 */
export function validateHook(name: unknown, fn: unknown): HookFunction {
  if (typeof name !== 'string') throw new errorCodes.FST_ERR_HOOK_INVALID_TYPE();
  if (!isHookName(name)) throw new errorCodes.FST_ERR_HOOK_NOT_SUPPORTED(name);
  if (typeof fn !== 'function') throw new errorCodes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn));
  if (isAsyncFunction(fn) && fn.length >= doneArity[name]) throw new errorCodes.FST_ERR_HOOK_INVALID_ASYNC_HANDLER(name);
  return fn as HookFunction;
}

/** Adds a hook to a context (and so to every context created from it afterwards). */
let nextHookOrder = 0;

export function addHookToContext(context: Context, name: HookName, fn: HookFunction): void {
  // Decided once per hook, not once per route that inherits it.
  const entry: HookEntry = { fn, instance: context.instance, order: nextHookOrder++, lexicalThis: hasLexicalThis(fn) };
  const { applicationHooks } = context.root;
  if (name === 'onReady' || name === 'onListen' || name === 'preClose' || name === 'onClose') {
    applicationHooks[name].push(entry);
    return;
  }
  const list = context.hooks.get(name);
  if (list === undefined) context.hooks.set(name, [entry]);
  else list.push(entry);
}

/**
 * Starts `result` if it is a thenable. Reading `then` or calling it may itself throw (a revoked
 * Proxy, a hostile getter): that is reported as a rejection, never thrown at the caller.
 */
function followThenable(result: unknown, onResolved: (value: unknown) => void, onRejected: (error: unknown) => void): boolean {
  if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return false;
  let then: unknown;
  try {
    then = (result as { then?: unknown }).then;
    if (typeof then !== 'function') return false;
    then.call(result, onResolved, onRejected);
  } catch (error) {
    onRejected(error);
  }
  return true;
}

/** `done(error)`: `undefined` and `null` say "no error"; any other value is one. */
function isDoneError(error: unknown): boolean {
  return error !== undefined && error !== null;
}

/** Called once when a chain stops on an error (never when a hook sent the reply). */
export type HookFailure = (error: unknown) => void;

/**
 * Runs `(request, reply, done)` hooks in order: `onDone(route, request, reply)` once all ran, or
 * `onError(reply, error)` with the first failure; neither when a hook sent the reply. The two
 * outcomes have two callbacks so no error value, however falsy, can be read as success. The
 * continuations are module-level functions given the route, request and reply, so a phase with
 * hooks allocates no closure of its own for what comes next.
 *
 * A chain allocates three closures, each reused by every hook: `step` (also what a hook's promise
 * calls when it fulfils: it ignores the value), `onRejected` and `done`. Each closure costs its
 * allocation and, on its first call, a lazy-compile stub (~50 instructions): scenario D runs
 * three chains per request (bench/README.md, "the async floor").
 */
export function runRequestHooks<Route, Request extends object, Reply extends HookReply>(
  hooks: readonly HookEntry[],
  route: Route,
  request: Request,
  reply: Reply,
  onDone: (route: Route, request: Request, reply: Reply) => void,
  onError: (reply: Reply, error: unknown) => void,
): void {
  let index = 0;
  let settled = false;
  const onRejected = (rejected: unknown): void => {
    if (settled) return;
    settled = true;
    onError(reply, rejectionAsError(rejected));
  };
  const done = (error?: unknown): void => {
    if (!isDoneError(error)) step();
    else if (!settled) {
      settled = true;
      onError(reply, error);
    }
  };
  const step = (): void => {
    if (settled || reply.sent) return;
    if (index === hooks.length) {
      settled = true;
      onDone(route, request, reply);
      return;
    }
    const hook = hooks[index++] as HookEntry;
    let result: unknown;
    try {
      result = hook.lexicalThis === true ? hook.fn(request, reply, done) : hook.fn.call(hook.instance, request, reply, done);
    } catch (thrown) {
      // The hook may have failed through `done` before throwing: the first failure counts. Not
      // onRejected: a thrown 0, false or '' is the error itself, not an undefined one.
      if (settled) return;
      settled = true;
      onError(reply, thrownAsError(thrown));
      return;
    }
    // Written out rather than a call to followThenable: V8's inlining budget for this function
    // goes to the hooks themselves, and the call costs ~15 instructions per hook on Node 20.
    if (result !== null && (typeof result === 'object' || typeof result === 'function')) {
      try {
        const then = (result as { then?: unknown }).then;
        if (typeof then === 'function') {
          then.call(result, step, onRejected);
          return;
        }
      } catch (error) {
        onRejected(error);
        return;
      }
    }
    // A synchronous hook that does not take `done` has finished when it returns.
    if (hook.fn.length < 3) step();
  };
  step();
}

/** The part of a reply the runners read. */
export interface HookReply {
  readonly sent: boolean;
}

/**
 * Runs `(request, reply, value, done(err, newValue))` hooks (preParsing, preSerialization,
 * onSend): each may replace the value by passing it to `done` or resolving with it.
 * `onDone(reply, value)` gets the final value; `onError(reply, error)` the first failure (both
 * module-level functions at every call site, so a chain allocates no continuation). With
 * `stopWhenSent` (preParsing, which runs before anything is sent), a hook that sends the reply
 * ends the chain, as in the request hooks; the other two run while the reply is already being
 * sent. Three closures per chain, as in runRequestHooks: `step` is also the fulfilment callback.
 */
export function runValueHooks<Reply extends HookReply>(
  hooks: readonly HookEntry[],
  request: object,
  reply: Reply,
  value: unknown,
  onDone: (reply: Reply, value: unknown) => void,
  onError: (reply: Reply, error: unknown) => void,
  stopWhenSent = false,
): void {
  let index = 0;
  let current = value;
  let settled = false;
  const onRejected = (rejected: unknown): void => {
    if (settled) return;
    settled = true;
    onError(reply, rejectionAsError(rejected));
  };
  const done = (error?: unknown, replacement?: unknown): void => {
    if (!isDoneError(error)) step(replacement);
    else if (!settled) {
      settled = true;
      onError(reply, error);
    }
  };
  const step = (replacement?: unknown): void => {
    if (settled || (stopWhenSent && reply.sent)) return;
    if (replacement !== undefined) current = replacement;
    if (index === hooks.length) {
      settled = true;
      onDone(reply, current);
      return;
    }
    const hook = hooks[index++] as HookEntry;
    let result: unknown;
    try {
      result = hook.lexicalThis === true ? hook.fn(request, reply, current, done) : hook.fn.call(hook.instance, request, reply, current, done);
    } catch (thrown) {
      if (settled) return;
      settled = true;
      onError(reply, thrownAsError(thrown));
      return;
    }
    if (result !== null && (typeof result === 'object' || typeof result === 'function')) {
      try {
        const then = (result as { then?: unknown }).then;
        if (typeof then === 'function') {
          then.call(result, step, onRejected);
          return;
        }
      } catch (error) {
        onRejected(error);
        return;
      }
    }
    if (hook.fn.length < 4) step(result);
  };
  step();
}

/**
 * Runs hooks whose errors cannot change the response any more (onResponse, onError, onTimeout,
 * onRequestAbort): every hook runs, and errors are handed to `onHookError` (logged).
 */
export function runObserverHooks(hooks: HookEntry[], args: unknown[], onHookError: (error: unknown) => void, next?: () => void): void {
  let index = 0;
  function step(error?: unknown): void {
    if (isDoneError(error)) onHookError(error);
    if (index === hooks.length) {
      next?.();
      return;
    }
    const hook = hooks[index++] as HookEntry;
    let result: unknown;
    try {
      result = hook.fn.call(hook.instance, ...args, step);
    } catch (thrown) {
      step(thrownAsError(thrown));
      return;
    }
    if (
      !followThenable(
        result,
        () => step(),
        (rejected) => step(rejectionAsError(rejected)),
      ) &&
      hook.fn.length <= args.length
    )
      step();
  }
  step();
}
