// The scratch copy of Fastify's type tests (node_modules/fastify/test/types/) that the type gate
// runs: each file copied into compat/.work/ with the imports of Fastify's own modules rewritten
// to the package under test, so that nothing of Fastify is kept in the repository and the
// declarations are found as a user's project finds them (node_modules/enclavejs → its exports
// map → packages/enclave/dist). Inside the repository, so the other packages the tests import
// (typebox, ajv, pino, …) resolve from the repository's node_modules.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fastifyDir, root, workDir } from './scratch.mjs';

export const typeTestDir = join(fastifyDir, 'test', 'types');

/** The package each target's tests import instead of Fastify's files. */
export const typeTargets = { enclave: 'enclavejs', fastify: 'fastify' };

// fastify's test/types/tsconfig.json extends fastify-tsconfig 3; these are the options that
// combination gives (strict, NodeNext modules, skipLibCheck as in a user's project), plus
// noEmit and Node's types, which the tests' own tsconfig sets.
const compilerOptions = {
  target: 'ES2023',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  esModuleInterop: true,
  strict: true,
  resolveJsonModule: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  forceConsistentCasingInFileNames: true,
  skipLibCheck: true,
  lib: ['ESNext'],
  noEmit: true,
  types: ['node'],
};

// '../../fastify.js', '../../fastify', '../../types/hooks.js': Fastify's own modules, which the
// tests reach by relative paths. Relative paths within test/types (./dummy-plugin.mjs) stay.
const ownModule = /^(\.\.\/)+(fastify(\.js)?|types\/[\w-]+(\.js)?)$/;
const specifier = /((?:\bfrom|\bimport\(|\bdeclare module|\brequire\()\s*)(['"])([^'"\n]+)\2/g;

/**
 * Fastify's module specifiers in one test file → `packageName`; throws on a relative path that
 * leaves test/types for anything else (it would find nothing in the scratch copy).
 */
export function rewriteImports(text, packageName, file = 'file') {
  return text.replace(specifier, (whole, head, quote, path) => {
    if (ownModule.test(path)) return `${head}${quote}${packageName}${quote}`;
    if (path.startsWith('../')) throw new Error(`${file} imports ${path}, which the type gate cannot rewrite`);
    return whole;
  });
}

/** The type-test files (`*.tst.ts`) the installed fastify ships, sorted. */
export function listTypeTests() {
  return readdirSync(typeTestDir)
    .filter((file) => file.endsWith('.tst.ts'))
    .sort();
}

/** Writes the scratch copy for `target` and returns its folder. */
export function prepareTypes(target) {
  const packageName = typeTargets[target];
  if (!packageName) throw new Error(`unknown target ${target} (enclave or fastify)`);
  const entry = createRequire(join(root, 'package.json')).resolve(packageName);
  if (!existsSync(entry) || (target === 'enclave' && !existsSync(join(root, 'packages', 'enclave', 'dist', 'index.d.ts')))) {
    throw new Error(`${packageName}'s declarations are missing: run npm run build`);
  }
  // One folder per process, so two runs at once do not collide.
  const dir = join(workDir, `types-${target}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(typeTestDir)) {
    if (!/\.m?ts$/.test(file)) continue;
    writeFileSync(join(dir, file), rewriteImports(readFileSync(join(typeTestDir, file), 'utf8'), packageName, file));
  }
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, include: ['*.ts', '*.mts'] }, null, 2)}\n`);
  return dir;
}

/** The TypeScript the gate runs with: the repository's own (tstyche loads the installed one). */
export function typescriptVersion() {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'typescript', 'package.json'), 'utf8')).version;
}
