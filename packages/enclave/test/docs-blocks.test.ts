// Every ```ts and ```js block of README.md and docs/*.md runs as written (issue 10). Each block
// is written to a temporary file inside this package, so that `import enclave from 'enclavejs'`
// resolves to the built workspace package, and run in its own process through
// docs-blocks/run-block.mjs with PORT=0. A ```ts block is a .mts file run with `--import tsx`;
// a ```js block is a .mjs file run by plain Node, as a reader would run it (and without the
// loader's start-up cost). A block passes when it exits 0 within the time limit; blocks show
// results with `assert`, so a wrong claim in a guide fails here.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type DocBlock, extractBlocks, extractBlocksFromFile } from './docs-blocks/extract-blocks.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const runner = fileURLToPath(new URL('./docs-blocks/run-block.mjs', import.meta.url));
// Listed in .gitignore, and removed again when this file has run.
const tmpParent = fileURLToPath(new URL('./.docs-blocks-tmp/', import.meta.url));
// A hang guard, not a speed check: a block alone takes about a second, but a block that runs the
// TypeScript compiler took over 15 s on a CI machine busy with four test processes.
const blockTimeoutMs = 60_000;

function documents(): string[] {
  const docsDir = join(repoRoot, 'docs');
  const guides = readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(docsDir, name));
  return [join(repoRoot, 'README.md'), ...guides];
}

const typeScriptLanguages = new Set(['ts', 'typescript', 'mts']);

function isTypeScript(block: DocBlock): boolean {
  return typeScriptLanguages.has(block.language);
}

function blockFileName(block: DocBlock): string {
  return `${block.file.replace(/[^\w]+/g, '-')}-line-${block.line}.${isTypeScript(block) ? 'mts' : 'mjs'}`;
}

/**
 * PORT=0 for blocks that listen. The test runner's own variables are dropped: NODE_TEST_CONTEXT
 * would make a block's node:test output a child-process protocol, and NODE_OPTIONS may carry
 * loader or test flags meant for this process, not for a reader's plain `node file.mjs`.
 */
function blockEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0' };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  return env;
}

interface BlockResult {
  code: number | null;
  signal: string | null;
  output: string;
}

function runBlock(file: string, typeScript: boolean): Promise<BlockResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      typeScript ? ['--import', 'tsx', runner, file] : [runner, file],
      {
        cwd: repoRoot,
        timeout: blockTimeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env: blockEnvironment(),
      },
      (error, stdout, stderr) => {
        const failure = error as (Error & { code?: unknown; signal?: string | null }) | null;
        resolve({
          code: failure === null ? 0 : typeof failure.code === 'number' ? failure.code : null,
          signal: failure?.signal ?? null,
          output: `${stdout}${stderr}`,
        });
      },
    );
  });
}

describe('the block extractor', () => {
  test('keeps ts and js blocks with their line, skips other languages', () => {
    const markdown = ['# T', '```ts', 'const a = 1;', '```', '```sh', 'npm test', '```', '````js', '```', '````'].join('\n');
    assert.deepEqual(extractBlocks('x.md', markdown), [
      { file: 'x.md', line: 2, language: 'ts', source: 'const a = 1;\n' },
      { file: 'x.md', line: 8, language: 'js', source: '```\n' },
    ]);
  });

  test('an unclosed fence is an error naming the file and line', () => {
    assert.throws(() => extractBlocks('y.md', 'text\n```js\nopen'), /y\.md:2: a code fence is never closed/);
  });
});

describe('documentation code blocks run as written', { concurrency: 2 }, () => {
  mkdirSync(tmpParent, { recursive: true });
  const workDir = mkdtempSync(join(tmpParent, 'run-'));
  after(() => {
    rmSync(workDir, { recursive: true, force: true });
    // Remove the parent too, unless another run is using it at the same time (rmdir refuses to
    // remove a folder that is not empty, atomically).
    try {
      rmdirSync(tmpParent);
    } catch {
      // In use by another run, or already gone.
    }
  });

  const blocks = documents().flatMap((path) => extractBlocksFromFile(path, relative(repoRoot, path)));
  test('there are blocks to run', () => {
    assert.ok(blocks.length > 0);
  });
  for (const block of blocks) {
    test(`${block.file}:${block.line}`, async () => {
      const file = join(workDir, blockFileName(block));
      writeFileSync(file, block.source);
      const result = await runBlock(file, isTypeScript(block));
      const where = `${block.file}:${block.line} (${block.language})`;
      assert.ok(
        result.code === 0,
        result.signal === 'SIGKILL'
          ? `${where} did not finish within ${blockTimeoutMs} ms\n${result.output}`
          : `${where} exited with ${result.code ?? result.signal}\n${result.output}`,
      );
    });
  }
});
