// SPEC §11, docs/security.md: a body can never reach a handler without passing the schema its
// parser's media type selects. Covers content-type spoofing through parameters, normalization
// (case, whitespace, tabs, trailing garbage), prototype property names as content types, and a
// property-based check that the parser's choice and the schema's choice always agree.
import assert from 'node:assert/strict';
import { parse as parseQuerystring } from 'node:querystring';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';
import fc from 'fast-check';

const roleSchema = {
  type: 'object',
  required: ['role'],
  properties: { role: { type: 'string', enum: ['user'] } },
} as const;

/** A route that accepts JSON only, through a content map whose one entry restricts `role`. */
async function jsonOnlyApp() {
  const app = enclave();
  app.post('/account', { schema: { body: { content: { 'application/json': { schema: roleSchema } } } } }, async (request: any) => ({
    role: request.body.role,
  }));
  await app.ready();
  return app;
}

// Spellings of application/json that RFC 9110 makes equal to it: the schema must apply.
const equivalentJsonTypes = [
  'application/json',
  'Application/JSON',
  'APPLICATION/JSON',
  ' application/json',
  '\tapplication/json',
  'application/json ',
  'application/json\t',
  'application/json;',
  'application/json ; charset=utf-8',
  'application/json;\tcharset=UTF-8',
  'application/json; charset="utf-8"',
  'application/json; foo=bar',
];

// Not application/json, or not a media type at all: refused before any handler runs.
const refusedTypes = [
  'application/json garbage',
  'application/json\tgarbage',
  'application/json, text/plain',
  'application/jsonx',
  'application /json',
  'application/ json',
  'application/json; charset',
  'application/json; charset=utf-8; charset=utf-8',
  'application/json; q="unterminated',
  'application',
  '/json',
  '',
  'json',
];

describe('content-type normalization', () => {
  test('every RFC-equal spelling of application/json is validated by the application/json schema', async () => {
    const app = await jsonOnlyApp();
    for (const contentType of equivalentJsonTypes) {
      const refused = await app.inject({ method: 'POST', url: '/account', headers: { 'content-type': contentType }, payload: '{"role":"admin"}' });
      assert.equal(refused.statusCode, 400, `${JSON.stringify(contentType)} skipped the schema: ${refused.body}`);
      assert.equal(refused.json().code, 'FST_ERR_VALIDATION', JSON.stringify(contentType));
      const accepted = await app.inject({ method: 'POST', url: '/account', headers: { 'content-type': contentType }, payload: '{"role":"user"}' });
      assert.equal(accepted.statusCode, 200, `${JSON.stringify(contentType)}: ${accepted.body}`);
    }
  });

  test('a malformed or different media type is 415, never parsed as JSON past the schema', async () => {
    const app = await jsonOnlyApp();
    for (const contentType of refusedTypes) {
      const response = await app.inject({ method: 'POST', url: '/account', headers: { 'content-type': contentType }, payload: '{"role":"admin"}' });
      assert.equal(response.statusCode, 415, `${JSON.stringify(contentType)} → ${response.statusCode} ${response.body}`);
      assert.equal(response.json().code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    }
  });

  test('a single body schema applies to bodies of every parser, not only JSON', async () => {
    const app = enclave();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, async (_request: unknown, body: any) => ({
      ...parseQuerystring(body),
    }));
    app.post('/account', { schema: { body: roleSchema } }, async (request: any) => ({ role: request.body.role }));
    const form = await app.inject({ method: 'POST', url: '/account', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'role=admin' });
    assert.equal(form.statusCode, 400, form.body);
    assert.equal(form.json().code, 'FST_ERR_VALIDATION');
    const text = await app.inject({ method: 'POST', url: '/account', headers: { 'content-type': 'text/plain' }, payload: '{"role":"admin"}' });
    assert.equal(text.statusCode, 400, 'a text body is a string, which the object schema refuses');
  });
});

describe('content-type spoofing through parameters', () => {
  test('text/plain; content-type="application/json" is text: no JSON entry → 415, never the JSON path', async () => {
    const app = await jsonOnlyApp();
    for (const contentType of [
      'text/plain; content-type="application/json"',
      'text/plain; content-type=application/json',
      'text/plain;type=application/json',
    ]) {
      const response = await app.inject({ method: 'POST', url: '/account', headers: { 'content-type': contentType }, payload: '{"role":"admin"}' });
      assert.equal(response.statusCode, 415, `${contentType}: ${response.body}`);
    }
  });

  test('with entries for both, the text schema judges the text body', async () => {
    const app = enclave();
    const schema = {
      body: {
        content: {
          'application/json': { schema: roleSchema },
          'text/plain': { schema: { type: 'string', maxLength: 4 } },
        },
      },
    };
    app.post('/account', { schema }, async (request: any) => ({ kind: typeof request.body, essence: request.contentType }));
    const spoofed = await app.inject({
      method: 'POST',
      url: '/account',
      headers: { 'content-type': 'text/plain; content-type="application/json"' },
      payload: '{"role":"admin"}',
    });
    assert.equal(spoofed.statusCode, 400);
    assert.match(spoofed.json().message, /must NOT have more than 4 characters/);
    const short = await app.inject({
      method: 'POST',
      url: '/account',
      headers: { 'content-type': 'Text/Plain; content-type="application/json"' },
      payload: 'hi',
    });
    assert.deepEqual(short.json(), { kind: 'string', essence: 'text/plain' });
  });
});

