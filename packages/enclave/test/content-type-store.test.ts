import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { errorCodes } from '../src/errors.js';
import { type ContentTypeParserFunction, ContentTypeParserStore, parseMediaType, parseRequestBody } from '../src/http/content-type-parser.js';

const rootOptions = { bodyLimit: 1024, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' } as const;

function named(name: string): ContentTypeParserFunction {
  return async () => name;
}

/** Which parser the store picks for a Content-Type header, by running a request through it. */
function chosenBy(store: ContentTypeParserStore, contentType: string): Promise<{ err: any; body: unknown; mediaType: unknown }> {
  const raw = Object.assign(Readable.from([Buffer.from('x')]), { headers: { 'content-type': contentType, 'content-length': '1' }, method: 'POST' });
  return new Promise((resolve) => {
    parseRequestBody(store, { raw, headers: raw.headers }, raw, 1024, (err, body, mediaType) => resolve({ err, body, mediaType }));
  });
}

function pick(store: ContentTypeParserStore, contentType: string): unknown {
  const mediaType = parseMediaType(contentType);
  assert.ok(mediaType);
  return store.match(mediaType)?.label;
}

describe('ContentTypeParserStore: registration errors', () => {
  const store = ContentTypeParserStore.createRoot(rootOptions);
  const cases: Array<[string, () => void, string]> = [
    ['empty string', () => store.add('', {}, named('x'), null), 'FST_ERR_CTP_EMPTY_TYPE'],
    ['blank string', () => store.add('  ', {}, named('x'), null), 'FST_ERR_CTP_EMPTY_TYPE'],
    ['number matcher', () => store.add(42 as unknown as string, {}, named('x'), null), 'FST_ERR_CTP_INVALID_TYPE'],
    ['malformed string', () => store.add('application/json garbage', {}, named('x'), null), 'FST_ERR_CTP_INVALID_TYPE'],
    ['no subtype', () => store.add('json', {}, named('x'), null), 'FST_ERR_CTP_INVALID_TYPE'],
    ['empty array', () => store.add([], {}, named('x'), null), 'FST_ERR_CTP_INVALID_TYPE'],
    ['non-function parser', () => store.add('a/b', {}, 'nope' as unknown as ContentTypeParserFunction, null), 'FST_ERR_CTP_INVALID_HANDLER'],
    ['bad parseAs', () => store.add('a/b', { parseAs: 'json' as 'string' }, named('x'), null), 'FST_ERR_CTP_INVALID_PARSE_TYPE'],
    ['zero bodyLimit', () => store.add('a/b', { bodyLimit: 0 }, named('x'), null), 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT'],
    ['fractional bodyLimit', () => store.add('a/b', { bodyLimit: 1.5 }, named('x'), null), 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT'],
    ['string bodyLimit', () => store.add('a/b', { bodyLimit: '10' as unknown as number }, named('x'), null), 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT'],
  ];
  for (const [name, run, code] of cases) {
    test(name, () => {
      assert.throws(run, (err: any) => err.code === code);
    });
  }

  test('nothing is registered by a failed add', () => {
    assert.throws(() => store.add(['c/d', 'bad type x'], {}, named('x'), null), { code: 'FST_ERR_CTP_INVALID_TYPE' });
    assert.equal(store.has('c/d'), false);
  });

  test('duplicate in the same store, including equivalent spellings', () => {
    const own = ContentTypeParserStore.createRoot(rootOptions);
    own.add('application/xml', {}, named('xml'), null);
    assert.throws(() => own.add('Application/XML ', {}, named('again'), null), { code: 'FST_ERR_CTP_ALREADY_PRESENT' });
    own.add(/^image\/.*$/i, {}, named('img'), null);
    assert.throws(() => own.add(/^image\/.*$/i, {}, named('img2'), null), { code: 'FST_ERR_CTP_ALREADY_PRESENT' });
    own.add('*', {}, named('any'), null);
    assert.throws(() => own.add('*', {}, named('any2'), null), { code: 'FST_ERR_CTP_ALREADY_PRESENT' });
    assert.throws(() => own.add(['x/y', 'X/Y'], {}, named('twice'), null), { code: 'FST_ERR_CTP_ALREADY_PRESENT' });
    assert.equal(own.has('x/y'), false);
  });

  test('the errors carry the code and status of their coded factory', () => {
    assert.throws(
      () => store.add('', {}, named('x'), null),
      (err: { code?: string; statusCode?: number }) =>
        err instanceof TypeError && err.code === errorCodes.FST_ERR_CTP_EMPTY_TYPE.code && err.statusCode === 500,
    );
  });
});

describe('ContentTypeParserStore: has, remove, removeAll, describe', () => {
  test('the root starts with JSON and text', () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    assert.deepEqual(store.describe(), ['application/json', 'text/plain']);
    assert.equal(store.has('application/json'), true);
    assert.equal(store.has('APPLICATION/JSON'), true);
    assert.equal(store.has('text/html'), false);
    assert.equal(store.has('*'), false);
  });

  test('built-ins can be replaced without removing them first', async () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    store.add('application/json', {}, named('mine'), null);
    assert.equal((await chosenBy(store, 'application/json')).body, 'mine');
    assert.throws(() => store.add('application/json', {}, named('again'), null), { code: 'FST_ERR_CTP_ALREADY_PRESENT' });
  });

  test('remove returns whether something was removed; arrays remove each', () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    const re = /^a\/.+$/;
    store.add([re, 'b/c', '*'], {}, named('x'), null);
    assert.equal(store.has(/^a\/.+$/), true, 'RegExps are identified by source and flags');
    assert.equal(store.has(/^a\/.+$/i), false);
    assert.equal(store.remove('b/c'), true);
    assert.equal(store.remove('b/c'), false);
    assert.equal(store.remove([re, '*', 'zz/zz']), true);
    assert.deepEqual(store.describe(), ['application/json', 'text/plain']);
    assert.equal(store.remove('not a type'), false);
  });

  test('removeAll leaves nothing, so every typed body is refused', async () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    store.add('*', {}, named('any'), null);
    store.removeAll();
    assert.deepEqual(store.describe(), []);
    const result = await chosenBy(store, 'application/json');
    assert.equal(result.err.code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    assert.equal(result.err.statusCode, 415);
  });

  test('prototype names are harmless as matchers and as lookups', async () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    assert.equal(store.has('__proto__/__proto__'), false);
    assert.equal(store.has('constructor/prototype'), false);
    assert.equal(store.remove('__proto__/x'), false);
    assert.equal((await chosenBy(store, '__proto__/constructor')).err.statusCode, 415);
    assert.equal((await chosenBy(store, 'application/json; __proto__=x')).err.code, 'FST_ERR_CTP_INVALID_JSON_BODY', 'still JSON, parameter ignored');
    store.add('__proto__/x', {}, named('proto'), null);
    assert.equal((await chosenBy(store, '__proto__/x')).body, 'proto');
    assert.equal((await chosenBy(store, '__proto__/y')).err.statusCode, 415);
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });
});

