// The content key the compile caches use: faithful text or none, and the facts the serializer
// compiler needs about names.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { copyFromKey, fingerprintSchema } from '../src/schema/serializer-schema-fingerprint.js';

describe('fingerprintSchema', () => {
  test('a JSON schema is keyed by its text, in its own key order', () => {
    const schema = { type: 'object', properties: { b: { type: 'string' }, a: { type: 'integer', minimum: 0 } }, required: ['a'] };
    assert.equal(fingerprintSchema(schema).key, JSON.stringify(schema));
    const reordered = { type: 'object', properties: { a: { type: 'integer', minimum: 0 }, b: { type: 'string' } }, required: ['a'] };
    assert.notEqual(fingerprintSchema(reordered).key, fingerprintSchema(schema).key);
  });

  test('an undefined property is the same as an absent one', () => {
    assert.equal(fingerprintSchema({ type: 'string', format: undefined }).key, fingerprintSchema({ type: 'string' }).key);
  });

  test('a sub-schema used twice (no cycle) still has a key', () => {
    const id = { type: 'integer' };
    assert.equal(fingerprintSchema({ properties: { a: id, b: id } }).key, '{"properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}');
  });

  const unfaithful: Array<[string, () => unknown]> = [
    ['a function', () => ({ type: 'string', transform: () => 'x' })],
    ['a class instance', () => ({ type: 'string', pattern: /a/ })],
    [
      'a cycle',
      () => {
        const node: Record<string, unknown> = { type: 'object' };
        node.properties = { self: node };
        return node;
      },
    ],
    ['NaN', () => ({ type: 'number', maximum: Number.NaN })],
    ['Infinity', () => ({ type: 'number', maximum: Number.POSITIVE_INFINITY })],
    ['an undefined array item', () => ({ enum: ['a', undefined] })],
    ['a BigInt', () => ({ type: 'integer', maximum: 10n })],
  ];
  for (const [what, build] of unfaithful) {
    test(`${what} leaves the schema without a key`, () => {
      assert.equal(fingerprintSchema(build()).key, undefined);
    });
  }

  test('an array with a toJSON of its own leaves the schema without a key', () => {
    const required = Object.assign(['id'], { toJSON: () => [] });
    assert.equal(fingerprintSchema({ type: 'object', required }).key, undefined);
  });

  test('$ref anywhere is reported', () => {
    assert.equal(fingerprintSchema({ type: 'object' }).hasRef, false);
    assert.equal(fingerprintSchema({ type: 'array', items: [{ $ref: 'x#' }] }).hasRef, true);
  });

  test('a line break in a property name, $id or $ref is reported, even next to an unkeyable value', () => {
    assert.equal(fingerprintSchema({ properties: { 'a\nb': { type: 'string' } } }).hasLineTerminatorInName, true);
    assert.equal(fingerprintSchema({ $id: 'x\u2028y' }).hasLineTerminatorInName, true);
    assert.equal(fingerprintSchema({ items: { $ref: 'a\r#' } }).hasLineTerminatorInName, true);
    assert.equal(fingerprintSchema({ f: () => 1, properties: { 'a\nb': {} } }).hasLineTerminatorInName, true);
    assert.equal(fingerprintSchema({ description: 'line\nbreak' }).hasLineTerminatorInName, false);
  });
});

// What fingerprintSchema must say about a JSON value, worked out the plain way: every key, every
// `$ref` / `$id` value looked at.
function expectedFacts(value: unknown): { hasRef: boolean; hasLineTerminatorInName: boolean } {
  const facts = { hasRef: false, hasLineTerminatorInName: false };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) {
      for (const [name, child] of Object.entries(node)) {
        if (name === '$ref') facts.hasRef = true;
        if (/[\n\r\u2028\u2029]/.test(name)) facts.hasLineTerminatorInName = true;
        if ((name === '$ref' || name === '$id') && typeof child === 'string' && /[\n\r\u2028\u2029]/.test(child)) facts.hasLineTerminatorInName = true;
        visit(child);
      }
    }
  };
  visit(value);
  return facts;
}

test('for any JSON value, the key is its text and $ref and line breaks in names are found (quotes, escapes and $ref in names and values)', () => {
  const tricky = fc.constantFrom('$ref', '$id', 'a"$ref', '"$ref":', 'x\n', 'y\u2028', '\\n', 'type', 'a\\"b', 'é');
  const name = fc.oneof(tricky, fc.string({ maxLength: 6 }));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(name, tie('node'), { maxKeys: 4 })),
    leaf: fc.oneof(tricky, fc.string({ maxLength: 6 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
  })).node;
  fc.assert(
    fc.property(value, (schema) => {
      assert.deepEqual(fingerprintSchema(schema), { key: JSON.stringify(schema), ...expectedFacts(schema) });
    }),
    { numRuns: 2000 },
  );
});

describe('copyFromKey', () => {
  test('is a deep copy that keeps a __proto__ key as data', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"n":{"type":"integer"}}}');
    const key = fingerprintSchema(schema).key;
    assert.ok(key);
    const copy = copyFromKey<any>(key);
    assert.deepEqual(copy, schema);
    assert.notEqual(copy.properties, schema.properties);
    assert.ok(Object.hasOwn(copy.properties, '__proto__'));
    assert.equal(Object.getPrototypeOf(copy.properties), Object.prototype);
    copy.properties.n.type = 'string';
    assert.equal(schema.properties.n.type, 'integer');
  });
});
