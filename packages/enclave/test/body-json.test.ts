import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { ContentTypeParserStore, getDefaultJsonParser, parseRequestBody, parseTextBody } from '../src/http/content-type-parser.js';

type Action = 'error' | 'remove' | 'ignore';

function storeFor(onProtoPoisoning: Action = 'error', onConstructorPoisoning: Action = 'error') {
  return ContentTypeParserStore.createRoot({ bodyLimit: 1024, onProtoPoisoning, onConstructorPoisoning });
}

function send(store: ContentTypeParserStore, contentType: string, body: string): Promise<{ err: any; body: any; mediaType: unknown }> {
  const bytes = Buffer.from(body);
  const raw = Object.assign(Readable.from([bytes]), {
    headers: { 'content-type': contentType, 'content-length': String(bytes.length) },
    method: 'POST',
  });
  return new Promise((resolve) => {
    parseRequestBody(store, { raw, headers: raw.headers }, raw, 1024, (err, parsed, mediaType) => resolve({ err, body: parsed, mediaType }));
  });
}

describe('application/json', () => {
  test('valid JSON is parsed, the essence returned', async () => {
    const result = await send(storeFor(), 'application/json', '{"a":[1,2,{"b":null}],"c":"\u00e9"}');
    assert.equal(result.err, null);
    assert.deepEqual(result.body, { a: [1, 2, { b: null }], c: '\u00e9' });
    assert.equal(result.mediaType, 'application/json');
  });

  test('scalars are valid JSON bodies', async () => {
    assert.equal((await send(storeFor(), 'application/json', '42')).body, 42);
    assert.equal((await send(storeFor(), 'application/json', 'null')).body, null);
  });

  test('an empty body is 400 FST_ERR_CTP_EMPTY_JSON_BODY', async () => {
    const result = await send(storeFor(), 'application/json', '');
    assert.equal(result.err.code, 'FST_ERR_CTP_EMPTY_JSON_BODY');
    assert.equal(result.err.statusCode, 400);
  });

  test('malformed JSON is 400 FST_ERR_CTP_INVALID_JSON_BODY', async () => {
    for (const body of ['{', '{"a":}', ' ', "{'a':1}", '{"a":1} x', 'undefined']) {
      const result = await send(storeFor(), 'application/json', body);
      assert.equal(result.err?.code, 'FST_ERR_CTP_INVALID_JSON_BODY', body);
      assert.equal(result.err.statusCode, 400);
    }
  });

  test('utf-8 charsets are accepted in any spelling', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json;charset=utf8']) {
      assert.deepEqual((await send(storeFor(), contentType, '{"ok":true}')).body, { ok: true }, contentType);
    }
  });

  test('any other charset is 415', async () => {
    for (const contentType of ['application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset="iso-8859-1"']) {
      const result = await send(storeFor(), contentType, '{"ok":true}');
      assert.equal(result.err?.statusCode, 415, contentType);
      assert.equal(result.err.code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    }
  });

  test('text/plain is a string, whatever it looks like', async () => {
    const result = await send(storeFor(), 'text/plain', '{"__proto__":{"x":1}}');
    assert.equal(result.body, '{"__proto__":{"x":1}}');
    assert.equal(result.mediaType, 'text/plain');
  });
});

