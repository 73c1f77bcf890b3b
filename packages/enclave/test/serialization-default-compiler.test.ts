// The default serializer compiler (SPEC §5.3, §7.2): no undeclared property is ever written,
// values are coerced to the schema's types, every `$ref` form resolves against the shared
// schemas, and identical schemas compile once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SerializeFunction } from '../src/schema/contracts.js';
import { compileResponseSerializers } from '../src/schema/response-serializers.js';
import { ADDRESS_ID, fixtureSchemas, localDefinitions, sharedSchemas } from './serialization-fixtures.js';
import { createSerializerFactory } from './schema-cache-mode.js';

function compile(schema: unknown, shared: Record<string, unknown> = sharedSchemas): SerializeFunction {
  const compiler = createSerializerFactory()(shared);
  return compiler({ schema, method: 'GET', url: '/test', httpStatus: '200' });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const secrets = { password: 'hunter2', token: 'secret' };

describe('no undeclared property is written', () => {
  test('at the top level and in nested objects', () => {
    const serialize = compile(fixtureSchemas.profile);
    const output = serialize({ id: 1, ...secrets, profile: { name: 'Ada', ...secrets } });
    assert.equal(output, '{"id":1,"profile":{"name":"Ada"}}');
  });

  test('in objects inside arrays', () => {
    const serialize = compile(fixtureSchemas.userList);
    const output = serialize([
      { id: 1, tags: ['a'], ...secrets },
      { id: 2, tags: [], ...secrets },
    ]);
    assert.deepEqual(JSON.parse(output), [
      { id: 1, tags: ['a'] },
      { id: 2, tags: [] },
    ]);
    assert.ok(!output.includes('hunter2'));
  });

  test('in objects reached through $ref', () => {
    const serialize = compile(fixtureSchemas.nested);
    const output = serialize({
      owner: { name: 'Ada', address: { city: 'London', ...secrets }, ...secrets },
      price: { amount: 3, currency: 'EUR', ...secrets },
      where: { lat: 1, lng: 2, ...secrets },
      badge: { label: 'gold', ...secrets },
      origin: { x: 1, y: 2, ...secrets },
      caption: { text: 'hi', ...secrets },
      ...secrets,
    });
    assert.ok(!output.includes('hunter2') && !output.includes('token'), output);
    assert.deepEqual(JSON.parse(output), {
      owner: { name: 'Ada', address: { city: 'London' } },
      price: { amount: 3, currency: 'EUR' },
      where: { lat: 1, lng: 2 },
      badge: { label: 'gold' },
      origin: { x: 1, y: 2 },
      caption: { text: 'hi' },
    });
  });

  test('additionalProperties: false and absent drop extras; true and a schema keep them', () => {
    const data = { id: 1, extra: 5 };
    assert.equal(compile(fixtureSchemas.closedExtras)(data), '{"id":1}');
    assert.equal(compile(fixtureSchemas.user)({ ...data, name: 'x' }), '{"id":1,"name":"x"}');
    assert.deepEqual(JSON.parse(compile(fixtureSchemas.openObject)(data)), { id: 1, extra: 5 });
    assert.deepEqual(JSON.parse(compile(fixtureSchemas.typedExtras)(data)), { id: 1, extra: '5' });
  });

  test('a nested object with additionalProperties: true does not open its parent', () => {
    const serialize = compile(fixtureSchemas.openNested);
    assert.deepEqual(JSON.parse(serialize({ meta: { any: 1 }, ...secrets })), { meta: { any: 1 } });
  });
});

describe('coercion to the schema types', () => {
  const serialize = () => compile(fixtureSchemas.scalars);

  test('numbers, strings and booleans', () => {
    const output = serialize()({ text: 42, count: '7.9', ratio: '2.5', flag: 'yes', nothing: 'something' });
    assert.deepEqual(JSON.parse(output), { text: '42', count: 7, ratio: 2.5, flag: true, nothing: null });
    assert.deepEqual(JSON.parse(serialize()({ text: true, count: -3.7, ratio: true, flag: 0 })), {
      text: 'true',
      count: -3,
      ratio: 1,
      flag: false,
    });
  });

  test('null becomes the empty value of a non-nullable type', () => {
    const output = serialize()({ text: null, count: null, ratio: null, flag: null, when: null });
    assert.deepEqual(JSON.parse(output), { text: '', count: 0, ratio: 0, flag: false, when: '' });
    assert.equal(compile(fixtureSchemas.user)(null), '{}');
    assert.equal(compile(fixtureSchemas.userList)(null), '[]');
  });

  test('nullable types keep null', () => {
    const output = serialize()({ maybe: null, maybeObject: null, either: null });
    assert.deepEqual(JSON.parse(output), { maybe: null, maybeObject: null, either: null });
    assert.deepEqual(JSON.parse(serialize()({ maybe: 5, maybeObject: { a: '2', b: 3 }, either: 4 })), {
      maybe: '5',
      maybeObject: { a: 2 },
      either: 4,
    });
  });

  test('Dates become ISO strings', () => {
    const date = new Date(Date.UTC(2024, 1, 29, 12, 30, 0, 5));
    const output = serialize()({ when: date, text: date });
    assert.deepEqual(JSON.parse(output), { when: '2024-02-29T12:30:00.005Z', text: '2024-02-29T12:30:00.005Z' });
  });

  test('Infinity as a number is written as null, a BigInt integer in full', () => {
    assert.deepEqual(JSON.parse(serialize()({ ratio: Number.POSITIVE_INFINITY })), { ratio: null });
    assert.equal(compile({ type: 'integer' })(12345678901234567890n), '12345678901234567890');
  });

  test('undefined properties are left out', () => {
    assert.equal(compile(fixtureSchemas.user)({ id: undefined, name: 'x' }), '{"name":"x"}');
  });
});

describe('data that does not fit throws (documented), it never writes a wrong document', () => {
  const cases: Array<[string, unknown, unknown]> = [
    ['a number that is not numeric', { type: 'number' }, 'abc'],
    ['an integer that is not finite', { type: 'integer' }, Number.POSITIVE_INFINITY],
    ['an array that is not an array', { type: 'array', items: { type: 'string' } }, 'abc'],
    ['a missing required property', { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, {}],
    ['a date-time that is no Date or string', { type: 'string', format: 'date-time' }, 5],
  ];
  for (const [name, schema, data] of cases) {
    test(name, () => {
      const serialize = compile(schema);
      assert.throws(() => serialize(data), Error);
    });
  }
});

describe('every $ref form', () => {
  const forms: Array<[string, unknown, unknown, unknown]> = [
    ['#name (an $id inside the schema)', { $ref: '#label' }, { text: 'hi', ...secrets }, { text: 'hi' }],
    ['#/definitions/x', { $ref: '#/definitions/point' }, { x: '1', y: 2.9, ...secrets }, { x: 1, y: 2 }],
    ['<url>#', { $ref: `${ADDRESS_ID}#` }, { city: 'Oslo', zip: '0150', ...secrets }, { city: 'Oslo', zip: 150 }],
    ['<url>#/definitions/x', { $ref: `${ADDRESS_ID}#/definitions/geo` }, { lat: 1, lng: '2', ...secrets }, { lat: 1, lng: 2 }],
    ['<url>#name', { $ref: `${ADDRESS_ID}#tag` }, { label: 7, ...secrets }, { label: '7' }],
    ['<plain-id>#', { $ref: 'money#' }, { amount: '9.5', currency: 'EUR', ...secrets }, { amount: 9.5, currency: 'EUR' }],
  ];
  for (const [name, reference, data, expected] of forms) {
    test(`${name} as a property`, () => {
      const serialize = compile({ type: 'object', properties: { value: reference }, definitions: localDefinitions });
      assert.deepEqual(JSON.parse(serialize({ value: data, ...secrets })), { value: expected });
    });
  }

  test('<plain-id># as the root of the response', () => {
    assert.equal(compile({ $ref: 'money#' })({ amount: 1, currency: 'USD', ...secrets }), '{"amount":1,"currency":"USD"}');
  });

  test('shared schemas that reference each other', () => {
    const shared = {
      ...sharedSchemas,
      person: { $id: 'person', type: 'object', properties: { name: { type: 'string' }, home: { $ref: `${ADDRESS_ID}#` } } },
    };
    const serialize = compile({ type: 'array', items: { $ref: 'person#' } }, shared);
    assert.deepEqual(JSON.parse(serialize([{ name: 'Ada', home: { city: 'London', ...secrets }, ...secrets }])), [{ name: 'Ada', home: { city: 'London' } }]);
  });

  test('an unresolvable $ref is FST_ERR_SCH_SERIALIZATION_BUILD at compile time', () => {
    const compiler = createSerializerFactory()(sharedSchemas);
    assert.throws(
      () => compileResponseSerializers({ 200: { type: 'object', properties: { value: { $ref: 'missing#' } } } }, { method: 'GET', url: '/broken', compiler }),
      (error: any) =>
        error.code === 'FST_ERR_SCH_SERIALIZATION_BUILD' &&
        error.message ===
          'Failed building the serialization schema for GET: /broken, due to error Cannot resolve ref "missing#". Schema with id "missing" is not found.' &&
        error.hint.startsWith('The response 200 schema of route GET /broken failed to compile'),
    );
  });
});

describe('compile-once caching', () => {
  test('identical schemas written separately compile once', () => {
    const compiler = createSerializerFactory()(sharedSchemas);
    const serializers = new Set<SerializeFunction>();
    for (let route = 0; route < 200; route++) {
      const schema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
      serializers.add(compiler({ schema, method: 'GET', url: `/r${route}`, httpStatus: '200' }));
    }
    assert.equal(serializers.size, 1);
  });

  test('1,000 routes sharing one $ref compile once', () => {
    const compilerFor = createSerializerFactory();
    const serializers = new Set<SerializeFunction>();
    for (let route = 0; route < 1000; route++) {
      // A fresh record per route, as a controller may build with `getSchemas()`.
      const compiler = compilerFor({ ...sharedSchemas });
      serializers.add(compiler({ schema: { $ref: 'money#' }, method: 'POST', url: `/r${route}`, httpStatus: '201' }));
    }
    assert.equal(serializers.size, 1);
  });

  test('a different shared schema under the same $id is a different serializer', () => {
    const compilerFor = createSerializerFactory();
    const other = { ...sharedSchemas, money: { $id: 'money', type: 'object', properties: { cents: { type: 'integer' } } } };
    const first = compilerFor(sharedSchemas)({ schema: { $ref: 'money#' }, method: 'GET', url: '/', httpStatus: '200' });
    const second = compilerFor(other)({ schema: { $ref: 'money#' }, method: 'GET', url: '/', httpStatus: '200' });
    assert.notEqual(first, second);
    assert.equal(first({ amount: 1, cents: 2 }), '{"amount":1}');
    assert.equal(second({ amount: 1, cents: 2 }), '{"cents":2}');
  });

  test('a schema without $ref is shared across shared-schema sets', () => {
    const compilerFor = createSerializerFactory();
    const schema = () => ({ type: 'object', properties: { id: { type: 'integer' } } });
    const first = compilerFor(sharedSchemas)({ schema: schema(), method: 'GET', url: '/', httpStatus: '200' });
    const second = compilerFor({})({ schema: schema(), method: 'GET', url: '/', httpStatus: '200' });
    assert.equal(first, second);
  });

  test('property order is part of the key, because it is the output order', () => {
    const compiler = createSerializerFactory()({});
    const ab = compiler({
      schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
      method: 'GET',
      url: '/',
      httpStatus: '200',
    });
    const ba = compiler({
      schema: { type: 'object', properties: { b: { type: 'integer' }, a: { type: 'integer' } } },
      method: 'GET',
      url: '/',
      httpStatus: '200',
    });
    assert.notEqual(ab, ba);
    assert.equal(ab({ a: 1, b: 2 }), '{"a":1,"b":2}');
    assert.equal(ba({ a: 1, b: 2 }), '{"b":2,"a":1}');
  });

  test('separate factories (separate applications) do not share a cache', () => {
    const schema = { type: 'string' };
    const first = createSerializerFactory()({})({ schema, method: 'GET', url: '/', httpStatus: '200' });
    const second = createSerializerFactory()({})({ schema, method: 'GET', url: '/', httpStatus: '200' });
    assert.notEqual(first, second);
  });

  test('a schema that cannot be keyed still compiles, uncached', () => {
    const compiler = createSerializerFactory()({});
    const schema = () => ({ type: 'object', properties: { id: { type: 'integer' } }, 'x-hook': () => 1 });
    const first = compiler({ schema: schema(), method: 'GET', url: '/', httpStatus: '200' });
    const second = compiler({ schema: schema(), method: 'GET', url: '/', httpStatus: '200' });
    assert.notEqual(first, second);
    assert.equal(first({ id: 3, other: 1 }), '{"id":3}');
  });
});

describe('schemas are left as the user wrote them', () => {
  test('frozen route and shared schemas compile (nothing is written into them)', () => {
    const shared = deepFreeze(structuredClone(sharedSchemas));
    const schema = deepFreeze({ properties: { id: { type: 'integer' }, price: { $ref: 'money#' } } });
    const serialize = compile(schema, shared);
    assert.equal(serialize({ id: 1, price: { amount: 2 } }), '{"id":1,"price":{"amount":2}}');
  });

  test('a schema without type is not given one', () => {
    const schema = { properties: { id: { type: 'integer' } } };
    compile(schema);
    assert.deepEqual(schema, { properties: { id: { type: 'integer' } } });
  });

  test('a property name with a line break is refused instead of becoming code', () => {
    const probe = '__enclaveSerializerProbe';
    const name = `a\nglobalThis.${probe} = 1; //`;
    const compiler = createSerializerFactory()({});
    assert.throws(
      () =>
        compileResponseSerializers(
          { 200: { type: 'object', properties: { [name]: { type: 'object', properties: {} } } } },
          { method: 'GET', url: '/odd', compiler },
        ),
      (error: any) => error.code === 'FST_ERR_SCH_SERIALIZATION_BUILD' && error.message.includes('line break'),
    );
    assert.equal((globalThis as Record<string, unknown>)[probe], undefined);
  });

  test('a shared schema with a line break in a name is refused when referenced', () => {
    const shared = { odd: { $id: 'odd', type: 'object', properties: { 'x\u2028y': { type: 'object' } } } };
    assert.throws(() => compile({ $ref: 'odd#' }, shared), /line break/);
  });
});
