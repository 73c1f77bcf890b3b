// The instruction benchmark's client, in its own process (never under valgrind): plain
// keep-alive HTTP/1.1, a fixed number of connections, one request in flight per connection (no
// pipelining), every status and every body checked against the scenario's expected answer.
// Receives jobs over IPC: { id, port, scenario, count, connections }.
import { Agent, request as httpRequest } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { scenarios } from './scenarios.mjs';

function once(agent, port, spec) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ agent, host: '127.0.0.1', port, method: spec.method, path: spec.path, headers: spec.headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(spec.body);
  });
}

/**
 * A keep-alive socket the server closes while a request is being written on it resets that
 * request before any answer (Node's documented keep-alive race): such a request, and only such
 * a one, is sent again once on a fresh socket.
 */
async function sendRetrying(agent, port, spec) {
  try {
    return await once(agent, port, spec);
  } catch (error) {
    if (error?.code !== 'ECONNRESET' || !error.reusedSocket) throw error;
    return once(agent, port, spec);
  }
}

/**
 * Sends `count` requests over `connections` keep-alive sockets; rejects on the first wrong
 * answer. With `pauseAfter`, calls `pause()` once that many have been answered and none is in
 * flight, and again after the last one, before closing the sockets; it goes on when the promise
 * resolves (jit-profile.mjs zeroes its counters at the first and dumps them at the second, so
 * no connection opens or closes inside the measured requests).
 */
async function drive({ port, scenario, count, connections, pauseAfter }, pause) {
  const { request: spec, expect } = scenarios[scenario];
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let issued = 0;
  const sockets = new Set();
  agent.on('free', (socket) => sockets.add(socket));
  async function loop(limit) {
    while (issued < limit) {
      issued++;
      const { status, body } = await sendRetrying(agent, port, spec);
      if (status !== expect.status) throw new Error(`status ${status}, expected ${expect.status}: ${body}`);
      let parsed;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new Error(`body is not JSON: ${body}`);
      }
      if (!isDeepStrictEqual(parsed, expect.body)) throw new Error(`unexpected body ${body}`);
    }
  }
  const run = (limit) => Promise.all(Array.from({ length: connections }, () => loop(limit)));
  try {
    if (pauseAfter !== undefined) {
      await run(pauseAfter);
      await pause();
    }
    await run(count);
    if (pauseAfter !== undefined) await pause();
  } finally {
    agent.destroy();
  }
  return { requests: issued, sockets: sockets.size };
}

const resumes = new Map();
process.on('message', async (job) => {
  if (job.resume !== undefined) {
    resumes.get(job.resume)?.();
    return;
  }
  try {
    const started = process.hrtime.bigint();
    const pause = () =>
      new Promise((resolve) => {
        resumes.set(job.id, resolve);
        process.send({ id: job.id, paused: true });
      });
    const result = await drive(job, pause);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    process.send({ id: job.id, ok: true, result: { ...result, seconds } });
  } catch (error) {
    process.send({ id: job.id, ok: false, error: String(error?.stack ?? error) });
  }
});
