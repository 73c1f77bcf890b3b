// A short, faithful version of the README's first application that uses all three packages,
// serves on 127.0.0.1 (port 0), queries itself and prints what it got: as an ES module, as
// CommonJS, and as a CommonJS TypeScript file for the type check (pack.test.ts).

export type ProgramKind = 'esm' | 'cjs' | 'cts';

const imports: Record<ProgramKind, string> = {
  esm: ["import enclave from 'enclavejs';", "import plugin from '@enclavejs/plugin';", "import bearerAuth from '@enclavejs/bearer-auth';"].join('\n'),
  cjs: ["const enclave = require('enclavejs');", "const plugin = require('@enclavejs/plugin');", "const bearerAuth = require('@enclavejs/bearer-auth');"].join(
    '\n',
  ),
  cts: [
    "import enclave = require('enclavejs');",
    "import plugin = require('@enclavejs/plugin');",
    "import bearerAuth = require('@enclavejs/bearer-auth');",
  ].join('\n'),
};

function body(typed: boolean): string {
  const type = (annotation: string) => (typed ? annotation : '');
  return `
const key = 'packed-key';
const app = enclave({ logger: false }).decorate('greeting', 'hello');
app.get('/', async () => ({ message: app.greeting }));
app.register(async (admin) => {
  await admin.register(bearerAuth, { keys: [key] });
  admin.post('/users', {
    schema: {
      body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
      response: { 201: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
    },
  }, async (request, reply) => {${type("\n    // The body's type, inferred from its inline schema through the packed declarations.\n    const name: string = request.body.name;\n    void name;")}
    const user = { id: 1, ...request.body, passwordHash: 'x' };
    return reply.code(201).send(user);
  });
}, { prefix: '/admin' });
await app.register(plugin(async (instance) => { instance.decorate('packedBy', 'npm pack'); }, { name: 'packed-by' }));

const address = await app.listen({ host: '127.0.0.1', port: 0 });
const ask = async (path${type(': string')}, headers${type(': Record<string, string> | undefined')}) => {
  const init = headers && { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"name":"Ada"}' };
  const response = await fetch(address + path, init);
  return response.status + ' ' + (await response.text());
};
console.log(await ask('/', undefined));
console.log(await ask('/admin/users', {}));
console.log(await ask('/admin/users', { authorization: 'Bearer ' + key }));
console.log('packedBy at the root: ' + app.hasDecorator('packedBy'));
await app.close();
`;
}

export function appProgram(kind: ProgramKind): string {
  if (kind === 'esm') return `${imports.esm}\n${body(false)}`;
  // CommonJS has no top-level await.
  const main = `async function main()${kind === 'cts' ? ': Promise<void>' : ''} {${body(kind === 'cts')}}`;
  return `${imports[kind]}\n${main}\nmain().catch((error) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n`;
}

export const expectedAppOutput = [
  '200 {"message":"hello"}',
  '401 {"error":"missing authorization header"}',
  '201 {"id":1,"name":"Ada"}',
  'packedBy at the root: true',
].join('\n');
