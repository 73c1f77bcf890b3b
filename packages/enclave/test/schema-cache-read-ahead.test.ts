// The schema cache reads its bundle ahead (read-ahead.ts): one request on libuv's thread pool
// for the whole file, so the read proceeds while the application adds its routes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readAhead } from '../src/schema/read-ahead.js';

test('readAhead reads a file of several megabytes whole, byte for byte', async (t) => {
  const directory = mkdtempSync(join(tmpdir(), 'enclave-read-ahead-'));
  t.after(() => rmSync(directory, { recursive: true }));
  // Larger than fs.promises.readFile's 512 KB pieces, and not a multiple of them.
  const content = randomBytes(3 * 1024 * 1024 + 17);
  writeFileSync(join(directory, 'file'), content);
  const read = await readAhead(join(directory, 'file'));
  assert.equal(read.length, content.length);
  assert.ok(read.equals(content));
  writeFileSync(join(directory, 'empty'), '');
  assert.equal((await readAhead(join(directory, 'empty'))).length, 0);
});

test('readAhead rejects (never throws) for a file that does not exist or is a directory', async (t) => {
  const directory = mkdtempSync(join(tmpdir(), 'enclave-read-ahead-'));
  t.after(() => rmSync(directory, { recursive: true }));
  const missing = readAhead(join(directory, 'missing'));
  await assert.rejects(missing, { code: 'ENOENT' });
  await assert.rejects(readAhead(directory), { code: 'EISDIR' });
});
