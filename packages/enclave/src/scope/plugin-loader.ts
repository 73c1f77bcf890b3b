// The plugin loader: `register` queues, loading runs the queue in order and depth first (a
// plugin's own registrations load right after its body, before its next sibling), once, at
// ready()/listen()/`await register(...)`/after(). Registrations made while a plugin's body runs
// queue onto that plugin, which is what makes `await instance.register(x)` inside a plugin safe.
import { errorCodes } from '../errors.js';
import { type Context, contextPath, createChildContext } from './context.js';
import {
  checkPluginRequirements,
  type PluginFunction,
  pluginMetaOf,
  pluginNameOf,
  skipsEncapsulation,
} from './plugin-meta.js';
import type { RootState } from './root-state.js';

type AfterCallback = (this: any, error: Error | null, done?: (err?: Error | null) => void) => unknown;

type QueueItem =
  | { kind: 'plugin'; plugin: unknown; options: unknown; registeredIn: Context }
  | { kind: 'after'; callback: AfterCallback; registeredIn: Context };

/** One registration being (or done) loading; `queue` holds what its body registered. */
export interface PluginRecord {
  name: string;
  queue: QueueItem[];
}

/** Plugin errors already annotated with the plugin's name (each error named once, innermost). */
const namedErrors = new WeakSet<object>();

function currentRecord(root: RootState): PluginRecord {
  return root.loadingStack[root.loadingStack.length - 1] ?? (root.rootPlugin as PluginRecord);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as any).then === 'function';
}

function isValidPlugin(plugin: unknown): boolean {
  if (typeof plugin === 'function' || isThenable(plugin)) return true;
  return plugin !== null && typeof plugin === 'object' && typeof (plugin as any).default === 'function';
}

/** Queues `plugin` on the loading plugin (or the root). Validation errors are thrown at once. */
export function queuePlugin(context: Context, plugin: unknown, options: unknown): void {
  const { root } = context;
  if (root.booted) {
    throw new errorCodes.FST_ERR_ROOT_PLG_BOOTED('Cannot register a plugin once the application is ready');
  }
  if (!isValidPlugin(plugin)) {
    throw new errorCodes.FST_ERR_PLUGIN_NOT_VALID(
      `A plugin must be a function, an ES module with a default export, or a promise of one; got ${describe(plugin)}`,
    );
  }
  if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
    throw new errorCodes.FST_ERR_OPTIONS_NOT_OBJ(describe(options));
  }
  currentRecord(root).queue.push({ kind: 'plugin', plugin, options, registeredIn: context });
}

/** Queues an `after` callback: it runs once everything registered before it has loaded. */
export function queueAfter(context: Context, callback: AfterCallback): void {
  currentRecord(context.root).queue.push({ kind: 'after', callback, registeredIn: context });
}

/** Loads what is queued on the plugin currently running (or the root), in order. */
export function loadPending(root: RootState): Promise<void> {
  return drainQueue(root, currentRecord(root));
}

async function drainQueue(root: RootState, record: PluginRecord): Promise<void> {
  let pending: Error | null = null;
  while (record.queue.length > 0) {
    const item = record.queue.shift() as QueueItem;
    if (item.kind === 'after') {
      try {
        await runAfter(item.callback, item.registeredIn, pending);
        pending = null;
      } catch (error) {
        pending = toError(error);
      }
    } else if (pending === null) {
      try {
        await loadPlugin(root, item.plugin, item.options, item.registeredIn);
      } catch (error) {
        pending = toError(error);
      }
    }
    // Plugins queued after a failure are skipped until an `after` callback handles the error.
  }
  if (pending !== null) throw pending;
}

function runAfter(callback: AfterCallback, context: Context, error: Error | null): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error | null) => (err ? reject(err) : resolve());
    if (callback.length >= 2) {
      callback.call(context.instance, error, done);
      return;
    }
    try {
      const result = callback.call(context.instance, error);
      if (isThenable(result)) result.then(() => resolve(), reject);
      else if (error !== null && callback.length === 0) reject(error);
      else resolve();
    } catch (thrown) {
      reject(thrown);
    }
  });
}

async function loadPlugin(root: RootState, plugin: unknown, options: unknown, parent: Context): Promise<void> {
  let fn = isThenable(plugin) ? await plugin : plugin;
  if (fn !== null && typeof fn === 'object' && typeof (fn as any).default === 'function') fn = (fn as any).default;
  if (typeof fn !== 'function') {
    throw new errorCodes.FST_ERR_PLUGIN_NOT_VALID(
      `A plugin promise must resolve to a function or an ES module with a default export; got ${describe(fn)}`,
    );
  }
  const pluginFn = fn as PluginFunction;
  const name = pluginNameOf(pluginFn);
  const meta = pluginMetaOf(pluginFn);
  if (pluginFn.constructor.name === 'AsyncFunction' && pluginFn.length >= 3) {
    throw new errorCodes.FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER(name);
  }
  checkPluginRequirements(parent, name, meta);
  const resolvedOptions = typeof options === 'function' ? options(parent.instance) : (options ?? {});
  const context = skipsEncapsulation(pluginFn) ? parent : createChildContext(parent, name, resolvedOptions?.prefix);
  parent.registeredPlugins.push(name);
  if (meta?.name && meta.name !== name) parent.registeredPlugins.push(meta.name);
  if (context !== parent) {
    for (const hook of parent.hooks.get('onRegister') ?? []) hook.fn.call(hook.instance, context.instance, resolvedOptions);
  }
  const record: PluginRecord = { name, queue: [] };
  root.loadingStack.push(record);
  try {
    await runPluginBody(pluginFn, context, resolvedOptions, name, root.options.pluginTimeout);
    await drainQueue(root, record);
  } catch (error) {
    throw nameError(toError(error), name, context);
  } finally {
    root.loadingStack.pop();
  }
}

function runPluginBody(fn: PluginFunction, context: Context, options: unknown, name: string, timeout: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const timer =
      timeout > 0
        ? setTimeout(() => finish(new errorCodes.FST_ERR_PLUGIN_TIMEOUT(name, timeout)), timeout)
        : undefined;
    function finish(error?: unknown) {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    }
    try {
      const result = fn(context.instance, options, (error?: Error) => finish(error));
      if (isThenable(result)) result.then(() => finish(), (error) => finish(error ?? new Error(`Plugin '${name}' rejected`)));
      // A plugin that neither returns a promise nor takes `done` has finished when it returns.
      else if (fn.length < 3) finish();
    } catch (error) {
      finish(error ?? new Error(`Plugin '${name}' threw`));
    }
  });
}

function nameError(error: Error, name: string, context: Context): Error {
  if (namedErrors.has(error)) return error;
  namedErrors.add(error);
  const code = (error as { code?: unknown }).code;
  // Our own loader errors already name the plugin; a user's error gets the plugin appended.
  if (typeof code !== 'string' || !code.startsWith('FST_ERR_PLUGIN')) {
    try {
      error.message = `${error.message} (in plugin "${name}" at "${contextPath(context)}")`;
    } catch {
      // A frozen error keeps its message; `plugin` below still names the plugin.
    }
  }
  try {
    Object.defineProperty(error, 'plugin', { value: name, configurable: true });
  } catch {
    // Frozen or exotic error objects are passed through as they are.
  }
  return error;
}

function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new errorCodes.FST_ERR_PLUGIN_NOT_VALID(`A plugin failed with a non-Error value: ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string '${value}'` : typeof value;
}

