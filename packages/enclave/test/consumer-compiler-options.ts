// The compiler options of a TypeScript project consuming the built packages (Node16 modules,
// strict), shared by the tests that type-check consumer files in their own program.
import ts from 'typescript';

export const consumerCompilerOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
};
