// close(): preClose hooks, stop accepting, drain, onClose hooks (last added first).
//
// A keep-alive client must never have a request reset: a request arriving while closing is
// answered (503, or served with return503OnClosing: false) with `Connection: close`, and an idle
// connection is closed only once it stayed idle for a grace period after the server stopped
// accepting (a client that reuses its connection does so at once), and then lingering
// (lingering-close.ts): a request that crosses the close on the wire is never reset. Closing does
// not wait for idle clients beyond that.
import type http from 'node:http';
import type net from 'node:net';
import { runApplicationHooks } from '../application-hooks.js';
import type { RootState } from '../state/application.js';
import { closeHttp2Sessions, isHttp2Server, sweepHttp2Sessions } from './http2-sessions.js';
import { realTimers, whenStillIdle } from './idle-check.js';
import { closeLingering, IDLE_LINGER_BYTES } from './lingering-close.js';
import { closeThroughServer } from './server-close.js';

/** How long an idle keep-alive connection may still bring a request once closing began. */
export const IDLE_GRACE_MS = 100;

interface TrackedSocket extends net.Socket {
  /** Node's: the response being written on this connection, if any. */
  _httpMessage?: http.ServerResponse | null;
  /** Node's: the HTTP parser; gone once the connection was upgraded (WebSocket, CONNECT). */
  parser?: unknown;
}

const serverSockets = new WeakMap<object, Set<TrackedSocket>>();

/** Responses whose reply was hijacked: the application writes them, and may never end them. */
const hijackedResponses = new WeakSet<object>();

/** Called by reply.hijack(): close() will not wait for this response for ever. */
export function markHijacked(res: object): void {
  hijackedResponses.add(res);
}

/** Tracks the connections of a server (called once, where the server is created). */
export function trackSockets(server: net.Server): void {
  const sockets = new Set<TrackedSocket>();
  serverSockets.set(server, sockets);
  const track = (socket: TrackedSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  server.on('connection', track);
  // HTTPS parses on the TLS socket, not on the TCP one 'connection' reports.
  server.on('secureConnection', track);
}

/** An upgraded socket has left the HTTP server (Node freed its parser) and belongs to its owner. */
function isUpgraded(socket: TrackedSocket): boolean {
  return !socket.destroyed && 'parser' in socket && socket.parser == null && socket._httpMessage == null;
}

/** Node's own timer checking request timeouts; http.Server's close() clears it, ours must too. */
function stopTimeoutChecks(server: object): void {
  const key = Object.getOwnPropertySymbols(server).find((symbol) => symbol.description === 'http.server.connectionsCheckingInterval');
  if (key !== undefined) realTimers.clearInterval((server as Record<symbol, NodeJS.Timeout>)[key]);
}

function trafficOf(socket: net.Socket): number {
  return socket.bytesRead + socket.bytesWritten;
}

/**
 * Every IDLE_GRACE_MS, closes the HTTP/1 connections that carried nothing since the previous
 * look: no response under way and not a byte in or out. A connection that just finished a
 * response is left for its client to reuse (its next request gets a 503 and Connection: close).
 */
function startIdleSweeps(server: net.Server, sockets: Set<TrackedSocket>): void {
  const lastSeenIdle = new WeakMap<TrackedSocket, number>();
  const lastSeenSessions = new WeakMap<object, number>();
  let swept = 0;
  const sweep = () => {
    sweepHttp2Sessions(server, lastSeenSessions);
    for (const socket of sockets) {
      // Its owner had preClose to end an upgraded connection (a WebSocket) or a hijacked
      // response (an event stream); what is still open after the grace period must not hold
      // close() for ever.
      if (isUpgraded(socket) || (socket._httpMessage != null && hijackedResponses.has(socket._httpMessage) && swept > 0)) {
        socket.destroy();
        continue;
      }
      // The TCP socket under a TLS one, and HTTP/2 sessions (swept above).
      if (!('parser' in socket) || socket.destroyed) continue;
      const traffic = trafficOf(socket);
      if (socket._httpMessage != null) lastSeenIdle.delete(socket);
      else if (lastSeenIdle.get(socket) === traffic) {
        const stillIdle = () => !socket.destroyed && socket._httpMessage == null && trafficOf(socket) === traffic;
        // Closed lingering: a request that crosses the FIN on the wire is read and dropped (the
        // client sees the connection end, which it may retry), never answered with a reset.
        whenStillIdle(stillIdle, () => closeLingering(socket, IDLE_LINGER_BYTES));
      } else lastSeenIdle.set(socket, traffic);
    }
    swept++;
  };
  sweep();
  const timer = realTimers.setInterval(sweep, IDLE_GRACE_MS);
  server.once('close', () => realTimers.clearInterval(timer));
}

function stopServer(root: RootState): Promise<void> {
  const server = root.server as unknown as net.Server & Partial<http.Server>;
  const sockets = serverSockets.get(server) ?? new Set<TrackedSocket>();
  return new Promise<void>((resolve) => {
    // Stop accepting, through server.close() (server-close.ts says how idle connections stay).
    server.once('close', () => {
      stopTimeoutChecks(server);
      resolve();
    });
    closeThroughServer(server);
    if (root.options.forceCloseConnections === true) {
      if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
      // An HTTP/2 session is closed gracefully (its open streams finish, as in Fastify); only
      // the HTTP/1 connections of such a server (allowHTTP1) are destroyed.
      const http2 = isHttp2Server(server);
      closeHttp2Sessions(server);
      for (const socket of sockets) if (!http2 || 'parser' in socket) socket.destroy();
      return;
    }
    startIdleSweeps(server, sockets);
  });
}

async function runClose(root: RootState): Promise<void> {
  root.closing = true;
  // Closing goes on whatever a preClose hook does: a server that cannot be closed is worse.
  await runApplicationHooks('preClose', root.applicationHooks.preClose, () => [], {
    onError: (error) => root.log.error({ err: error }, 'a preClose hook failed'),
  });
  if (root.listening) {
    await stopServer(root);
    root.listening = false;
  }
  root.closed = true;
  // The schema cache a cold start writes after ready(): complete once close() resolves, so a build
  // step (ready(), close(), exit) leaves it whole. Never rejects.
  if (root.schemaCache !== null) await root.schemaCache.whenWritten();
  let failure: { error: unknown } | null = null;
  await runApplicationHooks('onClose', root.applicationHooks.onClose.slice().reverse(), (entry) => [entry.instance], {
    onError: (error) => {
      failure ??= { error };
    },
  });
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/** Closes the application once; later calls get the same promise. */
export function close(root: RootState): Promise<void> {
  root.closePromise ??= runClose(root);
  return root.closePromise;
}
