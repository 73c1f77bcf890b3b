// docs/typescript.md's blocks run as written (docs-blocks.test.ts); their copies here are
// type-checked by `npm test` (tsconfig.test.json). This test keeps the two equal: each ts block
// names its copy on its first line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { extractBlocksFromFile } from '../docs-blocks/extract-blocks.ts';

const guide = fileURLToPath(new URL('../../../../docs/typescript.md', import.meta.url));
const mirrorLine = /^\/\/ Mirrored, type-checked, in packages\/enclave\/test\/types\/([\w.-]+\.types\.ts)\n/;

test('every ts block of docs/typescript.md equals its type-checked copy', () => {
  const blocks = extractBlocksFromFile(guide, 'docs/typescript.md');
  assert.ok(blocks.length >= 6, 'the guide has its examples');
  for (const block of blocks) {
    const mirror = mirrorLine.exec(block.source)?.[1];
    assert.ok(mirror, `docs/typescript.md:${block.line} names its copy on its first line`);
    const copy = readFileSync(new URL(`./${mirror}`, import.meta.url), 'utf8');
    assert.equal(copy, block.source, `docs/typescript.md:${block.line} and ${mirror} differ`);
  }
});
