// The schema cache of one application (issue 29, SPEC §10): validators and serializers the default
// compilers built in an earlier boot, loaded as code instead of compiled again. Keys and entries
// come from cached-validators.ts and cached-serializers.ts; files from schema-cache-files.ts.
import { join, resolve } from 'node:path';
import { errorCodes } from '../errors.js';
import type { Logger } from '../logger.js';
import {
  bundleName,
  encodeBundle,
  entryText,
  type LoadedBundle,
  listPointers,
  makeDirectory,
  type PrefetchedBundle,
  prefetchLatestBundle,
  readBundle,
  readPointer,
  type StoredEntry,
  writeBundle,
  writeCodeCache,
} from './schema-cache-files.js';
import { hashText } from './schema-cache-keys.js';
import { type CompiledKind, loadModule } from './schema-cache-modules.js';
import { describeError, encodeMembers, type ModuleEntry, type ModuleMaker, type NewEntry, type ReadyEntry } from './schema-cache-entries.js';

export type { CompiledKind } from './schema-cache-modules.js';
export type { ModuleEntry, ModuleMaker } from './schema-cache-entries.js';

/** A found entry: the module's exports, or the reason the schema is compiled as usual. */
export type CacheHit = { exports: unknown; async: boolean } | { unsupported: string };

/** One key's place in the cache during a boot. */
export interface CacheSlot {
  /** What an earlier boot stored under the key, or undefined (a miss). */
  readonly hit: CacheHit | undefined;
  /**
   * Records a module's code (or why there is none) for the bundle this boot writes; given a
   * function, that function makes it once ready() has resolved, when the bundle is written.
   */
  store(entry: ModuleEntry | ModuleMaker): void;
}

// A directory already full of pointers, none of them this boot's (new options, say): after this
// many missing pointers, one listing answers the rest without a file system call each.
const POINTER_MISSES_BEFORE_LISTING = 32;

/**
 * The cache of one application: opened by the factory, consulted by the default compilers while
 * the application boots, written once at ready() when anything was compiled, then closed.
 *
 * @example
 * const cache = SchemaCache.fromOptions('/var/cache/app-schemas', undefined, log)
 * const slot = cache?.find('validator', key)
 */
export class SchemaCache {
  /**
   * The cache the factory option `schemaCache` asks for, else the one `ENCLAVE_SCHEMA_CACHE`
   * names; null when neither does, or the option is `false`. Throws FST_ERR_INIT_OPTS_INVALID
   * for anything but a path, `false` or `null`.
   */
  static fromOptions(option: unknown, environment: string | undefined, log: Logger): SchemaCache | null {
    const value = option === undefined ? environment : option;
    if (value === undefined || value === null || value === false || value === '') return null;
    if (typeof value !== 'string') throw errorCodes.FST_ERR_INIT_OPTS_INVALID(`schemaCache must be a directory path or false, got ${typeof value}`);
    return new SchemaCache(resolve(value), log);
  }

