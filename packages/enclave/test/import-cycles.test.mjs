// Issue 31: no import circle under packages/enclave/src, type-only imports included (a circle
// ties its files into one unit that can only be read and changed together). The modules have a
// one-way order: the public types (index.ts on top of types.ts and types/) and the internal
// state shapes (state/) at the bottom, then the scope, the lifecycle, the boot and the factory.
// A lower module that needs something from a higher one takes it as a parameter (the default
// error handler reaches the error path as the last entry of every handler chain).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { circlesUnder } from '../../../scripts/check-import-cycles.mjs';

const src = fileURLToPath(new URL('../src/', import.meta.url));

test('no module under src is in an import circle', () => {
  assert.deepEqual(circlesUnder(src), []);
});

test('the check sees a circle made of type-only imports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'enclave-cycles-'));
  try {
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A { b: B }\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { a: A }\n");
    writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
    assert.deepEqual(circlesUnder(dir), [['a.ts', 'b.ts']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
