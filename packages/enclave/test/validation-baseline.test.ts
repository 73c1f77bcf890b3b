// The observable effect of each baseline Ajv option (SPEC §6.2, §6.3), the parts a route
// validates (§6.1) and the order it validates them in.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ValidatableRequest, ValidatorCompilerInput } from '../src/schema/contracts.js';
import type { EnclaveError } from '../src/errors.js';
import { createAjv } from '../src/schema/ajv-factory.js';
import { createRoot } from './schema-cache-mode.js';

function request(parts: Partial<ValidatableRequest> = {}): ValidatableRequest {
  return { body: undefined, query: {}, params: {}, headers: {}, ...parts };
}

function check(schema: Record<string, unknown>, data: ValidatableRequest, method = 'POST'): EnclaveError | undefined {
  const { validate } = createRoot({}).compileRoute({ method, url: '/items/:id', schema }, null);
  assert.ok(validate, 'the route validates something');
  const result = validate(data, 'application/json');
  assert.ok(!(result instanceof Promise));
  return result as EnclaveError | undefined;
}

describe('baseline Ajv options', () => {
  test('coerceTypes: querystring strings become numbers and booleans', () => {
    const data = request({ query: { limit: '10', draft: 'true' } });
    const schema = { querystring: { type: 'object', properties: { limit: { type: 'integer' }, draft: { type: 'boolean' } } } };
    assert.equal(check(schema, data), undefined);
    assert.deepEqual(data.query, { limit: 10, draft: true });
  });

  test("coerceTypes 'array': a parameter given once is a one-element array", () => {
    const data = request({ query: { tag: '7' } });
    assert.equal(check({ querystring: { tag: { type: 'array', items: { type: 'integer' } } } }, data), undefined);
    assert.deepEqual(data.query, { tag: [7] });
  });

  test('useDefaults: an absent array parameter with default [] is []', () => {
    const data = request({ query: {} });
    assert.equal(check({ querystring: { tag: { type: 'array', default: [] } } }, data), undefined);
    assert.deepEqual(data.query, { tag: [] });
  });

  test('useDefaults: each request gets its own default object', () => {
    const { validate } = createRoot({}).compileRoute(
      { method: 'POST', url: '/', schema: { body: { type: 'object', properties: { tags: { type: 'array', default: [] } } } } },
      null,
    );
    const first = request({ body: {} });
    const second = request({ body: {} });
    validate!(first, 'application/json');
    validate!(second, 'application/json');
    assert.notEqual((first.body as { tags: unknown[] }).tags, (second.body as { tags: unknown[] }).tags);
  });

  test('removeAdditional: unknown properties are dropped where additionalProperties is false', () => {
    const strict = request({ body: { name: 'Ada', isAdmin: true } });
    assert.equal(check({ body: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' } } } }, strict), undefined);
    assert.deepEqual(strict.body, { name: 'Ada' });
  });

  test('removeAdditional: without additionalProperties: false, unknown properties stay', () => {
    const loose = request({ body: { name: 'Ada', isAdmin: true } });
    assert.equal(check({ body: { type: 'object', properties: { name: { type: 'string' } } } }, loose), undefined);
    assert.deepEqual(loose.body, { name: 'Ada', isAdmin: true });
  });

  test('allErrors off: the first error only', () => {
    const error = check({ body: { type: 'object', required: ['a', 'b', 'c'] } }, request({ body: {} }));
    assert.ok(error);
    assert.equal((error.validation as unknown[]).length, 1);
    assert.equal(error?.message, "body must have required property 'a'");
  });

  test('ajv-formats is loaded', () => {
    const schema = { body: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } };
    assert.equal(check(schema, request({ body: { email: 'ada@example.com' } })), undefined);
    assert.equal(check(schema, request({ body: { email: 'not-an-email' } }))?.message, 'body/email must match format "email"');
  });

  test('a customOptions key overrides the baseline', () => {
    const { validate } = createRoot({ ajv: { customOptions: { coerceTypes: false } } }).compileRoute(
      { method: 'GET', url: '/', schema: { querystring: { limit: { type: 'integer' } } } },
      null,
    );
    const error = validate!(request({ query: { limit: '10' } }), undefined) as Error;
    assert.equal(error.message, 'querystring/limit must be integer');
  });

  test("Ajv's code optimizer is off unless customOptions.code turns it on, other code options kept", () => {
    assert.equal(createAjv({}, {}).opts.code.optimize, 0);
    const custom = createAjv({}, { customOptions: { code: { lines: true } } }).opts.code;
    assert.equal(custom.optimize, 0);
    assert.equal(custom.lines, true);
    assert.equal(createAjv({}, { customOptions: { code: { optimize: 2 } } }).opts.code.optimize, 2);
  });

  test('without the optimizer the validators answer the same', () => {
    const schema = {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', default: 0 } },
    };
    const plain = createAjv({}, {}).compile(schema);
    const optimized = createAjv({}, { customOptions: { code: { optimize: 1 } } }).compile(schema);
    for (const input of [{ name: 'Ada' }, { name: '' }, { age: '3' }, { name: 'x', age: 'no' }, { name: 'x', extra: 1 }, null, []]) {
      const a = structuredClone(input);
      const b = structuredClone(input);
      assert.equal(plain(a), optimized(b), JSON.stringify(input));
      assert.deepEqual(a, b);
      assert.deepEqual(plain.errors, optimized.errors);
    }
  });
});

describe('parts', () => {
  test('params are coerced and written back', () => {
    const data = request({ params: { id: '42' } });
    assert.equal(check({ params: { id: { type: 'integer' } } }, data), undefined);
    assert.deepEqual(data.params, { id: 42 });
    assert.equal(check({ params: { id: { type: 'integer' } } }, request({ params: { id: 'x' } }))?.message, 'params/id must be integer');
  });

  test('query is an alias of querystring; giving both is an error', () => {
    assert.equal(check({ query: { limit: { type: 'integer' } } }, request({ query: { limit: 'x' } }))?.validationContext, 'querystring');
    assert.throws(() => check({ query: {}, querystring: {} }, request()), { code: 'FST_ERR_SCH_DUPLICATE' });
  });

  test('shorthand: top-level keys are the properties', () => {
    const error = check({ body: { name: { type: 'string', minLength: 2 } } }, request({ body: { name: 'A' } }));
    assert.equal(error?.message, 'body/name must NOT have fewer than 2 characters');
  });

  test('a schema with type, or one that is not a plain object, is left alone', () => {
    assert.equal(check({ body: { type: 'string', minLength: 2 } }, request({ body: 'ok' })), undefined);
    assert.equal(check({ body: { type: 'string', minLength: 2 } }, request({ body: 'x' }))?.message, 'body must NOT have fewer than 2 characters');
    class JoiLike {
      validate(data: unknown) {
        return data === 'ok' ? { value: data } : { error: new Error('not ok') };
      }
    }
    const received: unknown[] = [];
    const joi = new JoiLike();
    const controller = createRoot({});
    controller.setValidatorCompiler(({ schema }: ValidatorCompilerInput) => {
      received.push(schema);
      return (data: unknown) => (schema as JoiLike).validate(data);
    });
    const { validate } = controller.compileRoute({ method: 'POST', url: '/', schema: { body: joi } }, null);
    assert.equal(received[0], joi);
    assert.equal((validate!(request({ body: 'no' }), 'application/json') as Error).message, 'not ok');
  });

  test('headers: schema names and required entries are lower-cased, the user object is not touched', () => {
    const headers = { type: 'object', required: ['X-Request-Id'], properties: { 'X-Request-Id': { type: 'integer' } } };
    const snapshot = structuredClone(headers);
    const data = request({ headers: { 'x-request-id': '12' } });
    assert.equal(check({ headers }, data), undefined);
    assert.deepEqual(data.headers, { 'x-request-id': 12 });
    assert.equal(check({ headers }, request({ headers: {} }))?.message, "headers must have required property 'x-request-id'");
    assert.deepEqual(headers, snapshot);
  });

  test('body is validated for every method that can carry one; never for GET, HEAD, TRACE', () => {
    const schema = { body: { type: 'object', required: ['name'] } };
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY', 'post', 'delete']) {
      assert.equal(check(schema, request({ body: {} }), method)?.validationContext, 'body', method);
    }
    for (const method of ['GET', 'HEAD', 'TRACE']) {
      const { validate } = createRoot({}).compileRoute({ method, url: '/', schema }, null);
      assert.equal(validate, null, method);
    }
    // Ignored means not compiled either: a broken body schema on GET is not an error here (the
    // route registration refuses it, with FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED).
    assert.doesNotThrow(() => createRoot({}).compileRoute({ method: 'GET', url: '/', schema: { body: { $ref: 'nowhere#' } } }, null));
  });

  test('no validated part: validate is null', () => {
    const root = createRoot({});
    assert.deepEqual(root.compileRoute({ method: 'GET', url: '/' }, null), { validate: null, serializerFor: null });
    assert.equal(root.compileRoute({ method: 'GET', url: '/', schema: { response: { 200: { type: 'object' } } } }, null).validate, null);
  });

  test('order: params, body, querystring, headers', () => {
    const schema = {
      params: { id: { type: 'integer' } },
      body: { type: 'object', required: ['name'] },
      querystring: { limit: { type: 'integer' } },
      headers: { type: 'object', required: ['x-key'] },
    };
    const data = request({ params: { id: 'x' }, body: {}, query: { limit: 'x' }, headers: {} });
    assert.equal(check(schema, data)?.validationContext, 'params');
    data.params = { id: '1' };
    assert.equal(check(schema, data)?.validationContext, 'body');
    data.body = { name: 'Ada' };
    assert.equal(check(schema, data)?.validationContext, 'querystring');
    data.query = { limit: '1' };
    assert.equal(check(schema, data)?.validationContext, 'headers');
    data.headers = { 'x-key': 'k' };
    assert.equal(check(schema, data), undefined);
  });
});
