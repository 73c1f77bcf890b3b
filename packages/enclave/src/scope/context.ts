// An encapsulation context: what one plugin (or the root) registered, and a link to its parent.
// A child's public instance is `Object.create(parent.instance)`, so instance decorators are
// inherited by plain property lookup; everything else lives in the fresh stores below. The
// context is reachable from an instance through one module-private symbol and nothing else.
import type { ContentTypeParserStore } from '../http/content-type-parser.js';
import type { HookName } from '../lifecycle/hook-names.js';
import type { SchemaController } from '../schema/schema-controller.js';
import type { Context, ErrorHandlerFunction, RootState } from '../state/application.js';
import type { EnclaveInstance } from '../types.js';
import type { HookEntry } from '../state/entries.js';

/** The single private key from a public instance to its context. */
export const kContext: unique symbol = Symbol('enclave.context');

let nextContextId = 0;

function chainFields(context: Context, own: 'ownRequestFields' | 'ownReplyFields'): Array<[string, unknown]> {
  const fields: Array<[string, unknown]> = [];
  for (let current: Context | null = context; current !== null; current = current.parent) {
    fields.unshift(...current[own]);
  }
  return fields;
}

/** What every context derives from its fields on each read instead of storing. */
type DerivedKey = 'pluginName' | 'requestFields' | 'replyFields';

const contextViews: object = Object.defineProperties(
  {},
  {
    pluginName: {
      get(this: Context) {
        return this.pluginNames.join(' -> ');
      },
    },
    requestFields: {
      get(this: Context) {
        return chainFields(this, 'ownRequestFields');
      },
    },
    replyFields: {
      get(this: Context) {
        return chainFields(this, 'ownReplyFields');
      },
    },
  },
);

function makeContext(fields: Omit<Context, DerivedKey>): Context {
  return Object.assign(Object.create(contextViews) as Context, fields);
}

export function contextOf(instance: object): Context {
  const context = (instance as Record<symbol, Context | undefined>)[kContext];
  if (context === undefined) throw new TypeError('Not an Enclave instance');
  return context;
}

/** A plugin's prefix under its parent's, joined as Fastify joins them: one slash between. */
function joinPrefix(parentPrefix: string, prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix === '') return parentPrefix;
  if (parentPrefix.endsWith('/') && prefix.startsWith('/')) return parentPrefix + prefix.slice(1);
  if (!parentPrefix.endsWith('/') && !prefix.startsWith('/')) return `${parentPrefix}/${prefix}`;
  return parentPrefix + prefix;
}

/** What the factory gives the root context: the prototypes and stores every context derives from. */
export interface RootContextParts {
  instancePrototype: object;
  requestPrototype: object;
  replyPrototype: object;
  schemas: SchemaController;
  parsers: ContentTypeParserStore;
  /** The default error handler, the end of every error-handler chain. */
  defaultErrorHandler: ErrorHandlerFunction;
}

/** The root context: created once by the factory with the instance prototype it inherits from. */
export function createRootContext(root: RootState, parts: RootContextParts): Context {
  const { schemas, parsers } = parts;
  const instance: EnclaveInstance = Object.create(parts.instancePrototype);
  const context = makeContext({
    id: nextContextId++,
    parent: null,
    root,
    instance,
    name: 'root',
    // Fastify documents the root's pluginName as 'fastify'; plugins written for it may rely on that.
    pluginNames: ['fastify'],
    prefix: '',
    children: [],
    hooks: new Map(),
    decorators: { instance: [], request: [], reply: [] },
    requestPrototype: Object.create(parts.requestPrototype),
    replyPrototype: Object.create(parts.replyPrototype),
    ownRequestFields: [],
    ownReplyFields: [],
    schemas,
    parsers,
    errorHandler: { fn: parts.defaultErrorHandler, instance, parent: null },
    notFound: null,
    replySerializer: null,
    registeredPlugins: [],
    loaded: false,
    Request: null,
    Reply: null,
  });
  Object.defineProperty(instance, kContext, { value: context });
  return context;
}

/** A child context for a plugin that keeps its own encapsulation. */
export function createChildContext(parent: Context, pluginName: string, prefix: unknown): Context {
  const instance: EnclaveInstance = Object.create(parent.instance);
  const hooks = new Map<HookName, HookEntry[]>();
  for (const [name, entries] of parent.hooks) hooks.set(name, entries.slice());
  const context = makeContext({
    id: nextContextId++,
    parent,
    root: parent.root,
    instance,
    name: pluginName,
    pluginNames: [pluginName],
    prefix: joinPrefix(parent.prefix, prefix),
    children: [],
    hooks,
    decorators: { instance: [], request: [], reply: [] },
    requestPrototype: Object.create(parent.requestPrototype),
    replyPrototype: Object.create(parent.replyPrototype),
    ownRequestFields: [],
    ownReplyFields: [],
    schemas: parent.schemas.createChild(),
    parsers: parent.parsers.createChild(),
    errorHandler: parent.errorHandler,
    notFound: null,
    replySerializer: parent.replySerializer,
    registeredPlugins: [],
    loaded: false,
    Request: null,
    Reply: null,
  });
  Object.defineProperty(instance, kContext, { value: context });
  parent.children.push(context);
  parent.root.contexts.push(context);
  return context;
}

/** The contexts from the root down to `context`, for chain lookups and error messages. */
export function contextPath(context: Context): string {
  const names: string[] = [];
  for (let current: Context | null = context; current !== null; current = current.parent) {
    names.unshift(current.name);
  }
  return names.join(' > ');
}

/** Whether `ancestor` is `context` or one of its ancestors. */
export function isAncestorOrSelf(ancestor: Context, context: Context): boolean {
  for (let current: Context | null = context; current !== null; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}
