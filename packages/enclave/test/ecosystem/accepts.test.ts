// Issue 20: the real @fastify/accepts, unmodified, on Enclave: request (and, when asked, reply)
// decorators for content negotiation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import accepts from '@fastify/accepts';
import enclave from 'enclavejs';

describe('@fastify/accepts', () => {
  test('request.accepts() and the shortcut decorators negotiate from the request headers', async () => {
    const app = enclave();
    await app.register(accepts);
    app.get('/', async (request: any, reply) => {
      if (request.accepts().type(['json', 'html']) === 'html') return reply.type('text/html').send('<p>hi</p>');
      return { hi: true, language: request.language(['en', 'fr']) };
    });
    const html = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    assert.equal(html.body, '<p>hi</p>');
    const json = await app.inject({ url: '/', headers: { accept: 'application/json', 'accept-language': 'fr' } });
    assert.deepEqual(json.json(), { hi: true, language: 'fr' });
    await app.close();
  });

  test('decorateReply adds reply.requestTypes and friends', async () => {
    const app = enclave();
    await app.register(accepts, { decorateReply: true });
    app.get('/', async (_request, reply: any) => ({ types: reply.requestTypes(), encoding: reply.requestEncoding(['gzip', 'br']) }));
    const response = await app.inject({ url: '/', headers: { accept: 'text/plain, application/json;q=0.5', 'accept-encoding': 'br' } });
    assert.deepEqual(response.json(), { types: ['text/plain', 'application/json'], encoding: 'br' });
    await app.close();
  });
});
