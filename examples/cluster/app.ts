// One process of the cluster: the Bookshelf API behind health routes and a rate limit whose
// counters live in Redis, so that a client's limit is the same whichever process answers.
import type { IncomingHttpHeaders } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import enclave, { type EnclaveInstance, type EnclaveOptions } from 'enclavejs';
import type { Redis } from 'ioredis';
import { bookshelf } from '../bookshelf/app.js';
import { health, type Readiness } from './health.js';

export interface ClusterAppOptions {
  adminKey: string;
  /** A connected (or connecting) ioredis client; the application quits it on close. */
  redis: Redis;
  /** Requests per client and window. */
  rateLimitMax: number;
  /** The window, in milliseconds. */
  rateLimitWindow: number;
  /** Names this process in an `x-instance` response header, so a test sees who answered. */
  instance: string;
  logger?: EnclaveOptions['logger'];
}

/**
 * A client is its API key when it sends one, else its address (the client's own, taken from
 * nginx's X-Forwarded-For: `trustProxy` trusts the loopback proxy). The example does not check
 * the key; a real service would key the limit on an authenticated principal.
 */
function clientKey(request: { headers: IncomingHttpHeaders; ip: string }): string {
  const key = request.headers['x-api-key'];
  return typeof key === 'string' && key !== '' ? `key:${key}` : `ip:${request.ip}`;
}

export function buildClusterApp(options: ClusterAppOptions): { app: EnclaveInstance; readiness: Readiness } {
  const readiness: Readiness = { draining: false };
  const app = enclave({ logger: options.logger ?? false, trustProxy: 'loopback' });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-instance', options.instance);
  });
  app.register(health, { readiness });
  app.register(rateLimit, {
    max: options.rateLimitMax,
    timeWindow: options.rateLimitWindow,
    keyGenerator: clientKey,
    redis: options.redis,
    nameSpace: 'bookshelf-rate-limit:',
    // Redis down means no limit rather than no service; the error is logged.
    skipOnError: true,
  });
  app.register(bookshelf, { adminKey: options.adminKey });
  app.addHook('onClose', async () => {
    // QUIT waits for Redis; a client still reconnecting would queue it, so it is cut instead.
    if (options.redis.status === 'ready') await options.redis.quit();
    else options.redis.disconnect();
  });
  return { app, readiness };
}
