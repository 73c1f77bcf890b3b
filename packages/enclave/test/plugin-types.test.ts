// Issue 31: a strict TypeScript application with twelve @fastify plugins type-checks on Enclave,
// from the packed tarballs, outside the workspace, in the three ways users set it up:
//   (a) imports changed to 'enclavejs', fastify not installed;
//   (b) the npm alias: the dependency "fastify" is Enclave's tarball, the application unchanged;
//   (c) a real fastify installed as another package's dependency, the application on 'enclavejs'.
// Each on TypeScript 5.9 (the repository's) and 7 (the native compiler, npm `typescript@7`,
// whose bin/tsc starts a platform binary), with skipLibCheck on and off: 0 errors, and the
// application's `@ts-expect-error` lines (a wrong plugin option, a misspelt plugin decorator)
// must be errors.
// Cost: the installs are cached by the tarballs' content (pack/install-cache.ts), so CI's later
// Node versions reuse the first one's; the twelve type checks run every time, two at a time.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cachedInstall, installKey, useInstalled } from './pack/install-cache.ts';
import { installedVersion, npm, packAll, recommendedTsconfig, repoRoot, run } from './pack/packing.ts';
import { pluginApp, pluginPackages } from './pack/plugin-app.ts';

// Three installs (when not cached) and twelve type checks.
const timeout = 900_000;
const typescript7 = 'typescript@7';

type Layout = 'a' | 'b' | 'c';
const layouts: Record<Layout, string> = {
  a: "imports changed to 'enclavejs', fastify not installed",
  b: 'npm alias: "fastify" is Enclave\'s tarball, application unchanged',
  c: "fastify installed as another package's dependency, application on 'enclavejs'",
};

const exact = (name: string) => `${name}@${installedVersion(name)}`;

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** One application's dependencies installed in `work/<layout>`: its package.json and `npm install`. */
async function install(work: string, layout: Layout, tarballs: string[]): Promise<void> {
  const dir = join(work, layout);
  const [enclaveTarball] = tarballs as [string];
  const dependencies: Record<string, string> = {};
  if (layout === 'b') dependencies.fastify = `file:${enclaveTarball}`;
  else dependencies.enclavejs = `file:${enclaveTarball}`;
  if (layout === 'c') {
    // "Something else" that depends on the real fastify, as another dependency of the user's
    // would; packed, so that npm installs it (and hoists fastify) like a package from the registry.
    const other = join(work, 'uses-fastify');
    writeFiles(other, {
      'package.json': JSON.stringify({ name: 'uses-fastify', version: '1.0.0', main: 'index.js', dependencies: { fastify: installedVersion('fastify') } }),
      'index.js': "module.exports = require('fastify');\n",
    });
    const [packed] = JSON.parse(await npm(other, ['pack', '--json', '--pack-destination', work])) as { filename: string }[];
    dependencies['uses-fastify'] = `file:${join(work, packed!.filename)}`;
  }
  writeFiles(dir, { 'package.json': `${JSON.stringify({ name: `plugin-app-${layout}`, private: true, type: 'module', dependencies }, null, 2)}\n` });
  await npm(dir, [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...pluginPackages.map(exact),
    exact('@types/node'),
    exact('@types/ws'),
  ]);
}

