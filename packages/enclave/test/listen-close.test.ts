// SPEC §4.10: listen, close (draining), addresses, server, inject, timeouts, https and http2.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import enclave, { errorCodes } from 'enclavejs';

/** Fails after `ms` instead of hanging; the timer keeps the process alive until then. */
function withTimeout<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One GET over an HTTP/2 session: its status and body. */
function http2Get(client: http2.ClientHttp2Session, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = client.request({ ':path': path });
    let data = '';
    let status = 0;
    stream.on('response', (headers) => {
      status = Number(headers[':status']);
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      data += chunk;
    });
    stream.on('end', () => resolve({ status, body: data }));
    stream.on('error', reject);
    stream.end();
  });
}

function get(url: string, agent?: http.Agent): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

describe('listen', () => {
  test('promise form: port 0, explicit host, returns the address string; addresses() and server agree', async () => {
    const app = enclave();
    app.get('/', async () => 'hello');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/);
      const port = Number(new URL(address).port);
      assert.ok(port > 0);
      assert.deepEqual(app.addresses(), [{ address: '127.0.0.1', family: 'IPv4', port }]);
      assert.ok(app.server instanceof http.Server);
      assert.equal(app.server.listening, true);
      assert.equal((await get(`${address}/`)).body, 'hello');
    } finally {
      await app.close();
    }
    assert.equal(app.server.listening, false);
  });

  test("host defaults to 'localhost' (a loopback address)", async () => {
    const app = enclave();
    app.get('/', async () => 'local');
    const address = await app.listen({ port: 0 });
    try {
      assert.match(address, /^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/);
      const [first] = app.addresses();
      assert.ok(typeof first === 'object' && (first.address === '127.0.0.1' || first.address === '::1'));
      assert.equal((await get(`${address}/`)).body, 'local');
    } finally {
      await app.close();
    }
  });

  test('callback form gets (null, address); listen() with only a callback works too', async () => {
    const app = enclave();
    const address = await new Promise<string>((resolve, reject) => {
      const result = app.listen({ port: 0, host: '127.0.0.1' }, (error, value) => (error ? reject(error) : resolve(value as string)));
      assert.equal(result, undefined);
    });
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/);
    await app.close();

    const second = enclave();
    const other = await new Promise<string>((resolve, reject) => {
      second.listen((error, value) => (error ? reject(error) : resolve(value as string)));
    });
    assert.match(other, /:\d+$/);
    await second.close();
  });

  test('listening twice is an error; listening after close is an error', async () => {
    const app = enclave();
    await app.listen({ port: 0, host: '127.0.0.1' });
    await assert.rejects(app.listen({ port: 0, host: '127.0.0.1' }), { code: 'FST_ERR_REOPENED_SERVER' });
    const callbackError = await new Promise<Error | null>((resolve) => app.listen({ port: 0, host: '127.0.0.1' }, (error) => resolve(error)));
    assert.equal((callbackError as any)?.code, 'FST_ERR_REOPENED_SERVER');
    await app.close();
    await assert.rejects(app.listen({ port: 0, host: '127.0.0.1' }), { code: 'FST_ERR_REOPENED_CLOSE_SERVER' });
  });

  test('a port in use rejects with EADDRINUSE; an invalid port is refused', async () => {
    const first = enclave();
    const address = await first.listen({ port: 0, host: '127.0.0.1' });
    const second = enclave();
    try {
      await assert.rejects(second.listen({ port: Number(new URL(address).port), host: '127.0.0.1' }), { code: 'EADDRINUSE' });
      const third = enclave();
      await assert.rejects(third.listen({ port: 70000, host: '127.0.0.1' }), { code: 'FST_ERR_LISTEN_OPTIONS_INVALID' });
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('listen fails when a plugin fails, with the plugin error', async () => {
    const app = enclave();
    app.register(async () => {
      throw new Error('plugin broke');
    });
    await assert.rejects(app.listen({ port: 0, host: '127.0.0.1' }), /plugin broke/);
    assert.equal(app.server.listening, false);
  });
});

/**
 * Resolves when the server has seen `count` requests (or after a cap), so a slow handler can
 * hold its response until a pipelined request has really arrived, whatever the machine load.
 */
function requestsSeen(server: http.Server, count: number, capMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const cap = setTimeout(resolve, capMs);
    server.on('request', () => {
      if (++seen === count) {
        clearTimeout(cap);
        resolve();
      }
    });
  });
}

