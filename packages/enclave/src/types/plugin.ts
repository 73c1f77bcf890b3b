// biome-ignore-all lint/suspicious/noConfusingVoidType: a callback's `void` return (as in Fastify's types) accepts a function returning anything; `undefined` would refuse `() => void` callbacks and expression-bodied arrows.
// Plugin types. One signature for both forms: an async plugin omits `done`,
// a callback plugin calls it. A plugin may declare the instance decorators it adds to the
// context that registers it (a plugin wrapped by `@enclavejs/plugin`), and `register()` then
// returns the instance typed with them: the type exists where the decorator does, unlike a
// global declaration.
import type { FastifyBaseLogger, LogSerializers, RawServerDefault } from './fastify-names.js';
import type { EnclaveInstance, enclaveInstanceBrand, FastifyInstance } from './instance.js';

declare module './instance.js' {
  interface InstanceApi<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
    /**
     * Registers a plugin in a new child context. Returns this instance, typed with
     * the decorators the plugin declares (see `Plugin`). The instance is awaitable at run time
     * (`await app.register(p)` loads the queue and resolves with the instance), but its type is
     * deliberately not thenable: awaiting it keeps its type, and `async () => app` stays a
     * `Promise<EnclaveInstance>`.
     */
    register<Options extends object, Decorations extends object = {}, Instance = DefaultPluginInstance<this>>(
      plugin: PluginModule<Instance, Options, Decorations> & FastifyTyped<Instance, this>,
      options: RegisterOptionsArgument<this, Options>,
    ): this & Decorations;
    register<Decorations extends object = {}, Instance = DefaultPluginInstance<this>>(
      plugin: PluginModule<Instance, {}, Decorations> & FastifyTyped<Instance, this>,
    ): this & Decorations;
  }
}

/** The options a plugin accepts (any object type; interfaces without an index signature too). */
export type PluginOptions = object;

/** What `register()` reads from the options besides the plugin's own. */
export interface RegisterOptions {
  /** Prefixes every route of the child context. */
  prefix?: string;
  /** The level of the request loggers of the child context's routes: pino's, or a custom level's name. */
  logLevel?: RegisterLogLevel;
  /** Serializers of the child context's request loggers (by field name), on top of the parent's. */
  logSerializers?: LogSerializers;
}

// A level name is never empty: `''` is refused, as Fastify's type refuses it (the run time would
// ignore it and keep the parent's level, which is never what was meant). A custom level's name
// (pino's `customLevels`) starts with a letter.
type CharactersOf<Text extends string> = Text extends `${infer First}${infer Rest}` ? First | CharactersOf<Rest> : never;
type Letter = CharactersOf<'abcdefghijklmnopqrstuvwxyz'>;
type RegisterLogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' | `${Letter | Uppercase<Letter>}${string}`;

/** The callback of a callback-style plugin. */
export type PluginDone = (error?: Error) => void;

// A phantom key: it never exists at run time, it only carries a plugin's declared decorators.
declare const declaredDecorators: unique symbol;

/**
 * The type of a plugin function taking `Instance` (the registering instance, with every
 * decorator it already has) and `Options`, and adding `Decorations` to the registering
 * context.
 */
export type PluginFunction<Instance, Options, Decorations> = ((instance: Instance, options: Options, done: PluginDone) => void | Promise<unknown>) & {
  readonly [declaredDecorators]?: Decorations;
};

/**
 * A plugin: `async (instance, options) => {}` or `(instance, options, done) => {}`.
 * `Decorations` declares the instance decorators the plugin adds to the context that
 * registers it; declare them only for a plugin wrapped by `@enclavejs/plugin` (an encapsulated
 * plugin's decorators stay in its own context).
 *
 * @example
 * ```ts
 * import plugin from '@enclavejs/plugin';
 *
 * const database: Plugin<{ url: string }, { db: Database }> = plugin(async (app, options) => {
 *   app.decorate('db', await Database.connect(options.url));
 * });
 *
 * const app = enclave().register(database, { url: 'postgres://localhost/shop' });
 * app.db.query('select 1'); // typed, because `register` returned the decorated instance
 * ```
 */
export type Plugin<Options extends PluginOptions = Record<string, unknown>, Decorations extends object = {}> = PluginFunction<
  EnclaveInstance,
  Options,
  Decorations
>;

/** A plugin as `register()` accepts it: the function, an ES module namespace, or a promise of one (`import('./p.js')`). */
export type PluginModule<Instance, Options, Decorations> =
  | PluginFunction<Instance, Options, Decorations>
  | { readonly default: PluginFunction<Instance, Options, Decorations> }
  | Promise<{ readonly default: PluginFunction<Instance, Options, Decorations> }>;

/** A plugin's options as given to `register()`: the object, or a function of the parent instance returning it. */
export type RegisterOptionsArgument<Instance, Options> = (Options & RegisterOptions) | ((parent: Instance) => Options & RegisterOptions);

/** The decorators a plugin declares (what `register()` adds to the instance type it returns). */
export type DecoratorsOf<PluginValue> = PluginValue extends { readonly [declaredDecorators]?: infer Decorations }
  ? unknown extends Decorations
    ? {}
    : Decorations
  : {};

/**
 * What `register()` asks of a plugin's instance type `Instance`: the registering instance
 * `Self` must be one (a plugin needing a decorator registers only where it exists), unless it
 * is Fastify's instance (its type has `withTypeProvider`): a plugin typed for Fastify loads
 * unmodified, its options checked, the decorators it adds untyped.
 */
export type FastifyTyped<Instance, Self = never> = [Self] extends [Instance]
  ? unknown
  : Instance extends { readonly [enclaveInstanceBrand]: true }
    ? // A plugin typed for another kind of server or logger (Fastify's plugin types default to the
      // http server and its base logger) registers anywhere, as on Fastify: only a same-server,
      // same-logger instance's decorators are checked. (A plugin's augmentation can make the
      // logger parameter invariant: @fastify/rate-limit's hooks take the instance as `this`.)
      ServerOf<Self> extends ServerOf<Instance>
      ? Identical<LoggerOf<Self>, LoggerOf<Instance>> extends true
        ? PluginInstanceMismatch<Instance>
        : unknown
      : unknown
    : Instance extends { withTypeProvider: unknown }
      ? unknown
      : PluginInstanceMismatch<Instance>;

/**
 * The instance type of a plugin function whose parameter is not annotated: the registering
 * instance, with its decorators; on an instance of another server or logger type, Fastify's default
 * `FastifyInstance`, as Fastify types it there.
 */
export type DefaultPluginInstance<Self> =
  ServerOf<Self> extends RawServerDefault ? (Identical<LoggerOf<Self>, FastifyBaseLogger> extends true ? Self : FastifyInstance) : FastifyInstance;

// Identity, not mutual assignability: a custom logger object can be structurally Fastify's base logger.
type Identical<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type LoggerOf<Instance> = Instance extends { readonly log: infer Logger } ? Logger : unknown;

type ServerOf<Instance> = Instance extends { readonly server: infer Server } ? Server : unknown;

/** Named in the error when a plugin's instance needs what the registering instance lacks. */
interface PluginInstanceMismatch<Instance> {
  readonly 'the registering instance lacks what the plugin needs': Instance;
}
