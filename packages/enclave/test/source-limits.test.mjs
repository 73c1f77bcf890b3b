// Issue 30: `any` only at documented boundaries, and no file past 300 lines, under
// packages/enclave/src (scripts/check-source-limits.mjs counts them with the TypeScript parser).
//
// Two areas belong to other branches while this check is written: src/schema (branch
// schema-cache rewrites it) and src/types (branch types2 finishes the public types). Their
// counts below may only go down; once those branches have merged, their `any` join the limit
// and schema-controller.ts is split, and the entries here are removed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { anyTypesUnder, filesLongerThan } from '../../../scripts/check-source-limits.mjs';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** Fewer than 20 `any` in the sources (issue 30's acceptance). */
const ANY_LIMIT = 19;
const LINE_LIMIT = 300;

/** The areas other branches own for now: the most `any` each may hold (only ever lowered). */
const pendingAny = { 'schema/': 14, 'types/': 11 };
/** Files over the line limit, each with its length when this check was written. */
const pendingLong = { 'schema/schema-controller.ts': 330 };

const areaOf = (file) => Object.keys(pendingAny).find((area) => file.startsWith(area));

test(`fewer than ${ANY_LIMIT + 1} any outside the pending areas, each with a comment saying why`, () => {
  const own = anyTypesUnder(src).filter((found) => areaOf(found.file) === undefined);
  assert.ok(own.length <= ANY_LIMIT, `${own.length} any: ${own.map((found) => `${found.file}:${found.line}`).join(', ')}`);
  assert.deepEqual(
    own.filter((found) => !found.commented).map((found) => `${found.file}:${found.line}`),
    [],
    'each any needs a comment on its line or the line above',
  );
});

test('the pending areas hold no more any than they did', () => {
  const all = anyTypesUnder(src);
  for (const [area, most] of Object.entries(pendingAny)) {
    const count = all.filter((found) => found.file.startsWith(area)).length;
    assert.ok(count <= most, `${area}: ${count} any, at most ${most}`);
  }
  // Everything together is what issue 30 measures; it holds once the pending areas are done.
  const allowed = ANY_LIMIT + Object.values(pendingAny).reduce((sum, most) => sum + most, 0);
  assert.ok(all.length <= allowed);
});

test(`no file over ${LINE_LIMIT} lines but the pending ones, which do not grow`, () => {
  const long = filesLongerThan(src, LINE_LIMIT);
  const unexpected = long.filter((found) => pendingLong[found.file] === undefined || found.lines > pendingLong[found.file]);
  assert.deepEqual(unexpected, []);
});

test('the checks see an any in code, not in a comment or a string, and a long file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'enclave-limits-'));
  try {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(
      join(dir, 'sub', 'a.ts'),
      [
        "// any in a comment is not a type: 'any'",
        "export const label = 'any';",
        'export function f(value: any): void {}',
        '// A user value, untyped until checked.',
        'export type Given = Record<string, any>;',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'b.ts'), `${'export {};\n'.repeat(LINE_LIMIT + 1)}`);
    assert.deepEqual(anyTypesUnder(dir), [
      { file: 'sub/a.ts', line: 3, commented: false },
      { file: 'sub/a.ts', line: 5, commented: true },
    ]);
    assert.deepEqual(filesLongerThan(dir, LINE_LIMIT), [{ file: 'b.ts', lines: LINE_LIMIT + 1 }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
