// RFC 6750 header handling: what passes, what is refused, and how the refusal is worded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import bearerAuth, { type BearerAuthOptions } from '@enclavejs/bearer-auth';
import { resolveOptions } from '../dist/options.js';
import { createRequestCheck } from '../dist/verify.js';
import { challenge, createApp, get, invalidBody, missingBody } from './helpers.ts';

const key = 'abc-123._~+/xyz==';

async function protectedApp(options: BearerAuthOptions = { keys: [key] }) {
  const { app, logs } = createApp();
  app.register(bearerAuth, options);
  app.get('/', async () => ({ ok: true }));
  await app.ready();
  return { app, logs };
}

describe('accepted headers', () => {
  test('the scheme and a known key, one space apart, reach the handler', async () => {
    const { app } = await protectedApp();
    const answer = await get(app, '/', `Bearer ${key}`);
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(answer.json(), { ok: true });
    assert.equal(answer.headers['www-authenticate'], undefined);
  });

  test('the scheme is case-insensitive by default (rfc6750)', async () => {
    const { app } = await protectedApp();
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      assert.equal((await get(app, '/', `${scheme} ${key}`)).statusCode, 200, scheme);
    }
  });

  test('every b64token character and trailing "=" padding are accepted in a key', async () => {
    const keys = ['AZaz09-._~+/', 'x=', 'x===', '/', '~'];
    const { app } = await protectedApp({ keys });
    for (const each of keys) assert.equal((await get(app, '/', `Bearer ${each}`)).statusCode, 200, each);
  });
});

describe('missing header', () => {
  test('401, "missing authorization header", and a challenge without an error code', async () => {
    const { app } = await protectedApp();
    const answer = await get(app, '/');
    assert.equal(answer.statusCode, 401);
    assert.deepEqual(answer.json(), missingBody);
    // RFC 6750 §3.1: a request that carries no credentials gets no error code.
    assert.equal(answer.headers['www-authenticate'], challenge.missing);
    assert.match(String(answer.headers['content-type']), /^application\/json/);
  });

  test('the handler never runs', async () => {
    const { app } = createApp();
    let ran = false;
    app.register(bearerAuth, { keys: [key] });
    app.get('/', async () => {
      ran = true;
      return 'reached';
    });
    assert.equal((await get(app, '/')).statusCode, 401);
    assert.equal(ran, false);
  });
});

describe('refused headers', () => {
  const refused: Array<[string, string]> = [
    ['an unknown key', 'Bearer not-the-key'],
    ['a known key with a suffix', `Bearer ${key}x`],
    ['a prefix of a known key', `Bearer ${key.slice(0, 5)}`],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['two spaces before the key', `Bearer  ${key}`],
    ['several spaces before the key', `Bearer     ${key}`],
    ['a tab instead of the space', `Bearer\t${key}`],
    ['a space and a tab', `Bearer \t${key}`],
    ['no separator', `Bearer${key}`],
    ['another scheme', `Basic ${key}`],
    ['another scheme with base64 credentials', 'Basic dXNlcjpwYXNz'],
    ['an empty value', ''],
    ['only spaces', '   '],
    ['a leading space', ` Bearer ${key}`],
    ['a trailing space', `Bearer ${key} `],
    ['trailing spaces', `Bearer ${key}   `],
    ['a trailing tab', `Bearer ${key}\t`],
    ['two tokens', `Bearer ${key} ${key}`],
    ['a comma-separated second credential', `Bearer ${key}, Basic abc`],
    ['a character outside b64token', `Bearer ${key}!`],
    ['"=" inside the token', 'Bearer ab=cd'],
    ['only padding', 'Bearer ==='],
    ['non-ASCII in the token', 'Bearer clé'],
    ['non-ASCII in the scheme', `Béarer ${key}`],
    ['a quoted token', `Bearer "${key}"`],
    ['the key without the scheme', key],
  ];

  for (const [name, header] of refused) {
    test(`${name}: 401 "invalid authorization header" with error="invalid_token"`, async () => {
      const { app } = await protectedApp();
      const answer = await get(app, '/', header);
      assert.equal(answer.statusCode, 401);
      assert.deepEqual(answer.json(), invalidBody);
      assert.equal(answer.headers['www-authenticate'], challenge.invalid);
    });
  }
});

