// Issue 9: the same application file, built once with Fastify and once with Enclave, answers
// every request of the list identically (status, headers and body).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';
import fastify from 'fastify';
import { build } from './app.js';

const ada = { 'x-api-key': 'key-ada' };

/** Run in order: later requests see what earlier ones created. */
const requests = [
  { method: 'GET', url: '/health' },
  { method: 'GET', url: '/todos' },
  { method: 'GET', url: '/todos/1' },
  { method: 'GET', url: '/todos/99' },
  { method: 'GET', url: '/todos/abc' },
  { method: 'GET', url: '/todos?done=true&limit=5' },
  { method: 'GET', url: '/todos?limit=500' },
  { method: 'POST', url: '/todos', payload: { title: 'write tests' } },
  { method: 'POST', url: '/todos', headers: ada, payload: { title: 'write tests', tags: ['work'] } },
  { method: 'POST', url: '/todos', headers: ada, payload: { title: 'write tests' } },
  { method: 'POST', url: '/todos', headers: ada, payload: { title: '' } },
  { method: 'POST', url: '/todos', headers: ada, payload: { title: 'extra', owner: 'eve' } },
  { method: 'POST', url: '/todos', headers: { ...ada, 'content-type': 'application/json' }, payload: '{"title": ' },
  { method: 'PATCH', url: '/todos/2', headers: ada, payload: { done: true } },
  { method: 'PATCH', url: '/todos/42', headers: ada, payload: { done: true } },
  { method: 'PATCH', url: '/todos/2', headers: ada, payload: { done: 'maybe' } },
  { method: 'GET', url: '/todos?tag=work' },
  { method: 'DELETE', url: '/todos/1', headers: ada },
  { method: 'GET', url: '/todos' },
  { method: 'HEAD', url: '/health' },
  { method: 'GET', url: '/whoami', headers: ada },
  { method: 'GET', url: '/whoami' },
  { method: 'GET', url: '/missing/path' },
  { method: 'PUT', url: '/health' },
  { method: 'GET', url: '/routes' },
] as const;

/** What a client can observe, minus the headers that depend on the moment or the socket. */
function observable(response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = response.headers;
  return { statusCode: response.statusCode, headers, body: response.body };
}

async function run(factory: unknown) {
  const app = await build(factory as typeof fastify);
  const results = [];
  for (const request of requests) results.push(observable(await app.inject(request as any)));
  await app.close();
  return results;
}

test('the application answers identically on Fastify and on Enclave', async () => {
  const expected = await run(fastify);
  const actual = await run(enclave);
  for (const [index, request] of requests.entries()) {
    assert.deepEqual(actual[index], expected[index], `${request.method} ${request.url}`);
  }
});

test('the answers are the ones the application means to give', async () => {
  const results = await run(enclave);
  const byRequest = (method: string, url: string, nth = 0) =>
    results.filter((_, index) => requests[index]!.method === method && requests[index]!.url === url)[nth]!;
  assert.equal(byRequest('GET', '/todos/abc').statusCode, 422);
  assert.equal(byRequest('POST', '/todos').statusCode, 401);
  assert.equal(byRequest('POST', '/todos', 1).statusCode, 201);
  assert.equal(byRequest('POST', '/todos', 1).headers.location, '/todos/2');
  assert.equal(byRequest('POST', '/todos', 2).statusCode, 409);
  assert.equal(byRequest('DELETE', '/todos/1').statusCode, 204);
  assert.equal(byRequest('GET', '/missing/path').statusCode, 404);
  assert.equal(byRequest('GET', '/health').headers['x-api-version'], '1');
  assert.deepEqual(JSON.parse(byRequest('GET', '/whoami').body), { user: 'ada' });
});
