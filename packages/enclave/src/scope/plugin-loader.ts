// The plugin loader: `register` queues, loading runs the queue in order and depth first (a
// plugin's own registrations load right after its body, before its next sibling), once, at
// ready()/listen()/`await register(...)`/after(). Registrations made while a plugin's body runs
// queue onto that plugin, which is what makes `await instance.register(x)` inside a plugin safe.
import { errorCodes, fromLoaderError, loaderErrors } from '../errors.js';
import { contextPath, createChildContext } from './context.js';
import { setContextSetting } from './context-settings.js';
import { describe, isSuccess, kindOf, toError } from './loader-values.js';
import { currentRecord, loaderStateOf, runAs } from './plugin-attribution.js';
import { checkPluginRequirements, type PluginFunction, pluginMetaOf, pluginNameOf, skipsEncapsulation } from './plugin-meta.js';
import type { Context, RootState } from '../state/application.js';
import type { LogSerializers } from '../state/options.js';
import type { AfterCallback, PluginRecord, QueueItem } from '../state/plugins.js';

/** Plugin errors already annotated with the plugin's name (each error named once, innermost). */
const namedErrors = new WeakSet<object>();

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/** An ES module namespace (or any object) whose default export is a function: the plugin. */
function defaultExportOf(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? (value as { default?: unknown }).default : undefined;
}

function isValidPlugin(plugin: unknown): boolean {
  return typeof plugin === 'function' || isThenable(plugin) || typeof defaultExportOf(plugin) === 'function';
}

/** Queues `plugin` on the loading plugin (or the root). Validation errors are thrown at once. */
export function queuePlugin(context: Context, plugin: unknown, options: unknown): void {
  const { root } = context;
  if (root.booted) {
    throw fromLoaderError(errorCodes.FST_ERR_ROOT_PLG_BOOTED, new loaderErrors.AVV_ERR_ROOT_PLG_BOOTED(), describePlugin(plugin), `"${contextPath(context)}"`);
  }
  if (context.loaded) {
    const loaderError = new loaderErrors.AVV_ERR_PARENT_PLG_LOADED(
      typeof plugin === 'function' ? pluginNameOf(plugin as PluginFunction) : 'anonymous',
      context.name,
    );
    throw fromLoaderError(errorCodes.FST_ERR_PARENT_PLUGIN_BOOTED, loaderError, describePlugin(plugin), `"${contextPath(context)}"`, context.name);
  }
  if (!isValidPlugin(plugin)) {
    throw fromLoaderError(
      errorCodes.FST_ERR_PLUGIN_NOT_VALID,
      new loaderErrors.AVV_ERR_PLUGIN_NOT_VALID(kindOf(plugin)),
      `"${contextPath(context)}"`,
      describe(plugin),
    );
  }
  if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
    throw new errorCodes.FST_ERR_OPTIONS_NOT_OBJ(`${describe(options)} for ${describePlugin(plugin)}`);
  }
  // A promise of a plugin (`import('./p.js')`) may reject long before the loader awaits it;
  // marking it handled now keeps that from crashing the process as an unhandled rejection. The
  // loader still awaits the original promise, so the failure reaches ready() as usual.
  if (isThenable(plugin)) plugin.then(undefined, () => {});
  currentRecord(context).queue.push({ kind: 'plugin', plugin, options, registeredIn: context });
}

/** Queues an `after` callback: it runs once everything registered before it has loaded. */
export function queueAfter(context: Context, callback: AfterCallback): void {
  if (typeof callback !== 'function') {
    throw fromLoaderError(
      errorCodes.FST_ERR_PLUGIN_CALLBACK_NOT_FN,
      new loaderErrors.AVV_ERR_CALLBACK_NOT_FN('after', typeof callback),
      `"${contextPath(context)}"`,
      describe(callback),
    );
  }
  currentRecord(context).queue.push({ kind: 'after', callback, registeredIn: context });
}

/** Loads what is queued on the plugin the calling code belongs to (or the root), in order. */
export function loadPending(context: Context): Promise<void> {
  return pendingLoad(context)();
}

