// listen() and close(). Closing stops accepting, answers 503 to requests that still arrive on
// open connections, lets in-flight requests finish, closes idle keep-alive sockets, then runs
// the onClose hooks.
import type { AddressInfo, Server } from 'node:net';
import { errorCodes } from '../errors.js';
import { runApplicationHooks } from '../lifecycle/hooks.js';
import type { RootState } from '../scope/root-state.js';
import type { ListenOptions } from '../types.js';


/** The URL form of an address: `http://127.0.0.1:3000`, `http://[::1]:3000`. */
export function formatAddress(address: AddressInfo | string | null, secure: boolean): string {
  if (address === null) return '';
  if (typeof address === 'string') return address;
  const host = address.family === 'IPv6' || address.family === (6 as unknown) ? `[${address.address}]` : address.address;
  return `${secure ? 'https' : 'http'}://${host}:${address.port}`;
}

/** Open HTTP/2 sessions per server: close() sends each a GOAWAY so it does not linger. */
const http2Sessions = new WeakMap<object, Set<{ close(): void; destroyed: boolean }>>();

/** Tracks the sessions of an HTTP/2 server (called once, where the server is created). */
export function trackHttp2Sessions(server: { on(event: 'session', listener: (session: any) => void): unknown }): void {
  const sessions = new Set<any>();
  http2Sessions.set(server, sessions);
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
}

function closeHttp2Sessions(server: object): void {
  // session.close() is graceful: streams already open finish, no new ones are accepted.
  for (const session of http2Sessions.get(server) ?? []) if (!session.destroyed) session.close();
}

function isSecure(root: RootState): boolean {
  return Boolean(root.initialConfig.https);
}

/** Starts listening once the application is ready; resolves with the address. */
export async function listen(root: RootState, ready: () => Promise<unknown>, options: ListenOptions): Promise<string> {
  if (options === null || typeof options !== 'object') throw new errorCodes.FST_ERR_LISTEN_OPTIONS_INVALID(String(options));
  if (root.closed) throw new errorCodes.FST_ERR_REOPENED_CLOSE_SERVER();
  if (root.listening) throw new errorCodes.FST_ERR_REOPENED_SERVER();
  await ready();
  const port = Number(options.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new errorCodes.FST_ERR_LISTEN_OPTIONS_INVALID(`port ${String(options.port)}`);
  const host = options.host ?? 'localhost';
  const server = root.server as unknown as Server;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ port, host, backlog: options.backlog, signal: options.signal }, () => {
      server.removeListener('error', onError);
      resolve();
    });
  });
  root.listening = true;
  const address = formatAddress(server.address(), isSecure(root));
  root.log.info(options.listenTextResolver ? options.listenTextResolver(address) : `Server listening at ${address}`);
  await runApplicationHooks(root.applicationHooks.onListen, () => []);
  return address;
}

/** Graceful close: preClose hooks, stop accepting, drain, onClose hooks (last added first). */
export async function close(root: RootState): Promise<void> {
  if (root.closed) return;
  root.closing = true;
  await runApplicationHooks(root.applicationHooks.preClose, () => []);
  if (root.listening) {
    const server = root.server as any;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if (root.options.forceCloseConnections === true) server.closeAllConnections?.();
      else server.closeIdleConnections?.();
      closeHttp2Sessions(server);
    });
    root.listening = false;
  }
  root.closed = true;
  await runApplicationHooks(root.applicationHooks.onClose.slice().reverse(), (entry) => [entry.instance]);
}
