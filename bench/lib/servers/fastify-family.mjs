// Enclave's API is Fastify's, so both servers are built by this one function from the same
// route definitions: whatever differs in the numbers is the framework, not the benchmark code.
import { createUser, DEPTH, deepPrefixes, itemParamsSchema, itemQuerySchema, itemResponseSchema, userBodySchema, userResponseSchema } from '../scenarios.mjs';

function routesA(app) {
  app.get('/', async () => ({ hello: 'world' }));
}

function routesB(app) {
  app.post('/users', { schema: { body: userBodySchema, response: { 201: userResponseSchema } } }, async (request, reply) => {
    reply.code(201);
    return createUser(request.body);
  });
}

function routesC(app) {
  app.get('/items/:id', { schema: { params: itemParamsSchema, querystring: itemQuerySchema, response: { 200: itemResponseSchema } } }, async (request) => ({
    id: request.params.id,
    limit: request.query.limit,
    tags: request.query.tags,
  }));
}

// Five plugin contexts, each registered under a prefix inside the previous one and adding an
// onRequest, a preHandler and an onSend hook; the one route lives in the innermost context.
function routesD(app) {
  app.decorateRequest('hooks', 0);
  const level = (depth) => async (instance) => {
    instance.addHook('onRequest', async (request) => {
      request.hooks++;
    });
    instance.addHook('preHandler', async (request) => {
      request.hooks++;
    });
    instance.addHook('onSend', async (_request, _reply, payload) => payload);
    if (depth + 1 < DEPTH) instance.register(level(depth + 1), { prefix: deepPrefixes[depth + 1] });
    else instance.get('/deep', async (request) => ({ hello: 'world', hooks: request.hooks }));
  };
  app.register(level(0), { prefix: deepPrefixes[0] });
}

const builders = { A: routesA, B: routesB, C: routesC, D: routesD };

/** Builds, readies and listens `factory()` (enclave or fastify) for one scenario. */
export async function startFastifyFamily(factory, scenario, { port = 0, host = '127.0.0.1' } = {}) {
  const app = factory({ logger: false });
  builders[scenario](app);
  await app.listen({ port, host });
  return { port: app.server.address().port, close: () => app.close() };
}
