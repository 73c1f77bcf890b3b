// The `auth` option: a user function decides instead of `keys`, and a broken one is a
// server error that never lets the request through.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import bearerAuth, { type BearerAuthFunction, type BearerAuthOptions } from '@enclavejs/bearer-auth';
import { createApp, get, invalidBody, type LogLine, missingBody } from './helpers.ts';

async function appWithAuth(auth: BearerAuthFunction, extra: Partial<BearerAuthOptions> = {}) {
  const { app, logs } = createApp();
  let handled = 0;
  app.register(bearerAuth, { auth, ...extra });
  app.get('/', async () => {
    handled += 1;
    return { ok: true };
  });
  await app.ready();
  return { app, logs, handled: () => handled };
}

describe('auth decides', () => {
  test('a synchronous function: true passes, false answers 401', async () => {
    const { app } = await appWithAuth((token) => token === 'good');
    assert.equal((await get(app, '/', 'Bearer good')).statusCode, 200);
    const refused = await get(app, '/', 'Bearer bad');
    assert.equal(refused.statusCode, 401);
    assert.deepEqual(refused.json(), invalidBody);
    assert.equal(refused.headers['www-authenticate'], 'Bearer error="invalid_token"');
  });

  test('an async function: resolved true passes, resolved false answers 401', async () => {
    const { app } = await appWithAuth(async (token) => {
      await new Promise((resolve) => setImmediate(resolve));
      return token === 'good';
    });
    assert.equal((await get(app, '/', 'Bearer good')).statusCode, 200);
    assert.equal((await get(app, '/', 'Bearer bad')).statusCode, 401);
  });

  test('it receives the token and the request', async () => {
    const seen: Array<[string, unknown]> = [];
    const { app } = await appWithAuth((token, request) => {
      seen.push([token, request.headers['x-tenant']]);
      return true;
    });
    await app.inject({ method: 'GET', url: '/', headers: { authorization: 'Bearer t0k3n==', 'x-tenant': 'acme' } });
    assert.deepEqual(seen, [['t0k3n==', 'acme']]);
  });

  test('it replaces keys: a listed key means nothing to it', async () => {
    const { app } = await appWithAuth((token) => token === 'from-auth', { keys: ['from-keys'] });
    assert.equal((await get(app, '/', 'Bearer from-auth')).statusCode, 200);
    assert.equal((await get(app, '/', 'Bearer from-keys')).statusCode, 401);
  });

  test('it is not called for a missing or malformed header', async () => {
    let calls = 0;
    const { app } = await appWithAuth(() => {
      calls += 1;
      return true;
    });
    assert.deepEqual((await get(app, '/')).json(), missingBody);
    assert.deepEqual((await get(app, '/', 'Bearer  two-spaces')).json(), invalidBody);
    assert.equal(calls, 0);
  });
});

describe('a broken auth answers 500, logs, and never passes', () => {
  const broken: Array<[string, BearerAuthFunction, RegExp]> = [
    [
      'throws',
      () => {
        throw new Error('database down');
      },
      /database down/,
    ],
    [
      'rejects',
      async () => {
        throw new Error('lookup failed');
      },
      /lookup failed/,
    ],
    ['rejects with a non-Error', () => Promise.reject('plain string'), /plain string/],
    ['returns a string', () => 'yes' as unknown as boolean, /got string/],
    ['returns 1', () => 1 as unknown as boolean, /got number/],
    ['returns undefined', () => undefined as unknown as boolean, /got undefined/],
    ['resolves to null', async () => null as unknown as boolean, /got object/],
    ['resolves to a truthy object', async () => ({ ok: true }) as unknown as boolean, /got object/],
  ];

  for (const [name, auth, logged] of broken) {
    test(`auth ${name}`, async () => {
      const { app, logs, handled } = await appWithAuth(auth);
      const answer = await get(app, '/', 'Bearer some-token');
      assert.equal(answer.statusCode, 500);
      // The body stays generic: the failure's own message is for the log, not the client.
      assert.deepEqual(answer.json(), { error: 'internal server error' });
      assert.equal(answer.headers['www-authenticate'], undefined);
      assert.equal(handled(), 0);
      const entry = logs.find((line: LogLine) => line.msg === '@enclavejs/bearer-auth: the auth function failed');
      assert.ok(entry, 'the failure is logged');
      assert.equal(entry.level, 50);
      assert.match(JSON.stringify(entry), logged);
    });
  }

  test('the 500 body goes through errorResponse and contentType too', async () => {
    const { app } = await appWithAuth(
      () => {
        throw new Error('boom');
      },
      { errorResponse: (error) => `${error.code}: ${error.message}`, contentType: 'text/plain; charset=utf-8' },
    );
    const answer = await get(app, '/', 'Bearer x');
    assert.equal(answer.statusCode, 500);
    assert.equal(answer.body, 'FST_BEARER_AUTH_AUTH_FUNCTION_FAILED: internal server error');
    assert.equal(answer.headers['content-type'], 'text/plain; charset=utf-8');
  });
});
