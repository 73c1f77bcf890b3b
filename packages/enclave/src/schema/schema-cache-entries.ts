// A schema cache entry between the compiler that made it and the bundle it is written to
// (issue 29): what a boot records, and how a bundle write turns it into bytes after ready().
import { entryBytes, entryText, moduleEntryBytes, type StoredEntry } from './schema-cache-files.js';
import { minifyModule } from './schema-cache-minify.js';
import type { CompiledKind } from './schema-cache-modules.js';

/**
 * Makes a module's entry after ready(). `workspace` lives for one bundle write and is shared by
 * every maker of it: what several makers need (a compiler instance) is kept there, keyed by an
 * object of the caller's, and is garbage once the bundle is written.
 */
export type ModuleMaker = (workspace: Map<object, unknown>) => ModuleEntry;

/** A compiled module's code for the bundle, or why the compiled code has none. */
export type ModuleEntry = { module: string; async?: boolean } | { unsupported: string };

/**
 * A new entry of this boot, kept as the compiler gave it until the bundle is written: encoding it
 * (a copy of each module's text, 10 MB for 1,000 routes) is work for after ready().
 */
export type ReadyEntry = { fields: string; code: string } | { text: string };

/** A new entry, or one whose module is made when the bundle is written. */
export type NewEntry = ReadyEntry | { kind: CompiledKind; make: ModuleMaker };

// Makers run after ready(), while requests may be served: the event loop gets a turn between batches.
const MAKES_PER_TURN = 8;

/**
 * Every entry as bundle bytes, the deferred ones made now by `made` (with one workspace for the
 * whole write), a few per turn of the event loop. Each new module is minified on the thread pool
 * (schema-cache-minify.ts) while the next are made; `explain` hears why one could not be.
 */
export async function encodeMembers(
  used: [string, StoredEntry | NewEntry][],
  made: (entry: StoredEntry | NewEntry, workspace: Map<object, unknown>) => StoredEntry | ReadyEntry,
  explain: (reason: string) => void,
): Promise<Buffer[]> {
  const workspace = new Map<object, unknown>();
  const members: (Buffer | Promise<Buffer>)[] = [];
  let makes = 0;
  for (const [keyHash, entry] of used) {
    if ('make' in entry && ++makes % MAKES_PER_TURN === 0) await new Promise(setImmediate);
    members.push(encodeMember(keyHash, made(entry, workspace), explain));
  }
  return Promise.all(members);
}

// One member of a bundle as bytes: an entry loaded from a bundle (its module already as it was
// written), or one this boot compiled.
function encodeMember(keyHash: string, entry: StoredEntry | ReadyEntry, explain: (reason: string) => void): Buffer | Promise<Buffer> {
  if ('k' in entry) return entryBytes(keyHash, entryText(entry));
  if ('text' in entry) return entryBytes(keyHash, entry.text);
  return minifyModule(entry.code).then((minified) => {
    if ('notMinified' in minified) explain(`modules are written as generated, not minified: ${minified.notMinified}`);
    return moduleEntryBytes(keyHash, entry.fields, minified.code);
  });
}

/** An error's message, for a log line. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
