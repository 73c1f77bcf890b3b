// Reads the marks that `@enclavejs/plugin` (and the real `fastify-plugin`) stamp on a plugin
// function — a protocol of global-registry symbols, so neither package imports the other — and
// checks a plugin's declared dependencies, explaining where a missing piece actually lives.
import { errorCodes } from '../errors.js';
import type { Context } from '../state/application.js';
import type { EnclaveInstance } from '../types.js';
import { contextPath, isAncestorOrSelf } from './context.js';

export const kSkipOverride = Symbol.for('skip-override');
export const kDisplayName = Symbol.for('fastify.display-name');
export const kPluginMeta = Symbol.for('plugin-meta');
/**
 * Where Fastify lists the metadata names of the plugins registered so far, read by plugins and
 * their tests (@fastify/view checks its own name there): a public protocol, like the marks above.
 */
export const kRegisteredPlugins = Symbol.for('registered-plugin');

export interface PluginMeta {
  name?: string;
  dependencies?: string[];
  decorators?: { fastify?: string[]; request?: string[]; reply?: string[] };
  encapsulate?: boolean;
  fastify?: string;
}

/** A plugin as the loader calls it: the user's function, with the marks of its wrapper. */
export type PluginFunction = ((this: unknown, instance: EnclaveInstance, options: unknown, done: (err?: unknown) => void) => unknown) & {
  [kSkipOverride]?: boolean;
  [kDisplayName]?: string;
  [kPluginMeta]?: PluginMeta;
};

export function pluginMetaOf(fn: PluginFunction): PluginMeta | undefined {
  const meta = fn[kPluginMeta];
  return meta !== null && typeof meta === 'object' ? meta : undefined;
}

/**
 * A readable name: the declared one, the function's own, or — for an anonymous function — its
 * first two source lines joined by ' -- ' (the fallback Fastify documents for pluginName).
 */
export function pluginNameOf(fn: PluginFunction): string {
  const display = fn[kDisplayName];
  if (typeof display === 'string' && display !== '') return display;
  const meta = pluginMetaOf(fn);
  if (meta?.name) return meta.name;
  if (fn.name) return fn.name;
  const source = fn
    .toString()
    .split('\n')
    .slice(0, 2)
    .map((line) => line.trim())
    .join(' -- ');
  // Bundled or transpiled code can put a whole function on one line; error messages stay readable.
  return source.length > 120 ? `${source.slice(0, 117)}...` : source;
}

/** Whether the plugin's registrations land in the registering context (no child context). */
export function skipsEncapsulation(fn: PluginFunction): boolean {
  return fn[kSkipOverride] === true && pluginMetaOf(fn)?.encapsulate !== true;
}

/** Whether a plugin's metadata name was registered in `context` or one of its ancestors. */
export function isRegisteredInChain(context: Context, name: string): boolean {
  for (let current: Context | null = context; current !== null; current = current.parent) {
    if (current.registeredPlugins.includes(name)) return true;
  }
  return false;
}

/**
 * The metadata names registered in `context` and its ancestors, the root's first: what
 * `instance[Symbol.for('registered-plugin')]` shows, and the names `dependencies` are checked
 * against. A fresh array each time, so a reader that changes it cannot change what loads.
 */
export function registeredPluginNames(context: Context): string[] {
  const names: string[] = [];
  for (let current: Context | null = context; current !== null; current = current.parent) {
    names.unshift(...current.registeredPlugins);
  }
  return names;
}

type DecoratorKind = 'instance' | 'request' | 'reply';

function isDecoratorVisible(context: Context, kind: DecoratorKind, name: string): boolean {
  if (kind === 'instance') return name in context.instance;
  const prototype = kind === 'request' ? context.requestPrototype : context.replyPrototype;
  const fields = kind === 'request' ? context.requestFields : context.replyFields;
  return name in prototype || fields.some(([field]) => field === name);
}

/**
 * Where a name that is not visible here does exist: in a sibling or descendant context. The
 * hint tells the user which context holds it and that wrapping that plugin exposes it.
 */
function whereElse(context: Context, holds: (candidate: Context) => boolean): string {
  const places = context.root.contexts.filter((candidate) => !isAncestorOrSelf(candidate, context) && holds(candidate));
  if (places.length === 0) return '';
  const where = places.map((place) => `"${contextPath(place)}"`).join(', ');
  return `. It exists in ${where}, which is encapsulated from "${contextPath(context)}": wrap the plugin that provides it with @enclavejs/plugin (or fastify-plugin) so it lands in its parent context`;
}

/** Explains where a decorator lives when it is not visible in `context`. */
export function decoratorHint(context: Context, kind: DecoratorKind, name: string): string {
  return whereElse(context, (candidate) => candidate.decorators[kind].includes(name));
}

// How Fastify's FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE names the object a decorator is missing from.
const fastifyKindName: Record<DecoratorKind, string> = { instance: 'Fastify', request: 'Request', reply: 'Reply' };

/**
 * Throws when a plugin's declared decorators or dependencies are not visible where it loads,
 * checked in Fastify's order (decorators of the instance, the reply, the request; then plugins).
 */
export function checkPluginRequirements(context: Context, pluginName: string, meta: PluginMeta | undefined): void {
  if (meta === undefined) return;
  const kinds: Array<[DecoratorKind, string[] | undefined]> = [
    ['instance', meta.decorators?.fastify],
    ['reply', meta.decorators?.reply],
    ['request', meta.decorators?.request],
  ];
  for (const [kind, names] of kinds) {
    for (const name of names ?? []) {
      if (!isDecoratorVisible(context, kind, name)) {
        throw new errorCodes.FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE(
          name,
          typeof meta.name === 'string' ? ` required by '${meta.name}'` : '',
          fastifyKindName[kind],
          pluginName,
          kind,
          `"${contextPath(context)}"`,
          decoratorHint(context, kind, name),
        );
      }
    }
  }
  for (const dependency of meta.dependencies ?? []) {
    if (!isRegisteredInChain(context, dependency)) {
      const hint = whereElse(context, (candidate) => candidate.registeredPlugins.includes(dependency));
      throw new errorCodes.FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED(dependency, meta.name ?? pluginName, hint);
    }
  }
}
