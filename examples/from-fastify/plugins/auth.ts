// API-key authentication: decorates the request with `user` and the instance with an
// `authenticate` hook that routes opt into with `onRequest`.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    user: string | null;
  }
}

const authPlugin: FastifyPluginAsync<{ keys: Record<string, string> }> = async (fastify, options) => {
  fastify.decorateRequest('user', null);
  fastify.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['x-api-key'];
    const user = typeof key === 'string' ? options.keys[key] : undefined;
    if (user === undefined) {
      reply.code(401).send({ error: 'a valid x-api-key header is required' });
      return;
    }
    request.user = user;
  });
};

export default fp(authPlugin, { name: 'auth', dependencies: ['todo-store'] });