/**
 * `loadPending`, with the plugin decided now and the loading started when called: how an
 * instance's `then` answers `await`, which reads `then` at once but calls it a job later.
 */
export function pendingLoad(context: Context): () => Promise<void> {
  const record = currentRecord(context);
  const { root } = context;
  return () => drainSerially(root, record.finished === true ? loaderStateOf(root).rootPlugin : record);
}

/** Loads everything registered on the application (ready()). */
export function loadAll(root: RootState): Promise<void> {
  return drainSerially(root, loaderStateOf(root).rootPlugin);
}

/**
 * Drains `record`'s queue, one drain at a time: `app.ready()` followed by `await app.after()`
 * (or `await app`) must not load two plugins of one queue side by side. A caller that arrives
 * during a drain waits for it, shares its failure, then loads whatever was queued since.
 */
function drainSerially(root: RootState, record: PluginRecord): Promise<void> {
  const previous = record.draining ?? null;
  const run = previous === null ? drainQueue(root, record) : previous.then(() => drainQueue(root, record));
  const tracked: Promise<void> = run.finally(() => {
    if (record.draining === tracked) record.draining = null;
  });
  record.draining = tracked;
  return tracked;
}

async function drainQueue(root: RootState, record: PluginRecord): Promise<void> {
  let pending: Error | null = record.error ?? null;
  while (record.queue.length > 0) {
    const item = record.queue.shift() as QueueItem;
    if (item.kind === 'after') {
      try {
        await runAs(root, record, () => runAfter(item.callback, item.registeredIn, pending));
        pending = null;
      } catch (error) {
        pending = toError(error, `An after() callback of '${record.name}'`);
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
  record.error = pending;
  if (pending !== null) throw pending;
}

/**
 * Runs an `after` callback the way its arity asks: `(err, done)` and `(err, instance, done)`
 * finish through `done`; `(err)` and `()` when they return (or their promise settles). A
 * callback that takes no `err` cannot have handled one, so a pending error passes on.
 */
function runAfter(callback: AfterCallback, context: Context, error: Error | null): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (err?: unknown) => (isSuccess(err) ? resolve() : reject(err));
    const finish = () => (error !== null && callback.length === 0 ? reject(error) : resolve());
    try {
      if (callback.length >= 3) {
        (callback as (...args: unknown[]) => unknown).call(context.instance, error, context.instance, done);
        return;
      }
      if (callback.length === 2) {
        callback.call(context.instance, error, done);
        return;
      }
      const result = callback.call(context.instance, error);
      if (isThenable(result)) result.then(finish, reject);
      else finish();
    } catch (thrown) {
      reject(thrown);
    }
  });
}

async function loadPlugin(root: RootState, plugin: unknown, options: unknown, parent: Context): Promise<void> {
  const pluginFn = await resolvePluginFunction(plugin, parent);
  const name = pluginNameOf(pluginFn);
  const meta = pluginMetaOf(pluginFn);
  let context = parent;
  const record: PluginRecord = { name, queue: [] };
  const { loadingStack } = loaderStateOf(root);
  loadingStack.push(record);
  try {
    if (pluginFn.constructor.name === 'AsyncFunction' && pluginFn.length >= 3) {
      throw new errorCodes.FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER(name);
    }
    checkPluginRequirements(parent, name, meta);
    // The context comes first and reads `prefix` from the options as given: for an options
    // function that is a property of the function, as in Fastify; the function then runs with
    // the plugin's own instance, and whatever it returns is the plugin's options.
    // The options as given, read by name (`prefix`, `logLevel`, `logSerializers`) before the plugin sees them.
    const given = (options ?? {}) as Readonly<Record<string, unknown>>;
    if (!skipsEncapsulation(pluginFn)) {
      context = createChildContext(parent, name, given.prefix);
      inheritLogOptions(context, given);
    }
    // Only a metadata name satisfies `dependencies` and `hasPlugin` from the registering context,
    // as Fastify documents; a wrapped plugin's name also joins the context's pluginName chain.
    if (meta?.name) parent.registeredPlugins.push(meta.name);
    if (context === parent) parent.pluginNames.push(name);
    else for (const hook of parent.hooks.get('onRegister') ?? []) hook.fn.call(hook.instance, context.instance, given);
    const resolvedOptions = typeof given === 'function' ? (given as (instance: object) => unknown)(context.instance) : given;
    record.context = context;
    await runPluginBody(root, record, pluginFn, resolvedOptions, root.options.pluginTimeout);
    await drainSerially(root, record);
  } catch (error) {
    throw nameError(root, toError(error), name);
  } finally {
    record.finished = true;
    if (context !== parent) context.loaded = true;
    const index = loadingStack.lastIndexOf(record);
    if (index !== -1) loadingStack.splice(index, 1);
  }
}

