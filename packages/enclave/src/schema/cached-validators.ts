// The default validator compiler's side of the schema cache (issue 29): the key of a validator,
// loading one, and writing the module of one Ajv compiled (after ready(), from a second compile).
import type Ajv from 'ajv';
import type { AnyValidateFunction } from 'ajv/dist/types';
import fastUri from 'fast-uri';
import { type AjvFactoryOptions, type AjvPlugin, ajvConstructorOptions, createAjv, unwrapModule } from './ajv-factory.js';
import type { ValidationFunction } from './contracts.js';
import type { ModuleEntry, SchemaCache } from './schema-cache.js';
import { CACHE_FORMAT } from './schema-cache-files.js';
import { describeSharedSchemas, describeValue, exportingPackage, hashText, packageOfFile, packageVersion, registerKnownValue } from './schema-cache-keys.js';
import { copyFromKey } from './serializer-schema-fingerprint.js';
import { writeStandaloneValidator } from './standalone-validator.js';

/** The cache as one validator compiler (one set of shared schemas, one `ajv` option) uses it. */
export interface ValidatorCacheScope {
  /**
   * The stored validator of a schema and part, or a way to record that Ajv compiled it as usual
   * (its module is then written after ready()). Undefined once the application is ready.
   */
  load(schema: object, contentKey: string, httpPart: string): { validate: ValidationFunction } | { compiled(): void } | undefined;
}

// Validators loaded from the cache are Ajv's functions without Ajv's `schemaEnv`: route
// validation calls them as Ajv validators all the same (with the request as parent data).
const loadedValidators = new WeakSet<object>();

/** True for a validator Ajv compiled or that was loaded from Ajv's standalone code. */
export function isAjvValidator(validate: object): boolean {
  return 'schemaEnv' in validate || loadedValidators.has(validate);
}

const setupTexts = new WeakMap<AjvFactoryOptions, string>();

// Everything about the Ajv instances of an application that shapes generated code, except the
// shared schemas: versions, the options they are created with, the plugins applied to them and
// the `onCreate` callback (seen as plugins are: its source text).
function describeAjvSetup(options: AjvFactoryOptions): string {
  let text = setupTexts.get(options);
  if (text === undefined) {
    const version = (name: string): string => `${name}@${packageVersion(name, __filename)}`;
    registerKnownValue(fastUri, version('fast-uri'));
    const { logger: _logger, ...constructorOptions } = ajvConstructorOptions(options);
    text = [
      `format ${CACHE_FORMAT}`,
      `${packageOfFile(__filename) ?? 'enclavejs'}`,
      version('ajv'),
      version('ajv-formats'),
      `options ${describeValue(constructorOptions)}`,
      `plugins ${(options.plugins ?? []).map(describePlugin).join('\n')}`,
      `onCreate ${describeValue(options.onCreate)}`,
    ].join('\n');
    setupTexts.set(options, text);
  }
  return text;
}

// A plugin is its package and version when it comes from one, its source text, its options. What
// it reads from elsewhere (its closure, the environment) is not seen: docs/schema-cache.md says so.
function describePlugin(plugin: AjvPlugin): string {
  const [given, options] = Array.isArray(plugin) ? plugin : [plugin, undefined];
  const fn = unwrapModule(given) as object;
  return `${exportingPackage(fn) ?? 'application'} ${describeValue(fn)} ${describeValue(options)}`;
}

/**
 * The cache scope of the validator compiler of one set of shared schemas. A validator's key is
 * the setup, every visible shared schema (a `$ref` reaches any of them, and Ajv checks each one
 * when it is added), the HTTP part and the schema.
 *
 * @example
 * const scope = createValidatorCacheScope(cache, app.getSchemas(), { customOptions: {} })
 * const found = scope.load(schema, fingerprintSchema(schema).key, 'body')
 */
export function createValidatorCacheScope(cache: SchemaCache, sharedSchemas: Record<string, unknown>, options: AjvFactoryOptions): ValidatorCacheScope {
  let prefix: string | undefined;
  const writerKey = {}; // this scope's writer in a bundle write's workspace
  return {
    load(schema, contentKey, httpPart) {
      if (!cache.recording) return undefined;
      prefix ??= hashText(`${describeAjvSetup(options)}\n${describeSharedSchemas(sharedSchemas)}`);
      const slot = cache.find('validator', `${prefix}\n${httpPart}\n${contentKey}`);
      const { hit } = slot;
      const loaded = hit !== undefined && 'exports' in hit ? hit : undefined;
      const validate = loaded === undefined ? undefined : readValidator(loaded.exports);
      if (loaded !== undefined && validate !== undefined) {
        // What Ajv sets on the functions it compiles (plugins and users read them).
        Object.assign(validate, { schema, errors: null }, loaded.async ? { $async: true } : {});
        loadedValidators.add(validate);
        return { validate };
      }
      return {
        compiled() {
          if (hit !== undefined) return; // already this boot's entry: nothing new to write
          // The module is written after ready() from a second compile (writeModule): compiling
          // with Ajv's `code.source` at boot cost a cold start of 1,000 routes ~10% more time.
          slot.store((workspace) => writeModule(workspace, contentKey));
        },
      };
    },
  };

  // The module of a schema (known by its content key) from a second Ajv instance made like the
  // boot's, with the same options, plugins and shared schemas, but keeping its generated code
  // (`code.source`): one per bundle write, created by its first module.
  function writeModule(workspace: Map<object, unknown>, contentKey: string): ModuleEntry {
    let writer = workspace.get(writerKey) as Ajv | undefined;
    if (writer === undefined) workspace.set(writerKey, (writer = createAjv(sharedSchemas, options, true)));
    const validate = writer.compile(copyFromKey<object>(contentKey)) as AnyValidateFunction;
    const written = writeStandaloneValidator(writer, validate);
    // Written out, Ajv's copy of the generated code is only weight until the bundle is written.
    delete validate.source;
    return 'code' in written ? { module: written.code, async: written.async } : written;
  }
}

// Ajv's CommonJS module exports the function, also as `default`. Anything else is compiled again.
function readValidator(exports: unknown): ValidationFunction | undefined {
  const validate = (exports as { default?: unknown } | null)?.default ?? exports;
  return typeof validate === 'function' ? (validate as ValidationFunction) : undefined;
}
