// An encapsulation context: what one plugin (or the root) registered, and a link to its parent.
// A child's public instance is `Object.create(parent.instance)`, so instance decorators are
// inherited by plain property lookup; everything else lives in the fresh stores below. The
// context is reachable from an instance through one module-private symbol and nothing else.
import type { ContentTypeParserStore } from '../http/content-type-parser.js';
import type { HookName } from '../lifecycle/hook-names.js';
import type { SchemaController } from '../schema/schema-controller.js';
import type { RootState } from './root-state.js';

/** The single private key from a public instance to its context. */
export const kContext: unique symbol = Symbol('enclave.context');

/** A hook as registered: the function and the instance it runs with as `this`. */
export interface HookEntry {
  fn: (...args: any[]) => any;
  instance: object;
  /** When the hook took effect, across the application: a route runs its hooks in this order. */
  order?: number;
  /**
   * The function is an arrow function, whose `this` is its own, so the runners call it directly
   * rather than through Function.prototype.call. Decided when the hook is added (a route's own
   * hooks: when the route is compiled).
   */
  lexicalThis?: boolean;
}

/** A link in the error-handler chain: a handler that rethrows passes the error to `parent`. */
export interface ErrorHandlerEntry {
  fn: ((this: any, error: any, request: any, reply: any) => unknown) | null;
  instance: object;
  parent: ErrorHandlerEntry | null;
}

/** A not-found handler set with setNotFoundHandler, compiled like a route at ready. */
export interface NotFoundEntry {
  handler: (this: any, request: any, reply: any) => unknown;
  options: Record<string, any>;
  context: Context;
}

export interface DecoratorNames {
  instance: string[];
  request: string[];
  reply: string[];
}

export interface Context {
  readonly id: number;
  readonly parent: Context | null;
  readonly root: RootState;
  readonly instance: Record<PropertyKey, any>;
  /** The name shown in context paths and printPlugins: the plugin that created the context. */
  readonly name: string;
  /**
   * `instance.pluginName`: the context's own plugin name, followed by the wrapped plugins that
   * loaded into it, in boot order (`a -> b -> c`), as Fastify documents for wrapped plugins.
   */
  readonly pluginName: string;
  /** The names `pluginName` joins; wrapped plugins push theirs as they load. */
  readonly pluginNames: string[];
  readonly prefix: string;
  readonly children: Context[];
  /** Hooks visible here: a copy of the parent's at creation, plus this context's own. */
  readonly hooks: Map<HookName, HookEntry[]>;
  /** Names decorated in this context only (diagnostics and printPlugins). */
  readonly decorators: DecoratorNames;
  readonly requestPrototype: Record<PropertyKey, any>;
  readonly replyPrototype: Record<PropertyKey, any>;
  /**
   * Value decorators copied onto each request/reply so every request has its own slot: those of
   * the ancestors, then this context's. Read along the chain when asked (at ready, when the
   * constructors are built), so that a value decorator an ancestor adds after this context was
   * created is visible here, exactly like its function and getter decorators on the prototypes.
   */
  readonly requestFields: Array<[string, unknown]>;
  readonly replyFields: Array<[string, unknown]>;
  /** The value decorators added in this context itself. */
  readonly ownRequestFields: Array<[string, unknown]>;
  readonly ownReplyFields: Array<[string, unknown]>;
  readonly schemas: SchemaController;
  readonly parsers: ContentTypeParserStore;
  errorHandler: ErrorHandlerEntry;
  notFound: NotFoundEntry | null;
  replySerializer: ((payload: unknown, statusCode: number) => string) | null;
  /**
   * Metadata names of plugins registered from this context; `dependencies` checks and `hasPlugin`
   * look these up along the chain. A plugin's plain function name is not among them: as in
   * Fastify, it is visible to `hasPlugin` only in its own context (through `pluginNames`).
   */
  readonly registeredPlugins: string[];
  /**
   * Set once the plugin that created this context (and everything it registered) has loaded:
   * registering on it afterwards could never load in order, so it is refused.
   */
  loaded: boolean;
  /** Per-context request and reply constructors, built at ready. */
  Request: (new (...args: any[]) => any) | null;
  Reply: (new (...args: any[]) => any) | null;
}

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

/** The root context: created once by the factory with the instance prototype it inherits from. */
export function createRootContext(
  root: RootState,
  instancePrototype: object,
  requestPrototype: object,
  replyPrototype: object,
  schemas: SchemaController,
  parsers: ContentTypeParserStore,
): Context {
  const instance = Object.create(instancePrototype);
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
    requestPrototype: Object.create(requestPrototype),
    replyPrototype: Object.create(replyPrototype),
    ownRequestFields: [],
    ownReplyFields: [],
    schemas,
    parsers,
    errorHandler: { fn: null, instance, parent: null },
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
  const instance = Object.create(parent.instance);
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
