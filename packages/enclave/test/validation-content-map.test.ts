// `body: { content: { '<media type>': { schema } } }` (SPEC §6.1): the schema is chosen by the
// parsed media type, and a body whose media type has no entry is refused with 415.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ValidatableRequest, ValidatorCompilerInput } from '../src/schema/contracts.js';
import type { EnclaveError } from '../src/errors.js';
import { createRoot } from './schema-cache-mode.js';

function request(body: unknown): ValidatableRequest {
  return { body, query: {}, params: {}, headers: {} };
}

const content = {
  'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
  'text/plain': { schema: { type: 'string', maxLength: 5 } },
};

function compile(body: unknown) {
  const { validate } = createRoot({}).compileRoute({ method: 'POST', url: '/upload', schema: { body } }, null);
  assert.ok(validate);
  return (data: unknown, mediaType: string | undefined) => validate(request(data), mediaType) as EnclaveError | undefined;
}

describe('body content map', () => {
  test('picks the schema by media type', () => {
    const validate = compile({ content });
    assert.equal(validate({ name: 'Ada' }, 'application/json'), undefined);
    assert.equal(validate({}, 'application/json')?.message, "body must have required property 'name'");
    assert.equal(validate('short', 'text/plain'), undefined);
    assert.equal(validate('far too long', 'text/plain')?.message, 'body must NOT have more than 5 characters');
  });

  test('a media type without an entry is refused with 415, never passed through', () => {
    const validate = compile({ content });
    for (const mediaType of ['application/x-www-form-urlencoded', 'application/yaml', undefined]) {
      const error = validate({ name: 'Ada' }, mediaType);
      assert.ok(error instanceof Error, String(mediaType));
      assert.equal(error.statusCode, 415);
      assert.equal(error.code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    }
  });

  test('prototype keys as media types are just unknown media types', () => {
    const validate = compile({ content });
    for (const mediaType of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      assert.equal(validate({}, mediaType)?.statusCode, 415, mediaType);
    }
  });

  test('map keys are read as essences: parameters dropped, case folded', () => {
    const validate = compile({ content: { 'Application/JSON; charset=utf-8': { schema: { type: 'object', required: ['id'] } } } });
    assert.equal(validate({}, 'application/json')?.message, "body must have required property 'id'");
  });

  test('type/* and */* are fallbacks after the exact media type', () => {
    const validate = compile({
      content: {
        'text/csv': { schema: { type: 'string', minLength: 3 } },
        'text/*': { schema: { type: 'string', maxLength: 2 } },
        '*/*': { schema: { type: 'object' } },
      },
    });
    assert.equal(validate('abc', 'text/csv'), undefined);
    assert.equal(validate('abc', 'text/html')?.message, 'body must NOT have more than 2 characters');
    assert.equal(validate('abc', 'application/json')?.message, 'body must be object');
    assert.equal(validate({}, undefined), undefined);
  });

  test('entries accept the shorthand', () => {
    const validate = compile({ content: { 'application/json': { schema: { age: { type: 'integer' } } } } });
    assert.equal(validate({ age: 'x' }, 'application/json')?.message, 'body/age must be integer');
  });

  test('an entry without a schema is an error at build time', () => {
    assert.throws(() => compile({ content: { 'application/json': {} } }), { code: 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA', message: /application\/json/ });
  });

  test('a shorthand property named content stays a property', () => {
    const validate = compile({ content: { type: 'string', maxLength: 3 } });
    assert.equal(validate({ content: 'abcd' }, 'application/json')?.message, 'body/content must NOT have more than 3 characters');
  });

  test('a custom compiler is called once per entry, with httpPart body', () => {
    const calls: ValidatorCompilerInput[] = [];
    const root = createRoot({});
    root.setValidatorCompiler((input) => {
      calls.push(input);
      return () => true;
    });
    root.compileRoute({ method: 'PATCH', url: '/doc', schema: { body: { content } } }, null);
    assert.deepEqual(
      calls.map(({ method, url, httpPart, schema }) => ({ method, url, httpPart, schema })),
      [
        { method: 'PATCH', url: '/doc', httpPart: 'body', schema: content['application/json'].schema },
        { method: 'PATCH', url: '/doc', httpPart: 'body', schema: content['text/plain'].schema },
      ],
    );
  });
});
