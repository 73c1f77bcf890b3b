// Replaceable validator compilers (SPEC §6.4), the result styles of other validation libraries,
// `$async` schemas, the `schemaController.compilersFactory` option, and the request/reply
// compile helpers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SerializerCompilerInput, ValidatableRequest, ValidationFunction, ValidatorCompiler, ValidatorCompilerInput } from '../src/schema/contracts.js';
import type { EnclaveError } from '../src/errors.js';
import { createRoot } from './schema-cache-mode.js';

function request(parts: Partial<ValidatableRequest> = {}): ValidatableRequest {
  return { body: undefined, query: {}, params: {}, headers: {}, ...parts };
}

function compilerReturning(make: () => ValidationFunction): ValidatorCompiler {
  return () => make();
}

function validateBody(compiler: ValidatorCompiler, data: ValidatableRequest) {
  const root = createRoot({});
  root.setValidatorCompiler(compiler);
  const { validate } = root.compileRoute({ method: 'POST', url: '/', schema: { body: { type: 'object' } } }, null);
  return validate!(data, 'application/json');
}

describe('custom validator compilers', () => {
  test('receive { schema, method, url, httpPart } for every part, and no shared schemas', () => {
    const calls: ValidatorCompilerInput[] = [];
    let defaultBuilt = 0;
    const root = createRoot({ ajv: { plugins: [() => defaultBuilt++] } });
    root.addSchema({ $id: 'user', type: 'object' });
    root.setValidatorCompiler((input) => {
      calls.push(input);
      return () => true;
    });
    const schema = { params: { type: 'object' }, querystring: { type: 'object' }, headers: { type: 'object' }, body: { $ref: 'user#' } };
    root.compileRoute({ method: 'PUT', url: '/users/:id', schema }, null);
    assert.deepEqual(
      calls.map(({ httpPart, method, url }) => `${method} ${url} ${httpPart}`),
      ['PUT /users/:id params', 'PUT /users/:id body', 'PUT /users/:id querystring', 'PUT /users/:id headers'],
    );
    assert.deepEqual(calls[1]?.schema, { $ref: 'user#' }, 'the $ref is handed over unresolved');
    assert.equal(defaultBuilt, 0, 'the default Ajv is never built');
  });

  test('are encapsulated: a child inherits until it sets its own; parents and siblings keep theirs', () => {
    const used: string[] = [];
    const named =
      (name: string): ValidatorCompiler =>
      () =>
      () => {
        used.push(name);
        return true;
      };
    const root = createRoot({});
    root.setValidatorCompiler(named('root'));
    const inherits = root.createChild().createChild();
    const own = root.createChild();
    own.setValidatorCompiler(named('own'));
    const route = { method: 'POST', url: '/', schema: { body: { type: 'object' } } };
    for (const controller of [root, inherits, own]) controller.compileRoute(route, null).validate!(request({ body: {} }), 'application/json');
    assert.deepEqual(used, ['root', 'root', 'own']);
  });

  test('the route option validatorCompiler wins over the context', () => {
    const root = createRoot({});
    root.setValidatorCompiler(() => () => false);
    const { validate } = root.compileRoute({ method: 'POST', url: '/', schema: { body: {} }, validatorCompiler: () => () => true }, null);
    assert.equal(validate!(request({ body: 1 }), 'application/json'), undefined);
  });

  test('Ajv style: false with .errors is formatted', () => {
    const error = validateBody(
      compilerReturning(() => {
        const fn: ValidationFunction = () => {
          fn.errors = [{ instancePath: '/age', message: 'is too young' }];
          return false;
        };
        return fn;
      }),
      request({ body: {} }),
    ) as EnclaveError;
    assert.equal(error.message, 'body/age is too young');
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, 'FST_ERR_VALIDATION');
    assert.deepEqual(error.validation, [{ instancePath: '/age', message: 'is too young' }]);
  });

  test('{ value } replaces the part; { error: Error } keeps the library error, marked', () => {
    const data = request({ body: { n: '1' } });
    assert.equal(
      validateBody(() => () => ({ value: { n: 1 } }), data),
      undefined,
    );
    assert.deepEqual(data.body, { n: 1 });

    class LibraryError extends Error {
      details = [{ path: ['n'], message: '"n" is required' }];
    }
    const thrownBefore = new LibraryError('"n" is required');
    const error = validateBody(() => () => ({ error: thrownBefore, value: undefined }), request({ body: {} })) as EnclaveError;
    assert.equal(error, thrownBefore);
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, 'FST_ERR_VALIDATION');
    assert.equal(error.validationContext, 'body');
    assert.deepEqual(error.validation, thrownBefore.details);
  });

  test('{ error: [...] } goes through the formatter; other truthy results are valid', () => {
    const error = validateBody(() => () => ({ error: [{ instancePath: '/x', message: 'bad' }] }), request({ body: {} })) as Error;
    assert.equal(error.message, 'body/x bad');
    assert.equal(
      validateBody(() => () => ({ success: true }), request({ body: {} })),
      undefined,
    );
    assert.equal(
      validateBody(() => () => undefined, request({ body: {} })),
      undefined,
    );
  });

  test('a thrown error is the failure of that part, not a crash', () => {
    const error = validateBody(
      () => () => {
        throw new TypeError('cannot read this');
      },
      request({ body: {} }),
    ) as EnclaveError;
    assert.equal(error.statusCode, 400);
    assert.equal(error.validationContext, 'body');
    assert.equal(error.message, 'cannot read this');
  });

  test('promises: { value } applied, rejection is a failure, later parts still run', async () => {
    const root = createRoot({});
    root.setValidatorCompiler(({ httpPart }) =>
      httpPart === 'body' ? async (data: unknown) => ({ value: { wrapped: data } }) : (data: unknown) => data === 'ok',
    );
    const { validate } = root.compileRoute({ method: 'POST', url: '/', schema: { body: {}, querystring: {} } }, null);
    const data = request({ body: 1, query: 'ok' });
    const pending = validate!(data, 'application/json');
    assert.ok(pending instanceof Promise);
    assert.equal(await pending, undefined);
    assert.deepEqual(data.body, { wrapped: 1 });
    const failing = (await validate!(request({ body: 1, query: 'no' }), 'application/json')) as EnclaveError;
    assert.equal(failing.validationContext, 'querystring');

    const rejecting = createRoot({});
    rejecting.setValidatorCompiler(() => async () => Promise.reject(new Error('remote says no')));
    const rejected = (await rejecting.compileRoute({ method: 'POST', url: '/', schema: { body: {} } }, null).validate!(request(), undefined)) as EnclaveError;
    assert.equal(rejected.message, 'remote says no');
    assert.equal(rejected.statusCode, 400);
  });

  test('a compiler that throws or returns no function fails the build, naming the part', () => {
    const root = createRoot({});
    root.setValidatorCompiler(() => {
      throw new Error('unsupported keyword');
    });
    assert.throws(() => root.compileRoute({ method: 'GET', url: '/q', schema: { querystring: {} } }, null), {
      code: 'FST_ERR_SCH_VALIDATION_BUILD',
      message: 'Failed building the validation schema for GET: /q, due to error unsupported keyword',
      hint: /^The querystring schema of route GET \/q failed to compile/,
    });
    root.setValidatorCompiler((() => 'nope') as unknown as ValidatorCompiler);
    assert.throws(() => root.compileRoute({ method: 'GET', url: '/q', schema: { params: {} } }, null), {
      code: 'FST_ERR_SCH_VALIDATION_BUILD',
      message: 'Failed building the validation schema for GET: /q, due to error the validator compiler returned string, not a function',
      hint: /^The params schema of route GET \/q failed to compile/,
    });
  });
});

