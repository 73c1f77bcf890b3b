// Reading a file in the background while the main thread is busy (issue 29: the schema cache's
// bundle, 10 MB for 1,000 routes, read while the application adds its routes).
//
// fs.promises.readFile reads in 512 KB pieces, each a turn of the event loop: while an application
// adds its routes synchronously the loop does not turn, so the read only progressed once ready()
// awaited it, and a warm start waited for twenty round trips. Here the file is opened and sized
// synchronously (two system calls), then read by ONE request on libuv's thread pool: the copy and
// the page faults of the fresh buffer (most of the read's cost, all of it in the kernel) happen
// on another thread, during the route registration, and the result is ready when ready() asks.
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
    readFrom(0);
  });
}
