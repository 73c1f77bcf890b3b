// The schema cache on disk (issue 29). Three kinds of file, each written to a temporary name and
// renamed into place, so a reader never sees one half-written:
//
//   b-<hash>.js.gz     a bundle: every compiled validator and serializer one boot used, as
//                      JavaScript behind a header line with the length and CRC-32 of the rest,
//                      gzip-compressed;
//   b-<hash>.js.gz.<tag>.v8  V8's code cache for that bundle, per V8 version and flags (`tag`),
//                      gzip-compressed too;
//   k-<key hash>       a pointer: the name of the newest bundle holding that key, for the first
//                      keys of each bundle;
//   latest             the name of the bundle written last, read ahead while routes are added.
//
// Compressed, because a file read as it is written costs a warm start a page fault per 4 KB
// twice: when the kernel copies it in, and at its first read (the checksum). Inflated on libuv's
// thread pool while routes are added (inflate-ahead.ts), the text is only touched there; the
// compressed bundle is 30 times smaller (generated code repeats itself). A warm start of 1,000
// routes took 19–54 ms less (paired runs, load 1–1.5).
//
// A boot follows the pointer of the first key it needs, loads that bundle (usually the only one),
// and finds the rest of its keys there. A pointer per key would cost a file per schema at every
// cold start; a few per bundle are enough to find it again, even after some schemas changed.
import { isAscii } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, open, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';
import { deflate, inflateAhead, inflateFile } from './inflate-ahead.js';

/** Bumped whenever what is stored changes shape; part of every key. 2: keys hashed with SHA-1; 3: gzip. */
export const CACHE_FORMAT = 3;

const BUNDLE_HEADER = /^\/\/ enclave-schema-cache (\d+) crc32=([0-9a-f]{8}) length=(\d+)\n/;
const CODE_CACHE_HEADER = /^enclave-v8 (\d+) bundle=([0-9a-f]{8}) crc32=([0-9a-f]{8}) length=(\d+)\n/;
const BUNDLE_NAME = /^b-[0-9a-f]{32}\.js\.gz$/;

/** A module's text as stored: `function (require, module, exports) { … }`, called to load it. */
export type ModuleFunction = (require: (id: string) => unknown, module: { exports: unknown }, exports: unknown) => void;

/** One stored entry: a validator or serializer module, or why the compiled code has none. */
export type StoredEntry = { k: 'v'; a: boolean; m: ModuleFunction } | { k: 's'; m: ModuleFunction } | { k: 'x'; r: string };

/** A bundle read from disk and compiled. */
export interface LoadedBundle {
  name: string;
  crc: number;
  script: vm.Script;
  entries: Record<string, StoredEntry>;
  /** Whether V8's code cache spared the parse; anything but `accepted` gets it (re)written. */
  codeCache: 'accepted' | 'missing' | 'rejected' | 'damaged';
}

/** The text of one stored entry, as it goes into a bundle. */
export function entryText(entry: StoredEntry): string {
  if (entry.k === 'x') return `{k:"x",r:${JSON.stringify(entry.r)}}`;
  const moduleText = Function.prototype.toString.call(entry.m);
  return entry.k === 'v' ? `{k:"v",a:${entry.a},m:${moduleText}}` : `{k:"s",m:${moduleText}}`;
}

// A module function around generated CommonJS code (its "use strict" stays first).
const MODULE_FUNCTION_START = 'function (require, module, exports) {';
const MODULE_FUNCTION_END = '\n}';

/** The file name of the bundle holding exactly these keys, in this order. */
export function bundleName(keyHashes: readonly string[], hash: (text: string) => string): string {
  return `b-${hash(keyHashes.join('\n')).slice(0, 32)}.js.gz`;
}

/** One member of a bundle (`"<key hash>":<entry>,`) as the bytes the bundle is written with. */
export function entryBytes(keyHash: string, text: string): Buffer {
  return Buffer.from(`${JSON.stringify(keyHash)}:${text},\n`, 'utf8');
}

/**
 * A new module member of a bundle as bytes: the generated code is encoded on its own and the few
 * bytes around it copied in, rather than the whole text concatenated into one string first.
 */
