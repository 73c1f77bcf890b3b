// close() stops the server through `server.close()`, as Fastify does, so a wrapper an app or a
// plugin installed there runs (@fastify/websocket's own tests install one to let a client in
// while the server closes) (issue 32).
//
// What Node's own close() would add is left to close.ts's sweeps, which give idle connections a
// grace period instead of cutting them at once: http.Server's close() drops idle keep-alive
// connections (resetting a request a client is sending on one at this very moment), so its
// closeIdleConnections() does nothing while the server closes; Node 24's Http2Server close()
// closes every session at once (refusing the streams clients open meanwhile), so an HTTP/2
// server's own close() is bypassed unless something wrapped it.
import net from 'node:net';
import { isHttp2Server } from './http2-sessions.js';

/** Calls `server.close()` (whatever wraps it), keeping idle connections for close.ts's sweeps. */
export function closeThroughServer(server: net.Server): void {
  if (isHttp2Server(server) && !Object.hasOwn(server, 'close')) {
    net.Server.prototype.close.call(server);
    return;
  }
  const own = Object.getOwnPropertyDescriptor(server, 'closeIdleConnections');
  Object.defineProperty(server, 'closeIdleConnections', { value: () => {}, configurable: true, writable: true });
  server.once('close', () => {
    if (own === undefined) delete (server as { closeIdleConnections?: unknown }).closeIdleConnections;
    else Object.defineProperty(server, 'closeIdleConnections', own);
  });
  // Its error (the server was not listening) is of no interest: close() resolves on 'close'.
  server.close(() => {});
}
