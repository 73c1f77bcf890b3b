// The whole deployment on loopback: Redis, N Bookshelf processes on their own ports, nginx in
// front. start() brings it up (and takes down whatever it started if a step fails), restart()
// replaces one process the way a rolling deploy does, stop() takes everything down.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type Child, freePorts, running, start, stop, tail } from './processes.js';
import { ensurePackages, startNginx, startRedis } from './services.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverFile = fileURLToPath(new URL('./server.ts', import.meta.url));

/** The status of one GET on a connection of its own (0 when it cannot connect). */
export function probe(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path, agent: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

export interface ClusterOptions {
  processes?: number;
  rateLimitMax?: number;
  rateLimitWindowMs?: number;
  /** nginx's upstream keepalive_timeout, seconds. */
  upstreamKeepaliveTimeout?: number;
  /** nginx's fail_timeout, seconds; above the drain, so a draining process gets no new connection. */
  failTimeout?: number;
  /** How long a process drains before close(); 0 closes at once (to see what the drain buys). */
  drainTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface Instance {
  slot: number;
  port: number;
  generation: number;
  name: string;
  child: Child;
}

export class Cluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'enclave-cluster-'));
  readonly adminKey = randomBytes(18).toString('base64url');
  readonly instances: Instance[] = [];
  nginxPort = 0;
  redisPort = 0;
  private redis?: Child;
  private nginx?: Child;
  private readonly settings: Required<ClusterOptions>;

  constructor(options: ClusterOptions = {}) {
    this.settings = {
      processes: 4,
      rateLimitMax: 100,
      rateLimitWindowMs: 60_000,
      upstreamKeepaliveTimeout: 2,
      failTimeout: 5,
      drainTimeoutMs: 4000,
      log: (line) => console.log(line),
      ...options,
    };
  }

  get url(): string {
    return `http://127.0.0.1:${this.nginxPort}`;
  }

  async start(): Promise<void> {
    const { log, processes } = this.settings;
    const binaries = ensurePackages(log);
    try {
      const ports = await freePorts(processes + 2);
      this.redisPort = ports[0] as number;
      this.nginxPort = ports[1] as number;
      this.redis = await startRedis(binaries.redis, this.dir, this.redisPort);
      log(`redis on 127.0.0.1:${this.redisPort}`);
      const slots = ports.slice(2);
      await Promise.all(slots.map((port, slot) => this.spawn(slot, port, 0)));
      log(`${processes} processes on ${slots.map((port) => `127.0.0.1:${port}`).join(', ')}`);
      this.nginx = await startNginx(binaries.nginx, {
        dir: this.dir,
        port: this.nginxPort,
        upstreams: slots,
        upstreamKeepaliveTimeout: this.settings.upstreamKeepaliveTimeout,
        failTimeout: this.settings.failTimeout,
      });
      log(`nginx on ${this.url} (config, logs and temp files in ${this.dir})`);
    } catch (error) {
      await this.stop({ keepDir: true });
      throw error;
    }
  }

  private async spawn(slot: number, port: number, generation: number): Promise<Instance> {
    const name = `app${slot}.${generation}`;
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: `redis://127.0.0.1:${this.redisPort}`,
      ADMIN_KEY: this.adminKey,
      INSTANCE: name,
      RATE_LIMIT_MAX: String(this.settings.rateLimitMax),
      RATE_LIMIT_WINDOW_MS: String(this.settings.rateLimitWindowMs),
      DRAIN_TIMEOUT_MS: String(this.settings.drainTimeoutMs),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    };
    const child = start(name, process.execPath, ['--import', 'tsx', serverFile], { cwd: root, env, log: join(this.dir, `${name}.log`) });
    const instance = { slot, port, generation, name, child };
    this.instances[slot] = instance;
    await this.waitReady(instance, 20_000);
    return instance;
  }

  /** Polls the process's own /health/ready (not through nginx) on fresh connections. */
  async waitReady(instance: Instance, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!running(instance.child)) throw new Error(`${instance.name} exited while starting:\n${tail(instance.child)}`);
      const status = await probe(instance.port, '/health/ready');
      if (status === 200) return;
      await sleep(50);
    }
    throw new Error(`${instance.name} not ready within ${timeoutMs} ms:\n${tail(instance.child)}`);
  }

  /** SIGTERM to one process, check it exits 0 in time, start its replacement on the same port. */
  async restart(slot: number): Promise<{ old: Instance; fresh: Instance; stopMs: number; startMs: number }> {
    const old = this.instances[slot];
    if (old === undefined) throw new Error(`no process in slot ${slot}`);
    const began = Date.now();
    const exit = await stop(old.child, 'SIGTERM', this.settings.drainTimeoutMs + 10_000);
    if (exit.code !== 0) throw new Error(`${old.name} exited with ${exit.code ?? exit.signal} after SIGTERM:\n${tail(old.child)}`);
    const stopMs = Date.now() - began;
    const fresh = await this.spawn(slot, old.port, old.generation + 1);
    return { old, fresh, stopMs, startMs: Date.now() - began - stopMs };
  }

  /** Stops nginx, every process, then Redis; each by its own pid, each wait bounded. */
  async stop(options: { keepDir?: boolean } = {}): Promise<void> {
    const errors: unknown[] = [];
    const attempt = (promise: Promise<unknown>) => promise.catch((error) => errors.push(error));
    if (this.nginx) await attempt(stop(this.nginx, 'SIGQUIT', 10_000));
    await Promise.all(this.instances.map((instance) => attempt(stop(instance.child, 'SIGTERM', this.settings.drainTimeoutMs + 10_000))));
    if (this.redis) await attempt(stop(this.redis, 'SIGTERM', 10_000));
    if (!options.keepDir && errors.length === 0) rmSync(this.dir, { recursive: true, force: true });
    if (errors.length > 0) throw new AggregateError(errors, `stopping the cluster: ${errors.length} problem(s); files kept in ${this.dir}`);
  }
}
