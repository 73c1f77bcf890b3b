// Starts the notes service: `node --import tsx examples/ecosystem/server.ts`.
import { buildNotesApp } from './app.js';

const app = await buildNotesApp({
  cookieSecret: process.env.COOKIE_SECRET ?? 'change-me-to-a-long-random-secret',
  allowedOrigins: (process.env.ALLOWED_ORIGINS ?? 'http://localhost:5173').split(','),
});
const address = await app.listen({ port: Number(process.env.PORT ?? 3000) });
console.log(`notes listening on ${address}`);
