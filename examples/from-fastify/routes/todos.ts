// The /todos routes: schemas for params, querystring, body and responses, a route-level
// onRequest hook for the writes, and errors with a statusCode for the error handler.
import type { FastifyPluginAsync } from 'fastify';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
} as const;

const listQuery = {
  type: 'object',
  properties: {
    done: { type: 'boolean' },
    tag: { type: 'string' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
  },
} as const;

class ConflictError extends Error {
  statusCode = 409;
}

const todoRoutes: FastifyPluginAsync = async (fastify) => {
  fastify.get<{ Querystring: { done?: boolean; tag?: string; limit: number } }>(
    '/',
    { schema: { querystring: listQuery, response: { 200: { type: 'array', items: { $ref: 'todo#' } } } } },
    async (request) => {
      const { done, tag, limit } = request.query;
      return fastify.store
        .list()
        .filter((todo) => done === undefined || todo.done === done)
        .filter((todo) => tag === undefined || todo.tags.includes(tag))
        .slice(0, limit);
    },
  );

  fastify.get<{ Params: { id: number } }>(
    '/:id',
    { schema: { params: idParams, response: { 200: { $ref: 'todo#' }, 404: { $ref: 'error#' } } } },
    async (request, reply) => {
      const todo = fastify.store.get(request.params.id);
      if (todo === undefined) return reply.code(404).send({ error: `todo ${request.params.id} does not exist` });
      return todo;
    },
  );

  fastify.post<{ Body: { title: string; done: boolean; tags: string[] } }>(
    '/',
    {
      onRequest: [fastify.authenticate],
      schema: { body: { $ref: 'todoInput#' }, response: { 201: { $ref: 'todo#' } } },
    },
    async (request, reply) => {
      if (fastify.store.findByTitle(request.body.title)) throw new ConflictError(`"${request.body.title}" already exists`);
      const todo = fastify.store.add(request.body);
      reply.code(201).header('location', `${fastify.prefix}/${todo.id}`);
      return todo;
    },
  );

  fastify.patch<{ Params: { id: number }; Body: { done: boolean } }>(
    '/:id',
    {
      onRequest: [fastify.authenticate],
      schema: {
        params: idParams,
        body: { type: 'object', required: ['done'], properties: { done: { type: 'boolean' } } },
        response: { 200: { $ref: 'todo#' } },
      },
    },
    async (request, reply) => {
      const todo = fastify.store.update(request.params.id, { done: request.body.done });
      if (todo === undefined) return reply.callNotFound();
      return todo;
    },
  );

  fastify.delete<{ Params: { id: number } }>('/:id', { onRequest: [fastify.authenticate], schema: { params: idParams } }, async (request, reply) => {
    fastify.store.remove(request.params.id);
    return reply.code(204).send();
  });
};

export default todoRoutes;