describe('ContentTypeParserStore: precedence', () => {
  const store = ContentTypeParserStore.createRoot(rootOptions);
  store.add('*', {}, named('catch-all'), null);
  store.add(/json/, {}, named('re-json'), null);
  store.add(/^application\//, {}, named('re-app'), null);
  store.add('application/vnd.x+json', {}, named('vnd'), null);
  store.add('application/vnd.x+json; version=2', {}, named('vnd-v2'), null);
  store.add('application/vnd.x+json; version=2; charset=utf-8', {}, named('vnd-v2-utf8'), null);

  test('exact media type beats RegExps', () => {
    assert.equal(pick(store, 'application/json'), 'application/json');
    assert.equal(pick(store, 'application/vnd.x+json'), 'application/vnd.x+json');
  });

  test('a matcher with parameters matches only when they are present and equal', () => {
    assert.equal(pick(store, 'application/vnd.x+json; version=2'), 'application/vnd.x+json; version="2"');
    assert.equal(pick(store, 'application/vnd.x+json; version="2"; other=1'), 'application/vnd.x+json; version="2"');
    assert.equal(pick(store, 'application/vnd.x+json; version=3'), 'application/vnd.x+json');
    assert.equal(pick(store, 'application/vnd.x+json; Version=2; CHARSET=UTF-8'), 'application/vnd.x+json; charset="utf-8"; version="2"');
  });

  test('RegExps in insertion order, then the catch-all', () => {
    assert.equal(pick(store, 'application/problem+json'), '/json/');
    assert.equal(pick(store, 'application/xml'), '/^application\\//');
    assert.equal(pick(store, 'image/png'), '*');
  });

  test('RegExps see the essence, never the raw header', () => {
    assert.equal(pick(store, 'text/html; x=json'), '*');
    assert.equal(pick(store, 'text/plain; content-type="application/json"'), 'text/plain');
  });

  test('stateful RegExp flags do not make matching alternate', () => {
    const own = ContentTypeParserStore.createRoot(rootOptions);
    own.add(/^image\//g, {}, named('img'), null);
    for (let i = 0; i < 4; i++) assert.equal(pick(own, 'image/png'), '/^image\\//g');
  });

  test('the essence returned is the one that chose the parser', async () => {
    const result = await chosenBy(store, ' Application/VND.X+JSON ;version=2');
    assert.equal(result.body, 'vnd-v2');
    assert.equal(result.mediaType, 'application/vnd.x+json');
  });
});

describe('ContentTypeParserStore: encapsulation', () => {
  test('a child starts with a copy of its parent at creation time', () => {
    const root = ContentTypeParserStore.createRoot(rootOptions);
    root.add('a/one', {}, named('one'), null);
    const child = root.createChild();
    root.add('a/late', {}, named('late'), null);
    assert.equal(child.has('a/one'), true);
    assert.equal(child.has('a/late'), false, 'added to the parent after the child was created');
  });

  test('changes in a child never reach the parent or siblings', () => {
    const root = ContentTypeParserStore.createRoot(rootOptions);
    const left = root.createChild();
    const right = root.createChild();
    left.add('a/left', {}, named('left'), null);
    left.add(/^b\//, {}, named('b'), null);
    left.remove('application/json');
    assert.equal(root.has('a/left'), false);
    assert.equal(right.has('a/left'), false);
    assert.equal(root.has(/^b\//), false);
    assert.equal(root.has('application/json'), true);
    assert.equal(right.has('application/json'), true);
    right.removeAll();
    assert.deepEqual(root.describe(), ['application/json', 'text/plain']);
  });

  test('a grandchild sees its ancestors, and a child may override an inherited parser', async () => {
    const root = ContentTypeParserStore.createRoot(rootOptions);
    root.add('a/b', {}, named('root'), null);
    const child = root.createChild();
    child.add('a/b', {}, named('child'), null);
    const grandchild = child.createChild();
    assert.equal((await chosenBy(root, 'a/b')).body, 'root');
    assert.equal((await chosenBy(child, 'a/b')).body, 'child');
    assert.equal((await chosenBy(grandchild, 'a/b')).body, 'child');
    assert.throws(() => child.add('a/b', {}, named('again'), null), { code: 'FST_ERR_CTP_ALREADY_PRESENT' });
  });

  test('the parser runs with the instance given to add as this', async () => {
    const root = ContentTypeParserStore.createRoot(rootOptions);
    const instance = { name: 'child instance' };
    root.add(
      'a/b',
      {},
      async function (this: { name: string }) {
        return this.name;
      },
      instance,
    );
    assert.equal((await chosenBy(root, 'a/b')).body, 'child instance');
  });
});

test('header lookups are remembered, bounded, and forgotten when the parsers change', () => {
  const store = ContentTypeParserStore.createRoot({ bodyLimit: 1024, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' });
  const first = store.lookup('application/json; charset=utf-8');
  assert.equal(first?.mediaType.essence, 'application/json');
  assert.equal(store.lookup('application/json; charset=utf-8'), first, 'a repeated header is answered from the cache');
  for (let index = 0; index < 1000; index++) store.lookup(`application/x-${index}`);
  assert.ok((store as any).lookups.size <= 100, 'client-chosen headers cannot grow the cache without bound');
  assert.equal(store.lookup('application/xml'), null);
  store.add('application/xml', { parseAs: 'string' }, () => 'xml', undefined);
  assert.equal(store.lookup('application/xml')?.mediaType.essence, 'application/xml', 'adding a parser clears stale answers');
});
