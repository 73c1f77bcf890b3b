// The wrapper and the core never import each other: this file only stamps three
// global-registry symbols on the plugin function, and the core reads them (SPEC §3.3).
// Because the symbols come from `Symbol.for`, a second installed copy of this package, or
// the `fastify-plugin` package, marks functions in a way every copy of the core understands.
import { derivePluginName, toIdentifierName } from './plugin-name.js';

const skipOverride = Symbol.for('skip-override');
const displayName = Symbol.for('fastify.display-name');
const pluginMeta = Symbol.for('plugin-meta');

/** Numbers automatic names, so that an unnamed plugin can never satisfy a dependency by accident. */
let automaticNameCount = 0;

/**
 * Marks `fn` so that what it registers (decorators, hooks, routes, shared schemas, parsers,
 * handlers) lands in the context that registers it instead of a new child context.
 *
 * `meta` is the plugin's metadata, or a string taken as the framework version range the
 * plugin was written for. Without a `name`, the plugin is named after the function (or the
 * calling file) plus an `-auto-<n>` suffix; only an explicit name can satisfy another
 * plugin's `dependencies`. `fn` itself is returned, so its type is unchanged; it also gets
 * `fn.default = fn` and, when named, `fn[camelCaseName] = fn`, so that CommonJS plugins can be
 * imported by default or by name.
 *
 * @param fn - the plugin function, or an ES module namespace whose `default` is one
 * @param meta - metadata checked by the core when the plugin is registered, or a version range
 * @returns `fn`, marked
 * @throws TypeError when `fn` is not a function or `meta` is malformed
 * @example
 * ```ts
 * import plugin from '@enclavejs/plugin';
 *
 * export default plugin(
 *   async (app) => {
 *     app.decorate('db', await connect());
 *   },
 *   { name: 'db', decorators: { fastify: ['config'] }, dependencies: ['config-loader'] },
 * );
 * ```
 */
function plugin<Fn extends plugin.PluginFunction>(fn: Fn | { readonly default: Fn }, meta?: plugin.PluginMetadata | string): Fn {
  // `register(await import('./p.mjs'))`-style namespaces and transpiled `exports.default`.
  const target: unknown = (fn as { default?: unknown } | null | undefined)?.default ?? fn;
  if (typeof target !== 'function') {
    throw new TypeError(`@enclavejs/plugin: expected a plugin function (or a module whose default export is one), got ${describe(target)}`);
  }
  const metadata = normalizeMetadata(meta);
  const named: plugin.PluginMetadata = metadata.name ? metadata : { ...metadata, name: `${derivePluginName(target, plugin)}-auto-${automaticNameCount++}` };

  const marked = target as Function & Record<PropertyKey, unknown>;
  marked[skipOverride] = named.encapsulate !== true;
  marked[displayName] = named.name;
  marked[pluginMeta] = named;
  if (!marked.default) marked.default = marked;
  if (metadata.name) {
    const identifier = toIdentifierName(metadata.name);
    if (!marked[identifier]) marked[identifier] = marked;
  }
  return target as Fn;
}

function normalizeMetadata(meta: plugin.PluginMetadata | string | undefined): plugin.PluginMetadata {
  if (meta === undefined) return {};
  if (typeof meta === 'string') return { fastify: meta };
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    throw new TypeError(`@enclavejs/plugin: the metadata must be an object or a version-range string, got ${describe(meta)}`);
  }
  if (meta.fastify !== undefined && typeof meta.fastify !== 'string') {
    throw new TypeError(`@enclavejs/plugin: metadata.fastify must be a version-range string, got ${describe(meta.fastify)}`);
  }
  // Empty and nullish names mean "unnamed"; any other non-string is a mistake worth reporting.
  const name: unknown = meta.name;
  if (name !== undefined && name !== null && name !== '' && typeof name !== 'string') {
    throw new TypeError(`@enclavejs/plugin: metadata.name must be a string, got ${describe(name)}`);
  }
  return meta;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a value of type '${typeof value}'`;
}

namespace plugin {
  /** The shape of a plugin `plugin()` accepts: async `(instance, opts)` or `(instance, opts, done)`. */
  export type PluginFunction = (instance: any, options: any, done?: any) => unknown;

  /**
   * What a plugin declares about itself; the core checks it when the plugin is registered.
   *
   * @example
   * ```ts
   * const meta: PluginMetadata = {
   *   name: 'sessions',
   *   dependencies: ['cookies'],
   *   decorators: { fastify: ['redis'], request: ['cookies'] },
   * };
   * ```
   */
  export interface PluginMetadata {
    /** The plugin's name: shown in errors and `printPlugins()`, and what `dependencies` refer to. */
    name?: string;
    /** Names of plugins that must already be registered in this context or an ancestor. */
    dependencies?: string[];
    /** Decorators that must already be visible when the plugin is registered. */
    decorators?: {
      /** Instance decorators (`decorate`). */
      fastify?: (string | symbol)[];
      /** Request decorators (`decorateRequest`). */
      request?: (string | symbol)[];
      /** Reply decorators (`decorateReply`). */
      reply?: (string | symbol)[];
    };
    /** `true` keeps the plugin in a context of its own despite the wrapper (only its name and checks apply). */
    encapsulate?: boolean;
    /** The framework version range the plugin was written for; stored as given. */
    fastify?: string;
  }
}

/** Same function, reachable as `require('@enclavejs/plugin').default` and `.plugin`. */
plugin.default = plugin;
plugin.plugin = plugin;

export = plugin;
