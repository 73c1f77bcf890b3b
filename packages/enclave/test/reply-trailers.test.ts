// reply.trailer: trailers on a reply without a payload, and the errors a bad name or value
// raises (their messages are Fastify's: a handler may catch them and send them on).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

type Done = (error: unknown, value?: string) => void;

describe('reply.trailer', () => {
  test('a reply sent without a payload still carries its trailers, without a length', async () => {
    const app = enclave();
    const seen: unknown[] = [];
    app.get('/', (_request, reply: any) => {
      reply.trailer('X-Digest', (_reply: unknown, given: unknown, done: Done) => {
        seen.push(given);
        done(null, 'none');
      });
      reply.send(undefined);
    });
    const response = await app.inject({ url: '/' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '');
    assert.equal(response.headers.trailer, 'x-digest');
    assert.equal(response.headers['content-length'], undefined);
    assert.deepEqual(response.trailers, { 'x-digest': 'none' });
    assert.deepEqual(seen, [undefined]);
  });

  test('a 204 has no body, so no trailers either', async () => {
    const app = enclave();
    app.get('/', (_request, reply: any) => {
      reply.trailer('x-digest', (_reply: unknown, _given: unknown, done: Done) => done(null, 'none'));
      reply.code(204).send();
    });
    const response = await app.inject({ url: '/' });
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers.trailer, undefined);
  });

  test('a forbidden name or a value that is not a function throws with the name as given', async () => {
    const app = enclave();
    const messages: string[] = [];
    app.get('/', (_request, reply: any) => {
      for (const attempt of [() => reply.trailer('Content-Type', () => {}), () => reply.trailer('X-Sum', 'abc')]) {
        try {
          attempt();
        } catch (error) {
          messages.push((error as Error).message);
        }
      }
      reply.send('ok');
    });
    assert.equal((await app.inject({ url: '/' })).body, 'ok');
    assert.deepEqual(messages, [
      'Called reply.trailer with an invalid header name: Content-Type',
      "Called reply.trailer('X-Sum', fn) with an invalid type: string. Expected a function.",
    ]);
  });
});
