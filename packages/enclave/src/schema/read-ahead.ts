// Reading a file in the background while the main thread is busy (issue 29: the schema cache's
// bundle, 10 MB for 1,000 routes, read while the application adds its routes).
//
// fs.promises.readFile reads in 512 KB pieces, each a turn of the event loop: while an application
// adds its routes synchronously the loop does not turn, so the read only progressed once ready()
// awaited it, and a warm start waited for twenty round trips. Here the file is opened and sized
// synchronously (two system calls), then read by ONE request on libuv's thread pool: the copy and
// the page faults of the fresh buffer (most of the read's cost, all of it in the kernel) happen
// on another thread, during the route registration, and the result is ready when ready() asks.
//
// The buffer is written on the thread pool before the read (random bytes, the one in-place
// writer of a buffer that runs there): measured on this project's virtual machines, a page the
// kernel filled by read() still costs the first user-space access a fault (~10 µs a page), so
// the main thread's CRC-32 of a 9.4 MB bundle took 21 ms, of which 2 were the checksum. Written
// first on the pool thread, the pages are mapped when the main thread reads them; the read into
// mapped pages costs the pool thread that much less (20 ms instead of 38), so the process uses
// as much CPU as before, off the main thread. On a kernel that maps the pages on read() the
// fill costs the pool thread ~2 ms (9.4 MB at 4 GB/s).
import { randomFill } from 'node:crypto';
import { close, closeSync, fstatSync, openSync, read } from 'node:fs';

/**
 * The whole content of `path`, read on libuv's thread pool by one request (more only if the
 * kernel returns less than asked). Rejects with the open's or the read's error, synchronously
 * thrown errors included.
 *
 * @example
 * const bundle = await readAhead('/var/cache/app-schemas/b-0123.js')
 */
export function readAhead(path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let fd: number;
    let buffer: Buffer;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      reject(error);
      return;
    }
    try {
      // Not pooled and not zero-filled: the read writes every byte of it.
      buffer = Buffer.allocUnsafeSlow(fstatSync(fd).size);
    } catch (error) {
      closeSync(fd);
      reject(error);
      return;
    }
    const finish = (error: unknown, result?: Buffer) => {
      close(fd, () => {});
      if (error === null || error === undefined) resolve(result as Buffer);
      else reject(error);
    };
    const readFrom = (offset: number): void => {
      if (offset === buffer.length) {
        finish(null, buffer);
        return;
      }
      read(fd, buffer, offset, buffer.length - offset, offset, (error, bytesRead) => {
        if (error !== null) finish(error);
        // A file that shrank after it was sized ends early: the caller's checks see the difference.
        else if (bytesRead === 0) finish(null, buffer.subarray(0, offset));
        else readFrom(offset + bytesRead);
      });
    };
    if (buffer.length === 0) readFrom(0);
    else randomFill(buffer, (error) => (error === null ? readFrom(0) : finish(error)));
  });
}
