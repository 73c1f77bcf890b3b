// The `ajv` factory option (SPEC §6.2) with the real plugins users bring.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import type { Ajv } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import type { ValidatableRequest } from '../src/schema/contracts.js';
import type { EnclaveError } from '../src/errors.js';
import { SchemaController, type SchemaControllerOptions } from '../src/schema/schema-controller.js';
import { createRoot } from './schema-cache-mode.js';

// ajv-merge-patch ships no type declarations, and the ones of ajv-i18n describe an ES default
// export that Node's CommonJS interop does not produce: load both as CommonJS.
const require = createRequire(import.meta.url);
const ajvMergePatch = require('ajv-merge-patch') as (ajv: unknown) => void;
const localize = require('ajv-i18n') as Record<string, (errors: unknown) => void>;

function request(parts: Partial<ValidatableRequest> = {}): ValidatableRequest {
  return { body: undefined, query: {}, params: {}, headers: {}, ...parts };
}

function bodyValidator(options: SchemaControllerOptions, body: unknown, setup?: (root: SchemaController) => void) {
  const root = createRoot(options);
  setup?.(root);
  const { validate } = root.compileRoute({ method: 'POST', url: '/', schema: { body } }, null);
  return (data: unknown) => validate!(request({ body: data }), 'application/json') as EnclaveError | undefined;
}

describe('ajv plugins', () => {
  test('ajv-errors: errorMessage replaces the message (with allErrors: true)', () => {
    const validate = bodyValidator(
      { ajv: { customOptions: { allErrors: true }, plugins: [ajvErrors] } },
      {
        type: 'object',
        required: ['age'],
        properties: { age: { type: 'integer', minimum: 18 } },
        errorMessage: { properties: { age: 'you must be an adult' } },
      },
    );
    assert.equal(validate({ age: 17 })?.message, 'body/age you must be an adult');
    assert.equal(validate({ age: 30 }), undefined);
  });

  test('ajv-errors without allErrors fails the build with its own explanation', () => {
    assert.throws(() => bodyValidator({ ajv: { plugins: [ajvErrors] } }, { type: 'object' }), {
      code: 'FST_ERR_SCH_VALIDATION_BUILD',
      message: /allErrors/,
    });
  });

  test('ajv-merge-patch: $merge and $patch, including a source from a shared schema', () => {
    const options = { ajv: { plugins: [ajvMergePatch] } };
    const base = { $id: 'base', type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };
    const merged = bodyValidator(
      options,
      { $merge: { source: { $ref: 'base#' }, with: { properties: { name: { type: 'string', minLength: 2 } }, required: ['id', 'name'] } } },
      (root) => root.addSchema(base),
    );
    assert.equal(merged({ id: 1, name: 'Ada' }), undefined);
    // Ajv adds an error of its own for the macro keyword after the real one.
    assert.match(merged({ id: 1 })?.message ?? '', /^body must have required property 'name'/);

    const patched = bodyValidator(options, {
      $patch: {
        source: { type: 'object', properties: { size: { type: 'integer' } } },
        with: [{ op: 'add', path: '/properties/size/maximum', value: 10 }],
      },
    });
    assert.equal(patched({ size: 5 }), undefined);
    assert.match(patched({ size: 11 })?.message ?? '', /^body\/size must be <= 10/);
  });

  test('ajv-formats given again, as [plugin, options], replaces the baseline call', () => {
    const validate = bodyValidator(
      { ajv: { plugins: [[addFormats, { mode: 'fast', keywords: true }]] } },
      { type: 'object', properties: { day: { type: 'string', format: 'date', formatMinimum: '2020-01-01' } } },
    );
    assert.equal(validate({ day: '2024-05-01' }), undefined);
    assert.equal(validate({ day: '2019-12-31' })?.message, 'body/day should be >= 2020-01-01');
  });

  test('an ES-module namespace of a plugin is accepted', () => {
    const validate = bodyValidator(
      { ajv: { customOptions: { allErrors: true }, plugins: [{ default: ajvErrors }] } },
      { type: 'integer', errorMessage: 'a whole number please' },
    );
    assert.equal(validate('twelve')?.message, 'body a whole number please');
    assert.equal(validate('12'), undefined);
  });

  test('onCreate defines a keyword that route and shared schemas use', () => {
    const onCreate = (ajv: Ajv) => {
      ajv.addKeyword({ keyword: 'even', validate: (on: boolean, data: number) => !on || data % 2 === 0 });
    };
    const validate = bodyValidator(
      { ajv: { onCreate } },
      { type: 'object', properties: { pairs: { $ref: 'pairs#' }, size: { type: 'integer', even: true } } },
      (root) => root.addSchema({ $id: 'pairs', type: 'integer', even: true }),
    );
    assert.equal(validate({ pairs: 2, size: 4 }), undefined);
    assert.equal(validate({ pairs: 3 })?.message, 'body/pairs must pass "even" keyword validation');
    assert.equal(validate({ size: 5 })?.message, 'body/size must pass "even" keyword validation');
  });

  test('ajv-i18n translates error.validation', () => {
    const error = bodyValidator({}, { type: 'object', required: ['name'] })({});
    assert.ok(error);
    localize.de!(error.validation);
    assert.match((error.validation as Array<{ message: string }>)[0]?.message ?? '', /muss das erforderliche Attribut name enthalten/);
  });
});

describe('ajv option checks', () => {
  const cases: Array<[string, unknown, string]> = [
    ['ajv is not an object', 'strict', 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ'],
    ['customOptions is not an object', { customOptions: 1 }, 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ'],
    ['customOptions is an array', { customOptions: [] }, 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ'],
    ['plugins is not an array', { plugins: ajvErrors }, 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR'],
    ['a plugin is not a function', { plugins: ['ajv-errors'] }, 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR'],
    ['a [plugin, options] pair without a function', { plugins: [[{}, {}]] }, 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR'],
  ];
  for (const [name, ajv, code] of cases) {
    test(name, () => {
      assert.throws(() => createRoot({ ajv: ajv as SchemaControllerOptions['ajv'] }), { code });
    });
  }

  test('onCreate runs after the plugins, once per Ajv instance, before the shared schemas are added', () => {
    const calls: string[] = [];
    const plugin = (ajv: Ajv) => {
      calls.push('plugin');
      return ajv;
    };
    const onCreate = (ajv: Ajv) => {
      calls.push(`onCreate ${Object.keys(ajv.schemas).includes('shared') ? 'after' : 'before'} the shared schemas`);
    };
    // Without the schema cache, as above.
    const root = SchemaController.createRoot({ ajv: { plugins: [plugin], onCreate } });
    root.addSchema({ $id: 'shared', type: 'string' });
    root.compileValidationSchema({ $ref: 'shared#' });
    assert.deepEqual(calls, ['plugin', 'onCreate before the shared schemas']);
  });

  test('an onCreate that is not a function is refused when the application is created', () => {
    assert.throws(() => createRoot({ ajv: { onCreate: 'addKeyword' } }), { code: 'FST_ERR_INIT_OPTS_INVALID' });
  });

  test('a plugin receives its options', () => {
    const received: unknown[] = [];
    const plugin = (_ajv: unknown, options: unknown) => received.push(options);
    // Without the schema cache: a boot whose validators all come from it creates no Ajv instance
    // and so calls no plugin (docs/schema-cache.md).
    SchemaController.createRoot({ ajv: { plugins: [[plugin, { level: 2 }]] } }).compileValidationSchema({ type: 'string' });
    assert.deepEqual(received, [{ level: 2 }]);
  });
});
