// Requests Node's HTTP parser refuses before any route sees them (a malformed request line,
// oversized headers, a request that took too long): answered as Fastify answers them, through
// the `clientErrorHandler` factory option.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../logger.js';
import { isLingering } from './lingering-close.js';

/** What a clientErrorHandler gets as `this`: the application, with its logger. */
export type ClientErrorHandler = (this: { log: Logger }, error: NodeJS.ErrnoException, socket: Socket) => void;

/** Status, message and log label per parser error; anything else is a 400. */
function describe(code: string | undefined): { status: number; message: string; label: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'Client Timeout', label: 'timeout' };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'Exceeded maximum allowed HTTP header size', label: 'header_overflow' };
  return { status: 400, message: 'Client Error', label: 'error' };
}

/**
 * The default handler: a JSON error response when the socket can still take one, then the socket
 * is destroyed. A reset connection has nobody left to answer.
 */
export const defaultClientErrorHandler: ClientErrorHandler = function defaultClientErrorHandler(error, socket) {
  if (error?.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message, label } = describe(error?.code);
  const reason = STATUS_CODES[status] as string;
  // Key order and the raw response are Fastify's, byte for byte: clients and tests compare them.
  const body = `{"error":"${reason}","message":"${message}","statusCode":${status}}`;
  // Malformed requests are routine on the internet; logging them louder invites log flooding.
  this.log.trace({ err: error }, `client ${label}`);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`);
  }
  socket.destroy(error);
};

/** Installs `handler` (or the default) as the server's clientError listener, bound to `instance`. */
export function listenForClientErrors(
  server: { on(event: 'clientError', listener: (error: NodeJS.ErrnoException, socket: Socket) => void): unknown },
  handler: unknown,
  instance: { log: Logger },
): void {
  const chosen = (typeof handler === 'function' ? handler : defaultClientErrorHandler) as ClientErrorHandler;
  server.on('clientError', (error, socket) => {
    // A connection closing lingering has left HTTP: the parser's complaint about a body cut short
    // (the client closed its side) is nobody's error, and the socket is done.
    if (isLingering(socket)) {
      socket.destroy();
      return;
    }
    try {
      chosen.call(instance, error, socket);
    } catch (thrown) {
      // A handler that throws must not take the process down; the socket is of no use anymore.
      instance.log.error({ err: thrown }, 'the clientErrorHandler failed');
      socket.destroy();
    }
  });
}
