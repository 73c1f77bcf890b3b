// What the tests of the packed packages share (pack.test.ts, plugin-types.test.ts): `npm pack`
// each package as it would be published, and run npm and the compilers the way a user's shell
// would, outside the workspace.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const packageDirs = ['enclave', 'plugin', 'bearer-auth'].map((name) => join(repoRoot, 'packages', name));
export const packageNames = ['enclavejs', '@enclavejs/plugin', '@enclavejs/bearer-auth'];

/** The environment of a command a user would type: none of the variables `npm test` set for this run. */
export function userEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const npmRunVariable = /^npm_(package|lifecycle)_|^npm_config_(local_prefix|prefix|workspaces?)$/i.test(key);
    if (!npmRunVariable && key !== 'NODE_OPTIONS' && key !== 'NODE_TEST_CONTEXT') env[key] = value;
  }
  return env;
}

/** Runs npm in `cwd` as a user would, and returns its standard output. */
export async function npm(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, env: userEnvironment(), maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** `npm pack`s the three packages (their prepack builds them) into `destination`: the tarball paths, in packageNames' order. */
export async function packAll(destination: string): Promise<string[]> {
  const tarballs: string[] = [];
  for (const dir of packageDirs) {
    const [packed] = JSON.parse(await npm(dir, ['pack', '--json', '--pack-destination', destination])) as { filename: string }[];
    assert.ok(packed, `npm pack in ${relative(repoRoot, dir)} reported its tarball`);
    tarballs.push(join(destination, packed.filename));
  }
  return tarballs;
}

/** The version of a package installed in the repository, so that an application outside it installs the same from npm's cache. */
export function installedVersion(name: string): string {
  return JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** The `tsconfig.json` that docs/typescript.md recommends (its one json block). */
export function recommendedTsconfig(): { compilerOptions: Record<string, unknown> } {
  const markdown = readFileSync(join(repoRoot, 'docs', 'typescript.md'), 'utf8');
  const match = /```json\n([\s\S]*?)```/.exec(markdown);
  assert.ok(match?.[1], 'docs/typescript.md has a json block with the recommended tsconfig');
  return JSON.parse(match[1]);
}
