// SPEC §11: bad input gets a clear 4xx and leaves the server serving. Property-based: generated
// JSON bodies, querystrings and URLs against a validating app always get a 2xx or 4xx, never a
// 5xx, nothing escapes the request path, and the server still answers afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import enclave from 'enclavejs';
import fc from 'fast-check';
import { portOf, rawExchange } from './security-helpers.ts';

const RUNS = 200;

let app: any;
const escaped: unknown[] = [];
const onEscape = (error: unknown) => escaped.push(error);

before(async () => {
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
  app = enclave();
  app.addHook('preValidation', async (request: any) => {
    request.seen = true;
  });
  app.decorateRequest('seen', false);
  const item = {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', maxLength: 50 },
      count: { type: 'integer', minimum: 0 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      meta: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
    },
  };
  app.post('/items/:id', { schema: { params: { id: { type: 'integer' } }, body: item, response: { 200: item } } }, async (request: any) => request.body);
  app.post('/raw', async (request: any) => ({ type: typeof request.body }));
  app.get(
    '/search',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', maximum: 100 }, sort: { enum: ['asc', 'desc'] }, tags: { type: 'array', items: { type: 'string' } } },
        },
      },
    },
    async (request: any) => request.query,
  );
  app.get('/files/*', async (request: any) => ({ path: request.params['*'] }));
  app.get('/users/:id/posts/:post', async (request: any) => request.params);
  await app.listen({ port: 0, host: '127.0.0.1' });
});

after(async () => {
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
  await app.close();
});

function assertClientOrSuccess(response: { statusCode: number; body: string }, what: string) {
  assert.ok(response.statusCode >= 200 && response.statusCode < 500, `${what} → ${response.statusCode} ${response.body.slice(0, 200)}`);
}

const protoKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty');
const key = fc.oneof(fc.constantFrom('name', 'count', 'tags', 'meta', 'at'), protoKey, fc.string({ maxLength: 8 }));

/** JSON text built by hand, so keys like __proto__ are written as they are. */
const jsonText: fc.Arbitrary<string> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false', '0', '-1', '1e308', '1e999', '"x"', '""', '"2024-01-01T00:00:00Z"'),
    fc.double().map((n) => JSON.stringify(n)),
    fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value as fc.Arbitrary<string>;

/** Valid JSON, JSON cut short or with garbage, or any text. */
const bodyText = fc.oneof(
  { weight: 4, arbitrary: jsonText },
  { weight: 1, arbitrary: fc.tuple(jsonText, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('[[[[[[[[[[[[[[[[[[[[', '{"name":"a","name":"b"}', '\uFEFF{"name":"a"}', `${'['.repeat(5000)}${']'.repeat(5000)}`) },
);

const urlChars = [...'abcXYZ019-._~!$&\'()*+,;=:@/%[]{}|^`\\"<>'];
const urlPiece = fc.oneof(
  fc.string({ unit: fc.constantFrom(...urlChars), maxLength: 30 }),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', '%c0%af', '..', '../..', '//', '%FF%FE', '__proto__', 'constructor'),
  fc.string({ maxLength: 10 }).map((s) => encodeURIComponent(s)),
);

describe('property: generated input never gets a 5xx', () => {
  test('JSON bodies (valid, truncated, garbage, prototype keys, deep nesting)', async () => {
    await fc.assert(
      fc.asyncProperty(bodyText, fc.constantFrom('/items/1', '/items/x', '/raw'), async (payload, url) => {
        const response = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
        assertClientOrSuccess(response, `${url} ${JSON.stringify(payload).slice(0, 80)}`);
      }),
      { numRuns: RUNS, seed: 42 },
    );
  });

  test('querystrings', async () => {
    const pair = fc.tuple(fc.oneof(fc.constantFrom('limit', 'sort', 'tags', 'tags[]', '__proto__', 'constructor[prototype]'), urlPiece), urlPiece);
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 6 }), async (pairs) => {
        const query = pairs.map(([k, v]) => `${k}=${v}`).join('&');
        const response = await app.inject({ method: 'GET', url: `/search?${query}` });
        assertClientOrSuccess(response, query);
      }),
      { numRuns: RUNS, seed: 7 },
    );
    assert.equal(({} as any).prototype, undefined);
  });

  test('URLs (paths with malformed escapes, dot segments, prototype names, long parameters)', async () => {
    const path = fc.oneof(
      fc.array(urlPiece, { minLength: 1, maxLength: 5 }).map((pieces) => `/${pieces.join('/')}`),
      fc.tuple(fc.constantFrom('/files/', '/users/', '/items/'), urlPiece, urlPiece).map(([base, a, b]) => `${base}${a}/posts/${b}`),
      fc.nat({ max: 400 }).map((length) => `/users/${'a'.repeat(length)}/posts/1`),
    );
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom('GET', 'POST', 'DELETE', 'OPTIONS'), async (url, method) => {
        let response: { statusCode: number; body: string };
        try {
          response = await app.inject({ method, url });
        } catch (error: any) {
          // light-my-request cannot build some of these URLs (`/\\/`); a socket can send them.
          if (error?.code !== 'ERR_INVALID_URL') throw error;
          const exchange = await rawExchange(portOf(app), `${method} ${url} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
          response = { statusCode: exchange.status ?? 0, body: exchange.text };
        }
        assertClientOrSuccess(response, `${method} ${url}`);
      }),
      { numRuns: RUNS, seed: 99 },
    );
  });

  test('raw request lines on a socket: Node or Enclave answers 4xx, the server keeps serving', async () => {
    const target = fc.oneof(
      urlPiece.map((p) => `/${p}`),
      fc.string({ unit: fc.constantFrom(...urlChars, ' ', '\t'), maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(target, async (requestTarget) => {
        const exchange = await rawExchange(portOf(app), `GET ${requestTarget} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        assert.ok(exchange.status !== undefined && exchange.status < 500, `${JSON.stringify(requestTarget)} → ${exchange.text.slice(0, 200)}`);
      }),
      { numRuns: 60, seed: 3 },
    );
  });

  test('nothing escaped the request path, and the server still serves', async () => {
    assert.deepEqual(escaped, []);
    const exchange = await rawExchange(portOf(app), 'GET /search?limit=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(exchange.status, 200, exchange.text);
  });
});