describe('$async schemas with the default compiler', () => {
  test('return a promise; valid data resolves undefined, invalid data a 400', async () => {
    const root = createRoot({});
    const { validate } = root.compileRoute(
      { method: 'POST', url: '/', schema: { body: { $async: true, type: 'object', required: ['value'], properties: { value: { type: 'integer' } } } } },
      null,
    );
    const data = request({ body: { value: '5' } });
    const pending = validate!(data, 'application/json');
    assert.ok(pending instanceof Promise);
    assert.equal(await pending, undefined);
    assert.deepEqual(data.body, { value: 5 }, 'coerced in place, not mistaken for a { value } envelope');
    // Ajv's own ValidationError answers, as in Fastify: its message, the raw errors attached.
    const error = (await validate!(request({ body: {} }), 'application/json')) as EnclaveError;
    assert.equal(error.message, 'validation failed');
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, 'FST_ERR_VALIDATION');
    assert.equal(error.validationContext, 'body');
    assert.deepEqual(
      (error.validation as Array<{ message: string }>).map((each) => each.message),
      ["must have required property 'value'"],
    );
  });
});

describe('schemaController.compilersFactory', () => {
  test('buildValidator is fed the visible shared schemas and the ajv option, once per schema set', () => {
    const builds: Array<{ ids: string[]; ajv: unknown }> = [];
    const root = createRoot({
      ajv: { customOptions: { allErrors: true } },
      schemaController: {
        compilersFactory: {
          buildValidator: (schemas: Record<string, unknown>, ajv: unknown) => {
            builds.push({ ids: Object.keys(schemas).sort(), ajv });
            return () => () => true;
          },
        },
      },
    });
    root.addSchema({ $id: 'a' });
    const plain = root.createChild();
    const withSchemas = root.createChild();
    withSchemas.addSchema({ $id: 'b' });
    const route = { method: 'GET', url: '/', schema: { querystring: {} } };
    root.compileRoute(route, null);
    plain.compileRoute(route, null);
    plain.createChild().compileRoute(route, null);
    withSchemas.compileRoute(route, null);
    assert.deepEqual(
      builds.map(({ ids }) => ids),
      [['a'], ['a', 'b']],
    );
    assert.deepEqual((builds[0]!.ajv as { customOptions: unknown }).customOptions, { allErrors: true });
  });

  test('buildSerializer replaces the default serializer, with serializerOpts', () => {
    const seen: unknown[] = [];
    const root = createRoot({
      serializerOpts: { rounding: 'floor' },
      schemaController: {
        compilersFactory: {
          buildSerializer: (_schemas: Record<string, unknown>, options: unknown) => {
            seen.push(options);
            return () => () => 'custom';
          },
        },
      },
    });
    const { serializerFor } = root.compileRoute({ method: 'GET', url: '/', schema: { response: { 200: { type: 'object' } } } }, null);
    assert.equal(serializerFor!(200, undefined)!({}), 'custom');
    assert.deepEqual(seen, [{ rounding: 'floor' }]);
  });

  test('builders must be functions', () => {
    assert.throws(() => createRoot({ schemaController: { compilersFactory: { buildValidator: 'ajv' } } }), {
      code: 'FST_ERR_INIT_OPTS_INVALID',
      message: `Invalid initialization options: '["must be a function"]'`,
      hint: /'schemaController\.compilersFactory\.buildValidator' got "ajv"/,
    });
    assert.throws(() => createRoot({ schemaController: { compilersFactory: { buildSerializer: 1 } } }), {
      code: 'FST_ERR_INIT_OPTS_INVALID',
      message: `Invalid initialization options: '["must be a function"]'`,
      hint: /'schemaController\.compilersFactory\.buildSerializer' got 1/,
    });
  });
});

