// Every `$ref` form of SPEC §5.3, each checked once with data that passes and once with data
// that must fail, so a form that silently resolves to an empty schema is caught.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ValidatableRequest } from '../src/schema/contracts.js';
import type { SchemaController } from '../src/schema/schema-controller.js';
import { createRoot } from './schema-cache-mode.js';

function request(parts: Partial<ValidatableRequest> = {}): ValidatableRequest {
  return { body: undefined, query: {}, params: {}, headers: {}, ...parts };
}

function createController(): SchemaController {
  const root = createRoot({});
  root.addSchema({
    $id: 'http://example.com/common',
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'integer' } },
    definitions: { name: { type: 'string', minLength: 2 } },
  });
  root.addSchema({
    $id: 'http://example.com/pets',
    definitions: { pet: { $id: '#pet', type: 'object', required: ['kind'], properties: { kind: { enum: ['cat', 'dog'] } } } },
  });
  root.addSchema({ $id: 'user', type: 'object', required: ['name'], properties: { name: { type: 'string' } } });
  root.addSchema({ $id: 'auth', type: 'object', required: ['X-Api-Key'], properties: { 'X-Api-Key': { type: 'string', minLength: 3 } } });
  return root.createChild();
}

function bodyError(controller: SchemaController, body: unknown, data: unknown): string | undefined {
  const { validate } = controller.compileRoute({ method: 'POST', url: '/refs', schema: { body } }, null);
  const error = validate!(request({ body: data }), 'application/json');
  assert.ok(!(error instanceof Promise));
  return error?.message;
}

describe('$ref forms in validation', () => {
  const controller = createController();

  test('#name: an $id fragment inside the route schema', () => {
    const schema = {
      definitions: { count: { $id: '#count', type: 'integer', minimum: 1 } },
      type: 'object',
      properties: { count: { $ref: '#count' } },
    };
    assert.equal(bodyError(controller, schema, { count: 3 }), undefined);
    assert.equal(bodyError(controller, schema, { count: 0 }), 'body/count must be >= 1');
  });

  test('#/definitions/x: a JSON pointer inside the route schema', () => {
    const schema = { definitions: { count: { type: 'integer' } }, type: 'object', properties: { count: { $ref: '#/definitions/count' } } };
    assert.equal(bodyError(controller, schema, { count: '3' }), undefined);
    assert.equal(bodyError(controller, schema, { count: 'three' }), 'body/count must be integer');
  });

  test('<url>#: a whole shared schema', () => {
    const schema = { $ref: 'http://example.com/common#' };
    assert.equal(bodyError(controller, schema, { id: 1 }), undefined);
    assert.equal(bodyError(controller, schema, {}), "body must have required property 'id'");
  });

  test('<url>#/definitions/x: a pointer into a shared schema', () => {
    const schema = { type: 'object', properties: { name: { $ref: 'http://example.com/common#/definitions/name' } } };
    assert.equal(bodyError(controller, schema, { name: 'Ada' }), undefined);
    assert.equal(bodyError(controller, schema, { name: 'A' }), 'body/name must NOT have fewer than 2 characters');
  });

  test('<url>#name: a named fragment of a shared schema', () => {
    const schema = { $ref: 'http://example.com/pets#pet' };
    assert.equal(bodyError(controller, schema, { kind: 'cat' }), undefined);
    assert.equal(bodyError(controller, schema, { kind: 'cow' }), 'body/kind must be equal to one of the allowed values');
  });

  test('<plain-id># as the root of body', () => {
    assert.equal(bodyError(controller, { $ref: 'user#' }, { name: 'Ada' }), undefined);
    assert.equal(bodyError(controller, { $ref: 'user#' }, { name: 7, extra: true }), undefined, 'coerced to a string');
    assert.equal(bodyError(controller, { $ref: 'user#' }, {}), "body must have required property 'name'");
  });

  test('<plain-id># as the root of headers, whatever case the shared schema writes names in', () => {
    const { validate } = controller.compileRoute({ method: 'GET', url: '/refs', schema: { headers: { $ref: 'auth#' } } }, null);
    assert.equal(validate!(request({ headers: { 'x-api-key': 'secret' } }), undefined), undefined);
    const missing = validate!(request({ headers: { host: 'x' } }), undefined) as Error & { validationContext: string };
    assert.equal(missing.message, "headers must have required property 'x-api-key'");
    assert.equal(missing.validationContext, 'headers');
    const short = validate!(request({ headers: { 'x-api-key': 'ab' } }), undefined) as Error;
    assert.equal(short.message, 'headers/x-api-key must NOT have fewer than 3 characters');
    // The shared schema itself is untouched.
    assert.deepEqual((controller.getSchema('auth') as { required: string[] }).required, ['X-Api-Key']);
  });

  test('the same shared schemas reach the default serializer', () => {
    const { serializerFor } = controller.compileRoute(
      { method: 'GET', url: '/refs', schema: { response: { 200: { $ref: 'http://example.com/common#' } } } },
      null,
    );
    const serialize = serializerFor!(200, 'application/json');
    assert.equal(serialize!({ id: 5, secret: 'x' }), '{"id":5}');
  });

  test('a $ref to a schema nobody added fails the build, naming method, url and part', () => {
    assert.throws(
      () => controller.compileRoute({ method: 'POST', url: '/missing', schema: { body: { $ref: 'nobody#' } } }, null),
      (error: Error & { code: string; hint: string }) => {
        assert.equal(error.code, 'FST_ERR_SCH_VALIDATION_BUILD');
        // Fastify's words, with Ajv's reason; the part is in the hint.
        assert.equal(error.message, "Failed building the validation schema for POST: /missing, due to error can't resolve reference nobody# from id #");
        assert.match(error.hint, /^The body schema of route POST \/missing failed to compile/);
        return true;
      },
    );
    assert.throws(
      () =>
        controller.compileRoute({ method: 'GET', url: '/missing', schema: { querystring: { type: 'object', properties: { q: { $ref: 'nobody#' } } } } }, null),
      {
        code: 'FST_ERR_SCH_VALIDATION_BUILD',
        message: /^Failed building the validation schema for GET: \/missing, due to error .*nobody#/,
        hint: /^The querystring schema of route GET \/missing/,
      },
    );
  });
});
