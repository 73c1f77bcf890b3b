// How `schema.response` is read and which serializer a reply gets (SPEC §7.1, §7.3), with a
// recording compiler so that every choice is visible.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SerializerCompiler, SerializerCompilerInput } from '../src/schema/contracts.js';
import { compileResponseSerializers } from '../src/schema/response-serializers.js';

/** A compiler whose serializers answer with the status key and media type they were built for. */
function recordingCompiler() {
  const calls: SerializerCompilerInput[] = [];
  const compiler: SerializerCompiler = (input) => {
    calls.push(input);
    const label = input.contentType === undefined ? input.httpStatus : `${input.httpStatus} ${input.contentType}`;
    return () => label;
  };
  return { compiler, calls };
}

function lookupFor(response: Record<string, any>) {
  const { compiler, calls } = recordingCompiler();
  const serializerFor = compileResponseSerializers(response, { method: 'GET', url: '/things', compiler });
  const chosen = (status: number, contentType?: string) => serializerFor(status, contentType)?.(null);
  return { chosen, calls };
}

const anySchema = { type: 'object', properties: {} };

describe('status precedence', () => {
  test('exact status, then class, then default', () => {
    const { chosen } = lookupFor({ 200: anySchema, '2xx': anySchema, '404': anySchema, default: anySchema });
    assert.equal(chosen(200), '200');
    assert.equal(chosen(201), '2xx');
    assert.equal(chosen(299), '2xx');
    assert.equal(chosen(404), '404');
    assert.equal(chosen(400), 'default');
    assert.equal(chosen(500), 'default');
    assert.equal(chosen(302), 'default');
  });

  test('class keys are case-insensitive and cover every class', () => {
    const { chosen } = lookupFor({ '1xx': anySchema, '3XX': anySchema, '4Xx': anySchema, '5xx': anySchema });
    assert.equal(chosen(101), '1xx');
    assert.equal(chosen(304), '3XX');
    assert.equal(chosen(418), '4Xx');
    assert.equal(chosen(503), '5xx');
    assert.equal(chosen(200), undefined);
  });

  test('without a matching key or default there is no serializer', () => {
    const { chosen } = lookupFor({ 201: anySchema });
    assert.equal(chosen(201), '201');
    assert.equal(chosen(200), undefined);
    assert.equal(chosen(500), undefined);
  });

  test('status codes outside 100–599 fall to default', () => {
    const { chosen } = lookupFor({ '2xx': anySchema, default: anySchema });
    assert.equal(chosen(999), 'default');
    assert.equal(chosen(600), 'default');
    assert.equal(chosen(99), 'default');
    const withoutDefault = lookupFor({ 201: anySchema, '2xx': anySchema }).chosen;
    assert.equal(withoutDefault(600), undefined);
    assert.equal(withoutDefault(99), undefined);
  });

  test('a status that is no integer, or negative, has no serializer', () => {
    const { chosen } = lookupFor({ '2xx': anySchema, default: anySchema });
    assert.equal(chosen(200.5), undefined);
    assert.equal(chosen(-1), undefined);
    assert.equal(chosen(Number.NaN), undefined);
  });

  test('the reply content type is ignored when no key has a content map', () => {
    const { chosen } = lookupFor({ 200: anySchema });
    assert.equal(chosen(200, 'text/html'), '200');
    assert.equal(chosen(200, undefined), '200');
  });

  test('each key is compiled exactly once, at compile time', () => {
    const { chosen, calls } = lookupFor({ 200: anySchema, '4xx': anySchema, default: anySchema });
    assert.equal(calls.length, 3);
    for (let index = 0; index < 50; index++) chosen(200 + index);
    assert.equal(calls.length, 3);
  });
});

describe('content maps', () => {
  const response = {
    200: {
      description: 'one item',
      content: {
        'application/json': { schema: anySchema },
        'Text/Plain': { schema: { type: 'string' } },
        '*/*': { schema: anySchema },
      },
    },
    default: { content: { 'application/json': { schema: anySchema } } },
  };

  test('chosen by media type essence, case-insensitive, parameters ignored', () => {
    const { chosen } = lookupFor(response);
    assert.equal(chosen(200, 'application/json'), '200 application/json');
    assert.equal(chosen(200, 'Application/JSON; charset=utf-8'), '200 application/json');
    assert.equal(chosen(200, ' text/plain ;charset=latin1'), '200 text/plain');
  });

  test('*/* catches every other media type', () => {
    const { chosen } = lookupFor(response);
    assert.equal(chosen(200, 'image/png'), '200 */*');
    assert.equal(chosen(200, 'application/vnd.api+json'), '200 */*');
  });

  test('without */* an unlisted media type gets no serializer', () => {
    const { chosen } = lookupFor(response);
    assert.equal(chosen(500, 'application/json'), 'default application/json');
    assert.equal(chosen(500, 'text/html'), undefined);
  });

  test('a reply without a content type is treated as application/json', () => {
    const { chosen } = lookupFor(response);
    assert.equal(chosen(200, undefined), '200 application/json');
    assert.equal(lookupFor({ 200: { content: { '*/*': { schema: anySchema } } } }).chosen(200), '200 */*');
  });

  test('the compiler gets each entry with its media type as written in essence form', () => {
    const { calls } = lookupFor(response);
    assert.deepEqual(
      calls.map((call) => [call.httpStatus, call.contentType]),
      [
        ['200', 'application/json'],
        ['200', 'text/plain'],
        ['200', '*/*'],
        ['default', 'application/json'],
      ],
    );
    assert.deepEqual(calls[1]?.schema, { type: 'string' });
  });

  test('an entry without a schema is refused', () => {
    assert.throws(
      () => lookupFor({ 200: { content: { 'application/json': { description: 'no schema' } } } }),
      (error: any) => error.code === 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA' && error.message.includes('application/json'),
    );
  });

  test('two entries for the same media type are refused', () => {
    assert.throws(
      () => lookupFor({ 200: { content: { 'application/json': { schema: {} }, 'APPLICATION/JSON': { schema: {} } } } }),
      (error: any) => error.code === 'FST_ERR_SCH_DUPLICATE',
    );
  });
});