export function moduleEntryBytes(keyHash: string, fields: string, code: string): Buffer {
  const head = Buffer.from(`${JSON.stringify(keyHash)}:{${fields},m:${MODULE_FUNCTION_START}`, 'latin1');
  return Buffer.concat([head, Buffer.from(code, 'utf8'), MODULE_ENTRY_END]);
}

const MODULE_ENTRY_END = Buffer.from(`${MODULE_FUNCTION_END}},\n`, 'latin1');

/** A bundle's file content, in pieces: the header, then an object literal of members. */
export function encodeBundle(members: Iterable<Buffer>): Buffer[] {
  const body = [Buffer.from('({\n', 'latin1'), ...members, Buffer.from('})\n', 'latin1')];
  let crc = 0;
  let length = 0;
  for (const part of body) {
    crc = crc32(part, crc);
    length += part.length;
  }
  return [Buffer.from(`// enclave-schema-cache ${CACHE_FORMAT} crc32=${hex(crc)} length=${length}\n`, 'latin1'), ...body];
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}

function codeCacheName(bundle: string): string {
  // The tag covers the V8 version, its flags and the CPU features: V8 refuses a cache made
  // under any other, so each gets a file of its own.
  return `${bundle}.${v8.cachedDataVersionTag().toString(16)}.v8`;
}

