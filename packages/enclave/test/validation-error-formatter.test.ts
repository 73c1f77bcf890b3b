// The validation Error (SPEC §6.5) and the schema error formatter (§6.6).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SchemaErrorFormatter, ValidatableRequest } from '../src/schema/contracts.js';
import type { EnclaveError } from '../src/errors.js';
import type { SchemaController } from '../src/schema/schema-controller.js';
import { createRoot } from './schema-cache-mode.js';

function request(parts: Partial<ValidatableRequest> = {}): ValidatableRequest {
  return { body: undefined, query: {}, params: {}, headers: {}, ...parts };
}

const route = { method: 'POST', url: '/users', schema: { body: { type: 'object', required: ['name'] } } };

function failBody(controller: SchemaController, instance: unknown = null, extra: Record<string, unknown> = {}): EnclaveError {
  const { validate } = controller.compileRoute({ ...route, ...extra }, instance);
  const error = validate!(request({ body: {} }), 'application/json');
  assert.ok(error instanceof Error);
  return error as EnclaveError;
}

describe('the default validation error', () => {
  test('carries statusCode, code, validation and validationContext', () => {
    const error = failBody(createRoot({}));
    assert.equal(error.message, "body must have required property 'name'");
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, 'FST_ERR_VALIDATION');
    assert.equal(error.validationContext, 'body');
    assert.equal((error.validation as Array<{ keyword: string }>)[0]?.keyword, 'required');
  });

  test('names the path inside the part, and joins several errors with ", "', () => {
    const root = createRoot({ ajv: { customOptions: { allErrors: true } } });
    const { validate } = root.compileRoute(
      { method: 'GET', url: '/', schema: { querystring: { limit: { type: 'integer' }, offset: { type: 'integer', minimum: 0 } } } },
      null,
    );
    const error = validate!(request({ query: { limit: 'ten', offset: '-1' } }), undefined) as EnclaveError;
    assert.equal(error.message, 'querystring/limit must be integer, querystring/offset must be >= 0');
    assert.equal((error.validation as unknown[]).length, 2);
  });
});

describe('schemaErrorFormatter', () => {
  test('the factory option is called with (errors, dataVar) and this = the route instance', () => {
    const calls: Array<{ self: unknown; errors: unknown[]; dataVar: string }> = [];
    const formatter: SchemaErrorFormatter = function (this: unknown, errors, dataVar) {
      calls.push({ self: this, errors, dataVar });
      return new Error(`${dataVar} is wrong (${errors.length})`);
    };
    const instance = { name: 'the instance' };
    const error = failBody(createRoot({ schemaErrorFormatter: formatter }), instance);
    assert.equal(error.message, 'body is wrong (1)');
    assert.equal(calls[0]?.self, instance);
    assert.equal(calls[0]?.dataVar, 'body');
    assert.equal(error.statusCode, 400, 'filled in when the formatter set none');
    assert.equal(error.code, 'FST_ERR_VALIDATION');
    assert.equal(error.validation, calls[0]?.errors);
    assert.equal(error.validationContext, 'body');
  });

  test('a status the formatter chose is kept', () => {
    const formatter: SchemaErrorFormatter = () => Object.assign(new Error('unprocessable'), { statusCode: 422 });
    assert.equal(failBody(createRoot({ schemaErrorFormatter: formatter })).statusCode, 422);
  });

  test('setSchemaErrorFormatter is encapsulated; the route option wins', () => {
    const root = createRoot({ schemaErrorFormatter: () => new Error('from options') });
    const child = root.createChild();
    child.setSchemaErrorFormatter(() => new Error('from child'));
    const grandchild = child.createChild();
    const sibling = root.createChild();
    assert.equal(failBody(root).message, 'from options');
    assert.equal(failBody(child).message, 'from child');
    assert.equal(failBody(grandchild).message, 'from child');
    assert.equal(failBody(sibling).message, 'from options');
    assert.equal(failBody(child, null, { schemaErrorFormatter: () => new Error('from route') }).message, 'from route');
  });

  test('a formatter that returns something other than an Error gives a clear 500', () => {
    const root = createRoot({});
    root.setSchemaErrorFormatter((() => 'oops') as unknown as SchemaErrorFormatter);
    const error = failBody(root);
    assert.equal(error.statusCode, 500);
    assert.match(error.message, /schema error formatter must return an Error/);
    assert.match(error.message, /string/);
    assert.notEqual(error.code, 'FST_ERR_VALIDATION');
  });

  test('a formatter that throws an Error fails with that Error, as in Fastify (a 500 when it sets no status)', () => {
    const root = createRoot({});
    const thrown = new Error('formatter bug');
    root.setSchemaErrorFormatter(() => {
      throw thrown;
    });
    const error = failBody(root);
    assert.equal(error, thrown);
    assert.equal(error.statusCode, undefined);
  });

  test('a formatter that throws something other than an Error gives a clear 500', () => {
    const root = createRoot({});
    root.setSchemaErrorFormatter(() => {
      throw 'formatter bug';
    });
    const error = failBody(root);
    assert.equal(error.statusCode, 500);
    assert.match(error.message, /must return an Error; it threw: formatter bug/);
  });

  test('must be a synchronous function', () => {
    const asyncFormatter = async () => new Error('late');
    for (const bad of ['formatter', 42, {}, asyncFormatter]) {
      assert.throws(() => createRoot({ schemaErrorFormatter: bad as unknown as SchemaErrorFormatter }), {
        code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN',
      });
      assert.throws(() => createRoot({}).setSchemaErrorFormatter(bad as unknown as SchemaErrorFormatter), {
        code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN',
      });
    }
    assert.throws(() => createRoot({}).compileRoute({ ...route, schemaErrorFormatter: asyncFormatter as unknown as SchemaErrorFormatter }, null), {
      code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN',
    });
  });
});