describe('shorthand', () => {
  test('top-level keys become the properties of an object schema', () => {
    const { calls } = lookupFor({ 200: { id: { type: 'integer' }, name: { type: 'string' } } });
    assert.deepEqual(calls[0]?.schema, {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    });
  });

  test('full schemas are passed through untouched', () => {
    const full = [
      { type: 'array', items: { type: 'string' } },
      { properties: { id: { type: 'integer' } } },
      { $ref: 'user#' },
      { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      { anyOf: [{ type: 'string' }] },
      { allOf: [{ type: 'object' }] },
      { description: 'no content' },
      true,
    ];
    for (const schema of full) {
      const { calls } = lookupFor({ 200: schema });
      assert.equal(calls[0]?.schema, schema, `${JSON.stringify(schema)} should reach the compiler as is`);
    }
  });

  test('a property called `content` does not make a content map', () => {
    const { calls } = lookupFor({ 200: { content: { type: 'string' }, size: { type: 'integer' } } });
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.contentType, undefined);
    assert.deepEqual(calls[0]?.schema, {
      type: 'object',
      properties: { content: { type: 'string' }, size: { type: 'integer' } },
    });
  });

  test('applies inside content map entries too', () => {
    const { calls } = lookupFor({ 200: { content: { 'application/json': { schema: { id: { type: 'integer' } } } } } });
    assert.deepEqual(calls[0]?.schema, { type: 'object', properties: { id: { type: 'integer' } } });
  });
});

describe('custom compiler input and build errors', () => {
  test('the compiler receives { schema, method, url, httpStatus } and contentType for content entries', () => {
    const { compiler, calls } = recordingCompiler();
    const schema = { type: 'object', properties: { id: { type: 'integer' } } };
    const textSchema = { type: 'string' };
    compileResponseSerializers({ 201: schema, '4xx': { content: { 'text/plain': { schema: textSchema } } } }, { method: 'POST', url: '/items/:id', compiler });
    assert.deepEqual(calls, [
      { schema, method: 'POST', url: '/items/:id', httpStatus: '201' },
      { schema: textSchema, method: 'POST', url: '/items/:id', httpStatus: '4xx', contentType: 'text/plain' },
    ]);
    assert.equal(calls[0]?.schema, schema);
  });

  test('a throwing compiler becomes FST_ERR_SCH_SERIALIZATION_BUILD naming method, url and status', () => {
    const cause = new Error('cannot do this one');
    const compiler: SerializerCompiler = () => {
      throw cause;
    };
    assert.throws(
      () => compileResponseSerializers({ '2xx': anySchema }, { method: 'PUT', url: '/users/:id', compiler }),
      (error: any) =>
        error.code === 'FST_ERR_SCH_SERIALIZATION_BUILD' &&
        error.statusCode === 500 &&
        error.cause === cause &&
        error.message === 'Failed building the serialization schema for PUT: /users/:id, due to error cannot do this one' &&
        error.hint.startsWith('The response 2xx schema of route PUT /users/:id failed to compile'),
    );
  });

  test('a compiler that returns no function is a build error', () => {
    const compiler = (() => 'not a function') as unknown as SerializerCompiler;
    assert.throws(
      () => compileResponseSerializers({ 200: anySchema }, { method: 'GET', url: '/', compiler }),
      (error: any) => error.code === 'FST_ERR_SCH_SERIALIZATION_BUILD' && error.message.includes('string'),
    );
  });
});

describe('bad response keys', () => {
  for (const key of ['type', 'properties', 'ok', '600', '099', '20', '2000', '6xx', 'Default', '200 ', 'xx']) {
    test(`'${key}' is refused`, () => {
      assert.throws(
        () => lookupFor({ [key]: anySchema }),
        (error: any) =>
          error.code === 'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX' &&
          error.message === 'response schemas should be nested under a valid status code, e.g { 2xx: { type: "object" } }' &&
          error.hint.includes(`has the key '${key}'`),
      );
    });
  }

  test('a schema given without a status key is refused before anything is compiled', () => {
    const { compiler, calls } = recordingCompiler();
    assert.throws(
      () => compileResponseSerializers({ type: 'object', properties: {} }, { method: 'GET', url: '/', compiler }),
      (error: any) => error.code === 'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX',
    );
    assert.equal(calls.length, 0);
  });

  test('the same class twice in different case is refused', () => {
    assert.throws(
      () => lookupFor({ '2xx': anySchema, '2XX': anySchema }),
      (error: any) => error.code === 'FST_ERR_SCH_DUPLICATE',
    );
  });

  test('a response that is not an object is refused', () => {
    const { compiler } = recordingCompiler();
    for (const response of [null, [anySchema]]) {
      assert.throws(
        () => compileResponseSerializers(response as any, { method: 'GET', url: '/', compiler }),
        (error: any) => error.code === 'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX',
      );
    }
  });
});
