// Per-file limits of the plugins' gate (compat/lib/execute.mjs, plugin-suites.mjs): a file that
// suites.json gives a longer limit (`fileTimeouts`) runs to its end where the default kills it.
// Before, the default killed @fastify/multipart's incomplete-upload file on a loaded machine,
// on Fastify too, and the tests it had not reported yet were recorded as missing. Its ceiling
// entry is refreshed by a ceiling update naming the file, which keeps every other file's entry.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runFiles } from '../lib/execute.mjs';
import { mergeIntoCeiling } from '../lib/gate.mjs';
import { locate } from '../lib/plugin-suites.mjs';
import { workDir } from '../lib/scratch.mjs';

const dir = join(workDir, `file-limits-${process.pid}`);
const slowFile = `'use strict'
const { test } = require('node:test')
test('takes a while', () => new Promise((resolve) => setTimeout(resolve, 1500)))
`;

describe('per-file limits', () => {
  before(() => {
    mkdirSync(join(dir, 'test'), { recursive: true });
    writeFileSync(join(dir, 'test', 'slow.test.js'), slowFile);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const where = (fileTimeout) => () => ({ cwd: dir, path: join(dir, 'test', 'slow.test.js'), env: {}, fileTimeout });
  const run = (fileTimeout) =>
    runFiles(dir, ['slow.test.js'], { concurrency: 1, testTimeout: 10_000, fileTimeout: 300, locate: where(fileTimeout) }).then(
      (results) => results['slow.test.js'],
    );

  test('the default limit kills a file that outlasts it, and says so', async () => {
    const outcome = await run(undefined);
    assert.match(outcome.note ?? '', /^killed after the per-file limit/);
    assert.deepEqual(outcome.tests, {});
  });

  test("a file's own longer limit lets it finish", async () => {
    const outcome = await run(20_000);
    assert.equal(outcome.note, undefined);
    assert.equal(outcome.tests['takes a while']?.status, 'pass');
  });

  test("suites.json gives multipart's incomplete-upload file its own limit, and other files none", () => {
    assert.equal(locate('/work', 'multipart/multipart-incomplete-upload.test.js').fileTimeout, 400_000);
    assert.equal(locate('/work', 'multipart/multipart-incomplete-upload.test.js').testTimeout, 120_000);
    assert.equal(locate('/work', 'multipart/generate-id.test.js').fileTimeout, undefined);
  });
});

describe('a ceiling update naming files', () => {
  const path = join(workDir, `ceiling-${process.pid}.json`);
  const meta = { fastify: '5.0.0', node: 'v20.0.0' };
  after(() => rmSync(path, { force: true }));

  test("replaces those files' entries and keeps the others", () => {
    const killed = { pass: ['a'], fail: {}, flaky: {}, note: 'killed after the per-file limit of 180000 ms' };
    writeFileSync(path, JSON.stringify({ ...meta, files: { 'x/one.test.js': { pass: ['kept'], fail: {}, flaky: {} }, 'x/two.test.js': killed } }));
    const fresh = { ...meta, files: { 'x/two.test.js': { pass: ['a', 'b'], fail: {}, flaky: {} } } };
    assert.deepEqual(mergeIntoCeiling(path, fresh), {
      ...meta,
      files: { 'x/one.test.js': { pass: ['kept'], fail: {}, flaky: {} }, 'x/two.test.js': { pass: ['a', 'b'], fail: {}, flaky: {} } },
    });
  });

  test('refuses a ceiling written with other versions', () => {
    writeFileSync(path, JSON.stringify({ ...meta, node: 'v22.0.0', files: {} }));
    assert.throws(() => mergeIntoCeiling(path, { ...meta, files: {} }), /other versions/);
  });
});