/** TypeScript 7 once, beside the applications, shared by the three. */
async function installTypeScript7(work: string): Promise<void> {
  const tools = join(work, 'typescript-7');
  mkdirSync(tools);
  writeFileSync(join(tools, 'package.json'), '{ "private": true }\n');
  await npm(tools, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', typescript7]);
}

/**
 * The application of `layout` in `work`: its package.json and sources written for this run, its
 * node_modules the installed one (a link into the cache), as in a user's project.
 */
function application(work: string, installed: string, layout: Layout): string {
  const dir = join(work, layout);
  useInstalled(join(installed, layout), dir);
  writeFiles(dir, { ...pluginApp(layout === 'b' ? 'fastify' : 'enclavejs'), 'src/public/index.html': '<!doctype html><title>books</title>\n' });
  return dir;
}

type Compiler = { name: string; tsc: string };

/** `tsc --noEmit` on the application: its errors (`error TS…` lines) and its whole output. */
async function typeCheck(dir: string, compiler: Compiler, skipLibCheck: boolean): Promise<{ errors: string[]; output: string }> {
  const tsconfig = recommendedTsconfig();
  tsconfig.compilerOptions.skipLibCheck = skipLibCheck;
  const project = join(dir, `tsconfig.${skipLibCheck ? 'skip' : 'full'}.json`);
  writeFileSync(project, JSON.stringify(tsconfig, null, 2));
  const args = [compiler.tsc, '-p', project, '--noEmit', '--pretty', 'false'];
  const { stdout, stderr } = await run(process.execPath, args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout: string; stderr: string }) => error,
  );
  const output = `${stdout}${stderr}`.trim();
  return { errors: output.split('\n').filter((line) => /error TS\d+/.test(line)), output };
}

// Two checks at a time: the machine's two cores (most of a check is one CPU-bound process).
describe('a strict TypeScript application with twelve @fastify plugins, from the packed tarballs', { timeout, concurrency: 2 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'enclave-plugin-types-'));
  const apps = new Map<Layout, string>();
  const compilers: Compiler[] = [{ name: `TypeScript ${installedVersion('typescript')}`, tsc: join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc') }];
  after(() => rmSync(work, { recursive: true, force: true }));

  before(async () => {
    const started = performance.now();
    const tarballs = await packAll(work);
    // Everything the installation reads besides the tarballs: the code that installs, and what it
    // installs (the repository's versions; TypeScript 7 as npm resolved it when the entry was made).
    const versions = [...pluginPackages, '@types/node', '@types/ws', 'fastify'].map(exact);
    const key = installKey(tarballs, [install.toString(), installTypeScript7.toString(), versions, typescript7]);
    const { dir: installed, reused } = await cachedInstall(key, async (staging) => {
      await Promise.all([installTypeScript7(staging), ...(Object.keys(layouts) as Layout[]).map((layout) => install(staging, layout, tarballs))]);
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`# plugin-types: packed, and installs ${reused ? 'reused from' : 'made in'} ${installed}, in ${seconds} s`);
    const tsc7 = join(installed, 'typescript-7', 'node_modules', 'typescript', 'bin', 'tsc');
    const { stdout } = await run(process.execPath, [tsc7, '--version']);
    compilers.push({ name: stdout.trim().replace(/^Version/, 'TypeScript'), tsc: tsc7 });
    for (const layout of Object.keys(layouts) as Layout[]) apps.set(layout, application(work, installed, layout));
  });

  test('the layouts are what they say: fastify absent in (a), Enclave under its name in (b), the real one in (c)', () => {
    assert.ok(!existsSync(join(apps.get('a')!, 'node_modules', 'fastify')), '(a) has no fastify');
    const aliased = join(apps.get('b')!, 'node_modules', 'fastify', 'package.json');
    assert.equal(JSON.parse(readFileSync(aliased, 'utf8')).name, 'enclavejs', "(b)'s fastify is Enclave");
    const real = join(apps.get('c')!, 'node_modules', 'fastify', 'package.json');
    assert.equal(JSON.parse(readFileSync(real, 'utf8')).name, 'fastify', '(c) has the real fastify beside enclavejs');
  });

  for (const layout of Object.keys(layouts) as Layout[]) {
    for (const compilerIndex of [0, 1]) {
      for (const skipLibCheck of [true, false]) {
        test(`(${layout}) ${layouts[layout]}; TypeScript ${compilerIndex === 0 ? '5.9' : '7'}, skipLibCheck ${skipLibCheck}: 0 errors`, async () => {
          const compiler = compilers[compilerIndex]!;
          const { errors, output } = await typeCheck(apps.get(layout)!, compiler, skipLibCheck);
          assert.equal(errors.length, 0, `${compiler.name} reported ${errors.length} error(s):\n${output}`);
        });
      }
    }
  }
});
