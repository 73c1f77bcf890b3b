// A large body over HTTP/2 goes out in 64 KiB writes, each once the previous ones drained, as
// Fastify writes it. Handed over in one write, the whole buffer is queued in the session at once,
// past the session's memory limit: when the client then cancels that stream, nghttp2 refuses the
// session's next streams (ENHANCE_YOUR_CALM), so one cancelled download breaks the connection.
import type { ServerResponse } from 'node:http';

const CHUNK_SIZE = 64 * 1024;

/** Whether a body of `length` bytes for `raw`'s request must be written in chunks. */
export function needsChunkedWrite(raw: { httpVersionMajor: number }, length: number): boolean {
  return raw.httpVersionMajor === 2 && length > CHUNK_SIZE;
}

/** Writes `payload` in chunks, honouring back-pressure, then calls `done` (not if the response died). */
export function writeInChunks(res: ServerResponse, payload: string | Uint8Array, done: () => void): void {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
  let offset = 0;
  const writeMore = () => {
    while (offset < bytes.length) {
      if (res.destroyed || res.writableEnded) return;
      const end = Math.min(offset + CHUNK_SIZE, bytes.length);
      const flowing = res.write(bytes.subarray(offset, end));
      offset = end;
      if (!flowing) {
        res.once('drain', writeMore);
        return;
      }
    }
    done();
  };
  writeMore();
}
