// The packages as users get them: each fixture in ./exports loads a BUILT package by name
// (through its exports map) in a child process, from CommonJS and from ES modules; the
// TypeScript fixtures are type-checked as node16 consumers of the published declarations.
// `npm test` builds before testing, so dist/ is current here.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { consumerCompilerOptions } from './consumer-compiler-options.js';

const fixtures = fileURLToPath(new URL('./exports/', import.meta.url));
const packagesDir = fileURLToPath(new URL('../../', import.meta.url));

const expectedOutput: Record<string, string> = {
  'require-enclave.cjs': 'require enclave: factory, .default, .enclave, errorCodes, inject ok',
  'import-enclave.mjs': 'import enclave: default, { enclave }, { errorCodes }, same instance as require, inject ok',
  'require-plugin.cjs': 'require @enclavejs/plugin: function, .default, .plugin, marks ok',
  'import-plugin.mjs': 'import @enclavejs/plugin: default, { plugin }, same instance as require, marks ok',
  'require-bearer-auth.cjs': 'require @enclavejs/bearer-auth: plugin, .default, 401 without key, 200 with key',
  'import-bearer-auth.mjs': 'import @enclavejs/bearer-auth: default, same instance as require, 401 without key, 200 with key',
};

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runFixture(file: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(fixtures, file)], { cwd: fixtures, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('built packages load by name from CommonJS and ES modules', () => {
  for (const [file, expected] of Object.entries(expectedOutput)) {
    test(file, async () => {
      const { code, stdout, stderr } = await runFixture(file);
      assert.equal(code, 0, `${file} exited with ${code}:\n${stderr}`);
      assert.equal(stdout.trim(), expected);
    });
  }
});

const compilerOptions = consumerCompilerOptions;

function describeDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => fixtures,
    getNewLine: () => '\n',
  });
}

// enclavejs gives ES-module importers its CommonJS declarations too (its exports map's `import`
// types are dist/index.d.ts): one declaration file, so that what users augment through
// `enclavejs` and what plugins augment through the module `fastify` (ambient/fastify.d.ts,
// which reaches the same file) merge into the same interfaces. Two entries made two copies.
const entries = ['plugin', 'bearer-auth'].map((name) => ({
  name,
  commonjs: join(packagesDir, name, 'dist', 'index.d.ts'),
  esm: join(packagesDir, name, 'dist', 'esm', 'index.d.mts'),
}));

describe('published type declarations', () => {
  test('node16 consumers type-check from ESM and CommonJS', () => {
    const roots = [join(fixtures, 'types-esm.mts'), join(fixtures, 'types-cjs.cts')];
    const program = ts.createProgram(roots, compilerOptions);
    // skipLibCheck hides errors inside our own .d.mts entries, so check those explicitly.
    const ownEntries = entries.flatMap(({ esm }) => program.getSourceFile(esm) ?? []);
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...ownEntries.flatMap((file) => program.getSemanticDiagnostics(file))];
    assert.equal(diagnostics.length, 0, describeDiagnostics(diagnostics));
  });

  test('enclavejs: ES modules and CommonJS get the same declaration file', async () => {
    const manifest = JSON.parse(await readFile(join(packagesDir, 'enclave', 'package.json'), 'utf8'));
    const entry = manifest.exports['.'];
    assert.equal(entry.import.types, entry.require.types);
  });

  for (const { name, commonjs, esm } of entries) {
    test(`${name}: the ESM entry exports every name the CommonJS entry does`, () => {
      const program = ts.createProgram([commonjs, esm], compilerOptions);
      const checker = program.getTypeChecker();
      const exportNames = (path: string): string[] => {
        const file = program.getSourceFile(path);
        assert.ok(file, `${path} exists (run the build first)`);
        const moduleSymbol = checker.getSymbolAtLocation(file);
        assert.ok(moduleSymbol, `${path} is a module`);
        return checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.getName());
      };
      const esmNames = new Set(exportNames(esm));
      const missing = exportNames(commonjs).filter((exported) => !esmNames.has(exported));
      assert.deepEqual(missing, [], `add to packages/${name}/esm/index.d.mts (and index.mjs for values): ${missing.join(', ')}`);
    });
  }
});
