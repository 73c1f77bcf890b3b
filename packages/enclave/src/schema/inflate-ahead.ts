// The schema cache's files are gzip-compressed (issue 29), and read in the background while the
// main thread is busy: a bundle (6 MB of text for 1,000 routes, 170 KB compressed) and V8's code
// cache for it are inflated while the application adds its routes.
//
// The compressed file is read synchronously (a few hundred KB: one system call), so inflating can
// start at once: a read on the thread pool would only report back when the event loop turns, and
// it does not turn while an application adds its routes synchronously. Inflating then runs as ONE
// request on libuv's thread pool, into one buffer of the size gzip records: its page faults
// happen on that thread, and the text arrives in one piece instead of 16 KB chunks joined by a
// copy. Inflating checks gzip's CRC-32 and length: a truncated or damaged file is an error.
import { readFileSync } from 'node:fs';
import { gunzip, gunzipSync, gzip } from 'node:zlib';

/**
 * The inflated content of the gzip file at `path`, inflated on libuv's thread pool. Rejects (never
 * throws) when the file cannot be read or is not a complete gzip stream.
 *
 * @example
 * const bundle = await inflateAhead('/var/cache/app-schemas/b-0123.js.gz')
 */
export function inflateAhead(path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let compressed: Buffer;
    try {
      compressed = readFileSync(path);
    } catch (error) {
      reject(error);
      return;
    }
    gunzip(compressed, { chunkSize: outputChunkSize(compressed) }, (error, inflated) => (error === null ? resolve(inflated) : reject(error)));
  });
}

/**
 * The inflated content of the gzip file at `path`, or undefined when there is no such file. Throws
 * when it cannot be read or is not a complete gzip stream.
 */
export function inflateFile(path: string): Buffer | undefined {
  let compressed: Buffer;
  try {
    compressed = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return gunzipSync(compressed, { chunkSize: outputChunkSize(compressed) });
}

/** `parts`, joined and gzip-compressed on libuv's thread pool. */
export function deflate(parts: readonly Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    gzip(Buffer.concat(parts), (error, compressed) => (error === null ? resolve(compressed) : reject(error)));
  });
}

// The inflated size gzip records (its last four bytes, modulo 4 GiB) as the output's chunk size.
// A size that makes no sense (a damaged file) falls back to zlib's default; inflating then fails
// on the damage anyway.
function outputChunkSize(compressed: Buffer): number {
  const recorded = compressed.length >= 18 ? compressed.readUInt32LE(compressed.length - 4) : 0;
  return recorded >= 64 && recorded <= MAX_CHUNK ? recorded : 16 * 1024;
}

const MAX_CHUNK = 256 * 1024 * 1024;
