// nginx and Redis, Debian's packages, run as our own children on 127.0.0.1 with everything
// (config, pid file, logs, temp paths, data) in one temporary directory: the system's
// /etc/nginx sites and Redis service are neither used nor touched.
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Child, findBinary, start, tail, waitForPort } from './processes.js';

/** Installs nginx and redis-server with apt-get when missing (needs root, as in a container). */
export function ensurePackages(log: (line: string) => void): { nginx: string; redis: string } {
  let nginx = findBinary('nginx');
  let redis = findBinary('redis-server');
  const missing = [nginx === undefined && 'nginx', redis === undefined && 'redis-server'].filter((name) => name !== false);
  if (missing.length > 0) {
    if (process.getuid?.() !== 0) throw new Error(`${missing.join(' and ')} missing: run apt-get install ${missing.join(' ')} as root`);
    log(`installing ${missing.join(', ')} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]]) {
      const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
      if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    }
    nginx = findBinary('nginx');
    redis = findBinary('redis-server');
    if (nginx === undefined || redis === undefined) throw new Error('apt-get succeeded but nginx or redis-server is still missing');
  }
  return { nginx: nginx as string, redis: redis as string };
}

export async function startRedis(binary: string, dir: string, port: number): Promise<Child> {
  const child = start(
    'redis',
    binary,
    ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes'],
    { log: join(dir, 'redis.log') },
  );
  await waitForPort(port, 10_000, child);
  return child;
}

export interface NginxSettings {
  dir: string;
  port: number;
  upstreams: number[];
  /** Seconds nginx keeps an idle connection to a process; the drain waits about this long. */
  upstreamKeepaliveTimeout: number;
  /** Seconds nginx leaves a process alone after a failure (connection refused, a 503). */
  failTimeout: number;
}

/** The generated nginx.conf: the recipe docs/deploying.md explains line by line. */
export function nginxConfig(settings: NginxSettings): string {
  const { dir } = settings;
  const servers = settings.upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=${settings.failTimeout}s;`).join('\n');
  return `worker_processes 2;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  log_format upstreams '$request_method $uri $status "$upstream_addr" "$upstream_status" $request_time';
  access_log ${dir}/nginx-access.log upstreams;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  upstream bookshelf {
    zone bookshelf 64k;
${servers}
    keepalive 32;
    keepalive_timeout ${settings.upstreamKeepaliveTimeout}s;
    keepalive_requests 1000;
  }

  server {
    listen 127.0.0.1:${settings.port};
    location / {
      proxy_pass http://bookshelf;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_503;
      proxy_next_upstream_tries ${settings.upstreams.length};
      proxy_next_upstream_timeout 10s;
      proxy_connect_timeout 2s;
    }
  }
}
`;
}

export async function startNginx(binary: string, settings: NginxSettings): Promise<Child> {
  const config = join(settings.dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(settings));
  // Worker processes run as an unprivileged user when nginx starts as root: let them in.
  chmodSync(settings.dir, 0o755);
  const args = ['-p', settings.dir, '-c', config, '-e', join(settings.dir, 'nginx-error.log')];
  const check = spawnSync(binary, [...args, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the generated config:\n${check.stderr}`);
  const child = start('nginx', binary, args, { log: join(settings.dir, 'nginx.out') });
  try {
    await waitForPort(settings.port, 10_000, child);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${tail(child)}`);
  }
  return child;
}
