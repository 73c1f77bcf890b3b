// Closing an HTTP/1 connection whose client may still be sending (issue 28). Closing a socket
// that has unread bytes makes the kernel answer with a reset, and a reset discards what the
// client had not read yet: the 413 it was sent, or the answer to a request that crossed the close.
// So the connection is closed the way nginx's lingering close does it: the answer goes out, then
// a FIN (half-close), then whatever the client still sends is read and thrown away, at most
// `maxBytes` of it and for at most LINGER_MS; the socket is closed once the client closes its
// side, or when a bound is reached (past `maxBytes` nothing more is read: the client's writes
// stall, they do not fail, until the time bound). Node's parser keeps reading the connection
// (its requests are not served: see ignoreIfLingering); a reader of our own would need Node's
// internals to restart a socket the parser had paused.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** How long a closing connection may still be read from, at most (nginx waits 5 to 30 s). */
export const LINGER_MS = 2000;

/** What an idle keep-alive connection closed by close() may still bring: one request's head. */
export const IDLE_LINGER_BYTES = 64 * 1024;

/** A connection in its lingering close: how much it may still read. */
interface Linger {
  drained: number;
  readonly maxBytes: number;
}

/** Sockets being closed lingering: their bytes are no one's request any more. */
const lingering = new WeakMap<object, Linger>();

/**
 * How many sockets are lingering now, so that the request path looks a socket up only when one
 * is (a property load on every request instead of a WeakMap lookup).
 */
export const lingeringCount = { sockets: 0 };

/** Whether `socket` is in its lingering close (a parse error on it is no client's error). */
export function isLingering(socket: object): boolean {
  return lingering.has(socket);
}

function ignoreError(): void {}

/**
 * Reads and drops `request`'s body through Node's own parser (which goes on reading the socket
 * while the request flows), until the connection's bound: then the request is paused, its buffer
 * fills, and Node stops reading the socket. Started before the answer is finished: a request
 * nobody read by then would be dumped by Node, whose parser then discards the body itself, with
 * no event to count it by and no end.
 */
function drain(linger: Linger, request: IncomingMessage): void {
  if (linger.drained >= linger.maxBytes) return;
  request.on('data', (chunk: Buffer) => {
    linger.drained += chunk.length;
    if (linger.drained >= linger.maxBytes) request.pause();
  });
  request.resume();
}

function startLingering(socket: Socket, linger: Linger): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.set(socket, linger);
  lingeringCount.sockets++;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  // The client closed its side: nothing more can arrive, closing cannot reset anything. (Node's
  // parser may first complain of a body cut short: see client-error.ts.)
  socket.once('end', () => socket.destroy());
  socket.once('close', () => {
    clearTimeout(timer);
    lingeringCount.sockets--;
  });
  // A client that read its answer may reset rather than close; that ends the socket all the same.
  socket.on('error', ignoreError);
  if (socket.writable) socket.end();
}

/**
 * Half-closes `socket`, an idle connection, and drains it (at most `maxBytes`), then closes it:
 * see the top of this file. Safe to call twice.
 *
 * @example
 * closeLingering(socket, 64 * 1024) // FIN now; read ≤ 64 KiB for ≤ 2 s; close when the client does
 */
export function closeLingering(socket: Socket, maxBytes: number): void {
  startLingering(socket, { drained: 0, maxBytes });
}

/**
 * A request that arrived on a lingering connection (pipelined after a refused body, or sent as
 * close() closed its idle connection): it is not served, since its answer could not be written
 * after the FIN; its body is drained within the connection's bound. Returns whether it was one.
 */
export function ignoreIfLingering(request: IncomingMessage): boolean {
  const linger = lingering.get(request.socket);
  if (linger === undefined) return false;
  drain(linger, request);
  return true;
}

/**
 * Makes `res` the connection's last answer (`Connection: close`) and closes the connection
 * lingering once it is written, instead of at once: the request's body has not all arrived, and
 * the client may still be sending it. The body is drained from now on, at most `maxBytes` of it.
 * A request made by `inject()` has no real socket: only the header changes.
 */
export function lingerAfterResponse(raw: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  res.shouldKeepAlive = false;
  const socket: unknown = raw.socket;
  if (!(socket instanceof Socket) || socket.destroyed) return;
  const linger: Linger = { drained: 0, maxBytes };
  if (!raw.complete) drain(linger, raw);
  // Node's HTTP server calls destroySoon() on the socket after a connection's last response
  // (and nowhere else): an own property replaces the immediate close for this socket only.
  socket.destroySoon = () => startLingering(socket, linger);
}

/**
 * An answer is about to be written while the request's body is still arriving and nothing reads
 * it (an onRequest hook that replied, a 404, a GET with a body): Node would read and discard the
 * whole body to keep the connection, however large. Instead the connection closes after this
 * answer, lingering for at most `maxBytes` more (the route's bodyLimit). A body being read (by a
 * parser, or piped into the reply) is left alone, and so is a request without a body.
 */
export function lingerIfBodyUnread(raw: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  if (raw.httpVersionMajor !== 1 || raw.readableFlowing === true || res.headersSent || !bodyStillArriving(raw)) return;
  lingerAfterResponse(raw, res, maxBytes);
}

/**
 * Whether `raw`'s body may still be arriving. `complete` alone is not enough: a handler that
 * answers synchronously runs while Node parses the request's head, before it marks even a GET
 * without a body complete.
 */
function bodyStillArriving(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  const { headers } = raw;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}
