// Issue 20: the real @fastify/websocket, unmodified, on Enclave. Upgrades go through the normal
// request path (`app.routing`), so hooks run and the route's websocket handler gets the socket;
// close() ends open sockets instead of waiting for them.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import websocket from '@fastify/websocket';
import enclave from 'enclavejs';
import WebSocket from 'ws';

async function build() {
  const app: any = enclave();
  await app.register(websocket);
  const upgrades: string[] = [];
  app.addHook('onRequest', async (request: any) => {
    upgrades.push(request.url);
  });
  app.get('/echo', { websocket: true }, (socket: WebSocket) => {
    socket.on('message', (message) => socket.send(`echo: ${message}`));
  });
  app.get('/plain', async () => 'http');
  return { app, upgrades };
}

describe('@fastify/websocket', () => {
  test('a client connects through the hooks and gets its messages echoed', async () => {
    const { app, upgrades } = await build();
    const origin: string = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = new WebSocket(`${origin.replace('http', 'ws')}/echo`);
    await once(client, 'open');
    client.send('hello');
    const [reply] = await once(client, 'message');
    assert.equal(String(reply), 'echo: hello');
    assert.deepEqual(upgrades, ['/echo']);
    assert.equal((await app.inject('/plain')).body, 'http');
    client.close();
    await app.close();
  });

  test('close() with a socket still open closes it and resolves', async () => {
    const { app } = await build();
    const origin: string = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = new WebSocket(`${origin.replace('http', 'ws')}/echo`);
    await once(client, 'open');
    const closed = once(client, 'close');
    await app.close();
    // The plugin's preClose hook closes each client without a status code (1005 on the client).
    const [code] = await closed;
    assert.equal(code, 1005);
  });

  test('injectWS talks to the route without a socket', async () => {
    const { app } = await build();
    await app.ready();
    const client = await app.injectWS('/echo');
    const reply = once(client, 'message');
    client.send('in-process');
    assert.equal(String((await reply)[0]), 'echo: in-process');
    client.terminate();
    await app.close();
  });
});
