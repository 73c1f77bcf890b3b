// Decorators declared by interface merging must merge from a CommonJS consumer too (the ESM
// side is checked in the main type-check: plugins-decorators.types.ts). The CommonJS fixture
// is compiled in a program of its own, as a consumer project would: TypeScript merges an
// augmentation of the ESM entry's re-exported interfaces only when no augmentation of the
// CommonJS entry is processed after it in the same program, so a program mixing both forms is
// out of scope (docs/typescript.md says so).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { consumerCompilerOptions } from '../consumer-compiler-options.js';

const fixture = fileURLToPath(new URL('./fixtures/commonjs-augmentation.cts', import.meta.url));

test('a CommonJS consumer augments EnclaveInstance and EnclaveRequest through `export =`', () => {
  const program = ts.createProgram([fixture], consumerCompilerOptions);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const text = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
  assert.equal(diagnostics.length, 0, text);
});
