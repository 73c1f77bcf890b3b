// listen(). Closing is in close.ts.
import type { AddressInfo, Server } from 'node:net';
import { runApplicationHooks } from '../application-hooks.js';
import { errorCodes } from '../errors.js';
import type { RootState } from '../state/application.js';
import type { ListenOptions } from '../types.js';

/** The URL form of an address: `http://127.0.0.1:3000`, `http://[::1]:3000`. */
export function formatAddress(address: AddressInfo | string | null, secure: boolean): string {
  if (address === null) return '';
  if (typeof address === 'string') return address;
  const ipv6 = address.family === 'IPv6' || address.family === (6 as unknown);
  // A server bound to every interface is reached, from this machine, through the loopback.
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const host = ipv6 ? `[${reachable}]` : reachable;
  return `${secure ? 'https' : 'http'}://${host}:${address.port}`;
}

function isSecure(root: RootState): boolean {
  return Boolean(root.initialConfig.https);
}

/** Node's own validation answers a port that is not a number (ERR_SOCKET_BAD_PORT), as in Fastify. */
function checkPort(port: unknown): number | string {
  if (port === undefined || port === null) return 0;
  if (typeof port === 'string' && !/^\d+$/.test(port)) return port;
  const value = Number(port);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new errorCodes.FST_ERR_LISTEN_OPTIONS_INVALID(`port ${String(port)}`);
  return value;
}

export function checkSignal(signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const valid =
    signal !== null &&
    typeof signal === 'object' &&
    typeof (signal as AbortSignal).aborted === 'boolean' &&
    typeof (signal as AbortSignal).addEventListener === 'function';
  if (!valid) throw new errorCodes.FST_ERR_LISTEN_OPTIONS_INVALID('Invalid options.signal');
  return signal as AbortSignal;
}

function bind(server: Server, options: ListenOptions, signal: AbortSignal | undefined): Promise<void> {
  const common = { backlog: options.backlog, signal, exclusive: options.exclusive, ipv6Only: options.ipv6Only };
  const target =
    typeof options.path === 'string'
      ? { ...common, path: options.path, readableAll: options.readableAll, writableAll: options.writableAll }
      : { ...common, port: checkPort(options.port) as number, host: options.host ?? 'localhost' };
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    try {
      server.listen(target, () => {
        server.removeListener('error', onError);
        resolve();
      });
    } catch (error) {
      // Node validates the options synchronously (a port like 'abc': ERR_SOCKET_BAD_PORT).
      server.removeListener('error', onError);
      reject(error);
    }
  });
}

/** Starts listening once the application is ready; resolves with the address. */
export async function listen(root: RootState, ready: () => Promise<unknown>, options: ListenOptions, close: () => Promise<void>): Promise<string> {
  if (options === null || typeof options !== 'object') throw new errorCodes.FST_ERR_LISTEN_OPTIONS_INVALID(String(options));
  if (root.closing || root.closed) throw new errorCodes.FST_ERR_REOPENED_CLOSE_SERVER();
  if (root.listening) throw new errorCodes.FST_ERR_REOPENED_SERVER();
  const signal = checkSignal(options.signal);
  // Claimed before the first await, so a second listen() made meanwhile fails as a double listen.
  root.listening = true;
  const server = root.server as unknown as Server;
  // Aborting the signal closes the application, onClose hooks included, as in Fastify.
  const closeOnAbort = () => close().catch((error) => root.log.error({ err: error }, 'closing on abort failed'));
  try {
    await ready();
    if (signal?.aborted) {
      // Aborted while the application was loading: it never listens, and listen() resolves
      // with no address.
      root.listening = false;
      closeOnAbort();
      return undefined as unknown as string;
    }
    await bind(server, options, signal);
  } catch (error) {
    root.listening = false;
    throw error;
  }
  signal?.addEventListener('abort', closeOnAbort, { once: true });
  const address = formatAddress(server.address(), isSecure(root));
  root.log.info(options.listenTextResolver ? options.listenTextResolver(address) : `Server listening at ${address}`);
  // The server listens whatever an onListen hook does: a failing one is logged, the others run.
  await runApplicationHooks('onListen', root.applicationHooks.onListen, () => [], {
    onError: (error) => root.log.warn({ err: error }, `an onListen hook failed: ${(error as Error)?.message ?? String(error)}`),
  });
  return address;
}
