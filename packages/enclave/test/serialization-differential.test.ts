// Differential tests (SPEC §7.2): whatever the data, the default serializer's output must parse to
// exactly what the reference filter makes of it — no undeclared property, every value coerced.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { compileResponseSerializers } from '../src/schema/response-serializers.js';
import { fixtureSchemas, referenceFilter, rootSchemaArbitrary, sharedSchemas, valueFor } from './serialization-fixtures.js';
import { createSerializerFactory } from './schema-cache-mode.js';

// Bounded so the suite stays fast; raise it locally (ENCLAVE_FC_RUNS=5000) to hunt for counterexamples.
const RUNS = Number(process.env.ENCLAVE_FC_RUNS ?? 200);
const compilerFor = createSerializerFactory();
const compiler = compilerFor(sharedSchemas);

function serializerFor(schema: unknown) {
  const lookup = compileResponseSerializers({ 200: schema }, { method: 'GET', url: '/differential', compiler });
  const serialize = lookup(200, 'application/json; charset=utf-8');
  assert.equal(typeof serialize, 'function');
  return serialize!;
}

function expected(schema: unknown, data: unknown): unknown {
  return JSON.parse(JSON.stringify(referenceFilter(schema, data)) ?? 'null');
}

describe('default serializer against the reference filter', () => {
  for (const [name, schema] of Object.entries(fixtureSchemas)) {
    test(`fixture schema "${name}"`, () => {
      const serialize = serializerFor(schema);
      fc.assert(
        fc.property(valueFor(schema), (data) => {
          assert.deepStrictEqual(JSON.parse(serialize(data)), expected(schema, data));
        }),
        { numRuns: RUNS },
      );
    });
  }

  test('generated schemas with generated data', () => {
    fc.assert(
      fc.property(
        rootSchemaArbitrary.chain((schema) => fc.tuple(fc.constant(schema), fc.array(valueFor(schema), { minLength: 1, maxLength: 3 }))),
        ([schema, samples]) => {
          const serialize = serializerFor(schema);
          for (const data of samples) {
            assert.deepStrictEqual(JSON.parse(serialize(data)), expected(schema, data));
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('output is always valid JSON, including for hostile strings and names', () => {
    const schema = { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: { type: 'string' } };
    const serialize = serializerFor(schema);
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), { maxKeys: 4 }), (data) => {
        assert.deepStrictEqual(JSON.parse(serialize(data)), expected(schema, data));
      }),
      { numRuns: RUNS },
    );
  });
});
