// SPEC §4.10, §11: close() under load loses no in-flight request. Concurrent keep-alive clients
// hammer a route that takes a little time; close() is called in the middle. Every request the
// server accepted completes with 200, requests arriving while it closes get 503, new connections
// are refused once it has closed, and the close promise resolves.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import { portOf, waitFor, withTimeout } from './security-helpers.ts';

interface Outcome {
  id: number;
  status?: number;
  body?: string;
  error?: string;
  /** The request went out on a kept-alive socket that had already carried a response. */
  reusedSocket: boolean;
  sentAt: number;
  /** The client's port, to tell whether the server ever accepted the connection. */
  localPort?: number;
}

function send(agent: http.Agent, port: number, id: number): Promise<Outcome> {
  const sentAt = performance.now();
  let localPort: number | undefined;
  return new Promise((settle) => {
    const resolve = (outcome: Outcome) => settle({ ...outcome, ...(localPort === undefined ? {} : { localPort }) });
    const request = http.request({ agent, host: '127.0.0.1', port, path: '/work', headers: { 'x-request-number': String(id) } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ id, status: response.statusCode as number, body, reusedSocket: request.reusedSocket, sentAt }));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message, reusedSocket: request.reusedSocket, sentAt }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message, reusedSocket: request.reusedSocket, sentAt }));
    request.on('socket', (socket) => {
      if (socket.localPort !== undefined) localPort = socket.localPort;
      else socket.once('connect', () => (localPort = socket.localPort));
    });
    request.end();
  });
}

describe('graceful shutdown under load', () => {
  test('close() while 32 keep-alive clients send requests: nothing accepted is lost', async () => {
    const app = enclave();
    const started = new Set<number>();
    const finished = new Set<number>();
    app.get('/work', async (request: any) => {
      const id = Number(request.headers['x-request-number']);
      started.add(id);
      await new Promise((resolve) => setTimeout(resolve, 5 + (id % 20)));
      finished.add(id);
      return { id };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = portOf(app);
    const acceptedPorts = new Set<number>();
    app.server.on('connection', (socket: any) => acceptedPorts.add(socket.remotePort));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const outcomes: Outcome[] = [];
    let nextId = 0;
    let stop = false;

    // Each client sends one request after another until the server is gone.
    async function client() {
      while (!stop) {
        const outcome = await send(agent, port, nextId++);
        outcomes.push(outcome);
        if (outcome.error === 'ECONNREFUSED') return;
      }
    }
    const clients = Array.from({ length: 32 }, client);
    try {
      // Close in the middle of real load, with requests inside their handlers.
      await waitFor(() => started.size >= 150 && started.size - finished.size >= 8, 4000, 'load');
      const inFlightAtClose = started.size - finished.size;
      const closeCalledAt = performance.now();
      await withTimeout(app.close(), 5000, 'close()');
      // The server is closed: one more round from every client must be refused, not hang.
      await withTimeout(new Promise((resolve) => setTimeout(resolve, 100)), 1000);
      stop = true;
      await withTimeout(Promise.all(clients), 5000, 'the clients');
      agent.destroy();

      assert.ok(inFlightAtClose > 0, 'close() was called with requests in their handlers');
      const byId = new Map(outcomes.map((outcome) => [outcome.id, outcome]));
      for (const id of started) {
        const outcome = byId.get(id);
        assert.ok(finished.has(id), `request ${id} was accepted but its handler never finished`);
        assert.equal(outcome?.status, 200, `request ${id} was accepted but got ${JSON.stringify(outcome)}`);
        assert.equal(outcome?.body, JSON.stringify({ id }));
      }
      assert.equal(outcomes.filter((outcome) => outcome.status === 200).length, started.size, 'every 200 is an accepted request');
      // A reset counts as a refusal when the server never accepted the request: a connection the
      // server never accepted (the kernel completed the handshake, then the listening socket closed
      // under it; seen under heavy machine load with plain node:http too), one opened after close()
      // began, or a kept-alive socket closed as idle just as the request went out (the race of
      // RFC 9112 §9.3.1, which clients retry).
      const unexpected = outcomes.filter((outcome) => {
        if (started.has(outcome.id) || outcome.status === 503 || outcome.error === 'ECONNREFUSED') return false;
        const reset = outcome.error === 'ECONNRESET' || outcome.error === 'socket hang up';
        const neverAccepted = outcome.localPort === undefined || !acceptedPorts.has(outcome.localPort);
        return !(reset && (neverAccepted || outcome.reusedSocket || outcome.sentAt >= closeCalledAt));
      });
      assert.deepEqual(unexpected, [], 'every other request was answered 503 or refused');
    } finally {
      stop = true;
      agent.destroy();
      app.server.closeAllConnections();
    }
  });

  test('a request in flight when close() is called completes; close() waits for it', async () => {
    const app = enclave();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    app.get('/work', async () => {
      entered();
      await gate;
      return 'finished';
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = portOf(app);
    const agent = new http.Agent({ keepAlive: true });
    try {
      const inFlight = send(agent, port, 1);
      await inHandler;
      let closed = false;
      const closing = app.close().then(() => {
        closed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(closed, false, 'close() resolved with a request still in its handler');
      const second = await send(agent, port, 2);
      assert.ok(second.status === 503 || second.error === 'ECONNREFUSED' || second.error === 'ECONNRESET', JSON.stringify(second));
      release();
      const first = await withTimeout(inFlight, 2000, 'the in-flight request');
      assert.equal(first.status, 200);
      assert.equal(first.body, 'finished');
      await withTimeout(closing, 2000, 'close()');
    } finally {
      // A failure above must not leave the handler, and so the server, open forever.
      release();
      app.server.closeAllConnections();
      agent.destroy();
    }
  });
});
