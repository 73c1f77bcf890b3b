// `npm start`: the Bookshelf API on PORT (default 3000), with a fresh admin key printed once.
import { randomBytes } from 'node:crypto';
import { buildApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const adminKey = process.env.ADMIN_KEY ?? randomBytes(24).toString('base64url');
const app = buildApp({ adminKey, logger: { level: process.env.LOG_LEVEL ?? 'info' } });

const address = await app.listen({ port, host });
console.log(`
Bookshelf is listening at ${address}
Admin key (valid until the server stops): ${adminKey}

Try:
  curl '${address}/books?tag=classic&limit=2'
  curl -X POST ${address}/admin/books -H 'authorization: Bearer ${adminKey}' -H 'content-type: application/json' -d '{"title":"Dune","author":"Frank Herbert","year":1965,"tags":["sf"]}'
  curl -X POST ${address}/admin/books -H 'content-type: application/json' -d '{"title":"No key"}'
`);

// Graceful shutdown: stop accepting, let in-flight requests finish, then exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info(`${signal} received, closing`);
    app.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