function readOptional(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A bundle and its code cache, read and inflated ahead. */
export interface PrefetchedBundle {
  name: string;
  file: Buffer;
  /** Undefined when there is none; the error when it could not be read or inflated. */
  codeCache: Buffer | Error | undefined;
}

/**
 * Reads and inflates the bundle the directory's last writer named (`latest`) and its code cache
 * on libuv's thread pool (inflate-ahead.ts): started when the application is created, this runs
 * while it adds its routes and is done by the time ready() needs it. Never rejects; undefined
 * when anything fails (readBundle() then says what).
 */
export function prefetchLatestBundle(directory: string): Promise<PrefetchedBundle | undefined> {
  let name: string;
  try {
    name = readFileSync(join(directory, 'latest'), 'latin1').trim();
  } catch {
    return Promise.resolve(undefined);
  }
  if (!BUNDLE_NAME.test(name)) return Promise.resolve(undefined);
  return Promise.all([inflateAhead(join(directory, name)), inflateAhead(join(directory, codeCacheName(name))).catch(missingOrError)]).then(
    ([file, codeCache]) => ({ name, file, codeCache }),
    () => undefined,
  );
}

function missingOrError(error: unknown): Error | undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Reads (unless `prefetched` holds it), checks and compiles a bundle. Undefined when the file does
 * not exist; a string saying what is wrong when it is truncated, corrupted or not a bundle of this
 * format.
 */
export function readBundle(directory: string, name: string, prefetched?: PrefetchedBundle): LoadedBundle | string | undefined {
  if (!BUNDLE_NAME.test(name)) return `${name} is not a bundle name`;
  const path = join(directory, name);
  let file: Buffer | undefined;
  try {
    file = prefetched?.name === name ? prefetched.file : inflateFile(path);
  } catch (error) {
    return `it cannot be read as gzip (${error instanceof Error ? error.message : String(error)})`;
  }
  if (file === undefined) return undefined;
  const header = BUNDLE_HEADER.exec(file.subarray(0, 96).toString('latin1'));
  if (header === null || Number(header[1]) !== CACHE_FORMAT) return 'it is not a schema cache bundle of this version';
  const body = file.subarray(header[0].length);
  // Inflating checked gzip's own CRC; this one binds the text to its code cache, and costs ~1 ms,
  // as the thread pool already touched every page.
  const crc = crc32(body);
  if (body.length !== Number(header[3]) || hex(crc) !== header[2]) return 'its length or checksum does not match (truncated or corrupted)';
  // Generated code is ASCII unless a schema holds other characters: then a one-byte string, which
  // Node keeps outside the JavaScript heap and V8 reads fastest (read as UTF-8 text instead, the
  // load took twice as long).
  const source = isAscii(body) ? body.toString('latin1') : body.toString('utf8');
  const cache = readCodeCache(() => {
    if (prefetched?.name !== name) return inflateFile(join(directory, codeCacheName(name)));
    if (prefetched.codeCache instanceof Error) throw prefetched.codeCache;
    return prefetched.codeCache;
  }, crc);
  const script = new vm.Script(source, { filename: path, lineOffset: 1, ...(cache.data === undefined ? {} : { cachedData: cache.data }) });
  const entries: unknown = script.runInThisContext();
  // A file with a valid checksum is one a writer finished, not necessarily one of ours.
  if (typeof entries !== 'object' || entries === null) return 'it does not hold a table of entries';
  const codeCache = cache.state === 'found' ? (script.cachedDataRejected === true ? 'rejected' : 'accepted') : cache.state;
  return { name, crc, script, entries: entries as Record<string, StoredEntry>, codeCache };
}

function readCodeCache(read: () => Buffer | undefined, bundleCrc: number): { data?: Buffer; state: 'found' | 'missing' | 'damaged' } {
  let file: Buffer | undefined;
  try {
    file = read();
  } catch {
    return { state: 'damaged' };
  }
  if (file === undefined) return { state: 'missing' };
  const header = CODE_CACHE_HEADER.exec(file.subarray(0, 96).toString('latin1'));
  const data = header === null ? undefined : file.subarray(header[0].length);
  if (header === null || data === undefined || Number(header[1]) !== CACHE_FORMAT || header[2] !== hex(bundleCrc)) return { state: 'damaged' };
  if (data.length !== Number(header[4]) || hex(crc32(data)) !== header[3]) return { state: 'damaged' };
  return { data, state: 'found' };
}

/** Writes V8's code cache of a loaded bundle (after its entries were compiled). */
export async function writeCodeCache(directory: string, bundle: LoadedBundle): Promise<void> {
  const data = bundle.script.createCachedData();
  const header = `enclave-v8 ${CACHE_FORMAT} bundle=${hex(bundle.crc)} crc32=${hex(crc32(data))} length=${data.length}\n`;
  await writeAtomically(directory, codeCacheName(bundle.name), [await deflate([Buffer.from(header, 'latin1'), data])]);
}

/** The bundle a key's pointer names, if any. */
export function readPointer(directory: string, keyHash: string): string | undefined {
  const file = readOptional(join(directory, `k-${keyHash}`));
  return file === undefined ? undefined : file.toString('latin1').trim();
}

/** The names of the pointers in the directory (empty when it does not exist). */
export function listPointers(directory: string): Set<string> {
  try {
    return new Set(readdirSync(directory).filter((name) => name.startsWith('k-')));
  } catch {
    return new Set();
  }
}

/** How many of a bundle's keys (its first) get a pointer. */
export const POINTERS_PER_BUNDLE = 64;

/** Creates the cache directory if it is missing. */
export async function makeDirectory(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true });
}

/**
 * Writes a bundle, compressed on libuv's thread pool (into a directory that exists), points its
 * first keys at it and names it the latest.
 */
export async function writeBundle(directory: string, name: string, content: Buffer[], keyHashes: readonly string[]): Promise<void> {
  await writeAtomically(directory, name, [await deflate(content)]);
  const pointers = keyHashes.slice(0, POINTERS_PER_BUNDLE).map((keyHash) => `k-${keyHash}`);
  await Promise.all([...pointers, 'latest'].map((pointer) => writeAtomically(directory, pointer, name)));
}

// Write, then rename: readers (other processes of a cluster booting from the same directory)
// see the old file or the new one, never a part of either.
async function writeAtomically(directory: string, name: string, content: Buffer[] | string): Promise<void> {
  const temporary = join(directory, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  if (typeof content === 'string') {
    await writeFile(temporary, content);
  } else {
    // One gathered write of the pieces, without first copying them into one buffer.
    const file = await open(temporary, 'w');
    try {
      await file.writev(content);
    } finally {
      await file.close();
    }
  }
  try {
    await rename(temporary, join(directory, name));
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
