// A warm start of the Bookshelf from a schema cache, watched (build-step.test.ts): which code is
// still generated from strings (`new Function`), whether Ajv or fast-json-stringify was loaded,
// and what two requests answer. Prints one JSON line.
import { createRequire } from 'node:module';

const generatedBy: string[] = [];
const original = globalThis.Function;
globalThis.Function = new Proxy(original, {
  construct(target, args) {
    // The frame that called `new Function`: the second line of a stack below this handler.
    const caller = new Error().stack?.split('\n')[2]?.trim() ?? 'unknown';
    generatedBy.push(caller);
    return Reflect.construct(target, args);
  },
});

const { buildApp } = await import('./app.js');
const adminKey = 'probe-admin-key-0123456789';
const app = buildApp({ adminKey, logger: { level: 'warn' } });
await app.ready();
const list = await app.inject({ url: '/books?tag=classic&limit=1' });
const created = await app.inject({
  method: 'POST',
  url: '/admin/books',
  headers: { authorization: `Bearer ${adminKey}` },
  payload: { title: 'Dune', author: 'Frank Herbert', year: '1965', tags: ['sf'] },
});
const refused = await app.inject({ url: '/books?limit=0' });
await app.close();

// The compilers themselves (their small runtime helpers are what cached code loads).
const loaded = new Set(Object.keys(createRequire(import.meta.url).cache));
const loads = (file: string) => [...loaded].some((path) => path.endsWith(`/node_modules/${file}`));
process.stdout.write(
  `${JSON.stringify({
    generatedBy,
    ajv: loads('ajv/dist/core.js'),
    fastJsonStringify: loads('fast-json-stringify/index.js'),
    answers: [list, created, refused].map((response) => ({ status: response.statusCode, body: response.json() })),
  })}\n`,
);
