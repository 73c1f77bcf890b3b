import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ContentTypeParserStore, formatMediaType, parseMediaType, parseRequestBody } from '../src/http/content-type-parser.js';

const fragments = [
  'application',
  'Application',
  'text',
  'TEXT',
  'plain',
  'json',
  'JSON',
  'vnd.x+json',
  'xml',
  'image',
  'png',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '/',
  '/',
  ';',
  ';',
  ' ',
  '\t',
  '=',
  '"',
  '\\',
  ',',
  'charset',
  'utf-8',
  'UTF-8',
  'latin1',
  'version',
  '2',
  'content-type',
  '*',
  '(',
  ')',
  '@',
  '\r\n',
  '\u00e9',
  '\u0101',
];

/** Content-Type values: mostly built from plausible pieces, sometimes arbitrary text. */
const contentTypeArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...fragments), { maxLength: 12 }).map((parts) => parts.join('')) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('application', 'text', 'Application', '__proto__'),
        fc.constantFrom('json', 'plain', 'vnd.x+json', 'JSON', 'xml', 'constructor'),
        fc.array(
          fc.tuple(
            fc.constantFrom('charset', 'version', 'content-type', '__proto__', 'Charset'),
            fc.constantFrom('utf-8', '"UTF-8"', '2', '"2"', '"application/json"', 'x'),
          ),
          { maxLength: 3 },
        ),
        fc.constantFrom('', ' ', '\t', ' garbage', ';', '"'),
      )
      .map(([type, subtype, parameters, tail]) => `${type}/${subtype}${parameters.map(([name, value]) => `; ${name}=${value}`).join('')}${tail}`),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

/** Each parser reports which matcher chose it, so the test can check the choice. */
function buildStore(): ContentTypeParserStore {
  const store = ContentTypeParserStore.createRoot({ bodyLimit: 1024, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' });
  const report = (label: string) => async () => label;
  store.add('application/json', {}, report('application/json'), undefined);
  store.add('text/plain', {}, report('text/plain'), undefined);
  store.add('application/vnd.x+json; version=2', {}, report('application/vnd.x+json; version="2"'), undefined);
  store.add('__proto__/constructor', {}, report('__proto__/constructor'), undefined);
  store.add(/^image\//, {}, report('/^image\\//'), undefined);
  store.add(/json$/, {}, report('/json$/'), undefined);
  return store;
}

function send(store: ContentTypeParserStore, contentType: string): Promise<{ err: any; body: unknown; mediaType: unknown; calls: number }> {
  const raw = Object.assign(Readable.from([Buffer.from('{}')]), { headers: { 'content-type': contentType, 'content-length': '2' }, method: 'POST' });
  return new Promise((resolve) => {
    let calls = 0;
    parseRequestBody(store, { raw, headers: raw.headers }, raw, 1024, (err, body, mediaType) => {
      calls++;
      if (calls === 1) setTimeout(() => resolve({ err, body, mediaType, calls }), 5);
    });
  });
}

describe('properties of Content-Type handling', () => {
  test('the essence that chose the parser is the essence returned, or the request is refused', async () => {
    const store = buildStore();
    const seen = { refused: 0, accepted: 0, byPattern: 0 };
    await fc.assert(
      fc.asyncProperty(contentTypeArbitrary, async (contentType) => {
        const outcome = await send(store, contentType);
        assert.equal(outcome.calls, 1);
        const mediaType = parseMediaType(contentType);
        if (outcome.err) {
          assert.equal(outcome.err.statusCode, 415);
          assert.ok(mediaType === null || store.match(mediaType) === undefined, 'refused only when malformed or unsupported');
          seen.refused++;
          return;
        }
        seen.accepted++;
        if (typeof outcome.body === 'string' && outcome.body.startsWith('/')) seen.byPattern++;
        assert.ok(mediaType, 'accepted only when well-formed');
        assert.equal(outcome.mediaType, mediaType.essence);
        // The parser that ran is the one the returned essence (with the header's parameters) selects.
        const chosen = store.match({ ...mediaType, essence: outcome.mediaType as string });
        assert.equal(outcome.body, chosen?.label);
        if (chosen?.kind === 'media-type') assert.equal(chosen.mediaType?.essence, outcome.mediaType);
        if (chosen?.kind === 'pattern') assert.ok(chosen.pattern?.test(outcome.mediaType as string));
      }),
      { numRuns: 600 },
    );
    // The generator must exercise both sides, or the property proves nothing. About one value in
    // eight is accepted; the bounds sit far enough below that to never fail by chance.
    assert.ok(seen.refused > 50 && seen.accepted > 15 && seen.byPattern > 3, JSON.stringify(seen));
  });

  test('parseMediaType never throws, and what it returns is canonical and re-parses to itself', () => {
    fc.assert(
      fc.property(fc.oneof(contentTypeArbitrary, fc.string({ unit: 'binary', maxLength: 40 })), (value) => {
        const result = parseMediaType(value);
        if (result === null) return;
        assert.equal(result.essence, `${result.type}/${result.subtype}`);
        assert.equal(result.essence, result.essence.toLowerCase());
        assert.equal(Object.getPrototypeOf(result.parameters), null);
        const again = parseMediaType(formatMediaType(result));
        assert.ok(again);
        assert.equal(again.essence, result.essence);
        assert.equal(formatMediaType(again), formatMediaType(result));
      }),
      { numRuns: 2000 },
    );
  });

  test('the essence alone parses to the same essence, so a schema keyed by it finds it', () => {
    fc.assert(
      fc.property(contentTypeArbitrary, (value) => {
        const result = parseMediaType(value);
        if (result === null) return;
        assert.equal(parseMediaType(result.essence)?.essence, result.essence);
      }),
      { numRuns: 1000 },
    );
  });
});
