// Issue 31: every type name Fastify 5 exports is exported by enclavejs too, and where Fastify's
// is generic, Enclave's accepts Fastify's number of type arguments. The list is read at test
// time from the INSTALLED fastify's declarations with the TypeScript compiler API (one program
// holding both entry points), so nothing of Fastify is copied here and an upgrade is followed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { before, test } from 'node:test';
import ts from 'typescript';

const require = createRequire(import.meta.url);
const fastifyEntry = join(dirname(require.resolve('fastify/package.json')), 'fastify.d.ts');
const enclaveEntry = join(dirname(require.resolve('enclavejs/package.json')), 'dist', 'index.d.ts');
const differencesDoc = readFileSync(new URL('../../../docs/differences.md', import.meta.url), 'utf8');

/**
 * Fastify type names Enclave does not export, on purpose, each with its reason; each is also
 * defended in docs/differences.md under its name in backticks (checked below).
 */
const deliberateAbsences: Record<string, string> = {};

/** A name's type parameters: how many there are, and how many must be given. */
interface Arity {
  max: number;
  min: number;
}

/** The names a module exports (through `export =` and its namespace too), with the arity of the generic ones. */
function exportsOf(checker: ts.TypeChecker, file: ts.SourceFile): Map<string, Arity | undefined> {
  const moduleSymbol = checker.getSymbolAtLocation(file);
  assert.ok(moduleSymbol, `${file.fileName} is not a module`);
  const names = new Map<string, Arity | undefined>();
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    names.set(exported.name, arityOf(symbol));
  }
  return names;
}

function arityOf(symbol: ts.Symbol): Arity | undefined {
  for (const declaration of symbol.declarations ?? []) {
    if (!ts.isInterfaceDeclaration(declaration) && !ts.isTypeAliasDeclaration(declaration) && !ts.isClassDeclaration(declaration)) continue;
    const parameters = declaration.typeParameters ?? [];
    if (parameters.length === 0) return undefined;
    return { max: parameters.length, min: parameters.filter((parameter) => parameter.default === undefined).length };
  }
  return undefined;
}

let fastifyNames: Map<string, Arity | undefined>;
let enclaveNames: Map<string, Arity | undefined>;

before(() => {
  const program = ts.createProgram([fastifyEntry, enclaveEntry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const source = (path: string): ts.SourceFile => {
    const file = program.getSourceFile(path);
    assert.ok(file, `not in the program: ${path}`);
    return file;
  };
  fastifyNames = exportsOf(checker, source(fastifyEntry));
  enclaveNames = exportsOf(checker, source(enclaveEntry));
});

test('Fastify exports over a hundred names (the reading works)', () => {
  assert.ok(fastifyNames.size > 100, `read only ${fastifyNames.size} names from ${fastifyEntry}`);
  assert.ok(fastifyNames.has('FastifyInstance') && fastifyNames.get('FastifyInstance') !== undefined);
});

test('enclavejs exports every type name Fastify exports', () => {
  const missing = [...fastifyNames.keys()].filter((name) => !enclaveNames.has(name) && !(name in deliberateAbsences)).sort();
  assert.deepEqual(missing, [], 'Fastify exports these names; enclavejs does not');
});

test("Enclave's generic types accept Fastify's number of type arguments", () => {
  const refused: string[] = [];
  for (const [name, theirs] of fastifyNames) {
    const ours = enclaveNames.get(name);
    if (theirs === undefined || !enclaveNames.has(name)) continue;
    const accepted = ours !== undefined && ours.min <= theirs.min && ours.max >= theirs.max;
    if (!accepted) refused.push(`${name}: Fastify takes ${theirs.min}..${theirs.max}, Enclave ${ours ? `${ours.min}..${ours.max}` : 'none'}`);
  }
  assert.deepEqual(refused.sort(), []);
});

test('each deliberate absence is still absent and defended in docs/differences.md', () => {
  for (const name of Object.keys(deliberateAbsences)) {
    assert.ok(!enclaveNames.has(name), `${name} is exported now: remove it from deliberateAbsences`);
    assert.ok(differencesDoc.includes(`\`${name}\``), `docs/differences.md does not explain ${name}`);
  }
});
