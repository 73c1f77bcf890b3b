// One Bookshelf process of the cluster. Configured by the environment:
//   PORT, HOST (127.0.0.1), REDIS_URL (redis://127.0.0.1:6379), ADMIN_KEY (required),
//   RATE_LIMIT_MAX (100), RATE_LIMIT_WINDOW_MS (60000), INSTANCE (a name for x-instance),
//   DRAIN_TIMEOUT_MS (4000; 0 closes at once), LOG_LEVEL (info).
// On SIGTERM or SIGINT: drain (readiness off, nginx lets go of its connections), close (stop
// listening, finish in-flight requests, quit Redis), exit 0; exit 1 if that fails or overruns.
import { Redis } from 'ioredis';
import { buildClusterApp } from './app.js';
import { drain } from './health.js';

function numberFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

const adminKey = process.env.ADMIN_KEY;
if (adminKey === undefined || adminKey === '') throw new Error('ADMIN_KEY is required: every process must accept the same key');
const port = numberFromEnv('PORT', 3000);
const drainTimeout = numberFromEnv('DRAIN_TIMEOUT_MS', 4000);
// Kubernetes waits 30 s by default before SIGKILL; exit on our own a little earlier.
const shutdownDeadline = numberFromEnv('SHUTDOWN_DEADLINE_MS', 25_000);

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  // A request must not hang on Redis: fail fast and let the limiter skip (skipOnError).
  maxRetriesPerRequest: 1,
  connectTimeout: 2000,
});
redis.on('error', (error) => app.log.warn({ err: error }, 'redis'));

const { app, readiness } = buildClusterApp({
  adminKey,
  redis,
  rateLimitMax: numberFromEnv('RATE_LIMIT_MAX', 100),
  rateLimitWindow: numberFromEnv('RATE_LIMIT_WINDOW_MS', 60_000),
  instance: process.env.INSTANCE ?? `pid-${process.pid}`,
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
});

await app.listen({ port, host: process.env.HOST ?? '127.0.0.1' });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  setTimeout(() => {
    app.log.error('shutdown overran its deadline, exiting');
    process.exit(1);
  }, shutdownDeadline).unref();
  try {
    const started = Date.now();
    const drained = drainTimeout > 0 ? await drain(app, readiness, drainTimeout) : false;
    app.log.info({ signal, drained, ms: Date.now() - started }, 'drained, closing');
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal));
