// A Fastify application written the way Fastify's documentation shows: a plugin wrapped by
// fastify-plugin, shared schemas, hooks, an error handler and a not-found handler. It imports
// no framework at runtime: `build` receives the factory, so the very same file runs on
// Fastify and on Enclave (see server.ts and from-fastify.test.ts).
import type Fastify from 'fastify';
import type { FastifyError, FastifyInstance } from 'fastify';
import authPlugin from './plugins/auth.js';
import storePlugin from './plugins/store.js';
import todoRoutes from './routes/todos.js';
import { errorSchema, todoInputSchema, todoSchema } from './schemas.js';

export async function build(fastify: typeof Fastify): Promise<FastifyInstance> {
  const app = fastify({ logger: false });

  app.addSchema(todoSchema);
  app.addSchema(todoInputSchema);
  app.addSchema(errorSchema);

  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push(`${method} ${route.url}`);
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-api-version', '1');
    return payload;
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      return reply.code(422).send({
        error: `invalid ${error.validationContext}`,
        details: error.validation.map((issue) => `${issue.instancePath || '/'} ${issue.message}`),
      });
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 500) {
      request.log.error(error);
      return reply.code(statusCode).send({ error: 'internal error' });
    }
    // Framework errors are identified by their code (FST_ERR_…); the application's own by message.
    return reply.code(statusCode).send({ error: error.code ?? error.message });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `no route for ${request.method} ${request.url}` });
  });

  await app.register(storePlugin, { seed: [{ title: 'read the docs', done: true, tags: ['learning'] }] });
  await app.register(authPlugin, { keys: { 'key-ada': 'ada' } });
  await app.register(todoRoutes, { prefix: '/todos' });

  app.get('/whoami', { onRequest: [app.authenticate] }, async (request) => ({ user: request.user }));
  app.get('/routes', async () => [...routes].sort());
  app.get('/health', async () => ({ status: 'ok', todos: app.store.list().length }));

  return app;
}
