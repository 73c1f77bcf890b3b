import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createGunzip, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { type ContentTypeParserFunction, ContentTypeParserStore, parseRequestBody } from '../src/http/content-type-parser.js';

const rootOptions = { bodyLimit: 1_048_576, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' } as const;

interface Outcome {
  err: any;
  body: unknown;
  calls: number;
  synchronous: boolean;
}

/** A raw request whose chunks are counted as the reader pulls them. */
function countingRaw(headers: Record<string, string>, chunks: Buffer[]) {
  const pulled = { count: 0, bytes: 0 };
  async function* source() {
    for (const chunk of chunks) {
      pulled.count++;
      pulled.bytes += chunk.length;
      yield chunk;
    }
  }
  const raw = Object.assign(Readable.from(source()), { headers, method: 'POST' });
  return { raw, pulled };
}

function run(store: ContentTypeParserStore, raw: any, limit: number, payload: Readable = raw): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { err: undefined, body: undefined, calls: 0, synchronous: false };
    let returned = false;
    parseRequestBody(store, { raw, headers: raw.headers }, payload, limit, (err, body) => {
      outcome.calls++;
      if (outcome.calls > 1) return;
      Object.assign(outcome, { err, body, synchronous: !returned });
      setTimeout(() => resolve(outcome), 20);
    });
    returned = true;
  });
}

const text = ContentTypeParserStore.createRoot(rootOptions);
const chunksOf = (count: number, size: number) => Array.from({ length: count }, () => Buffer.alloc(size, 0x61));

