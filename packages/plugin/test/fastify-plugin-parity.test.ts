// Differential test: for the same inputs, our wrapper and the real `fastify-plugin` package
// (a devDependency) must leave the same marks, because the core reads those marks and must
// treat functions wrapped by either one alike (SPEC §3.3).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fastifyPlugin from 'fastify-plugin';
import plugin from '../src/index.ts';

type Wrapper = (fn: unknown, meta?: unknown) => unknown;
const ours = plugin as unknown as Wrapper;
const theirs = fastifyPlugin as unknown as Wrapper;

const symbolKeys = ['skip-override', 'fastify.display-name', 'plugin-meta'] as const;

/** Automatic names carry a per-package counter; only the part before it must agree. */
function withoutCounter(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/-auto-\d+$/, '-auto-N') : value;
}

/** What a wrapper leaves on a function: the three symbols plus its own string-keyed additions. */
function marksOf(wrapped: unknown): Record<string, unknown> {
  const fn = wrapped as Record<PropertyKey, unknown>;
  const marks: Record<string, unknown> = {};
  for (const key of symbolKeys) {
    const value = fn[Symbol.for(key)];
    marks[key] =
      key === 'plugin-meta' && value !== null && typeof value === 'object'
        ? { ...value, name: withoutCounter((value as { name?: unknown }).name) }
        : withoutCounter(value);
  }
  for (const key of Object.keys(fn)) marks[`.${key}`] = fn[key] === fn ? '<itself>' : fn[key];
  return marks;
}

type Case = { title: string; make: () => unknown; meta?: unknown };

// Each case builds a fresh function per wrapper, since both wrappers mutate their input.
const cases: Case[] = [
  { title: 'named function, no metadata', make: () => async function database() {} },
  { title: 'anonymous function, no metadata', make: () => [async () => {}][0] },
  { title: 'callback style, named metadata', make: () => (_i: unknown, _o: unknown, done: () => void) => done(), meta: { name: 'callback' } },
  { title: 'version-range string', make: () => async function ranged() {}, meta: '5.x' },
  { title: 'empty metadata object', make: () => async function empty() {}, meta: {} },
  { title: 'empty name', make: () => async function blank() {}, meta: { name: '' } },
  { title: 'encapsulate: true', make: () => async function kept() {}, meta: { name: 'kept', encapsulate: true } },
  { title: 'encapsulate: false', make: () => async function loose() {}, meta: { name: 'loose', encapsulate: false } },
  { title: 'unnamed with encapsulate', make: () => async function inner() {}, meta: { encapsulate: true, dependencies: ['x'] } },
  {
    title: 'full metadata, scoped name',
    make: () => async function full() {},
    meta: {
      name: '@acme/rate-limit',
      fastify: '>=5',
      dependencies: ['a', 'b'],
      decorators: { fastify: ['db'], request: ['user'], reply: ['view'] },
    },
  },
  { title: 'kebab-case name', make: () => async function pool() {}, meta: { name: 'db-pool-manager' } },
  { title: 'ES module namespace', make: () => ({ default: async function fromNamespace() {} }), meta: { name: 'ns' } },
  { title: 'function with its own default', make: () => Object.assign(async function own() {}, { default: undefined }), meta: { name: 'own' } },
  { title: 'existing alias is kept', make: () => Object.assign(async function aliased() {}, { aliased: 1 }), meta: { name: 'aliased' } },
];

describe('parity with fastify-plugin', () => {
  for (const { title, make, meta } of cases) {
    test(title, () => {
      const args = meta === undefined ? [] : [meta];
      const oursMarks = marksOf(ours(make(), ...args));
      const theirsMarks = marksOf(theirs(make(), ...args));
      assert.deepEqual(oursMarks, theirsMarks);
    });
  }

  test('a named metadata object is stored by reference by both', () => {
    const meta = { name: 'same' };
    const oursMeta = (ours(async () => {}, meta) as Record<symbol, unknown>)[Symbol.for('plugin-meta')];
    const theirsMeta = (theirs(async () => {}, meta) as Record<symbol, unknown>)[Symbol.for('plugin-meta')];
    assert.equal(oursMeta, meta);
    assert.equal(theirsMeta, meta);
  });

  const invalid: [string, unknown, unknown][] = [
    ['undefined plugin', undefined, undefined],
    ['number plugin', 1, undefined],
    ['plain object plugin', {}, undefined],
    ['namespace with a non-function default', { default: 'x' }, undefined],
    ['null metadata', async () => {}, null],
    ['array metadata', async () => {}, []],
    ['number metadata', async () => {}, 3],
    ['non-string version range', async () => {}, { fastify: 5 }],
    ['numeric name', async () => {}, { name: 5 }],
  ];
  for (const [title, fn, meta] of invalid) {
    test(`both refuse with a TypeError: ${title}`, () => {
      assert.throws(() => ours(fn, meta), TypeError);
      assert.throws(() => theirs(fn, meta), TypeError);
    });
  }
});
