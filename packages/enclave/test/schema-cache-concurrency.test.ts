// Several processes booting from one schema cache directory at once (a cluster starting, issue 29):
// files are written under a temporary name and renamed, so no process reads one half-written. And
// when the cache is written: after ready() resolves, complete by close() or the process's end.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
// @ts-expect-error: a JavaScript fixture without declarations
import { answers, buildApp, requests } from './fixtures/schema-cache-app.mjs';
import { cacheDirectory, recordingLogger } from './schema-cache-helpers.js';

const run = promisify(execFile);
const bootScript = join(import.meta.dirname, 'fixtures', 'schema-cache-boot.mjs');
const bundles = (directory: string) => readdirSync(directory).filter((name) => name.endsWith('.js.gz'));

async function bootTogether(directory: string, processes: number) {
  const outputs = await Promise.all(Array.from({ length: processes }, () => run(process.execPath, [bootScript, directory])));
  return outputs.map(({ stdout }) => JSON.parse(stdout) as { answers: unknown[]; warnings: string[] });
}

test('four processes booting at once from an empty directory, then from a full one, all answer as compiled', async () => {
  const app = buildApp({ schemaCache: false }, { full: false });
  const expected = await answers(app, requests);
  await app.close();
  const directory = cacheDirectory();
  for (const round of ['cold', 'warm', 'warm again']) {
    for (const boot of await bootTogether(directory, 4)) {
      assert.deepEqual(boot.warnings, [], `${round}: a process warned`);
      assert.deepEqual(boot.answers, expected, `${round}: a process answered differently`);
    }
  }
  // Every process of the cold round wrote the same bundle under the same name; no temporary
  // file is left behind.
  const names = readdirSync(directory);
  assert.equal(names.filter((name) => name.endsWith('.js.gz')).length, 1);
  assert.deepEqual(
    names.filter((name) => name.endsWith('.tmp')),
    [],
  );
});

test('ready() resolves before the cache is written; close() resolves after', async () => {
  const directory = cacheDirectory();
  const app = buildApp({ schemaCache: directory }, { full: false });
  await app.ready();
  // The write begins with an asynchronous step: nothing of it has run when ready() resolves.
  assert.deepEqual(readdirSync(directory), [], 'ready() waited for the cache to be written');
  await app.close();
  assert.equal(bundles(directory).length, 1, 'close() resolved before the cache was written');
});

test('a process that readies the application and ends without close() leaves the cache complete', async () => {
  const directory = cacheDirectory();
  await run(process.execPath, [join(import.meta.dirname, 'fixtures', 'schema-cache-ready-only.mjs'), directory]);
  assert.equal(bundles(directory).length, 1);
  // Complete: a start from it loads every schema, without a warning.
  const { logger, at } = recordingLogger();
  const app = buildApp({ schemaCache: directory, loggerInstance: logger }, { full: false });
  await app.ready();
  await app.close();
  assert.deepEqual(at('warn'), []);
  assert.equal(bundles(directory).length, 1, 'the second start compiled something and wrote a bundle of its own');
});