/**
 * Starts a slow request on a kept-alive connection, calls close() while it runs, then sends a
 * second request on the same connection; resolves with everything the socket received.
 */
async function closeDuringSlowRequest(app: ReturnType<typeof enclave>, slowBody: string, extraHeaders: string): Promise<string> {
  let started!: () => void;
  const handlerStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const bothArrived = requestsSeen(app.server, 2);
  app.get('/slow', async () => {
    started();
    await bothArrived;
    return slowBody;
  });
  app.get('/fast', async () => 'fast');
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const socket = net.connect(Number(new URL(address).port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  const socketClosed = new Promise((resolve) => socket.on('close', resolve));
  socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await withTimeout(handlerStarted);
  const closing = app.close();
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket.write(`GET /fast HTTP/1.1\r\nHost: x\r\n${extraHeaders}\r\n`);
  await withTimeout(socketClosed);
  await withTimeout(closing);
  return received;
}

describe('close', () => {
  test('in-flight requests finish with 200; a request sent on the kept-alive connection meanwhile gets 503', async () => {
    const received = await closeDuringSlowRequest(enclave(), 'slow done', '');
    const responses = received.split(/(?=HTTP\/1\.1 )/);
    assert.equal(responses.length, 2, received);
    assert.match(responses[0] as string, /^HTTP\/1\.1 200 /);
    assert.match(responses[0] as string, /slow done$/);
    assert.match(responses[1] as string, /^HTTP\/1\.1 503 /);
    assert.match(responses[1] as string, /connection: close/i);
    assert.match(responses[1] as string, /"statusCode":503/);
  });

  test('a slow request started before close completes with 200 over fetch; close waits for it', async () => {
    const app = enclave();
    const order: string[] = [];
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    app.addHook('onClose', async () => {
      order.push('onClose');
    });
    app.get('/slow', async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 150));
      order.push('handler done');
      return { done: true };
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const pending = fetch(`${address}/slow`);
    // Close only once the request is in flight (a request still on the wire would meet a
    // closed listener, or a 503, which is the other test).
    await withTimeout(handlerStarted);
    const closing = app.close().then(() => order.push('closed'));
    const response = await withTimeout(pending);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { done: true });
    await withTimeout(closing);
    assert.deepEqual(order, ['handler done', 'onClose', 'closed']);
  });

  test('idle keep-alive sockets are closed, so close() does not wait for keepAliveTimeout', async () => {
    const app = enclave();
    app.get('/', async () => 'x');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const response = await get(`${address}/`, agent);
      assert.equal(response.headers.connection, 'keep-alive');
      const socketsBefore = Object.values(agent.freeSockets).flat().length;
      assert.equal(socketsBefore, 1);
      const start = Date.now();
      await withTimeout(app.close(), 1000);
      assert.ok(Date.now() - start < 1000);
    } finally {
      agent.destroy();
    }
  });

  test('a keep-alive connection whose request was in flight is closed once it goes idle', async () => {
    const app = enclave();
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    app.get('/slow', async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 100));
      return 'slow';
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const pending = get(`${address}/slow`, agent);
      await withTimeout(handlerStarted);
      const start = Date.now();
      const closing = app.close();
      assert.equal((await pending).status, 200);
      await withTimeout(closing, 1500);
      assert.ok(Date.now() - start < 1500);
    } finally {
      agent.destroy();
    }
  });

  test('return503OnClosing: false lets requests on open connections through', async () => {
    const received = await closeDuringSlowRequest(enclave({ return503OnClosing: false }), 'slow', 'Connection: close\r\n');
    assert.match(received, /slow/);
    assert.match(received, /fast$/);
    assert.doesNotMatch(received, / 503 /);
  });

  test('preClose runs before the server stops accepting, onClose after; callback form', async () => {
    const app = enclave();
    const order: string[] = [];
    app.addHook('preClose', async () => {
      order.push(`preClose listening=${app.server.listening}`);
    });
    app.addHook('onClose', async () => {
      order.push(`onClose listening=${app.server.listening}`);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => app.close((error) => (error ? reject(error) : resolve())));
    assert.deepEqual(order, ['preClose listening=true', 'onClose listening=false']);
  });

  test('close() before ready() or listen() works and runs onClose', async () => {
    const app = enclave();
    let closed = false;
    app.addHook('onClose', async () => {
      closed = true;
    });
    await app.close();
    assert.equal(closed, true);
  });
});

