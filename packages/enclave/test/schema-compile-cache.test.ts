// Boot speed (SPEC §10, issue text): validators are cached by schema content per Ajv instance, and
// an Ajv instance exists per set of visible shared schemas. Observed through an Ajv plugin that
// counts instances and wraps `ajv.compile`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ValidatableRequest } from '../src/schema/contracts.js';
import { BoundedCache } from '../src/schema/bounded-cache.js';
import { SchemaController } from '../src/schema/schema-controller.js';

function request(parts: Partial<ValidatableRequest> = {}): ValidatableRequest {
  return { body: undefined, query: {}, params: {}, headers: {}, ...parts };
}

function countingRoot() {
  const counts = { instances: 0, compiles: 0 };
  const spy = (ajv: { compile: (schema: unknown) => unknown }) => {
    counts.instances++;
    const compile = ajv.compile.bind(ajv);
    ajv.compile = (schema: unknown) => {
      counts.compiles++;
      return compile(schema);
    };
  };
  return { root: SchemaController.createRoot({ ajv: { plugins: [spy] } }), counts };
}

describe('compile cache', () => {
  test('1,000 routes with a $ref to one shared schema compile once', () => {
    const { root, counts } = countingRoot();
    root.addSchema({ $id: 'item', type: 'object', required: ['id'], properties: { id: { type: 'integer' } } });
    const validators = new Set<unknown>();
    for (let index = 0; index < 1000; index++) {
      const { validate } = root.compileRoute({ method: 'POST', url: `/items/${index}`, schema: { body: { $ref: 'item#' } } }, null);
      validators.add(validate);
      if (index === 999) assert.ok(validate!(request({ body: {} }), 'application/json') instanceof Error);
    }
    assert.equal(counts.instances, 1);
    assert.equal(counts.compiles, 1);
    assert.equal(validators.size, 1000, 'each route still has its own validate function');
  });

  test('1,000 routes with copies of one inline schema compile once; a different schema compiles again', () => {
    const { root, counts } = countingRoot();
    const make = () => ({ type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } });
    for (let index = 0; index < 1000; index++) {
      root.compileRoute({ method: 'PUT', url: `/copy/${index}`, schema: { body: make(), querystring: make() } }, null);
    }
    assert.equal(counts.compiles, 1);
    root.compileRoute({ method: 'PUT', url: '/other', schema: { body: { type: 'object', required: ['name'] } } }, null);
    assert.equal(counts.compiles, 2);
  });

  test('contexts that add no schema reuse the parent Ajv and its cache', () => {
    const { root, counts } = countingRoot();
    root.addSchema({ $id: 'id', type: 'integer' });
    const schema = { params: { type: 'object', properties: { id: { $ref: 'id#' } } } };
    let context = root;
    for (let depth = 0; depth < 50; depth++) {
      context = context.createChild();
      context.compileRoute({ method: 'GET', url: `/deep/${depth}/:id`, schema }, null);
    }
    for (let index = 0; index < 50; index++) root.createChild().compileRoute({ method: 'GET', url: `/wide/${index}/:id`, schema }, null);
    assert.equal(counts.instances, 1);
    assert.equal(counts.compiles, 1);
  });

  test('a context that adds schemas gets its own Ajv, so one $ref never means two schemas', () => {
    const { root, counts } = countingRoot();
    const asText = root.createChild();
    const asNumber = root.createChild();
    asText.addSchema({ $id: 'thing', type: 'string', pattern: '^[a-z]+$' });
    asNumber.addSchema({ $id: 'thing', type: 'integer' });
    const schema = { body: { type: 'object', properties: { value: { $ref: 'thing#' } } } };
    const text = asText.compileRoute({ method: 'POST', url: '/', schema }, null).validate!;
    const number = asNumber.compileRoute({ method: 'POST', url: '/', schema }, null).validate!;
    assert.equal(text(request({ body: { value: 'abc' } }), 'application/json'), undefined);
    assert.equal((number(request({ body: { value: 'abc' } }), 'application/json') as Error).message, 'body/value must be integer');
    assert.equal(counts.instances, 2);
  });

  test('compileValidationSchema returns the cached function for the same content', () => {
    const { root, counts } = countingRoot();
    const first = root.compileValidationSchema({ type: 'string', maxLength: 3 });
    const second = root.compileValidationSchema({ type: 'string', maxLength: 3 });
    assert.equal(first, second);
    assert.equal(counts.compiles, 1);
    assert.equal(first('abcd'), false);
  });

  test('schemas that are not plain JSON are cached by identity only', () => {
    const { root, counts } = countingRoot();
    // A Date is not JSON: two schemas holding one cannot be proven equal by their text.
    const make = () => ({ type: 'object', properties: { since: { type: 'string', default: new Date(0) } } });
    const one = make();
    root.compileValidationSchema(one);
    root.compileValidationSchema(one);
    assert.equal(counts.compiles, 1, 'the same object: once');
    root.compileValidationSchema(make());
    assert.equal(counts.compiles, 2, 'an equal-looking copy: again');
  });
});

describe('BoundedCache', () => {
  test('forgets the oldest entry past its limit and reports it', () => {
    const evicted: number[] = [];
    const cache = new BoundedCache<number>(2, (value) => evicted.push(value));
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('b', 20);
    assert.deepEqual(evicted, [], 'replacing a key evicts nothing');
    cache.set('c', 3);
    assert.deepEqual(evicted, [1]);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('b'), 20);
    assert.equal(cache.size, 2);
  });
});