describe('prototype poisoning', () => {
  const protoBody = '{"a":1,"__proto__":{"polluted":true}}';
  const escapedProtoBody = '{"\\u005f_proto__":{"polluted":true}}';
  const constructorBody = '{"a":1,"constructor":{"prototype":{"polluted":true}}}';

  test("'error' (the default) refuses __proto__ with 400, its cause says why", async () => {
    for (const body of [protoBody, escapedProtoBody]) {
      const result = await send(storeFor(), 'application/json', body);
      assert.equal(result.err?.code, 'FST_ERR_CTP_INVALID_JSON_BODY');
      assert.equal(result.err.statusCode, 400);
      // The client gets Fastify's message; the cause, which the log shows, says why.
      assert.equal(result.err.message, "Body is not valid JSON but content-type is set to 'application/json'");
      assert.match(result.err.cause.message, /forbidden prototype property/);
    }
  });

  test("'remove' drops the __proto__ key", async () => {
    const result = await send(storeFor('remove'), 'application/json', protoBody);
    assert.equal(result.err, null);
    assert.equal(Object.hasOwn(result.body, '__proto__'), false);
    assert.equal(result.body.a, 1);
    assert.equal(result.body.polluted, undefined);
  });

  test("'ignore' keeps __proto__ as an own key, without polluting anything", async () => {
    const result = await send(storeFor('ignore'), 'application/json', protoBody);
    assert.equal(result.err, null);
    assert.equal(Object.hasOwn(result.body, '__proto__'), true);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("'error' refuses constructor.prototype with 400", async () => {
    const result = await send(storeFor(), 'application/json', constructorBody);
    assert.equal(result.err?.code, 'FST_ERR_CTP_INVALID_JSON_BODY');
    assert.equal(result.err.statusCode, 400);
    assert.match(result.err.cause.message, /forbidden/);
  });

  test("'remove' drops the constructor key", async () => {
    const result = await send(storeFor('error', 'remove'), 'application/json', constructorBody);
    assert.equal(result.err, null);
    assert.equal(Object.hasOwn(result.body, 'constructor'), false);
    assert.equal(result.body.a, 1);
  });

  test("'ignore' keeps constructor", async () => {
    const result = await send(storeFor('error', 'ignore'), 'application/json', constructorBody);
    assert.equal(result.err, null);
    assert.deepEqual(result.body.constructor, { prototype: { polluted: true } });
  });

  test('a constructor key without prototype is harmless and kept', async () => {
    const result = await send(storeFor(), 'application/json', '{"constructor":"fine"}');
    assert.equal(result.body.constructor, 'fine');
  });

  // The parser skips secure-json-parse's scan for texts that cannot hold either key: these are
  // the ones that can, each spelled so that only one of its checks lets it through.
  test('escaped keys and a leading byte-order mark still go through the poisoning checks', async () => {
    const escapedConstructor = '{"\\u0063onstructor":{"prototype":{"polluted":true}}}';
    const refused = await send(storeFor(), 'application/json', escapedConstructor);
    assert.equal(refused.err?.code, 'FST_ERR_CTP_INVALID_JSON_BODY');
    assert.match(refused.err.cause.message, /forbidden/);
    const withMark = await send(storeFor(), 'application/json', '\uFEFF{"a":1}');
    assert.equal(withMark.err, null);
    assert.deepEqual(withMark.body, { a: 1 });
    const markedProto = await send(storeFor('remove'), 'application/json', '\uFEFF{"a":1,"__proto__":{"polluted":true}}');
    assert.deepEqual(markedProto.body, { a: 1 });
  });

  test('children inherit the root settings', async () => {
    const child = storeFor('remove').createChild();
    const result = await send(child, 'application/json', protoBody);
    assert.equal(result.err, null);
    assert.equal(Object.hasOwn(result.body, '__proto__'), false);
  });
});

describe('the built-in parsers as functions', () => {
  test('getDefaultJsonParser works with done and without', () => {
    const parse = getDefaultJsonParser('error', 'error');
    let reported: unknown;
    parse({ headers: {} }, '{"x":1}', (err, body) => {
      assert.equal(err, null);
      reported = body;
    });
    assert.deepEqual(reported, { x: 1 });
    assert.deepEqual(parse({}, Buffer.from('[1]')), [1]);
    assert.throws(() => parse({}, '{"__proto__":{}}'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    assert.throws(() => parse({}, ''), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY' });
  });

  test('a JSON parser registered for another type reads the charset of that request', async () => {
    const store = storeFor();
    store.add('application/vnd.api+json', { parseAs: 'string' }, getDefaultJsonParser('error', 'error'), undefined);
    assert.deepEqual((await send(store, 'application/vnd.api+json', '{"a":1}')).body, { a: 1 });
    assert.equal((await send(store, 'application/vnd.api+json; charset=latin1', '{"a":1}')).err.statusCode, 415);
  });

  test('parseTextBody returns text for strings and Buffers', () => {
    assert.equal(parseTextBody({}, Buffer.from('h\u00e9')), 'h\u00e9');
    assert.equal(parseTextBody({}, 'plain'), 'plain');
  });
});