describe('inject', () => {
  test('promise, callback and chained forms', async () => {
    const app = enclave();
    app.post('/echo', async (request) => ({ body: request.body, q: request.query }));
    const promised = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 }, query: { q: '1' } });
    assert.deepEqual(promised.json(), { body: { a: 1 }, q: { q: '1' } });
    const viaCallback = await new Promise<any>((resolve, reject) => {
      app.inject({ method: 'POST', url: '/echo', payload: { b: 2 } }, (error, response) => (error ? reject(error) : resolve(response)));
    });
    assert.deepEqual(viaCallback.json(), { body: { b: 2 }, q: {} });
    const chained = await app.inject().post('/echo').payload({ c: 3 }).end();
    assert.deepEqual(chained.json(), { body: { c: 3 }, q: {} });
    const stringForm = await app.inject('/nothing');
    assert.equal(stringForm.statusCode, 404);
  });

  test('inject readies the application and reports a boot error', async () => {
    const app = enclave();
    app.register(async () => {
      throw new Error('boot failure');
    });
    await assert.rejects(app.inject('/'), /boot failure/);
  });

  test('many concurrent injects each get their own answer', async () => {
    const app = enclave();
    app.get('/n/:n', async (request) => (request.params as { n: string }).n);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => app.inject(`/n/${i}`)));
    assert.deepEqual(
      responses.map((r) => r.body),
      Array.from({ length: 20 }, (_, i) => String(i)),
    );
  });
});

