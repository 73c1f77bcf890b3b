// The type gate's check ids (compat/lib/type-checks.mjs): one per assertion, directive and
// check-free statement, named so that they survive line shifts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractChecks } from '../lib/type-checks.mjs';
import { rewriteImports } from '../lib/type-scratch.mjs';

const source = `import { expect, test } from 'tstyche'
import app from 'pkg'

const server = app()
expect(server).type.toBe<number>()
server.hook('a', function (x) {
  expect(x).type.toBe<string>()
  expect(x).type.not.toBe<number>()
  expect(x).type.toBe<string>()
})
// @ts-expect-error  No overload matches this call.
server.hook(1)
server.options({
  // @ts-expect-error  Type 'number' is not assignable
  name: 1
})
test('named', () => {
  const y = 1
  expect(y).type.toBe<1>()
})
`;

test('every assertion, directive and check-free statement is one check, in source order', () => {
  const { checks } = extractChecks('sample.tst.ts', source);
  assert.deepEqual(
    checks.map((check) => [check.kind, check.id]),
    [
      ['compiles', 'compiles: const server = app()'],
      ['expect', 'expect(server).type.toBe<number>()'],
      ['expect', "server.hook('a', function (x) { > expect(x).type.toBe<string>()"],
      ['expect', "server.hook('a', function (x) { > expect(x).type.not.toBe<number>()"],
      ['expect', "server.hook('a', function (x) { > expect(x).type.toBe<string>() #2"],
      ['rejects', '@ts-expect-error server.hook(1) (No overload matches this call.)'],
      ['rejects', "server.options({ > @ts-expect-error name: 1 (Type 'number' is not assignable)"],
      ['compiles', 'named > compiles: const y = 1'],
      ['expect', 'named > expect(y).type.toBe<1>()'],
    ],
  );
});

test('check ids survive lines added above and inside statements', () => {
  const shifted = source
    .replace("import app from 'pkg'\n", "import app from 'pkg'\n\n// a comment\ntype Unused = string\n")
    .replace('  expect(x).type.not', '\n  // more\n  expect(x).type.not');
  const before = extractChecks('a.tst.ts', source).checks.map((check) => check.id);
  const after = extractChecks('a.tst.ts', shifted).checks.map((check) => check.id);
  assert.deepEqual(
    after.filter((id) => id !== 'compiles: type Unused = string'),
    before,
  );
  assert.ok(after.includes('compiles: type Unused = string'), 'the new statement is a check of its own');
});

test('a check records where tstyche reports it: the expect call, or the directive', () => {
  const { checks } = extractChecks('sample.tst.ts', source);
  for (const check of checks.filter((c) => c.kind === 'expect')) assert.equal(source.slice(check.start, check.start + 7), 'expect(');
  for (const check of checks.filter((c) => c.kind === 'rejects')) assert.equal(source.slice(check.start, check.start + 16), '@ts-expect-error');
});

test("imports of Fastify's own modules are rewritten to the package under test, others kept", () => {
  const text = [
    "import fastify, { FastifyInstance } from '../../fastify.js'",
    "import { RequestPayload } from '../../types/hooks.js'",
    "import { expect } from 'tstyche'",
    "declare module '../../fastify' {}",
    "const plugin = import('./dummy-plugin.mjs')",
  ].join('\n');
  assert.equal(
    rewriteImports(text, 'enclavejs'),
    [
      "import fastify, { FastifyInstance } from 'enclavejs'",
      "import { RequestPayload } from 'enclavejs'",
      "import { expect } from 'tstyche'",
      "declare module 'enclavejs' {}",
      "const plugin = import('./dummy-plugin.mjs')",
    ].join('\n'),
  );
  assert.throws(() => rewriteImports("import x from '../../lib/route.js'", 'enclavejs'), /cannot rewrite/);
});
