// Soak test (SPEC §11; run by hand, never in CI):
//
//   npm run build && node bench/soak.mjs [--duration 60] [--connections 32]
//
// Starts a realistic Enclave app in a child process run with --expose-gc, drives it with a mix of
// valid and invalid traffic from autocannon (in this process), and reports the requests sent,
// non-2xx answers by status, socket errors, and the server's heap after a full GC before and
// after the run. Goals: zero socket errors, heap growth under 5%.
//
// The heap baseline is taken after a short warm-up so that what is measured is growth under
// load, not the first compilation of every code path (JIT code, inline caches, lazy schema
// compilation in Ajv and fast-json-stringify).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    server: { type: 'boolean', default: false },
  },
});

const TOKEN = 'soak-secret-token';

// ── The server (child process) ───────────────────────────────────────────────────────────────

async function startServer() {
  const { default: enclave } = await import('enclavejs');
  const { default: bearerAuth } = await import('@enclavejs/bearer-auth');
  const app = enclave({ bodyLimit: 64 * 1024, keepAliveTimeout: 10_000 });
  const books = new Map();
  let nextId = 1;

  app.addSchema({
    $id: 'book',
    type: 'object',
    required: ['title', 'year'],
    properties: {
      id: { type: 'integer' },
      title: { type: 'string', minLength: 1, maxLength: 200 },
      year: { type: 'integer', minimum: 0, maximum: 3000 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
    },
  });
  // Application-wide hooks, as a real app has (request timing, a response header).
  app.addHook('onRequest', async (request) => {
    request.startedAt = process.hrtime.bigint();
  });
  app.decorateRequest('startedAt', null);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-soak', '1');
    return payload;
  });

  app.get('/health', async () => ({ ok: true }));
  app.post(
    '/books',
    {
      schema: {
        body: { $ref: 'book#' },
        response: { 201: { $ref: 'book#' } },
      },
    },
    async (request, reply) => {
      const book = { ...request.body, id: nextId++ };
      // Keep the store bounded: a soak must not measure its own fixture growing.
      if (books.size >= 100) books.delete(books.keys().next().value);
      books.set(book.id, book);
      reply.code(201);
      return book;
    },
  );
  app.get(
    '/books/:id',
    { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } }, querystring: { fields: { type: 'string' } } } },
    async (request, reply) => books.get(request.params.id) ?? reply.code(404).send({ message: 'no such book' }),
  );
  app.register(
    async (admin) => {
      await admin.register(bearerAuth, { keys: [TOKEN] });
      admin.addHook('preHandler', async (request) => {
        request.log.debug('admin access');
      });
      admin.get('/stats', async () => ({ books: books.size, heap: process.memoryUsage().heapUsed }));
      admin.delete('/books/:id', async (request) => ({ deleted: books.delete(Number(request.params.id)) }));
    },
    { prefix: '/admin' },
  );

  await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', async (message) => {
    if (message === 'heap') {
      // Several passes: finalizers and weak references need more than one cycle to clear.
      for (let pass = 0; pass < 4; pass++) {
        globalThis.gc();
        await new Promise((resolve) => setImmediate(resolve));
      }
      process.send({ heap: process.memoryUsage().heapUsed });
    } else if (message === 'close') {
      await app.close();
      process.exit(0);
    }
  });
  process.send({ port: app.server.address().port });
}

// ── The load (parent process) ────────────────────────────────────────────────────────────────

const json = { 'content-type': 'application/json' };
const validBook = JSON.stringify({ title: 'Soak', year: 2024, tags: ['a', 'b'] });
const hugeBody = JSON.stringify({ title: 'x'.repeat(200 * 1024), year: 1 });

/** The mix, cycled through by every connection: valid requests and every kind of bad input. */
const requestTemplates = [
  { method: 'POST', path: '/books', headers: json, body: validBook },
  { method: 'GET', path: '/books/1?fields=title' },
  { method: 'GET', path: '/health' },
  { method: 'POST', path: '/books', headers: json, body: JSON.stringify({ title: '', year: 'soon' }) }, // invalid → 400
  { method: 'POST', path: '/books', headers: json, body: '{"title": "broken", ' }, // malformed JSON → 400
  { method: 'POST', path: '/books', headers: json, body: '{"__proto__": {"admin": true}}' }, // poisoning → 400
  { method: 'GET', path: '/no/such/route' }, // 404
  { method: 'GET', path: '/books/not-a-number' }, // params coercion fails → 400
  { method: 'POST', path: '/books', headers: json, body: hugeBody }, // over bodyLimit → 413
  { method: 'POST', path: '/books', headers: { 'content-type': 'application/x-evil' }, body: validBook }, // 415
  { method: 'POST', path: '/books', headers: { 'content-type': 'text/plain; content-type="application/json"' }, body: validBook }, // text body vs object schema → 400
  { method: 'GET', path: '/admin/stats', headers: { authorization: `Bearer ${TOKEN}` } },
  { method: 'GET', path: '/admin/stats', headers: { authorization: 'Bearer wrong' } }, // 401
  { method: 'GET', path: '/admin/stats' }, // 401
  { method: 'DELETE', path: '/admin/books/1', headers: { authorization: `Bearer ${TOKEN}` } },
];

function runLoad(port, seconds) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: Number(args.connections),
        duration: seconds,
        requests: requestTemplates,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('reqError', () => {}); // counted in result.errors
  });
}

function ask(child, message, key) {
  child.send(message);
  return new Promise((resolve) => {
    const onMessage = (reply) => {
      if (reply && key in reply) {
        child.off('message', onMessage);
        resolve(reply[key]);
      }
    };
    child.on('message', onMessage);
  });
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

async function main() {
  const child = fork(new URL(import.meta.url).pathname, ['--server'], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  const [first] = await once(child, 'message');
  const port = first.port;
  const heapAtStart = await ask(child, 'heap', 'heap');
  await runLoad(port, Number(args.warmup));
  const heapBefore = await ask(child, 'heap', 'heap');
  console.log(`soak: ${args.duration} s, ${args.connections} connections, ${requestTemplates.length} request templates`);
  const result = await runLoad(port, Number(args.duration));
  const heapAfter = await ask(child, 'heap', 'heap');
  child.send('close');
  await once(child, 'exit');

  const byStatus = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count]));
  const non2xx = Object.fromEntries(Object.entries(byStatus).filter(([status]) => !status.startsWith('2')));
  const growth = (heapAfter - heapBefore) / heapBefore;
  const report = {
    requests: result.requests.total,
    averageRps: Math.round(result.requests.average),
    p99LatencyMs: result.latency.p99,
    byStatus,
    non2xx,
    socketErrors: result.errors,
    timeouts: result.timeouts,
    resets: result.resets,
    heapAtStart: mib(heapAtStart),
    heapBefore: mib(heapBefore),
    heapAfter: mib(heapAfter),
    heapGrowth: `${(growth * 100).toFixed(2)}%`,
  };
  console.log(JSON.stringify(report, null, 2));
  const ok = result.errors === 0 && result.timeouts === 0 && growth < 0.05;
  console.log(ok ? 'PASS: no socket errors, heap growth under 5%' : 'FAIL: see above');
  process.exitCode = ok ? 0 : 1;
}

if (args.server) await startServer();
else await main();
