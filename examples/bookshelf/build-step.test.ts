// The schema cache's build-step recipe (docs/schema-cache.md, issue 29), run on the Bookshelf:
// fill-schema-cache.ts twice fills a directory without serving; a start from it then compiles no
// schema, and the only code it generates from strings is the router's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = import.meta.dirname;
const directory = mkdtempSync(join(tmpdir(), 'bookshelf-schema-cache-'));
after(() => rmSync(directory, { recursive: true, force: true }));

async function node(script: string, cache: string | undefined, flags: string[] = []) {
  const env = { ...process.env };
  delete env.ENCLAVE_SCHEMA_CACHE;
  if (cache !== undefined) env.ENCLAVE_SCHEMA_CACHE = cache;
  return run(process.execPath, [...flags, '--import', 'tsx', join(here, script)], { env });
}

interface Probe {
  generatedBy: string[];
  ajv: boolean;
  fastJsonStringify: boolean;
  answers: Array<{ status: number; body: unknown }>;
}

test('the build step fills the cache; a start from it compiles nothing and generates only the router from strings', async () => {
  // Without a cache: what the application answers, and that the probe sees the compilers load.
  const uncached = JSON.parse((await node('schema-cache-probe.ts', undefined)).stdout) as Probe;
  assert.equal(uncached.ajv, true);
  assert.equal(uncached.fastJsonStringify, true);
  assert.ok(
    uncached.generatedBy.some((caller) => !caller.includes('/find-my-way/')),
    'compiling schemas generates code',
  );

  for (const pass of ['compiles and writes the bundle', "loads it and writes V8's code cache"]) {
    const { stderr } = await node('fill-schema-cache.ts', directory);
    assert.equal(stderr, '', `the build step that ${pass} said something`);
  }
  const files = readdirSync(directory);
  assert.equal(files.filter((name) => /^b-[0-9a-f]{32}\.js\.gz$/.test(name)).length, 1);
  assert.equal(files.filter((name) => name.endsWith('.v8')).length, 1);

  const warm = JSON.parse((await node('schema-cache-probe.ts', directory)).stdout) as Probe;
  assert.deepEqual(warm.answers, uncached.answers);
  assert.equal(warm.ajv, false, 'a warm start loaded Ajv');
  assert.equal(warm.fastJsonStringify, false, 'a warm start loaded fast-json-stringify');
  assert.ok(warm.generatedBy.length > 0);
  assert.deepEqual(
    warm.generatedBy.filter((caller) => !caller.includes('/find-my-way/')),
    [],
    'only the router (find-my-way) generates code from strings in a warm start',
  );

  // And so the flag that forbids it stops a warm start at the router, as docs/schema-cache.md says.
  await assert.rejects(node('fill-schema-cache.ts', directory, ['--disallow-code-generation-from-strings']), (error: { stderr: string }) => {
    assert.match(error.stderr, /EvalError: Code generation from strings disallowed/);
    assert.match(error.stderr, /find-my-way/);
    return true;
  });
});