/** `logLevel` and `logSerializers` given to register() apply to the plugin's routes and below. */
function inheritLogOptions(context: Context, given: Readonly<Record<string, unknown>>): void {
  const { logLevel, logSerializers } = given;
  if (typeof logLevel === 'string' && logLevel !== '') setContextSetting(context, 'logLevel', logLevel);
  // Handed to the logger as given: pino calls each serializer with its field.
  if (logSerializers !== null && typeof logSerializers === 'object') setContextSetting(context, 'logSerializers', logSerializers as LogSerializers);
}

/** The function behind a registration: itself, a module's default export, or what a promise gave. */
async function resolvePluginFunction(plugin: unknown, parent: Context): Promise<PluginFunction> {
  let fn = isThenable(plugin) ? await plugin : plugin;
  const defaultExport = defaultExportOf(fn);
  if (typeof defaultExport === 'function') fn = defaultExport;
  if (typeof fn !== 'function') {
    const loaderError = new loaderErrors.AVV_ERR_PLUGIN_NOT_VALID(kindOf(fn));
    throw fromLoaderError(errorCodes.FST_ERR_PLUGIN_NOT_VALID, loaderError, `"${contextPath(parent)}"`, `a promise of ${describe(fn)}`);
  }
  return fn as PluginFunction;
}

function runPluginBody(root: RootState, record: PluginRecord, fn: PluginFunction, options: unknown, timeout: number): Promise<void> {
  const { name } = record;
  const context = record.context as Context;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const timer =
      timeout > 0
        ? setTimeout(() => fail(fromLoaderError(errorCodes.FST_ERR_PLUGIN_TIMEOUT, new loaderErrors.AVV_ERR_PLUGIN_EXEC_TIMEOUT(name), name, timeout)), timeout)
        : undefined;
    function settle(): boolean {
      if (settled) return false;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      return true;
    }
    function succeed() {
      if (settle()) resolve();
    }
    // Whatever is thrown or rejected is a failure, `undefined` and `0` alike.
    function fail(error: unknown) {
      if (settle()) reject(toError(error, `Plugin '${name}'`));
    }
    try {
      const result = runAs(root, record, () => fn(context.instance, options, (error?: unknown) => (isSuccess(error) ? succeed() : fail(error))));
      if (isThenable(result)) result.then(succeed, fail);
      // A plugin that neither returns a promise nor takes `done` has finished when it returns.
      else if (fn.length < 3) succeed();
    } catch (error) {
      fail(error);
    }
  });
}

/**
 * Marks a plugin's error with the plugin's name (`error.plugin`, innermost plugin wins) and logs
 * it once, naming the plugin: an error such as ECONNREFUSED says nothing of which plugin failed.
 * The message stays the plugin's own: its users and its tests match on it.
 */
function nameError(root: RootState, error: Error, name: string): Error {
  if (namedErrors.has(error)) return error;
  namedErrors.add(error);
  try {
    root.log.error({ err: error, plugin: name }, `plugin '${name}' failed to load`);
  } catch {
    // A logger that throws must not replace the plugin's own error.
  }
  try {
    Object.defineProperty(error, 'plugin', { value: name, configurable: true });
  } catch {
    // Frozen or exotic error objects are passed through as they are.
  }
  return error;
}

function describePlugin(plugin: unknown): string {
  return typeof plugin === 'function' ? `plugin '${pluginNameOf(plugin as PluginFunction)}'` : 'a plugin';
}
