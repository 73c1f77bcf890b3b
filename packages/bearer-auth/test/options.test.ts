// Registration options: validation errors at registration, and the response options
// (errorResponse, contentType) on a rejection.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import bearerAuth, { type BearerAuthOptions } from '@enclavejs/bearer-auth';
import { createApp, get } from './helpers.ts';
import { resolveOptions } from '../dist/options.js';

describe('bad options fail registration with a coded error', () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['no keys and no auth', {}, 'FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE', /"keys" must be an array or a Set/],
    ['keys as a string', { keys: 'secret' }, 'FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE', /"keys"/],
    ['keys as a Map', { keys: new Map([['a', 'b']]) }, 'FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE', /"keys"/],
    ['keys as null', { keys: null }, 'FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE', /"keys"/],
    ['a number among keys', { keys: ['ok', 42] }, 'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE', /entry 1 is number/],
    ['a Buffer in a Set', { keys: new Set([Buffer.from('x')]) }, 'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE', /entry 0 is an object/],
    ['an empty key', { keys: [''] }, 'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_FORMAT', /entry 0 .* not a valid bearer token/],
    ['a key with a space', { keys: ['ok', 'two words'] }, 'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_FORMAT', /entry 1/],
    ['a non-ASCII key', { keys: ['clé'] }, 'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_FORMAT', /entry 0/],
    ['bad keys even beside auth', { keys: 'x', auth: () => true }, 'FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE', /"keys"/],
    ['auth not a function', { auth: true }, 'FST_BEARER_AUTH_INVALID_OPTION', /"auth" must be a function, got boolean/],
    ['an unknown specCompliance', { keys: ['k'], specCompliance: 'rfc7235' }, 'FST_BEARER_AUTH_INVALID_SPEC', /'rfc6750' or 'rfc6749', got "rfc7235"/],
    ['an empty bearerType', { keys: ['k'], bearerType: '' }, 'FST_BEARER_AUTH_INVALID_OPTION', /"bearerType"/],
    ['a bearerType with a space', { keys: ['k'], bearerType: 'My Bearer' }, 'FST_BEARER_AUTH_INVALID_OPTION', /"bearerType"/],
    ['a bearerType that is not a string', { keys: ['k'], bearerType: 7 }, 'FST_BEARER_AUTH_INVALID_OPTION', /got number/],
    [
      'errorResponse not a function',
      { keys: ['k'], errorResponse: { error: 'x' } },
      'FST_BEARER_AUTH_INVALID_OPTION',
      /"errorResponse" must be a function, got an object/,
    ],
    ['an empty contentType', { keys: ['k'], contentType: '' }, 'FST_BEARER_AUTH_INVALID_OPTION', /"contentType"/],
    ['addHook not a boolean', { keys: ['k'], addHook: 'no' }, 'FST_BEARER_AUTH_INVALID_OPTION', /"addHook" must be a boolean, got "no"/],
    ['addHook as an array', { keys: ['k'], addHook: [] }, 'FST_BEARER_AUTH_INVALID_OPTION', /got an array/],
    ['options as an array', [], 'FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE', /"keys"/],
  ];

  for (const [name, options, code, message] of cases) {
    test(name, async () => {
      const { app } = createApp();
      app.register(bearerAuth, options as BearerAuthOptions);
      // `ready()` may return a thenable rather than a Promise, so await it inside a function.
      await assert.rejects(
        async () => {
          await app.ready();
        },
        (error: Error & { code?: string; statusCode?: number }) => {
          assert.equal(error.code, code);
          assert.match(error.message, message);
          assert.match(error.message, /@enclavejs\/bearer-auth/);
          return true;
        },
      );
    });
  }

  test('options that are not an object are refused before anything else', () => {
    for (const options of [null, undefined, 'keys', 3]) {
      assert.throws(() => resolveOptions(options), { code: 'FST_BEARER_AUTH_INVALID_OPTION', message: /"options" must be an object/ });
    }
    assert.throws(() => resolveOptions(null), { message: /got null/ });
  });
});

describe('response options', () => {
  async function rejectingApp(options: BearerAuthOptions) {
    const { app } = createApp();
    app.register(bearerAuth, options);
    app.get('/', async () => 'ok');
    await app.ready();
    return { app };
  }

  test('errorResponse builds the body from the coded error, for both kinds of 401', async () => {
    const { app } = await rejectingApp({
      keys: ['k'],
      errorResponse: (error) => ({ code: error.code, status: error.statusCode, detail: error.message }),
    });
    const missing = await get(app, '/');
    assert.equal(missing.statusCode, 401);
    assert.deepEqual(missing.json(), {
      code: 'FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER',
      status: 401,
      detail: 'missing authorization header',
    });
    const invalid = await get(app, '/', 'Bearer nope');
    assert.deepEqual(invalid.json(), {
      code: 'FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER',
      status: 401,
      detail: 'invalid authorization header',
    });
    assert.equal(invalid.headers['www-authenticate'], 'Bearer error="invalid_token"');
  });

  test('contentType sets the type of a JSON-compatible body', async () => {
    const { app } = await rejectingApp({ keys: ['k'], contentType: 'application/problem+json' });
    const answer = await get(app, '/', 'Bearer nope');
    assert.equal(answer.statusCode, 401);
    assert.match(String(answer.headers['content-type']), /^application\/problem\+json/);
    assert.deepEqual(answer.json(), { error: 'invalid authorization header' });
  });

  test('contentType with a string body from errorResponse', async () => {
    const { app } = await rejectingApp({
      keys: ['k'],
      contentType: 'text/plain; charset=utf-8',
      errorResponse: (error) => `Unauthorized: ${error.message}`,
    });
    const answer = await get(app, '/');
    assert.equal(answer.statusCode, 401);
    assert.equal(answer.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(answer.body, 'Unauthorized: missing authorization header');
    assert.equal(answer.headers['www-authenticate'], 'Bearer');
  });

  test('defaults: keys only gives a JSON body, the Bearer scheme and case-insensitive matching', () => {
    const resolved = resolveOptions({ keys: new Set(['k']) });
    assert.deepEqual(resolved.keys, ['k']);
    assert.equal(resolved.auth, undefined);
    assert.equal(resolved.bearerType, 'Bearer');
    assert.equal(resolved.schemeMatching, 'case-insensitive');
    assert.equal(resolved.contentType, undefined);
    assert.equal(resolved.addHook, true);
    assert.deepEqual(resolved.errorResponse(Object.assign(new Error('m'), { code: 'C', statusCode: 401 })), { error: 'm' });
  });

  test('with auth and no keys, the key list is empty', () => {
    assert.deepEqual(resolveOptions({ auth: () => true }).keys, []);
  });
});
