// A small notes service built from real Fastify ecosystem plugins, unmodified, on Enclave:
// helmet and cors on every response, compression, a rate limit, a login form (formbody) that
// sets a signed session cookie, notes with attachments (multipart), HTTP errors from
// sensible, static files, and an OpenAPI document from swagger.
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import sensible from '@fastify/sensible';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import enclave from 'enclavejs';

export interface NotesOptions {
  /** Signs the session cookie. */
  cookieSecret: string;
  /** Origins allowed to call the API from a browser. */
  allowedOrigins: string[];
  /** Requests per minute and client. */
  rateLimitMax?: number;
}

interface Note {
  id: number;
  owner: string;
  text: string;
  attachment?: { filename: string; size: number };
}

const noteSchema = {
  $id: 'Note',
  type: 'object',
  required: ['id', 'text'],
  properties: {
    id: { type: 'integer' },
    text: { type: 'string' },
    attachment: { type: 'object', properties: { filename: { type: 'string' }, size: { type: 'integer' } } },
  },
} as const;

export async function buildNotesApp(options: NotesOptions) {
  // Plugin decorators (setCookie, httpErrors, file…) are not part of Enclave's types, hence `any`.
  const app: any = enclave();

  await app.register(swagger, { openapi: { info: { title: 'Notes', version: '1.0.0' } } });
  await app.register(helmet);
  await app.register(cors, { origin: options.allowedOrigins, credentials: true });
  await app.register(compress, { threshold: 512 });
  await app.register(rateLimit, { max: options.rateLimitMax ?? 100, timeWindow: '1 minute' });
  await app.register(sensible);
  await app.register(cookie, { secret: options.cookieSecret });
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 1024 * 1024, files: 1 } });
  await app.register(fastifyStatic, { root: fileURLToPath(new URL('./public/', import.meta.url)), prefix: '/static/' });

  app.addSchema(noteSchema);
  const notes: Note[] = [];

  /** The signed session cookie names the user; anything else is a 401. */
  function currentUser(request: any): string {
    const session = request.cookies.session;
    const unsigned = session === undefined ? null : request.unsignCookie(session);
    if (unsigned === null || !unsigned.valid) throw app.httpErrors.unauthorized('log in first');
    return unsigned.value;
  }

  app.get('/', { schema: { hide: true } }, (_request: any, reply: any) => reply.sendFile('index.html'));

  app.post(
    '/login',
    { schema: { body: { type: 'object', required: ['user'], properties: { user: { type: 'string', pattern: '^[a-z]{2,20}$' } } } } },
    async (request: any, reply: any) => {
      reply.setCookie('session', request.body.user, { signed: true, httpOnly: true, sameSite: 'lax', path: '/' });
      return { user: request.body.user };
    },
  );

  app.get('/notes', { schema: { response: { 200: { type: 'array', items: { $ref: 'Note#' } } } } }, async (request: any) => {
    const user = currentUser(request);
    return notes.filter((note) => note.owner === user);
  });

  app.post('/notes', { schema: { response: { 201: { $ref: 'Note#' } } } }, async (request: any, reply: any) => {
    const user = currentUser(request);
    if (!request.isMultipart()) throw app.httpErrors.unsupportedMediaType('send multipart/form-data');
    let text = '';
    let attachment: Note['attachment'];
    for await (const part of request.parts()) {
      if (part.type === 'file') attachment = { filename: part.filename, size: (await part.toBuffer()).length };
      else if (part.fieldname === 'text') text = String(part.value);
    }
    if (text === '') throw app.httpErrors.badRequest('a note needs text');
    const note: Note = { id: notes.length + 1, owner: user, text, ...(attachment ? { attachment } : {}) };
    notes.push(note);
    return reply.code(201).send(note);
  });

  app.get(
    '/notes/:id',
    { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } }, response: { 200: { $ref: 'Note#' } } } },
    async (request: any) => {
      const user = currentUser(request);
      const note = notes.find((candidate) => candidate.id === request.params.id && candidate.owner === user);
      return note ?? app.httpErrors.notFound(`no note ${request.params.id}`);
    },
  );

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  return app;
}
