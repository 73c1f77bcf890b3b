import type { default as Ajv, Options as AjvOptions } from 'ajv';
import fastUri from 'fast-uri';
import { errorCodes, invalidOption } from '../errors.js';
import { ajvClass, ajvFormatsPlugin } from './compiler-modules.js';

/**
 * An Ajv plugin: `(ajv, options?) => ajv`, as `ajv-errors`, `ajv-formats` and `ajv-merge-patch` are.
 * It returns the instance, as Ajv's own `Plugin` type says (a function returning nothing is
 * refused, as by Fastify's types); the run time does not read what it returns.
 */
export type AjvPluginFunction = (ajv: Ajv, options?: any) => Ajv;

/** A plugin, or a plugin and the options to call it with. */
export type AjvPlugin = AjvPluginFunction | readonly [AjvPluginFunction, unknown];

/** The `ajv` factory option. */
export interface AjvFactoryOptions {
  /** Merged over the baseline options; a key given here wins. */
  customOptions?: AjvOptions | undefined;
  /** Applied in order to every Ajv instance Enclave creates, after `ajv-formats`. */
  plugins?: readonly AjvPlugin[] | undefined;
  /**
   * Called with every Ajv instance Enclave creates, after the plugins and before the shared
   * schemas are added (Fastify's option): add keywords, formats or vocabularies by hand.
   */
  onCreate?: ((ajv: Ajv) => void) | undefined;
}

/**
 * The options every default Ajv instance starts from.
 *
 * - `coerceTypes: 'array'`: params, querystring and headers arrive as strings; coercion hands the
 *   handler numbers and booleans, and wraps a single value in an array where an array is expected.
 * - `useDefaults`: `default` values fill absent properties.
 * - `removeAdditional`: properties a schema forbids with `additionalProperties: false` are dropped
 *   instead of failing the request.
 * - `addUsedSchema: false`: a route schema's `$id` is not registered globally, so two routes may
 *   carry the same `$id` and nothing a route compiles leaks into another route.
 * - `allErrors: false`: stop at the first error; collecting every error of a large crafted payload
 *   costs CPU an attacker controls.
 *
 * @example
 * new Ajv({ ...baselineAjvOptions, allErrors: true })
 */
export const baselineAjvOptions: Readonly<AjvOptions> = Object.freeze({
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  uriResolver: fastUri,
  addUsedSchema: false,
  allErrors: false,
});

/**
 * Ajv's code optimizer (`code.optimize`, on by default) removes unused variables from the
 * generated source. The validators behave the same without it and run as fast once V8 has
 * compiled them, but the pass costs more than half of every compilation: with it off, 1,000
 * distinct body schemas compile in about 0.85 s instead of 1.9 s (bench/README.md, boot).
 * `customOptions.code.optimize` turns it back on.
 */
const baselineCodeOptions = Object.freeze({ optimize: false });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Checks the `ajv` factory option and returns it in a normalized shape. Throws
 * `FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ` or `FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR`.
 *
 * @example
 * readAjvFactoryOptions({ customOptions: { allErrors: true }, plugins: [ajvErrors] })
 */
export function readAjvFactoryOptions(option: unknown): AjvFactoryOptions {
  if (option === undefined || option === null) return {};
  if (!isPlainObject(option)) throw errorCodes.FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ(typeof option);
  const { customOptions, plugins, onCreate } = option;
  if (customOptions !== undefined && !isPlainObject(customOptions)) {
    throw errorCodes.FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ(Array.isArray(customOptions) ? 'array' : typeof customOptions);
  }
  if (plugins !== undefined && !Array.isArray(plugins)) {
    throw errorCodes.FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR(typeof plugins);
  }
  for (const plugin of plugins ?? []) {
    const fn = Array.isArray(plugin) ? plugin[0] : plugin;
    if (typeof unwrapModule(fn) !== 'function') {
      throw errorCodes.FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR(`an array with a ${typeof fn} item`);
    }
  }
  if (onCreate !== undefined && typeof onCreate !== 'function') throw invalidOption('ajv.onCreate', 'must be function', onCreate);
  return {
    customOptions: customOptions as AjvOptions | undefined,
    plugins: plugins as AjvPlugin[] | undefined,
    onCreate: onCreate as AjvFactoryOptions['onCreate'],
  };
}

/**
 * An Ajv plugin given as a module namespace (`import * as plugin from 'ajv-errors'` in ESM hands
 * over one whose `default` is the function) is that function; users paste whichever import form
 * their bundler produced.
 */
export function unwrapModule(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { default?: unknown }).default === 'function') {
    return (value as { default: unknown }).default;
  }
  return value;
}

/**
 * The options an Ajv instance is created with: the baseline, then `customOptions` over it (`code`
 * merged key by key).
 *
 * @example
 * ajvConstructorOptions({ customOptions: { allErrors: true } }).allErrors // true
 */
export function ajvConstructorOptions(options: AjvFactoryOptions): AjvOptions {
  const custom = options.customOptions;
  return { ...baselineAjvOptions, ...custom, code: { ...baselineCodeOptions, ...custom?.code } };
}

/**
 * Creates the Ajv instance of one set of visible shared schemas: baseline options merged with
 * `customOptions`, `ajv-formats` loaded, the user's plugins applied, `onCreate` called, then every
 * shared schema added (so `$ref` to any of them resolves). Shared schemas are added last because a
 * plugin or `onCreate` may define keywords those schemas use.
 *
 * @example
 * const ajv = createAjv({ user: { $id: 'user', type: 'object' } }, {})
 * ajv.compile({ $ref: 'user#' })
 */
export function createAjv(sharedSchemas: Record<string, unknown>, options: AjvFactoryOptions, standalone = false): Ajv {
  const constructorOptions = ajvConstructorOptions(options);
  // `code.source` keeps each validator's generated code, which the schema cache writes out.
  if (standalone) constructorOptions.code = { ...constructorOptions.code, source: true };
  const ajv = new (ajvClass())(constructorOptions);
  const addFormats = ajvFormatsPlugin();
  // ajv-formats defines keywords (formatMinimum…) that Ajv refuses to define twice: when the user
  // lists ajv-formats with options of their own, their call replaces the baseline one.
  const plugins = options.plugins ?? [];
  if (!plugins.some((plugin) => unwrapModule(Array.isArray(plugin) ? plugin[0] : plugin) === addFormats)) addFormats(ajv);
  for (const plugin of plugins) {
    if (Array.isArray(plugin)) {
      (unwrapModule(plugin[0]) as AjvPluginFunction)(ajv, plugin[1]);
    } else {
      (unwrapModule(plugin) as AjvPluginFunction)(ajv);
    }
  }
  options.onCreate?.(ajv);
  for (const [id, schema] of Object.entries(sharedSchemas)) {
    // The key is the `$id` the schema was stored under; passing it also covers a custom bucket
    // whose schemas lack `$id` at the top level.
    ajv.addSchema(schema as object, id);
  }
  return ajv;
}
