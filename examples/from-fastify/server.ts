// Moving from Fastify to Enclave: this line was `import Fastify from 'fastify'`.
import Fastify from 'enclavejs';
import { build } from './app.js';

const app = await build(Fastify as any);
const address = await app.listen({ port: Number(process.env.PORT ?? 3000) });
console.log(`todo API listening on ${address}`);
