// Shared by the security-*, faults-* and shutdown-* tests: a raw TCP client for requests no
// well-behaved HTTP client would send, a log capture, and time bounds.
import net from 'node:net';
import { after, before } from 'node:test';
import { Writable } from 'node:stream';

/** What a raw exchange produced: the bytes received, the status line's code, how it ended. */
export interface RawExchange {
  text: string;
  status: number | undefined;
  /** Every status line seen (a connection may carry several answers). */
  statuses: number[];
  ms: number;
  ended: 'closed' | 'error' | 'client-timeout' | 'stopped';
  errorCode?: string;
}

/**
 * Writes `data` to 127.0.0.1:`port` and collects what comes back until the server closes the
 * connection, `stopWhen(text)` holds, or `timeoutMs` passes (then the client gives up and says so).
 */
export function rawExchange(
  port: number,
  data: string | Buffer | Array<string | Buffer>,
  options: { timeoutMs?: number; halfClose?: boolean; delayMs?: number; stopWhen?: (text: string) => boolean } = {},
): Promise<RawExchange> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let settled = false;
    const finish = (ended: RawExchange['ended'], errorCode?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
      resolve({ text, status: statuses[0], statuses, ms: Date.now() - started, ended, ...(errorCode ? { errorCode } : {}) });
    };
    const timer = setTimeout(() => finish('client-timeout'), options.timeoutMs ?? 3000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (options.stopWhen?.(text)) finish('stopped');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish('error', error.code));
    socket.on('close', () => finish('closed'));
    socket.on('connect', async () => {
      const parts = Array.isArray(data) ? data : [data];
      for (const [index, part] of parts.entries()) {
        if (index > 0 && options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        if (socket.destroyed) return;
        socket.write(part);
      }
      if (options.halfClose) socket.end();
    });
  });
}

/** The port of a listening app. */
export function portOf(app: { server: any }): number {
  return (app.server.address() as net.AddressInfo).port;
}

/** A pino destination that keeps every line, parsed. */
export function captureLogs(): { stream: Writable; lines: Array<Record<string, any>> } {
  const lines: Array<Record<string, any>> = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
      callback();
    },
  });
  return { stream, lines };
}

/** Rejects when `promise` takes longer than `ms`, so a hang fails the test instead of the run. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'operation'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves when `check()` is true, polling; rejects after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Open connections of a server, as a promise. */
export function connectionsOf(server: { getConnections(cb: (error: Error | null, count: number) => void): void }): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/** For `stopWhen`: one complete response with a JSON body has arrived. */
export const hasJsonResponse = (text: string): boolean => /\r\n\r\n\{.*\}$/s.test(text);

/**
 * Collects what escapes the request path (uncaught exceptions, unhandled rejections) while the
 * calling file's tests run; a test asserts the list is empty.
 */
export function captureEscapes(): unknown[] {
  const escaped: unknown[] = [];
  const onEscape = (error: unknown) => escaped.push(error);
  before(() => {
    process.on('uncaughtException', onEscape);
    process.on('unhandledRejection', onEscape);
  });
  after(() => {
    process.off('uncaughtException', onEscape);
    process.off('unhandledRejection', onEscape);
  });
  return escaped;
}
