// The Bookshelf API: a public scope to browse books, an admin scope (bearer token) to change
// them. buildApp() is what the server and the tests both start from.
import bearerAuth from '@enclavejs/bearer-auth';
import enclave, { type EnclaveInstance, type EnclaveOptions } from 'enclavejs';
import { type Book, Bookshelf, type NewBook } from './books.js';
import { problemDetails } from './problem-details.js';
import { bookPatchSchema, bookSchema, idParamsSchema, newBookSchema } from './schemas.js';

export interface BookshelfOptions {
  adminKey: string;
  logger?: EnclaveOptions['logger'];
}

const bookRef = { $ref: `${bookSchema.$id}#` };

const listQuery = {
  type: 'object',
  properties: {
    author: { type: 'string', maxLength: 100 },
    tag: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    q: { type: 'string', maxLength: 100 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { type: 'integer', minimum: 0, default: 0 },
  },
} as const;

interface ListQuery {
  author?: string;
  tag?: string[];
  q?: string;
  limit: number;
  offset: number;
}

async function publicRoutes(app: EnclaveInstance) {
  const shelf = app.getDecorator<Bookshelf>('bookshelf');
  app.get<{ Querystring: ListQuery }>(
    '/',
    {
      schema: {
        querystring: listQuery,
        response: { 200: { type: 'object', properties: { count: { type: 'integer' }, items: { type: 'array', items: bookRef } } } },
      },
    },
    async (request) => {
      const items = shelf.list(request.query);
      return { count: items.length, items };
    },
  );
  app.get<{ Params: { id: number } }>(
    '/:id',
    { schema: { params: { $ref: `${idParamsSchema.$id}#` }, response: { 200: bookRef } } },
    async (request, reply) => {
      const book = shelf.get(request.params.id);
      if (book === undefined) return reply.code(404).send(new NotFound(`No book with id ${request.params.id}`));
      return book;
    },
  );
}

async function adminRoutes(app: EnclaveInstance, options: { adminKey: string }) {
  const shelf = app.getDecorator<Bookshelf>('bookshelf');
  await app.register(bearerAuth, { keys: [options.adminKey] });
  app.post<{ Body: NewBook; Reply: Book }>('/', { schema: { body: { $ref: `${newBookSchema.$id}#` }, response: { 201: bookRef } } }, async (request, reply) =>
    reply.code(201).send(shelf.add(request.body)),
  );
  app.patch<{ Params: { id: number }; Body: Partial<NewBook> }>(
    '/:id',
    {
      schema: {
        params: { $ref: `${idParamsSchema.$id}#` },
        body: bookPatchSchema,
        response: { 200: bookRef },
      },
    },
    async (request, reply) => {
      const book = shelf.update(request.params.id, request.body);
      return book ?? reply.code(404).send(new NotFound(`No book with id ${request.params.id}`));
    },
  );
  app.delete<{ Params: { id: number } }>('/:id', { schema: { params: { $ref: `${idParamsSchema.$id}#` } } }, async (request, reply) => {
    if (!shelf.remove(request.params.id)) return reply.code(404).send(new NotFound(`No book with id ${request.params.id}`));
    return reply.code(204).send();
  });
}

class NotFound extends Error {
  readonly statusCode = 404;
  readonly code = 'BOOK_NOT_FOUND';
}

/**
 * The whole API as one plugin: schemas, error answers and routes. buildApp() mounts it on a
 * fresh instance; the cluster example mounts it after its health routes and Redis rate limit.
 */
export async function bookshelf(app: EnclaveInstance, options: { adminKey: string }) {
  app.decorate('bookshelf', new Bookshelf());
  app.addSchema(bookSchema);
  app.addSchema(newBookSchema);
  app.addSchema(idParamsSchema);
  app.setErrorHandler(problemDetails);
  app.get('/health', async () => ({ status: 'ok' }));
  app.register(publicRoutes, { prefix: '/books' });
  app.register(adminRoutes, { prefix: '/admin/books', adminKey: options.adminKey });
}

/** Builds the application; nothing listens until the caller says so. */
export function buildApp(options: BookshelfOptions): EnclaveInstance {
  const app = enclave({ logger: options.logger ?? false });
  app.register(bookshelf, { adminKey: options.adminKey });
  return app;
}
