import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ValidatableRequest } from '../src/schema/contracts.js';
import { createRoot } from './schema-cache-mode.js';

function request(parts: Partial<ValidatableRequest> = {}): ValidatableRequest {
  return { body: undefined, query: {}, params: {}, headers: {}, ...parts };
}

const user = { $id: 'user', type: 'object', required: ['name'], properties: { name: { type: 'string' } } };

describe('addSchema', () => {
  test('refuses a schema without $id', () => {
    const root = createRoot({});
    assert.throws(() => root.addSchema({ type: 'string' }), { code: 'FST_ERR_SCH_MISSING_ID' });
    assert.throws(() => root.addSchema({ $id: '', type: 'string' }), { code: 'FST_ERR_SCH_MISSING_ID' });
    assert.throws(() => root.addSchema({ $id: 42 } as unknown as Record<string, unknown>), { code: 'FST_ERR_SCH_MISSING_ID' });
    assert.throws(() => root.addSchema(null as unknown as Record<string, unknown>), { code: 'FST_ERR_SCH_MISSING_ID' });
    assert.deepEqual(root.getSchemas(), {});
  });

  test('refuses a duplicate $id in one context, and one an ancestor already uses', () => {
    const root = createRoot({});
    root.addSchema(user);
    assert.throws(() => root.addSchema({ ...user }), { code: 'FST_ERR_SCH_ALREADY_PRESENT', message: /'user'/ });
    assert.throws(() => root.createChild().addSchema({ ...user }), { code: 'FST_ERR_SCH_ALREADY_PRESENT' });
  });

  test('stores a copy: mutating the object afterwards changes nothing', () => {
    const root = createRoot({});
    const schema = { $id: 'limit', type: 'integer', maximum: 10 };
    root.addSchema(schema);
    schema.maximum = 1000;
    assert.equal((root.getSchema('limit') as { maximum: number }).maximum, 10);
  });

  test("keeps an $id of '__proto__' as a key, not as a prototype", () => {
    const root = createRoot({});
    root.addSchema({ $id: '__proto__', type: 'string' });
    const schemas = root.getSchemas();
    assert.equal(Object.getPrototypeOf(schemas), Object.prototype);
    assert.ok(Object.hasOwn(schemas, '__proto__'));
  });

  test('turns a fluent-schema builder into its JSON', () => {
    const root = createRoot({});
    const builder = { isFluentSchema: true, valueOf: () => ({ $id: 'fluent', type: 'string' }) };
    root.addSchema(builder);
    assert.deepEqual(root.getSchema('fluent'), { $id: 'fluent', type: 'string' });
  });
});

describe('encapsulation of shared schemas', () => {
  test('a child sees its ancestors; a parent never sees its child; siblings are separate', () => {
    const root = createRoot({});
    root.addSchema(user);
    const left = root.createChild();
    const right = root.createChild();
    left.addSchema({ $id: 'left', type: 'string' });
    right.addSchema({ $id: 'right', type: 'string' });
    const grandchild = left.createChild();

    assert.deepEqual(Object.keys(root.getSchemas()), ['user']);
    assert.deepEqual(Object.keys(left.getSchemas()).sort(), ['left', 'user']);
    assert.deepEqual(Object.keys(right.getSchemas()).sort(), ['right', 'user']);
    assert.deepEqual(Object.keys(grandchild.getSchemas()).sort(), ['left', 'user']);
    assert.equal(root.getSchema('left'), undefined);
    assert.equal(right.getSchema('left'), undefined);
    assert.deepEqual(grandchild.getSchema('user'), user);
    assert.deepEqual(left.ownSchemaIds(), ['left']);
    assert.deepEqual(grandchild.ownSchemaIds(), []);
  });

  test('the same $id may be used by two siblings', () => {
    const root = createRoot({});
    root.createChild().addSchema({ $id: 'thing', type: 'string' });
    assert.doesNotThrow(() => root.createChild().addSchema({ $id: 'thing', type: 'integer' }));
  });

  test("a route resolves its ancestors' schemas, and a parent route cannot reach a child's", () => {
    const root = createRoot({});
    const child = root.createChild();
    child.addSchema(user);
    const grandchild = child.createChild();
    const { validate } = grandchild.compileRoute({ method: 'POST', url: '/in-child', schema: { body: { $ref: 'user#' } } }, null);
    const error = validate!(request({ body: {} }), 'application/json') as Error;
    assert.equal(error.message, "body must have required property 'name'");

    assert.throws(() => root.compileRoute({ method: 'POST', url: '/in-root', schema: { body: { $ref: 'user#' } } }, null), {
      code: 'FST_ERR_SCH_VALIDATION_BUILD',
      message: "Failed building the validation schema for POST: /in-root, due to error can't resolve reference user# from id #",
      hint: /^The body schema of route POST \/in-root failed to compile/,
    });
    assert.throws(() => root.createChild().compileRoute({ method: 'POST', url: '/sibling', schema: { body: { $ref: 'user#' } } }, null), {
      code: 'FST_ERR_SCH_VALIDATION_BUILD',
    });
  });

  test('a schema added after a route of the context compiled is seen by later routes', () => {
    const root = createRoot({});
    root.compileRoute({ method: 'POST', url: '/a', schema: { body: { type: 'object' } } }, null);
    root.addSchema(user);
    const { validate } = root.compileRoute({ method: 'POST', url: '/b', schema: { body: { $ref: 'user#' } } }, null);
    assert.equal(validate!(request({ body: { name: 'Ada' } }), 'application/json'), undefined);
  });
});

describe('schemaController.bucket', () => {
  test('replaces the store: called with the parent schemas, and fed to the validator', () => {
    const calls: Array<Record<string, unknown> | undefined> = [];
    const bucket = (parentSchemas?: Record<string, unknown>) => {
      calls.push(parentSchemas);
      const store: Record<string, unknown> = { ...parentSchemas };
      return {
        add: (schema: Record<string, unknown>) => {
          store[schema.$id as string] = schema;
        },
        getSchema: (id: string) => store[id],
        getSchemas: () => ({ ...store }),
      };
    };
    const root = createRoot({ schemaController: { bucket } });
    root.addSchema(user);
    const child = root.createChild();
    assert.equal(calls.length, 2);
    assert.equal(calls[0], undefined);
    assert.deepEqual(Object.keys(calls[1] ?? {}), ['user']);
    assert.deepEqual(child.getSchema('user'), user);
    const { validate } = child.compileRoute({ method: 'PUT', url: '/', schema: { body: { $ref: 'user#' } } }, null);
    assert.ok(validate!(request({ body: {} }), 'application/json') instanceof Error);
  });

  test('must be a function', () => {
    assert.throws(() => createRoot({ schemaController: { bucket: {} } }), {
      code: 'FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN',
    });
    assert.throws(() => createRoot({ schemaController: 'yes' as unknown as Record<string, unknown> }), {
      code: 'FST_ERR_INIT_OPTS_INVALID',
    });
  });
});