describe('prototype property names as content types', () => {
  const names = ['constructor', '__proto__', 'hasOwnProperty', 'toString', 'valueOf', 'prototype'];
  const spellings = names.flatMap((name) => [
    name,
    `${name}/${name}`,
    `application/${name}`,
    `${name}/json`,
    `text/plain; ${name}=x`,
    `application/json; ${name}="1"`,
  ]);

  test('are unknown media types (415) or ordinary parameters: never a crash, never a bypass', async () => {
    const app = enclave();
    app.post('/any', async (request: any) => ({ kind: typeof request.body }));
    app.post('/account', { schema: { body: { content: { 'application/json': { schema: roleSchema } } } } }, async () => 'passed');
    await app.ready();
    for (const contentType of spellings) {
      const any = await app.inject({ method: 'POST', url: '/any', headers: { 'content-type': contentType }, payload: '{"role":"admin"}' });
      const parameterOnly = contentType.includes(';');
      assert.equal(any.statusCode, parameterOnly ? 200 : 415, `${contentType}: ${any.body}`);
      const guarded = await app.inject({ method: 'POST', url: '/account', headers: { 'content-type': contentType }, payload: '{"role":"admin"}' });
      assert.ok([400, 415].includes(guarded.statusCode), `${contentType} → ${guarded.statusCode} ${guarded.body}`);
    }
    assert.equal(({} as any).x, undefined);
  });

  test('as a content map key they are ordinary keys', async () => {
    const app = enclave();
    app.post('/p', { schema: { body: { content: { 'application/json': { schema: roleSchema } } } } }, async () => 'passed');
    for (const contentType of ['constructor', '__proto__', 'application/constructor', 'application/__proto__']) {
      const response = await app.inject({ method: 'POST', url: '/p', headers: { 'content-type': contentType }, payload: '{}' });
      assert.equal(response.statusCode, 415, contentType);
    }
  });
});

// ── Property: parser and schema agree ────────────────────────────────────────────────────────

const headerChars = [...'\t !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~'];

/** Mostly `common`, sometimes `rare`: enough valid headers to reach both parsers often. */
const mostly = (common: string[], rare: string[]) =>
  fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...common) }, { weight: 1, arbitrary: fc.constantFrom(...rare) });

const contentTypeArbitrary = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', ' ', '\t', '  '),
        mostly(['application', 'APPLICATION', 'Application', 'text', 'TEXT', 'Text'], ['constructor', '__proto__', 'image', '']),
        mostly(['/'], ['', ' /', '/ ']),
        mostly(['json', 'JSON', 'Json', 'plain', 'PLAIN'], ['vnd.api+json', 'xml', 'constructor', '*', '']),
        fc.array(
          mostly(
            [
              ';',
              ' ;',
              ';\t',
              '; charset=utf-8',
              ';charset="UTF-8"',
              '; content-type="application/json"',
              '; content-type=text/plain',
              '; __proto__=x',
              '; constructor="y"',
            ],
            ['; charset=latin1', '; a=', ' garbage', '\tjson', ',application/json', '; q="unclosed', '; q="a\\"b"', '; charset=utf-8; charset=utf-8'],
          ),
          { maxLength: 2 },
        ),
        fc.constantFrom('', ' ', '\t'),
      )
      .map(([lead, type, slash, subtype, parameters, trail]) => `${lead}${type}${slash}${subtype}${parameters.join('')}${trail}`),
  },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...headerChars), maxLength: 40 }) },
);

/** A validator that accepts anything and reports which schema ran on what the parser produced. */
function taggingCompiler({ schema }: { schema: any }) {
  return (data: unknown) => ({ value: { validatedBy: schema.description, parsedAs: typeof data } });
}

describe('property: the parser and the schema are chosen by the same media type', () => {
  test('for generated Content-Type headers, a 2xx was validated by the schema of the parser that ran; else 4xx', async () => {
    const app = enclave();
    // A JSON parser for a +json suffix that the content map does not list: such bodies must be refused.
    app.addContentTypeParser(/\+json$/, { parseAs: 'string' }, async (_request: unknown, body: any) => JSON.parse(body));
    app.post(
      '/echo',
      {
        validatorCompiler: taggingCompiler,
        schema: {
          body: {
            content: {
              'application/json': { schema: { type: 'object', description: 'json' } },
              'text/plain': { schema: { type: 'string', description: 'text' } },
            },
          },
        },
      },
      async (request: any) => ({ ...request.body, essence: request.contentType }),
    );
    await app.ready();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(contentTypeArbitrary, async (contentType) => {
        const response = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': contentType }, payload: '{"k":1}' });
        if (response.statusCode >= 200 && response.statusCode < 300) {
          accepted++;
          const { validatedBy, parsedAs, essence } = response.json();
          const expected = validatedBy === 'json' ? { parsedAs: 'object', essence: 'application/json' } : { parsedAs: 'string', essence: 'text/plain' };
          assert.deepEqual({ parsedAs, essence }, expected, `${JSON.stringify(contentType)} → ${response.body}`);
        } else {
          assert.ok([400, 415].includes(response.statusCode), `${JSON.stringify(contentType)} → ${response.statusCode} ${response.body}`);
        }
      }),
      { numRuns: 300, seed: 1108 },
    );
    assert.ok(accepted > 20, `the generator should reach both parsers often (accepted ${accepted})`);
  });
});
