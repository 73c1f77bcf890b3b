// Child processes for the cluster: started with their output in a log file, stopped by their
// own pid with a bounded wait, and never left behind.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { openSync, readFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  name: string;
  process: ChildProcess;
  log: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function start(name: string, command: string, args: string[], options: { log: string; env?: NodeJS.ProcessEnv; cwd?: string }): Child {
  const out = openSync(options.log, 'a');
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', out, out] });
  const exit = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  // A spawn failure (a missing binary) surfaces as 'error' then 'exit'; keep it off the process.
  child.on('error', () => {});
  return { name, process: child, log: options.log, exit };
}

export function running(child: Child): boolean {
  return child.process.exitCode === null && child.process.signalCode === null;
}

/** Sends `signal`, waits up to `timeoutMs`, then SIGKILL. Resolves with how it exited. */
export async function stop(child: Child, signal: NodeJS.Signals, timeoutMs: number) {
  if (running(child)) child.process.kill(signal);
  const timer = sleep(timeoutMs, 'timeout' as const);
  const result = await Promise.race([child.exit, timer]);
  if (result !== 'timeout') return result;
  child.process.kill('SIGKILL');
  await child.exit;
  throw new Error(`${child.name} did not exit within ${timeoutMs} ms of ${signal}; killed`);
}

export function tail(child: Child, lines = 20): string {
  try {
    return readFileSync(child.log, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** `count` distinct free ports on 127.0.0.1 (held together while chosen, so they differ). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once('error', reject);
            server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
          }),
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** Resolves once a TCP connection to the port succeeds; throws after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number, child?: Child): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child !== undefined && !running(child)) throw new Error(`${child.name} exited before listening:\n${tail(child)}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

/** The path of a system binary, or undefined (root's PATH has /usr/sbin, others may not). */
export function findBinary(name: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    const path = `${dir}/${name}`;
    if (spawnSync(path, ['-v'], { stdio: 'ignore' }).error === undefined) return path;
  }
  return undefined;
}
