// One boot measurement in a fresh process: `node --expose-gc boot-app.mjs <framework> <variant> <routes>`.
// Builds an app of <routes> POST routes with body and response schemas, awaits ready(), and
// prints one JSON line: time from the start of app building to ready() resolved, time from
// process start to ready(), RSS after ready, heap used after a forced GC.
import { performance } from 'node:perf_hooks';
import { createUser, userBodySchema, userResponseSchema } from './scenarios.mjs';

const [framework, variant, routeCount = '1000'] = process.argv.slice(2);
const routes = Number(routeCount);
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');

const importStart = performance.now();
const factory = (await import(framework === 'enclave' ? 'enclavejs' : 'fastify')).default;
const importEnd = performance.now();

// A distinct schema per route: same shape as scenario B plus a field only this route has, built
// fresh, so no cache keyed by identity or by content can share work between routes.
function distinctSchemas(index) {
  const extra = `field${index}`;
  return {
    body: {
      ...userBodySchema,
      properties: { ...userBodySchema.properties, [extra]: { type: 'string', maxLength: 64 } },
    },
    response: {
      201: { ...userResponseSchema, properties: { ...userResponseSchema.properties, [extra]: { type: 'string' } } },
    },
  };
}

const variants = {
  distinct: (_app) => distinctSchemas,
  'shared-ref': (app) => {
    app.addSchema({ $id: 'userBody', ...userBodySchema });
    app.addSchema({ $id: 'userResponse', ...userResponseSchema });
    return () => ({ body: { $ref: 'userBody#' }, response: { 201: { $ref: 'userResponse#' } } });
  },
  'same-object': (_app) => {
    const schema = { body: userBodySchema, response: { 201: userResponseSchema } };
    return () => schema;
  },
};
if (!variants[variant]) throw new Error(`unknown variant ${variant}`);

async function handler(request, reply) {
  reply.code(201);
  return createUser(request.body);
}

const buildStart = performance.now();
// CPU time as well as wall time: on a shared machine a descheduled process loses wall time that
// says nothing about the framework.
const cpuStart = process.cpuUsage();
const app = factory({ logger: false });
const schemaFor = variants[variant](app);
for (let index = 0; index < routes; index++) {
  app.post(`/r${index}`, { schema: schemaFor(index) }, handler);
}
await app.ready();
const readyAt = performance.now();
const cpuUsed = process.cpuUsage(cpuStart);
const rss = process.memoryUsage().rss;
// bench:boot-instructions --to-ready: the process ends as ready() resolves, so its instruction
// count is the boot's alone (no forced GC, request or close() after it). Work an application
// leaves for after ready() (the schema cache's write) is then not done at all.
if (process.env.BOOT_EXIT_AT_READY === '1') process.exit(0);
globalThis.gc();
globalThis.gc();
const heapUsed = process.memoryUsage().heapUsed;

// Not timed into boot: prove the last route works, and how long its first request takes (a
// framework that compiled lazily would pay here instead).
const injectStart = performance.now();
const response = await app.inject({
  method: 'POST',
  url: `/r${routes - 1}`,
  payload: { name: 'Ada', email: 'ada@example.com', age: 36 },
});
const firstInjectMs = performance.now() - injectStart;
if (response.statusCode !== 201 || JSON.parse(response.body).secret !== undefined) {
  throw new Error(`route /r${routes - 1} answered ${response.statusCode} ${response.body}`);
}
await app.close();

process.stdout.write(
  `${JSON.stringify({
    framework,
    variant,
    routes,
    importMs: importEnd - importStart,
    buildToReadyMs: readyAt - buildStart,
    buildToReadyCpuMs: (cpuUsed.user + cpuUsed.system) / 1000,
    processToReadyMs: readyAt,
    rss,
    heapUsed,
    firstInjectMs,
  })}\n`,
);