describe('body limits', () => {
  test('a declared Content-Length over the limit is 413 before anything is read', async () => {
    const { raw, pulled } = countingRaw({ 'content-type': 'text/plain', 'content-length': '101' }, chunksOf(1, 101));
    const outcome = await run(text, raw, 100);
    assert.equal(outcome.err.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
    assert.equal(outcome.err.statusCode, 413);
    assert.equal(outcome.synchronous, true, 'refused before waiting for any byte');
    assert.equal(outcome.calls, 1);
    assert.ok(pulled.bytes <= 101);
  });

  test('a body exactly at the limit is accepted', async () => {
    const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': '100' }, chunksOf(4, 25));
    const outcome = await run(text, raw, 100);
    assert.equal(outcome.err, null);
    assert.equal(outcome.body, 'a'.repeat(100));
  });

  test('a chunked body is stopped at the chunk that crosses the limit', async () => {
    const { raw, pulled } = countingRaw({ 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, chunksOf(50, 10));
    let pulledWhenRefused = -1;
    const outcome = await new Promise<any>((resolve) => {
      parseRequestBody(text, { raw, headers: raw.headers }, raw, 25, (err) => {
        pulledWhenRefused = pulled.count;
        resolve(err);
      });
    });
    assert.equal(outcome.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
    assert.ok(pulledWhenRefused <= 4, `read ${pulledWhenRefused} chunks of 10 bytes for a limit of 25`);
  });

  test('a body that lies low in Content-Length is caught by the bytes received', async () => {
    const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': '10' }, chunksOf(30, 10));
    const outcome = await run(text, raw, 100);
    assert.equal(outcome.err.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
    assert.equal(outcome.err.statusCode, 400);
  });

  test('a parser bodyLimit applies instead of the route limit', async () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    const echo: ContentTypeParserFunction = async (_request, body) => body;
    store.add('a/small', { parseAs: 'string', bodyLimit: 10 }, echo, undefined);
    store.add('a/large', { parseAs: 'buffer', bodyLimit: 2000 }, echo, undefined);

    const tooBig = countingRaw({ 'content-type': 'a/small', 'transfer-encoding': 'chunked' }, chunksOf(1, 11));
    assert.equal((await run(store, tooBig.raw, 1000)).err.statusCode, 413);
    const declared = countingRaw({ 'content-type': 'a/small', 'content-length': '11' }, chunksOf(1, 11));
    assert.equal((await run(store, declared.raw, 1000)).err.statusCode, 413);
    const allowed = countingRaw({ 'content-type': 'a/large', 'content-length': '1500' }, chunksOf(15, 100));
    const outcome = await run(store, allowed.raw, 100);
    assert.equal(outcome.err, null);
    assert.equal((outcome.body as Buffer).length, 1500);
  });

  test('the limit counts decoded bytes after a preParsing transform', async () => {
    const compressed = gzipSync(Buffer.alloc(100_000, 0x61));
    const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': String(compressed.length) }, [compressed]);
    const gunzip = createGunzip();
    raw.pipe(gunzip);
    const outcome = await run(text, raw, 1000, gunzip);
    assert.equal(outcome.err.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
    assert.equal(gunzip.destroyed, true, 'decompression stops');
  });

  test('a transformed body of another length than declared is fine without receivedEncodedLength', async () => {
    const compressed = gzipSync(Buffer.from('hello world'));
    const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': String(compressed.length) }, [compressed]);
    const gunzip = createGunzip();
    raw.pipe(gunzip);
    const outcome = await run(text, raw, 1000, gunzip);
    assert.equal(outcome.err, null);
    assert.equal(outcome.body, 'hello world');
  });

  test('a transform reporting receivedEncodedLength is checked against Content-Length', async () => {
    for (const [reported, ok] of [
      [5, true],
      [4, false],
    ] as const) {
      const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': '5' }, [Buffer.from('hello')]);
      const payload = Object.assign(Readable.from([Buffer.from('HELLO, decoded')]), { receivedEncodedLength: reported });
      const outcome = await run(text, raw, 1000, payload);
      assert.equal(outcome.err === null, ok, `reported ${reported}`);
      if (!ok) assert.equal(outcome.err.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
    }
  });

  test('property: a chunked body is refused exactly when it is larger than the limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 64 }), { maxLength: 12 }), fc.integer({ min: 1, max: 400 }), async (sizes, limit) => {
        const chunks = sizes.map((size) => Buffer.alloc(size, 0x62));
        const total = sizes.reduce((sum, size) => sum + size, 0);
        const { raw } = countingRaw({ 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, chunks);
        const outcome = await run(text, raw, limit);
        if (total > limit) assert.equal(outcome.err?.statusCode, 413);
        else assert.equal(outcome.body, 'b'.repeat(total));
        assert.equal(outcome.calls, 1);
      }),
      { numRuns: 60 },
    );
  });
});

describe('Content-Length', () => {
  for (const value of ['abc', '-1', '1e3', '0x10', '12abc', '1.5', '', '+5', '5 5']) {
    test(`non-numeric ${JSON.stringify(value)} is 400`, async () => {
      const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': value }, [Buffer.from('hello')]);
      const outcome = await run(text, raw, 100);
      assert.equal(outcome.err?.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
      assert.equal(outcome.err.statusCode, 400);
    });
  }

  test('non-numeric is 400 even for stream parsers and without a Content-Type', async () => {
    const store = ContentTypeParserStore.createRoot(rootOptions);
    store.add('*', {}, () => assert.fail('must not run'), undefined);
    for (const headers of [{ 'content-length': 'x' }, { 'content-type': 'a/b', 'content-length': 'x' }]) {
      const { raw } = countingRaw(headers, [Buffer.from('hello')]);
      assert.equal((await run(store, raw, 100)).err.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
    }
  });

  test('too short a body (declared more than sent) is 400', async () => {
    const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': '10' }, [Buffer.from('abc')]);
    const outcome = await run(text, raw, 100);
    assert.equal(outcome.err.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
  });

  test('too long a body (sent more than declared) is 400, without reading the rest', async () => {
    const { raw, pulled } = countingRaw({ 'content-type': 'text/plain', 'content-length': '3' }, chunksOf(100, 2));
    let pulledWhenRefused = -1;
    const err = await new Promise<any>((resolve) => {
      parseRequestBody(text, { raw, headers: raw.headers }, raw, 1000, (error) => {
        pulledWhenRefused = pulled.count;
        resolve(error);
      });
    });
    assert.equal(err.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
    assert.ok(pulledWhenRefused <= 3, `pulled ${pulledWhenRefused}`);
  });

  test('padded digits and leading zeros are a number', async () => {
    const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': ' 005 ' }, [Buffer.from('hello')]);
    assert.equal((await run(text, raw, 100)).body, 'hello');
  });

  test('with Transfer-Encoding, Content-Length is ignored (RFC 9112 §6.3)', async () => {
    const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': '2', 'transfer-encoding': 'chunked' }, [Buffer.from('hello')]);
    assert.equal((await run(text, raw, 100)).body, 'hello');
  });
});

describe('what a finished read leaves on the request', () => {
  // The request outlives the read (the handler runs, an oversized upload is drained): it must
  // not keep the body's bytes alive, through a listener or anything else it holds. Checked by
  // the bytes themselves: every chunk it produced is collectable while the request lives.
  const gc = (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();

  /** A request whose chunks are made as it is read and watched through weak references. */
  function watchedRaw(headers: Record<string, string>, count: number, size: number) {
    const chunks: WeakRef<Buffer>[] = [];
    async function* source() {
      for (let index = 0; index < count; index++) {
        const chunk = Buffer.alloc(size, 0x61);
        chunks.push(new WeakRef(chunk));
        yield chunk;
      }
    }
    return { raw: Object.assign(Readable.from(source()), { headers, method: 'POST' }), chunks };
  }

  test('no body bytes kept after a body was read, refused as too large, or cut by a wrong length', async () => {
    const cases: Array<[string, Record<string, string>, number, number, number]> = [
      ['read', { 'content-type': 'text/plain', 'content-length': '10' }, 2, 5, 100],
      ['too large', { 'content-type': 'text/plain' }, 10, 50, 100],
      ['wrong length', { 'content-type': 'text/plain', 'content-length': '3' }, 2, 5, 100],
    ];
    for (const [what, headers, count, size, limit] of cases) {
      const { raw, chunks } = watchedRaw(headers, count, size);
      const outcome = await run(text, raw, limit);
      assert.equal(outcome.calls, 1, what);
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      assert.ok(chunks.length > 0, what);
      assert.deepEqual(
        chunks.map((chunk) => chunk.deref() === undefined),
        chunks.map(() => true),
        `${what}: a chunk is still reachable from the request (${raw.readableEnded ? 'ended' : 'not ended'})`,
      );
    }
  });
});

describe('utf-8 decoding', () => {
  test('a multi-byte character split across chunks survives at every split', async () => {
    const sample = Buffer.from('a\u00e9\u20ac\u{1f600}z');
    for (let first = 1; first < sample.length; first++) {
      for (let second = first; second < sample.length; second++) {
        const chunks = [sample.subarray(0, first), sample.subarray(first, second), sample.subarray(second)];
        const { raw } = countingRaw({ 'content-type': 'text/plain; charset=utf-8', 'content-length': String(sample.length) }, chunks);
        const outcome = await run(text, raw, 100);
        assert.equal(outcome.body, 'a\u00e9\u20ac\u{1f600}z', `split at ${first}, ${second}`);
      }
    }
  });

  test('property: any string split anywhere decodes to itself', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), fc.array(fc.nat(), { maxLength: 5 }), async (value, cuts) => {
        const bytes = Buffer.from(value, 'utf8');
        const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let start = 0;
        for (const point of [...points, bytes.length]) {
          chunks.push(bytes.subarray(start, point));
          start = point;
        }
        const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': String(bytes.length) }, chunks);
        const outcome = await run(text, raw, 10_000);
        assert.equal(outcome.body, value);
      }),
      { numRuns: 100 },
    );
  });

  test('an invalid or truncated sequence becomes U+FFFD, never a crash', async () => {
    const { raw } = countingRaw({ 'content-type': 'text/plain', 'content-length': '3' }, [Buffer.from([0x61, 0xe2, 0x82])]);
    const outcome = await run(text, raw, 100);
    assert.equal(outcome.err, null);
    assert.equal(outcome.body, 'a\ufffd');
  });
});

describe('a request read a second time', () => {
  // A first read refused part-way (too large) leaves its listeners on the request, and a fake
  // request is resumed to discard the rest: a second read then takes what still arrives. It must
  // see each chunk once, not once per read the request has had.
  test('counts each later chunk once', async () => {
    const raw = Object.assign(new Readable({ read() {} }), { headers: { 'content-type': 'text/plain' }, method: 'POST' });
    const first = run(text, raw, 6);
    raw.push('aaaa');
    raw.push('bbbb');
    const refused = await first;
    assert.equal((refused.err as { statusCode?: number } | undefined)?.statusCode, 413);
    const second = run(text, raw, 100);
    raw.push('cccc');
    raw.push('dddd');
    raw.push(null);
    const read = await second;
    assert.equal(read.err, null);
    assert.equal(read.body, 'ccccdddd');
    assert.equal(raw.listenerCount('data'), 1);
  });
});
