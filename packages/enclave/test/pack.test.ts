// The packages as npm would publish them (issue 15): `npm pack` each one (its prepack builds
// it), install the three tarballs into an empty application outside the workspace, then run a
// CommonJS and an ES-module program that serve on 127.0.0.1 and query themselves, and
// type-check the README's first application strictly with the tsconfig docs/typescript.md
// recommends. Dependencies come from the npm cache or registry (`--prefer-offline`).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { extractBlocksFromFile } from './docs-blocks/extract-blocks.ts';
import { appProgram, expectedAppOutput } from './pack/app-program.ts';
import { installedVersion, npm, packAll, packageDirs, packageNames, recommendedTsconfig, repoRoot, run, userEnvironment } from './pack/packing.ts';

// Installing and type-checking take several seconds each on a loaded two-core machine.
const timeout = 240_000;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The README's first application, as written. */
function readmeFirstApplication(): string {
  const blocks = extractBlocksFromFile(join(repoRoot, 'README.md'), 'README.md');
  const first = blocks.find((block) => block.language === 'ts');
  assert.ok(first, 'README.md has a ts block');
  return first.source;
}

describe('packed packages, installed into an application outside the workspace', { timeout }, () => {
  const work = mkdtempSync(join(tmpdir(), 'enclave-pack-'));
  const app = join(work, 'app');
  after(() => rmSync(work, { recursive: true, force: true }));

  before(async () => {
    const tarballs = await packAll(work);
    const typesNode = installedVersion('@types/node');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'packed-app', private: true }, null, 2)}\n`);
    await npm(app, ['install', '--prefix', app, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, `@types/node@${typesNode}`]);
  });

  test('each tarball holds the build, its sources, README, LICENSE and metadata', () => {
    for (const name of packageNames) {
      const root = join(app, 'node_modules', name);
      const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      // enclavejs's ES-module types are its CommonJS ones, plus the module `fastify` it declares.
      const types = name === 'enclavejs' ? ['dist/ambient/fastify.d.ts'] : ['dist/esm/index.d.mts'];
      for (const file of ['README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/esm/index.mjs', ...types]) {
        assert.ok(existsSync(join(root, file)), `${name} ships ${file}`);
      }
      for (const field of ['repository', 'homepage', 'bugs', 'engines', 'keywords', 'license']) {
        assert.ok(manifest[field], `${name} has "${field}"`);
      }
      assert.equal(manifest.sideEffects, false, `${name} declares sideEffects: false`);
      assert.equal(manifest.repository.directory, relative(repoRoot, packageDirs[packageNames.indexOf(name)] ?? ''));
      assert.ok(!existsSync(join(root, 'dist/tsconfig.tsbuildinfo')), `${name} ships no build info`);
    }
  });

  test("the core package's README shows the repository README's first application", () => {
    const shipped = readFileSync(join(app, 'node_modules', 'enclavejs', 'README.md'), 'utf8');
    assert.ok(shipped.includes(readmeFirstApplication()), 'packages/enclave/README.md has the same first application');
  });

  test('every shipped source map finds its sources, and no declaration cites a document not shipped', () => {
    for (const name of packageNames) {
      const files = filesUnder(join(app, 'node_modules', name, 'dist'));
      for (const map of files.filter((file) => file.endsWith('.map'))) {
        const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
        for (const source of sources) assert.ok(existsSync(join(dirname(map), source)), `${map}: ${source} is shipped`);
      }
      for (const declaration of files.filter((file) => /\.d\.m?ts$/.test(file))) {
        const text = readFileSync(declaration, 'utf8');
        assert.doesNotMatch(text, /SPEC|§|docs\//, `${relative(app, declaration)} cites a document the package does not hold`);
      }
    }
  });

  for (const kind of ['esm', 'cjs'] as const) {
    test(`${kind === 'esm' ? 'an ES-module' : 'a CommonJS'} program runs the first application`, async () => {
      const file = join(app, kind === 'esm' ? 'server.mjs' : 'server.cjs');
      writeFileSync(file, appProgram(kind));
      const { stdout } = await run(process.execPath, [file], { cwd: app, env: userEnvironment() });
      assert.equal(stdout.trim(), expectedAppOutput);
    });
  }

  test("the README's first application type-checks strictly, from ES modules and CommonJS", async () => {
    writeFileSync(join(app, 'readme-app.mts'), readmeFirstApplication());
    writeFileSync(join(app, 'server.cts'), appProgram('cts'));
    const tsconfig = recommendedTsconfig();
    // Our own declarations are checked too, not skipped.
    tsconfig.compilerOptions.skipLibCheck = false;
    // The application files sit at the root here, not in src/.
    tsconfig.compilerOptions.rootDir = '.';
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: ['*.mts', '*.cts'] }, null, 2));
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', app, '--noEmit', '--pretty', 'false']).catch((error: { stdout: string }) => ({
      stdout: error.stdout,
      failed: true,
    }));
    assert.ok(!('failed' in result), `tsc --noEmit reported:\n${result.stdout}`);
  });
});
