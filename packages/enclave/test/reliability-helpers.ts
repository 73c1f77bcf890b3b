// Shared by the reliability-* tests (issue 28): the server in a child process
// (fixtures/reliability-server.mjs), and raw-socket uploads that keep streaming.
import { type ChildProcess, fork } from 'node:child_process';
import net from 'node:net';

/** A reliability server running in its own process. */
export interface ServerProcess {
  /** The port its current application listens on. */
  port: number;
  /** Sends `{ do }` and resolves with the process's answer. */
  ask<T = Record<string, number>>(what: 'start' | 'close' | 'connections'): Promise<T>;
  /** How the process ended, once it has: its exit code, or the signal that ended it. */
  exit: Promise<string>;
  exited(): boolean;
  /** Ends the process (every test does, in `finally`). */
  stop(): Promise<void>;
}

const fixture = new URL('./fixtures/reliability-server.mjs', import.meta.url);

/** Starts the fixture with `scenario` and waits for its first application to listen. */
export async function startServerProcess(scenario: string): Promise<ServerProcess> {
  const child: ChildProcess = fork(fixture, [scenario], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting: Array<{ resolve: (value: any) => void; reject: (error: Error) => void }> = [];
  let ended = false;
  const exit = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = true;
      for (const entry of waiting.splice(0)) entry.reject(new Error(`the server process exited (${signal ?? code})`));
      resolve(String(signal ?? code));
    });
  });
  child.on('message', (message) => waiting.shift()?.resolve(message));
  const next = () => new Promise<any>((resolve, reject) => waiting.push({ resolve, reject }));
  const server: ServerProcess = {
    port: (await next()).port,
    ask(what) {
      const answer = next();
      child.send({ do: what });
      return answer;
    },
    exit,
    exited: () => ended,
    async stop() {
      if (!ended) child.kill();
      await exit;
    },
  };
  return server;
}

/** What one raw upload saw: the answer's status line, and how the connection ended. */
export interface UploadResult {
  status: number | undefined;
  /** 'answered' (a whole answer was read), 'closed', or the socket error's code. */
  ended: string;
  wrote: number;
}

/**
 * POSTs `head` and then streams `chunk` until `total` bytes were written, reading as it writes,
 * as an HTTP client does. A polite client stops once it has the whole answer; a stubborn one
 * keeps writing until the server closes the connection (or its writes stall for good: then the
 * server's time bound ends it).
 */
export function streamUpload(port: number, head: string, options: { total: number; polite: boolean }): Promise<UploadResult> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return new Promise((resolve) => {
    // A stubborn client also ignores the server's FIN (Node's sockets end their side on it by
    // default), as an attacker's would.
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: !options.polite });
    let text = '';
    let settled = false;
    let stopped = false;
    const finish = (ended: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : undefined, ended, wrote: socket.bytesWritten });
    };
    socket.on('data', (data: Buffer) => {
      text += data.toString('latin1');
      // Every answer in these tests is JSON or text with a Content-Length: complete when the
      // body after the blank line has that length.
      const headEnd = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (headEnd !== -1 && length && text.length >= headEnd + 4 + Number(length[1]) && options.polite) finish('answered');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? 'error'));
    socket.on('close', () => finish('closed'));
    socket.on('connect', () => {
      socket.write(head);
      const pump = () => {
        while (!settled && !stopped) {
          if (socket.bytesWritten >= options.total) {
            stopped = true;
            socket.end();
            return;
          }
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}
