// The plugin loader's state: one record per registration being (or done) loading, and the
// loading stack of one application (kept by plugin-attribution.ts, beside the root state: nothing
// but the loader reads it). Types only.
import type { Context } from './application.js';

/** An `after()` callback: `(err)`, `(err, done)` or `(err, instance, done)`, `this` the instance. */
export type AfterCallback = (this: unknown, error: Error | null, ...rest: unknown[]) => unknown;

/** What `register` and `after` queue on the loading plugin (or the root). */
export type QueueItem =
  | { kind: 'plugin'; plugin: unknown; options: unknown; registeredIn: Context }
  | { kind: 'after'; callback: AfterCallback; registeredIn: Context };

/** One registration being (or done) loading; `queue` holds what its body registered. */
export interface PluginRecord {
  name: string;
  queue: QueueItem[];
  /** The drain of `queue` in progress: a second caller waits for it instead of racing it. */
  draining?: Promise<void> | null;
  /** Set once the plugin and its queue have loaded: later registrations go to the root's queue. */
  finished?: boolean;
  /** The context the plugin's body was given, set as the body starts. */
  context?: Context;
  /**
   * A load failure no `after` callback has handled yet. It outlives the drain that met it, as in
   * Fastify: awaiting the failed `register` reports it, and so do the next `after()`/`ready()`,
   * while plugins queued after it are skipped.
   */
  error?: Error | null;
}

/** Which plugin is loading, for one application (plugin-attribution.ts reads it). */
export interface LoaderState {
  /** What is registered on the application itself (the root's queue). */
  readonly rootPlugin: PluginRecord;
  /** The plugins loading, outermost first. */
  readonly loadingStack: PluginRecord[];
  /** The plugin whose body (or `after` callback) is running synchronously right now, if any. */
  runningBody: PluginRecord | null;
}
