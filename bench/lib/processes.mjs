// Child-process plumbing for run.mjs: a server per run, one long-lived load worker.
import { execFileSync, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serveScript = fileURLToPath(new URL('./serve.mjs', import.meta.url));
const loadWorkerScript = fileURLToPath(new URL('./load-worker.mjs', import.meta.url));
const benchDir = fileURLToPath(new URL('..', import.meta.url));

/** Flags every benchmark server runs with, whatever the framework. */
export const SERVER_FLAGS = ['--max-semi-space-size=64'];

export function nodeVersion(nodePath) {
  return execFileSync(nodePath, ['--version'], { encoding: 'utf8' }).trim();
}

/**
 * Starts `serve.mjs framework scenario` under `nodePath`; resolves `{ port, stop }`. `wrapper`
 * (a command and its arguments, e.g. valgrind's) runs the node binary under it; `patience` is
 * how many seconds to allow for listening and for exiting (valgrind is ~50× slower); `env` is
 * added to the environment.
 */
export function startServer({ nodePath, framework, scenario, extraFlags = [], wrapper = [], patience = 1, env = undefined }) {
  const command = [...wrapper, nodePath, ...SERVER_FLAGS, ...extraFlags, serveScript, framework, scenario];
  const child = spawn(command[0], command.slice(1), {
    cwd: benchDir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: env === undefined ? process.env : { ...process.env, ...env },
  });
  const exited = once(child, 'exit');
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${framework}/${scenario}: server did not listen within ${30 * patience} s`));
    }, 30_000 * patience);
    const early = (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${framework}/${scenario}: server exited before listening (${code ?? signal})`));
    };
    child.once('exit', early);
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const match = /LISTENING (\d+)/.exec(buffered);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', early);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        port: Number(match[1]),
        pid: child.pid,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const kill = setTimeout(() => child.kill('SIGKILL'), 10_000 * patience);
          child.kill('SIGTERM');
          await exited;
          clearTimeout(kill);
        },
      });
    });
  });
}

/** Forks the autocannon worker; `run(job)` resolves its summary. */
export function startLoadWorker() {
  const child = fork(loadWorkerScript, [], { cwd: benchDir, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let nextId = 0;
  const pending = new Map();
  child.on('message', (message) => {
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new Error(message.error));
  });
  child.on('exit', (code) => {
    for (const entry of pending.values()) entry.reject(new Error(`load worker exited (${code})`));
    pending.clear();
  });
  return {
    run(job) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ ...job, id });
      });
    },
    async stop() {
      child.disconnect();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/**
 * Forks the instruction and allocation benchmarks' checking client (request-client.mjs);
 * `run(job)` resolves its result ({ requests, sockets, seconds }), `stop()` ends it.
 */
export function startRequestClient() {
  const client = fork(fileURLToPath(new URL('./request-client.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextJob = 0;
  return {
    run(job) {
      const id = nextJob++;
      return new Promise((resolve, reject) => {
        const onMessage = (message) => {
          if (message.id !== id || message.paused) return;
          client.off('message', onMessage);
          if (message.ok) resolve(message.result);
          else reject(new Error(message.error));
        };
        client.on('message', onMessage);
        client.send({ ...job, id });
      });
    },
    async stop() {
      client.disconnect();
      if (client.exitCode === null) await once(client, 'exit');
    },
  };
}

/** Creates bench/.results (with a .gitignore ignoring everything in it) and returns its path. */
export function ensureResultsDir() {
  const dir = join(benchDir, '.results');
  mkdirSync(dir, { recursive: true });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# Benchmark output (run.mjs, boot.mjs, --cpu-prof profiles): local, never committed.\n*\n');
  return dir;
}
