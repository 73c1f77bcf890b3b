// Issue 20: an application that replaces `fastify` by Enclave through an npm alias
// (`"fastify": "npm:enclavejs@…"`, docs/migrating-from-fastify.md) and has no Fastify installed
// type-checks with @fastify/cors, rate-limit, swagger and jwt registered: their declarations
// import `fastify` and augment its interfaces, which Enclave's types provide.
//
// The application is built outside the workspace (in the system's temporary directory), where
// no `fastify` but the alias can be found: `npm pack` of the built package unpacked as
// node_modules/fastify, the four plugins copied next to it (a symlink would make TypeScript
// resolve their `fastify` import from the workspace, where the real Fastify is), and the
// packages their declarations and Enclave's need linked in. Then strict `tsc` runs on it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const workspace = fileURLToPath(new URL('../../../../', import.meta.url));
const workspaceModules = join(workspace, 'node_modules');
const plugins = ['cors', 'rate-limit', 'swagger', 'jwt'];
const app = mkdtempSync(join(tmpdir(), 'enclave-fastify-alias-'));
after(() => rmSync(app, { recursive: true, force: true }));

function installAlias(modules: string): void {
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', app, '-w', 'packages/enclave'], {
    cwd: workspace,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop() as string;
  const target = join(modules, 'fastify');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(app, packed), '-C', target, '--strip-components=1']);
}

function linkTheRest(modules: string): void {
  for (const name of readdirSync(workspaceModules)) {
    if (name === 'fastify' || name === '@fastify' || name.startsWith('.') || name === 'enclavejs') continue;
    symlinkSync(join(workspaceModules, name), join(modules, name));
  }
  mkdirSync(join(modules, '@fastify'));
  for (const plugin of plugins) cpSync(join(workspaceModules, '@fastify', plugin), join(modules, '@fastify', plugin), { recursive: true });
}

const source = `import Fastify from 'fastify';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import jwt from '@fastify/jwt';

const app = Fastify();
await app.register(cors, { origin: ['https://app.example'], credentials: true });
await app.register(rateLimit, { max: 100, timeWindow: '1 minute' });
await app.register(swagger, { openapi: { info: { title: 'Notes', version: '1.0.0' } } });
await app.register(jwt, { secret: 'a-secret-long-enough-for-hs256-signing' });
// @ts-expect-error: @fastify/jwt requires a secret, and its options type is checked.
app.register(jwt, { sign: { expiresIn: '1h' } });

// What the plugins add is typed on the application, its requests and replies.
const token: string = app.jwt.sign({ sub: 'ada' });
const documented: unknown = app.swagger();
app.get('/me', { config: { rateLimit: { max: 5 } } }, async (request, reply) => {
  await request.jwtVerify();
  reply.header('x-token-length', String(token.length));
  return { user: request.user };
});

// Code written against Fastify's type names keeps compiling.
const notes: FastifyPluginAsync<{ prefix: string }> = async (instance: FastifyInstance, options) => {
  instance.get('/', async (_request: FastifyRequest, reply: FastifyReply) => reply.send({ prefix: options.prefix }));
};
await app.register(notes, { prefix: '/notes' });
export { documented };
`;

test('strict tsc accepts an app with `fastify` aliased to enclavejs and four @fastify plugins', { timeout: 120_000 }, () => {
  const modules = join(app, 'node_modules');
  mkdirSync(modules);
  installAlias(modules);
  linkTheRest(modules);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'alias-app', private: true, type: 'module' }));
  writeFileSync(join(app, 'app.ts'), source);
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        skipLibCheck: false,
      },
      files: ['app.ts'],
    }),
  );
  let output = '';
  try {
    execFileSync(process.execPath, [join(workspaceModules, 'typescript', 'bin', 'tsc'), '-p', app], { encoding: 'utf8' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  assert.equal(output, '');
});
