// The schema cache's files are gzip-compressed and inflated on libuv's thread pool
// (inflate-ahead.ts): whole, byte for byte, in one buffer; damage is an error, never a throw from
// the asynchronous form.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { deflate, inflateAhead, inflateFile } from '../src/schema/inflate-ahead.js';

function scratch(t: { after: (fn: () => void) => void }): string {
  const directory = mkdtempSync(join(tmpdir(), 'enclave-inflate-ahead-'));
  t.after(() => rmSync(directory, { recursive: true }));
  return directory;
}

test('deflate, then inflateAhead or inflateFile, gives the parts back joined, byte for byte', async (t) => {
  const directory = scratch(t);
  // Several megabytes, larger than zlib's 16 KB output chunks, and not a multiple of them.
  const parts = [Buffer.from('// header\n'), randomBytes(3 * 1024 * 1024 + 17), Buffer.from('tail')];
  writeFileSync(join(directory, 'file.gz'), await deflate(parts));
  const expected = Buffer.concat(parts);
  assert.ok((await inflateAhead(join(directory, 'file.gz'))).equals(expected));
  assert.ok(inflateFile(join(directory, 'file.gz'))?.equals(expected));
  writeFileSync(join(directory, 'empty.gz'), await deflate([]));
  assert.equal((await inflateAhead(join(directory, 'empty.gz'))).length, 0);
});

test('inflateAhead rejects (never throws) for a missing file, a directory, a truncated or foreign file', async (t) => {
  const directory = scratch(t);
  await assert.rejects(inflateAhead(join(directory, 'missing')), { code: 'ENOENT' });
  await assert.rejects(inflateAhead(directory), { code: 'EISDIR' });
  const whole = await deflate([Buffer.from('x'.repeat(100_000))]);
  writeFileSync(join(directory, 'truncated.gz'), whole.subarray(0, whole.length - 10));
  await assert.rejects(inflateAhead(join(directory, 'truncated.gz')), { code: 'Z_BUF_ERROR' });
  writeFileSync(join(directory, 'foreign.gz'), 'module.exports = {}\n');
  await assert.rejects(inflateAhead(join(directory, 'foreign.gz')), { code: 'Z_DATA_ERROR' });
});

test('inflateFile: undefined for a missing file; throws for a changed byte (gzip checks its CRC-32)', async (t) => {
  const directory = scratch(t);
  assert.equal(inflateFile(join(directory, 'missing')), undefined);
  writeFileSync(join(directory, 'file.gz'), await deflate([randomBytes(50_000)]));
  const bytes = readFileSync(join(directory, 'file.gz'));
  const at = bytes.length >> 1;
  bytes[at] = (bytes[at] as number) ^ 0x01;
  writeFileSync(join(directory, 'file.gz'), bytes);
  assert.throws(() => inflateFile(join(directory, 'file.gz')), { code: 'Z_DATA_ERROR' });
});
