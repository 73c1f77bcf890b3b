// A strict TypeScript application as a Fastify user writes it, with twelve @fastify plugins:
// their options, their decorators, rate-limit's route config, websocket's route option and socket
// handler, a plugin typed with Fastify's type names, and a `declare module` block of the user's
// own (plugin-types.test.ts type-checks it). `from` is the module the application imports:
// 'enclavejs', or 'fastify' for an app left unchanged under the npm alias. The lines under
// `// @ts-expect-error` must be refused: wrong and missing plugin options and misspelt plugin
// decorators; were they accepted, the directive itself would be an error.

/** The plugins the application registers, by package name. */
export const pluginPackages = [
  '@fastify/cors',
  '@fastify/helmet',
  '@fastify/rate-limit',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@fastify/jwt',
  '@fastify/cookie',
  '@fastify/autoload',
  '@fastify/websocket',
  '@fastify/multipart',
  '@fastify/static',
  '@fastify/sensible',
];

/** The files of the application's `src/`, by path. */
export function pluginApp(from: string): Record<string, string> {
  const factory = from === 'fastify' ? 'Fastify' : 'enclave';
  return {
    'src/app.ts': `import { join } from 'node:path';
import autoload from '@fastify/autoload';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import jwt from '@fastify/jwt';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import sensible from '@fastify/sensible';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import ${factory}, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from '${from}';

declare module '${from}' {
  interface FastifyInstance {
    settings: { greeting: string };
  }
}

const here = import.meta.dirname;
export const app = ${factory}({ logger: false });
app.decorate('settings', { greeting: 'hello' });

await app.register(cors, { origin: ['https://example.com'], credentials: true });
await app.register(helmet, { contentSecurityPolicy: false, global: true });
await app.register(rateLimit, { max: 100, timeWindow: '1 minute' });
await app.register(swagger, { openapi: { info: { title: 'Books', version: '1.0.0' } } });
await app.register(swaggerUi, { routePrefix: '/docs' });
await app.register(jwt, { secret: 'a-long-enough-secret' });
await app.register(cookie, { secret: 'cookie-secret', parseOptions: { httpOnly: true } });
await app.register(multipart, { limits: { fileSize: 1_000_000 } });
await app.register(fastifyStatic, { root: join(here, 'public'), prefix: '/public/' });
await app.register(sensible);
await app.register(websocket, { options: { maxPayload: 1_048_576 } });
await app.register(autoload, { dir: join(here, 'routes'), options: { prefix: '/api' } });

app.post('/login', async (request: FastifyRequest, reply: FastifyReply) => {
  const token = app.jwt.sign({ sub: 'user-1' });
  reply.setCookie('token', token, { path: '/', sameSite: 'strict' });
  return { token, cookies: request.cookies };
});

app.get('/me', { config: { rateLimit: { max: 5 } } }, async (request) => {
  await request.jwtVerify();
  return { user: request.user, greeting: app.settings.greeting };
});

app.post('/upload', async (request, reply) => {
  const file = await request.file();
  if (!file) throw app.httpErrors.badRequest('no file');
  return reply.code(201).send({ name: file.filename, type: file.mimetype });
});

app.get('/', (_request, reply) => reply.sendFile('index.html'));

export const documented: unknown = app.swagger();

// Code written against Fastify's type names keeps compiling.
const notes: FastifyPluginAsync<{ prefix: string }> = async (instance: FastifyInstance, options) => {
  instance.get('/', async (_request: FastifyRequest, reply: FastifyReply) => reply.send({ prefix: options.prefix }));
};
await app.register(notes, { prefix: '/notes' });

app.get('/missing', async () => {
  throw app.httpErrors.notFound('no such book');
});

app.get('/echo', { websocket: true }, (socket, request) => {
  socket.on('message', (message: Buffer) => socket.send(\`\${request.url}: \${message.toString()}\`));
});

// @ts-expect-error a wrong option: cors's origin is no number
await app.register(cors, { origin: 42 });
// @ts-expect-error a missing option: jwt requires a secret
await app.register(jwt, { sign: { expiresIn: '1h' } });
// @ts-expect-error a wrong option: rate-limit's timeWindow is a number or a string
await app.register(rateLimit, { timeWindow: { minutes: 1 } });
// @ts-expect-error a misspelt decorator: the plugin adds app.jwt
app.jtw.sign({ sub: 'user-1' });
app.get('/typo', async (_request, reply) => {
  // @ts-expect-error a misspelt decorator: the plugin adds reply.setCookie
  reply.setCokie('token', 'value');
  return 'ok';
});

await app.ready();
`,
    'src/routes/books.ts': `import type { FastifyPluginAsync } from '${from}';

const books: FastifyPluginAsync = async (app) => {
  app.get('/books', async () => [{ title: app.settings.greeting }]);
};

export default books;
`,
  };
}