describe('server options', () => {
  test('keepAliveTimeout defaults to 72 s; timeouts are applied to the server', () => {
    const defaults = enclave();
    assert.equal(defaults.server.keepAliveTimeout, 72_000);
    const custom = enclave({ keepAliveTimeout: 5000, requestTimeout: 4000, connectionTimeout: 3000 });
    assert.equal(custom.server.keepAliveTimeout, 5000);
    assert.equal(custom.server.requestTimeout, 4000);
    assert.equal(custom.server.timeout, 3000);
  });

  test('serverFactory supplies the server', async () => {
    let created = false;
    const app = enclave({
      serverFactory: (handler) => {
        created = true;
        return http.createServer((req, res) => {
          res.setHeader('x-factory', 'yes');
          handler(req, res);
        });
      },
    });
    app.get('/', async () => 'factory');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const response = await get(`${address}/`);
      assert.equal(created, true);
      assert.equal(response.body, 'factory');
      assert.equal(response.headers['x-factory'], 'yes');
    } finally {
      await app.close();
    }
  });

  test('http2: true serves h2c to a node:http2 client', async () => {
    const app = enclave({ http2: true });
    app.get('/', async (request) => ({ version: request.raw.httpVersion, protocol: request.protocol }));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = http2.connect(address);
    try {
      const { status, body } = await withTimeout(http2Get(client, '/'));
      assert.equal(status, 200);
      assert.deepEqual(JSON.parse(body), { version: '2.0', protocol: 'http' });
    } finally {
      client.close();
      await app.close();
    }
  });

  test('http2 close: an in-flight stream finishes, a stream opened while closing gets 503, open sessions do not hold close()', async () => {
    const app = enclave({ http2: true });
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    let releaseSlow!: () => void;
    const slowReleased = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    app.get('/slow', async () => {
      started();
      await slowReleased;
      return 'slow done';
    });
    app.get('/fast', async () => 'fast');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = http2.connect(address);
    client.on('error', () => {});
    const request = (path: string) => http2Get(client, path);
    let duringClose: Promise<{ status: number; body: string }> | undefined;
    app.addHook('preClose', async () => {
      // Still accepting streams here, but already closing: the answer is 503, not a crash.
      duringClose = request('/fast');
      await duringClose;
    });
    try {
      const slow = request('/slow');
      await withTimeout(handlerStarted);
      const closing = app.close();
      const refused = await withTimeout(
        new Promise<{ status: number; body: string }>((resolve) => {
          const wait = () => (duringClose ? duringClose.then(resolve) : setTimeout(wait, 5));
          wait();
        }),
      );
      assert.equal(refused.status, 503);
      assert.equal(JSON.parse(refused.body).statusCode, 503);
      releaseSlow();
      const slowResult = await withTimeout(slow);
      assert.deepEqual(slowResult, { status: 200, body: 'slow done' });
      await withTimeout(closing, 1500);
      assert.equal(app.server.listening, false);
    } finally {
      releaseSlow();
      client.close();
    }
  });

  test('https (and http2 over TLS) with a self-signed certificate made at test time', async () => {
    let dir: string | undefined;
    let key: Buffer | undefined;
    let cert: Buffer | undefined;
    try {
      dir = mkdtempSync(join(tmpdir(), 'enclave-tls-'));
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-sha256',
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      key = readFileSync(join(dir, 'key.pem'));
      cert = readFileSync(join(dir, 'cert.pem'));
    } catch {
      key = undefined;
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
    if (key === undefined || cert === undefined) {
      // No openssl: the plain-text http2 test above covers the http2 path; check https is wired.
      assert.ok(enclave({ https: {} }).server instanceof https.Server);
      return;
    }
    const app = enclave({ https: { key, cert } });
    app.get('/', async (request) => ({ protocol: request.protocol }));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      assert.match(address, /^https:\/\/127\.0\.0\.1:\d+$/);
      const body = await new Promise<string>((resolve, reject) => {
        https
          .get(`${address}/`, { ca: cert, servername: 'localhost', checkServerIdentity: () => undefined }, (res) => {
            let data = '';
            res.on('data', (chunk) => {
              data += chunk;
            });
            res.on('end', () => resolve(data));
          })
          .on('error', reject);
      });
      assert.deepEqual(JSON.parse(body), { protocol: 'https' });
    } finally {
      await app.close();
    }

    const secure2 = enclave({ http2: true, https: { key, cert } });
    secure2.get('/', async (request) => ({ version: request.raw.httpVersion, protocol: request.protocol }));
    const address2 = await secure2.listen({ port: 0, host: '127.0.0.1' });
    const client = http2.connect(address2, { ca: cert, checkServerIdentity: () => undefined });
    try {
      const body = await withTimeout(
        new Promise<string>((resolve, reject) => {
          const stream = client.request({ ':path': '/' });
          let data = '';
          stream.setEncoding('utf8');
          stream.on('data', (chunk) => {
            data += chunk;
          });
          stream.on('end', () => resolve(data));
          stream.on('error', reject);
          stream.end();
        }),
      );
      assert.deepEqual(JSON.parse(body), { version: '2.0', protocol: 'https' });
    } finally {
      client.close();
      await secure2.close();
    }
  });
});

test('the server error codes are exported', () => {
  for (const code of ['FST_ERR_REOPENED_SERVER', 'FST_ERR_REOPENED_CLOSE_SERVER', 'FST_ERR_LISTEN_OPTIONS_INVALID'] as const) {
    assert.equal(errorCodes[code].code, code);
  }
});

test('headers have a 60 s deadline by default even with requestTimeout 0 (slowloris)', async () => {
  const app = enclave();
  assert.equal(app.server.requestTimeout, 0);
  assert.equal(app.server.headersTimeout, 60_000);
  const bounded = enclave({ requestTimeout: 5_000 });
  assert.equal(bounded.server.headersTimeout, 5_000);
  const custom = enclave({ headersTimeout: 1_000 });
  assert.equal(custom.server.headersTimeout, 1_000);
});