describe('compileValidationSchema and compileSerializationSchema', () => {
  test("use the context's compilers and compile one content once", () => {
    const calls: ValidatorCompilerInput[] = [];
    const root = createRoot({});
    const child = root.createChild();
    child.setValidatorCompiler((input) => {
      calls.push(input);
      return (data: unknown) => typeof data === 'string';
    });
    const first = child.compileValidationSchema({ type: 'string' }, 'body');
    const second = child.compileValidationSchema({ type: 'string' }, 'body');
    assert.equal(first, second);
    assert.equal(calls.length, 1);
    assert.equal(first(1), false);
    child.compileValidationSchema({ type: 'string' }, 'querystring');
    assert.equal(calls.length, 2, 'the part is part of the key');

    const withDefault = root.compileValidationSchema({ type: 'object', required: ['a'] });
    assert.equal(withDefault({}), false);
    assert.equal(withDefault({ a: 1 }), true);
  });

  test('serialization: custom compiler input, cache, and the default compiler', () => {
    const inputs: SerializerCompilerInput[] = [];
    const root = createRoot({});
    const child = root.createChild();
    child.setSerializerCompiler((input) => {
      inputs.push(input);
      return (data: unknown) => `custom:${JSON.stringify(data)}`;
    });
    const serialize = child.compileSerializationSchema({ type: 'object' }, '201', 'application/json');
    assert.equal(child.compileSerializationSchema({ type: 'object' }, '201', 'application/json'), serialize);
    assert.equal(inputs.length, 1);
    assert.equal(inputs[0]?.httpStatus, '201');
    assert.equal(inputs[0]?.contentType, 'application/json');
    assert.equal(serialize({ a: 1 }), 'custom:{"a":1}');

    const fromDefault = root.compileSerializationSchema({ type: 'object', properties: { a: { type: 'integer' } } });
    assert.equal(fromDefault({ a: '2', b: 3 }), '{"a":2}');
    const { serializerFor } = child.compileRoute({ method: 'GET', url: '/', schema: { response: { 200: { type: 'object' } } } }, null);
    assert.match(serializerFor!(200, undefined)!({}), /^custom:/, 'the route uses the context serializer compiler');
  });
});
