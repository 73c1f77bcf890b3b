// What a schema cache key is made of (issue 29): a stable text for everything that changes the
// code a compiler generates — options, plugins, shared schemas, package versions — hashed. Two
// processes that would generate the same code compute the same key; anything else is a miss.
import { hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fingerprintSchema } from './serializer-schema-fingerprint.js';

/** The SHA-1 of a text, in hex: the name a key is stored under. */
export function hashText(text: string): string {
  // The one-shot form: a Hash object per key cost more than hashing the key. SHA-1, not SHA-256:
  // a key names code the application generated itself (the directory is trusted as node_modules
  // is, docs/security.md), so it needs no resistance to crafted collisions, and 2,000 keys of
  // 320 bytes cost 11.5 M instructions instead of 29 M (valgrind). SHA-1 stays available under
  // OpenSSL's FIPS mode, where MD5 (cheaper still) is refused.
  return hash('sha1', text, 'hex');
}

const versions = new Map<string, string>();

/**
 * The version of package `name` as resolved from the file `from` (the copy that file's `require`
 * would load), or `unknown`. Read once per process and package.
 *
 * @example
 * packageVersion('ajv', __filename) // '8.20.0'
 */
export function packageVersion(name: string, from: string): string {
  const memoKey = `${name}\n${from}`;
  let version = versions.get(memoKey);
  if (version === undefined) {
    version = readVersion(name, from);
    versions.set(memoKey, version);
  }
  return version;
}

function readVersion(name: string, from: string): string {
  const localRequire = createRequire(from);
  let directory: string;
  try {
    // The entry point, not `<name>/package.json`: an `exports` map may hide the latter.
    directory = dirname(localRequire.resolve(name));
  } catch {
    return 'unknown';
  }
  for (;;) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
      if (parsed.name === name) return String(parsed.version);
    }
    const parent = dirname(directory);
    if (parent === directory) return 'unknown';
    directory = parent;
  }
}

// Values that stand for a package rather than for their own text (fast-uri's resolver object
// would otherwise be described function by function).
const knownValues = new WeakMap<object, string>();

/** Describes `value` as `token` wherever it appears in options (a package's export, say). */
export function registerKnownValue(value: object, token: string): void {
  knownValues.set(value, token);
}

const exportOwners = new WeakMap<object, string>();

/**
 * `name@version` of the package whose module exports `value` (directly or as `default`), found
 * among the CommonJS modules loaded so far; undefined for a function defined in the application
 * or loaded as an ES module. An Ajv plugin's identity: its source text alone would not change
 * when the package around it does.
 */
export function exportingPackage(value: object): string | undefined {
  let owner = exportOwners.get(value);
  if (owner === undefined) {
    owner = '';
    for (const loaded of Object.values(require.cache)) {
      if (loaded === undefined || !isExportOf(loaded.exports, value)) continue;
      owner = packageOfFile(loaded.filename) ?? '';
      if (owner !== '') break;
    }
    exportOwners.set(value, owner);
  }
  return owner === '' ? undefined : owner;
}

function isExportOf(moduleExports: unknown, value: object): boolean {
  if (moduleExports === value) return true;
  if ((typeof moduleExports !== 'object' && typeof moduleExports !== 'function') || moduleExports === null) return false;
  try {
    return (moduleExports as { default?: unknown }).default === value;
  } catch {
    return false; // an exports object with a throwing getter exports nothing we look for
  }
}

/** `name@version` of the package a file belongs to (the nearest package.json with a name). */
export function packageOfFile(file: string): string | undefined {
  let directory = dirname(file);
  for (;;) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
      // A package.json without a name (a "type": "module" marker in a folder) is not a package.
      if (typeof parsed.name === 'string') return `${parsed.name}@${String(parsed.version)}`;
    }
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * A deterministic text for an options value: object keys sorted (option objects are unordered),
 * functions by their source text and own properties (Ajv reads `code.regExp.code`), regular
 * expressions by their text, cycles marked. Registered values by their token.
 *
 * @example
 * describeValue({ b: 1, a: [true, /x/g] }) // '{a:[true,/x/g],b:1}'
 */
export function describeValue(value: unknown, ancestors: object[] = []): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString();
  if (typeof value !== 'object' && typeof value !== 'function') return JSON.stringify(value) ?? String(value);
  if (value === null) return 'null';
  const token = knownValues.get(value);
  if (token !== undefined) return token;
  if (ancestors.includes(value)) return '[cycle]';
  if (value instanceof RegExp) return value.toString();
  ancestors.push(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => describeValue(item, ancestors)).join(',')}]`;
  } else {
    const members = Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${describeValue((value as Record<string, unknown>)[name], ancestors)}`)
      .join(',');
    const prototype = Object.getPrototypeOf(value);
    const kind =
      typeof value === 'function'
        ? `fn(${Function.prototype.toString.call(value)})`
        : prototype === Object.prototype || prototype === null
          ? ''
          : String(prototype?.constructor?.name ?? 'object');
    text = `${kind}{${members}}`;
  }
  ancestors.pop();
  return text;
}

/**
 * The text of a set of shared schemas: each `$id` with the schema's content, in `$id` order.
 *
 * @example
 * describeSharedSchemas({ user: { $id: 'user', type: 'object' } }) // '"user"={"$id":"user","type":"object"}'
 */
export function describeSharedSchemas(sharedSchemas: Record<string, unknown>): string {
  return Object.keys(sharedSchemas)
    .sort()
    .map((id) => `${JSON.stringify(id)}=${fingerprintSchema(sharedSchemas[id]).key ?? describeValue(sharedSchemas[id])}`)
    .join('\n');
}