  /** True until persist(): keys are looked up and compiled code recorded only while booting. */
  recording = true;
  private readonly bundles: LoadedBundle[] = [];
  private readonly triedBundles = new Set<string>();
  // This boot's entries in the order it needed them: a stored entry, or a new one.
  private readonly used = new Map<string, StoredEntry | NewEntry>();
  // New entries of an empty directory, by key text (see find()).
  private readonly unhashed: [string, NewEntry][] = [];
  private readonly usedBundles = new Set<LoadedBundle>();
  private added = 0;
  private pointerMisses = 0;
  private pointers: Set<string> | undefined;
  private readonly explained = new Set<string>();
  private readonly prefetching: Promise<PrefetchedBundle | undefined>;
  private prefetched: PrefetchedBundle | undefined;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    /** The absolute path of the cache directory. */
    readonly directory: string,
    private readonly log: Logger,
  ) {
    // Reading 10 MB (1,000 routes) took a tenth of a warm start: it overlaps adding the routes.
    this.prefetching = prefetchLatestBundle(directory);
  }

  /** Waits for the bundle read ahead; called once every plugin has loaded, before compiling. */
  async prepare(): Promise<void> {
    this.prefetched = await this.prefetching;
  }

  /** Looks `key` up; `kind` keeps validators and serializers apart. */
  find(kind: CompiledKind, key: string): CacheSlot {
    const text = `${kind}\n${key}`;
    if (this.recording && this.holdsNothing()) {
      // Every key is a miss (a first start, a build step): hashed after ready(), when written.
      const store = (entry: ModuleEntry | ModuleMaker): void => {
        if (!this.recording) return;
        this.added++;
        this.unhashed.push([text, this.toEntry(kind, entry)]);
      };
      return { hit: undefined, store };
    }
    const keyHash = hashText(text);
    const hit = this.recording ? this.take(kind, keyHash) : undefined;
    return {
      hit,
      store: (entry) => {
        if (!this.recording || this.used.has(keyHash)) return;
        this.added++;
        this.used.set(keyHash, this.toEntry(kind, entry));
      },
    };
  }

  // No bundle read ahead, none loaded, no pointer: an empty (or missing) directory.
  private holdsNothing(): boolean {
    return this.prefetched === undefined && this.bundles.length === 0 && (this.pointers ??= listPointers(this.directory)).size === 0;
  }

  private toEntry(kind: CompiledKind, entry: ModuleEntry | ModuleMaker): NewEntry {
    return typeof entry === 'function' ? { kind, make: entry } : this.newEntry(kind, entry);
  }

  private newEntry(kind: CompiledKind, entry: ModuleEntry): ReadyEntry {
    if ('unsupported' in entry) {
      this.explain(entry.unsupported);
      return { text: entryText({ k: 'x', r: entry.unsupported }) };
    }
    return { fields: kind === 'validator' ? `k:"v",a:${entry.async === true}` : 'k:"s"', code: entry.module };
  }

  // An entry whose code the compiler left for after ready(): made now, once.
  private made(entry: StoredEntry | NewEntry, workspace: Map<object, unknown>): StoredEntry | ReadyEntry {
    if (!('make' in entry)) return entry;
    let made: ModuleEntry;
    try {
      made = entry.make(workspace);
    } catch (error) {
      made = { unsupported: `its module could not be written (${describeError(error)})` };
    }
    return this.newEntry(entry.kind, made);
  }

  /** Says once, at debug level, why some schemas are compiled as usual. */
  explain(reason: string): void {
    if (this.explained.has(reason)) return;
    this.explained.add(reason);
    this.log.debug(`schema cache: compiled as usual, not cached: ${reason}`);
  }

  /**
   * Ends the boot (at ready(), once every route is compiled): no more look-ups, and what persist()
   * writes is written while the application already runs. The cache serves the next start, so
   * ready() does not wait for it; close() does (whenWritten()), so a build step's ready() then
   * close() leaves the bundle complete.
   */
  finish(): void {
    if (this.recording) this.writing = this.persist();
  }

  /** Settles once what finish() started is on disk (or given up with a warning); never rejects. */
  whenWritten(): Promise<void> {
    return this.writing;
  }

  /**
   * Ends the boot and writes: a bundle of every entry this boot used when any was new (and points
   * their keys at it), else V8's code cache of the bundles it loaded when they had none. A
   * directory that cannot be written costs one warning, never the boot. Never rejects. Only the
   * bookkeeping is synchronous: the rest runs after an asynchronous mkdir, once ready() has resolved.
   */
  async persist(): Promise<void> {
    if (!this.recording) return;
    this.recording = false;
    const used = [...this.used];
    const unhashed = this.unhashed.splice(0);
    const added = this.added;
    const stale = [...this.usedBundles].filter((bundle) => bundle.codeCache !== 'accepted');
    // The loaded modules stay with the functions made from them; the rest is not needed again.
    this.bundles.length = 0;
    this.prefetched = undefined;
    this.used.clear();
    this.usedBundles.clear();
    if (added === 0 && stale.length === 0) return;
    const consequence =
      added > 0 ? 'compiles its schemas again at the next start' : "loads the cache at the next start without V8's code cache, which parses it again";
    try {
      await makeDirectory(this.directory);
      if (added > 0) {
        const names = new Set(used.map(([keyHash]) => keyHash));
        for (const [text, entry] of unhashed) {
          const keyHash = hashText(text);
          if (names.has(keyHash)) continue; // a key stored twice: the first stays
          names.add(keyHash);
          used.push([keyHash, entry]);
        }
        const keyHashes = used.map(([keyHash]) => keyHash);
        const members = await encodeMembers(
          used,
          (entry, workspace) => this.made(entry, workspace),
          (reason) => this.explain(reason),
        );
        await writeBundle(this.directory, bundleName(keyHashes, hashText), encodeBundle(members), keyHashes);
      } else {
        for (const bundle of stale) await writeCodeCache(this.directory, bundle);
      }
    } catch (error) {
      this.log.warn(`schema cache: cannot write to ${this.directory} (${describeError(error)}); the application runs, and ${consequence}`);
    } finally {
      // After the entries were made: a reason found while making one is said, once, too.
      this.explained.clear();
    }
  }

  private take(kind: CompiledKind, keyHash: string): CacheHit | undefined {
    const found = this.locate(keyHash);
    if (found === undefined) return undefined;
    const { bundle, entry } = found;
    if (typeof entry !== 'object' || entry === null) return undefined; // not one of ours: compiled again
    if (entry.k === 'x') {
      this.used.set(keyHash, entry);
      this.explain(entry.r);
      return { unsupported: entry.r };
    }
    if ((entry.k === 'v') !== (kind === 'validator')) return undefined;
    let exports: unknown;
    try {
      exports = loadModule(kind, entry.m);
    } catch (error) {
      this.log.warn(`schema cache: an entry of ${join(this.directory, bundle.name)} failed to load (${describeError(error)}); it is compiled again`);
      return undefined;
    }
    this.used.set(keyHash, entry);
    this.usedBundles.add(bundle);
    return { exports, async: entry.k === 'v' && entry.a };
  }

  private locate(keyHash: string): { bundle: LoadedBundle; entry: StoredEntry } | undefined {
    for (const bundle of this.bundles) {
      if (Object.hasOwn(bundle.entries, keyHash)) return { bundle, entry: bundle.entries[keyHash] as StoredEntry };
    }
    const name = this.pointerTarget(keyHash);
    if (name === undefined || this.triedBundles.has(name)) return undefined;
    const bundle = this.load(name);
    return bundle !== undefined && Object.hasOwn(bundle.entries, keyHash) ? { bundle, entry: bundle.entries[keyHash] as StoredEntry } : undefined;
  }

  private pointerTarget(keyHash: string): string | undefined {
    // No bundle read ahead (a new or empty directory): one listing answers every key, where a
    // failed read per key throws (32 of them cost a cold start 17 M instructions).
    if (this.pointers === undefined && this.prefetched === undefined) this.pointers = listPointers(this.directory);
    if (this.pointers !== undefined && !this.pointers.has(`k-${keyHash}`)) return undefined;
    let target: string | undefined;
    try {
      target = readPointer(this.directory, keyHash);
    } catch (error) {
      this.log.debug(`schema cache: cannot read a pointer in ${this.directory} (${describeError(error)})`);
    }
    if (target === undefined && this.pointers === undefined && ++this.pointerMisses === POINTER_MISSES_BEFORE_LISTING) {
      this.pointers = listPointers(this.directory);
    }
    return target;
  }

  private load(name: string): LoadedBundle | undefined {
    this.triedBundles.add(name);
    const path = join(this.directory, name);
    let result: LoadedBundle | string | undefined;
    try {
      result = readBundle(this.directory, name, this.prefetched);
    } catch (error) {
      result = `it cannot be read or compiled (${describeError(error)})`;
    }
    if (result === undefined) return undefined;
    if (typeof result === 'string') {
      this.log.warn(`schema cache: ignoring ${path}: ${result}; its schemas are compiled again and the cache rewritten`);
      return undefined;
    }
    if (result.codeCache === 'damaged') this.log.warn(`schema cache: ignoring the damaged V8 code cache of ${path}; it is written again`);
    if (result.codeCache === 'rejected') this.log.debug(`schema cache: V8 refused the code cache of ${path}; it is written again`);
    this.bundles.push(result);
    return result;
  }
}
