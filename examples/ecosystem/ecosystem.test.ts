// The notes example: ten Fastify plugins working together on Enclave.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import FormData from 'form-data';
import { buildNotesApp } from './app.js';

const options = { cookieSecret: 'a-test-secret-that-is-long-enough', allowedOrigins: ['https://notes.example'], rateLimitMax: 50 };

async function logIn(app: any, user: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/login',
    payload: `user=${user}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(response.statusCode, 200);
  const session = response.cookies.find((cookie: any) => cookie.name === 'session');
  assert.ok(session?.httpOnly);
  return `session=${session.value}`;
}

function noteForm(text: string, file?: Buffer) {
  const form = new FormData();
  form.append('text', text);
  if (file) form.append('attachment', file, { filename: 'photo.jpg', contentType: 'image/jpeg' });
  return { payload: form.getBuffer(), headers: form.getHeaders() };
}

test('the home page is a static file with security headers', async () => {
  const app = await buildNotesApp(options);
  const response = await app.inject({ url: '/' });
  assert.equal(response.statusCode, 200);
  assert.match(response.body, /<h1>Notes<\/h1>/);
  assert.equal(response.headers['x-frame-options'], 'SAMEORIGIN');
  assert.equal(response.headers['x-ratelimit-limit'], '50');
  const css = await app.inject({ url: '/static/style.css' });
  assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  await app.close();
});

test('log in with a form, write notes with attachments, read them back', async () => {
  const app = await buildNotesApp(options);
  assert.equal((await app.inject({ url: '/notes' })).statusCode, 401);
  const badLogin = await app.inject({ method: 'POST', url: '/login', payload: 'user=X!', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(badLogin.statusCode, 400);

  const ada = await logIn(app, 'ada');
  const json = await app.inject({ method: 'POST', url: '/notes', payload: { text: 'json' }, headers: { cookie: ada } });
  assert.equal(json.statusCode, 415);

  const form = noteForm('first note', Buffer.alloc(2048, 1));
  const first = await app.inject({ method: 'POST', url: '/notes', payload: form.payload, headers: { ...form.headers, cookie: ada } });
  assert.equal(first.statusCode, 201);
  assert.deepEqual(first.json(), { id: 1, text: 'first note', attachment: { filename: 'photo.jpg', size: 2048 } });

  const plain = noteForm('second note');
  await app.inject({ method: 'POST', url: '/notes', payload: plain.payload, headers: { ...plain.headers, cookie: ada } });
  const list = await app.inject({ url: '/notes', headers: { cookie: ada } });
  assert.deepEqual(
    list.json().map((note: any) => note.text),
    ['first note', 'second note'],
  );
  assert.equal(list.json()[0].owner, undefined, 'the response schema keeps the owner private');

  const grace = await logIn(app, 'grace');
  assert.deepEqual((await app.inject({ url: '/notes', headers: { cookie: grace } })).json(), []);
  const notYours = await app.inject({ url: '/notes/1', headers: { cookie: grace } });
  assert.equal(notYours.statusCode, 404);
  assert.equal(notYours.json().message, 'no note 1');
  const forged = await app.inject({ url: '/notes', headers: { cookie: 'session=ada.forged' } });
  assert.equal(forged.statusCode, 401);
  await app.close();
});

test('CORS for the allowed origin, compression for large answers, the OpenAPI document', async () => {
  const app = await buildNotesApp(options);
  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/notes',
    headers: { origin: 'https://notes.example', 'access-control-request-method': 'POST' },
  });
  assert.equal(preflight.statusCode, 204);
  assert.equal(preflight.headers['access-control-allow-credentials'], 'true');

  const openapi = await app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip', origin: 'https://notes.example' } });
  assert.equal(openapi.headers['content-encoding'], 'gzip');
  assert.equal(openapi.headers['access-control-allow-origin'], 'https://notes.example');
  const document = JSON.parse(zlib.gunzipSync(openapi.rawPayload).toString());
  assert.deepEqual(Object.keys(document.paths).sort(), ['/login', '/notes', '/notes/{id}']);
  assert.ok(Object.values(document.components.schemas).some((schema: any) => schema.title === 'Note'));
  await app.close();
});

test('the rate limit answers 429 once a client has used its budget', async () => {
  const app = await buildNotesApp({ ...options, rateLimitMax: 3 });
  const statuses = [];
  for (let index = 0; index < 4; index++) statuses.push((await app.inject({ url: '/static/style.css' })).statusCode);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  await app.close();
});
