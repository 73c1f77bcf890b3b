// A serializer's module as the schema cache stores it (issue 29): fast-json-stringify's
// standalone code without its indentation, serializing exactly as the serializer built as usual.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { compileModule, loadModule } from '../src/schema/schema-cache-modules.js';
import { buildStandaloneSerializer } from '../src/schema/standalone-serializer.js';

const schema: Schema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    owner: { type: 'object', properties: { login: { type: 'string' }, since: { type: 'string', format: 'date-time' } } },
    value: { anyOf: [{ type: 'string' }, { type: 'number' }] },
  },
};

const inputs = [
  { id: '7', name: 'Ada', tags: ['a', 'b'], owner: { login: 'ada', since: new Date(0) }, value: 3, secret: 'x' },
  { id: 1.5, name: null, tags: [], value: 'three' },
  {},
];

function load(code: string): (input: unknown) => string {
  return loadModule('serializer', compileModule(code, 'test:serializer')) as (input: unknown) => string;
}

test('the stored module has no indentation and serializes as the serializer built as usual does', () => {
  const built = buildStandaloneSerializer(structuredClone(schema), {});
  assert.ok('code' in built, 'the schema can be a module');
  assert.doesNotMatch(built.code, /\n[\t ]|\n\n/);
  const usual = fastJsonStringify(structuredClone(schema)) as (input: unknown) => string;
  const stored = load(built.code);
  for (const input of inputs) {
    assert.equal(stored(input), usual(input));
    assert.equal(built.serializer(input as never), usual(input));
  }
});

test('code with a template literal character keeps its indentation', () => {
  const withBacktick: Schema = { type: 'object', properties: { 'a`b': { type: 'string' }, c: { type: 'object', properties: { d: { type: 'integer' } } } } };
  const built = buildStandaloneSerializer(structuredClone(withBacktick), {});
  assert.ok('code' in built);
  assert.match(built.code, /\n[\t ]/);
  assert.equal(load(built.code)({ 'a`b': 'x', c: { d: '2' } }), '{"a`b":"x","c":{"d":2}}');
});
