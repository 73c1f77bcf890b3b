// The build-step recipe of docs/schema-cache.md for the Bookshelf: build the application, let
// ready() compile every schema and write the cache (ENCLAVE_SCHEMA_CACHE names the directory),
// close without ever listening. Run it twice: the second run writes V8's code cache.
//
//   ENCLAVE_SCHEMA_CACHE=.schema-cache node --import tsx examples/bookshelf/fill-schema-cache.ts
import { buildApp } from './app.js';

// The admin key only configures a plugin: no request is served, and the cache does not hold it.
const app = buildApp({ adminKey: 'build-step-only', logger: { level: 'warn' } });
await app.ready();
await app.close();