test('a header value that is not a string is refused (Node never makes one; a hand-built request might)', async () => {
  const check = createRequestCheck(resolveOptions({ keys: [key] }));
  const log = { error: () => assert.fail('nothing to log') };
  const request = { headers: { authorization: [`Bearer ${key}`] as unknown as string }, log };
  const error = await check(request);
  assert.equal(error?.code, 'FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER');
  assert.equal(await check({ headers: { authorization: `Bearer ${key}` }, log }), undefined);
});

describe('bearerType', () => {
  test('a custom scheme is expected in the header and named in both challenges', async () => {
    const { app } = await protectedApp({ keys: [key], bearerType: 'Token' });
    assert.equal((await get(app, '/', `Token ${key}`)).statusCode, 200);
    assert.equal((await get(app, '/', `token ${key}`)).statusCode, 200);

    const wrongScheme = await get(app, '/', `Bearer ${key}`);
    assert.equal(wrongScheme.statusCode, 401);
    assert.deepEqual(wrongScheme.json(), invalidBody);
    assert.equal(wrongScheme.headers['www-authenticate'], 'Token error="invalid_token"');

    const missing = await get(app, '/');
    assert.equal(missing.headers['www-authenticate'], 'Token');
  });
});

describe('specCompliance', () => {
  test("'rfc6750' (the default, given explicitly) matches the scheme case-insensitively", async () => {
    const { app } = await protectedApp({ keys: [key], specCompliance: 'rfc6750', bearerType: 'Bearer' });
    assert.equal((await get(app, '/', `bearer ${key}`)).statusCode, 200);
    assert.equal((await get(app, '/', `BEARER ${key}`)).statusCode, 200);
  });

  test("'rfc6749' matches the scheme exactly as bearerType spells it", async () => {
    const { app } = await protectedApp({ keys: [key], specCompliance: 'rfc6749' });
    assert.equal((await get(app, '/', `Bearer ${key}`)).statusCode, 200);
    for (const scheme of ['bearer', 'BEARER']) {
      const answer = await get(app, '/', `${scheme} ${key}`);
      assert.equal(answer.statusCode, 401, scheme);
      assert.deepEqual(answer.json(), invalidBody);
    }
  });

  test("'rfc6749' with a lower-case bearerType wants exactly that spelling", async () => {
    const { app } = await protectedApp({ keys: [key], specCompliance: 'rfc6749', bearerType: 'bearer' });
    assert.equal((await get(app, '/', `bearer ${key}`)).statusCode, 200);
    assert.equal((await get(app, '/', `Bearer ${key}`)).statusCode, 401);
  });

  test('the key itself is always case-sensitive', async () => {
    const { app } = await protectedApp({ keys: ['MixedCase'] });
    assert.equal((await get(app, '/', 'Bearer MixedCase')).statusCode, 200);
    assert.equal((await get(app, '/', 'Bearer mixedcase')).statusCode, 401);
  });
});

describe('keys', () => {
  test('a Set of keys works like an array, and every key is accepted', async () => {
    const { app } = await protectedApp({ keys: new Set(['first', 'second', 'third']) });
    for (const each of ['first', 'second', 'third']) {
      assert.equal((await get(app, '/', `Bearer ${each}`)).statusCode, 200, each);
    }
    assert.equal((await get(app, '/', 'Bearer fourth')).statusCode, 401);
  });

  test('an empty key list refuses every token', async () => {
    const { app } = await protectedApp({ keys: [] });
    assert.equal((await get(app, '/', 'Bearer anything')).statusCode, 401);
  });
});
