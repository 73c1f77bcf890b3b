// Health routes and the drain that precedes close(). Behind nginx (whose open-source build has
// no active health checks) the only safe way to take a process out of rotation is to make nginx
// stop choosing it, then wait until nginx has let go of every connection, and only then close:
// a connection the server closes while nginx reuses it fails the request nginx just wrote, and
// nginx retries only idempotent requests.
import type { Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import plugin from '@enclavejs/plugin';
import type { EnclaveInstance } from 'enclavejs';

/** Whether this process still takes new work; read by the routes, set when shutdown starts. */
export interface Readiness {
  draining: boolean;
}

/** Methods nginx may send again to another process (RFC 9110 §9.2.2 minus the unsafe ones). */
const retriable = new Set(['GET', 'HEAD', 'OPTIONS']);

const unavailable = { statusCode: 503, error: 'Service Unavailable', message: 'This process is shutting down' };

/**
 * `/health/live` (200 while the process serves) and `/health/ready` (503 from the moment a
 * drain or close() begins). While draining, every answer carries `Connection: close`, so nginx
 * drops each connection after its current request instead of keeping it; a retriable request
 * other than a health probe gets a 503, which nginx (with `proxy_next_upstream http_503` and
 * `max_fails=1`) answers from another process and takes as the signal to stop choosing this
 * one. Anything else, a POST included, is served as usual: nginx would not retry it.
 */
export const health = plugin(
  async (app: EnclaveInstance, options: { readiness: Readiness }) => {
    const { readiness } = options;
    // Probes are never rate-limited: a balancer polling often must not lock itself out.
    const probe = { config: { rateLimit: false } };
    app.get('/health/live', probe, async () => ({ status: 'ok' }));
    app.get('/health/ready', probe, async (_request, reply) => (readiness.draining ? reply.code(503).send({ status: 'draining' }) : { status: 'ready' }));
    // close() called by anything else than the signal handler still turns readiness off first.
    app.addHook('preClose', async () => {
      readiness.draining = true;
    });
    app.addHook('onRequest', async (request, reply) => {
      if (!readiness.draining) return;
      reply.header('connection', 'close');
      if (retriable.has(request.method) && !request.url.startsWith('/health/')) {
        return reply.code(503).header('retry-after', '1').send(unavailable);
      }
    });
  },
  { name: 'cluster-health' },
);

/** Open connections of a server, keep-alive ones included. */
function connectionCount(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/**
 * Turns readiness off and waits until no connection is open, or `timeoutMs` passed. Idle
 * keep-alive connections end when nginx's upstream `keepalive_timeout` closes them, so the
 * drain takes about that long; give it a timeout above it. Resolves with whether it drained.
 */
export async function drain(app: EnclaveInstance, readiness: Readiness, timeoutMs: number): Promise<boolean> {
  readiness.draining = true;
  const server = app.server as unknown as Server;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await connectionCount(server)) === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(20);
  }
}
