// Issue 18: listen() with an async callback emits Fastify's FSTWRN003 warning (a rejection of
// that callback would go unhandled); a plain callback does not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';

async function warningsDuring(run: () => Promise<void>): Promise<Array<{ name: string; code?: string | undefined }>> {
  const seen: Array<{ name: string; code?: string | undefined }> = [];
  const listener = (warning: Error & { code?: string }) => seen.push({ name: warning.name, code: warning.code });
  process.on('warning', listener);
  try {
    await run();
    // process.emitWarning() reports on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

const where = { port: 0, host: '127.0.0.1' };

test('an async listen() callback gets FSTWRN003; a plain one does not', async () => {
  const plainApp = enclave();
  const plain = await warningsDuring(async () => {
    await new Promise<void>((resolve) => plainApp.listen(where, () => resolve()));
    await plainApp.close();
  });
  assert.deepEqual(plain.filter((warning) => warning.code === 'FSTWRN003'), []);
  const mixedApp = enclave();
  const mixed = await warningsDuring(async () => {
    await new Promise<void>((resolve) => mixedApp.listen(where, async () => resolve()));
    await mixedApp.close();
  });
  assert.deepEqual(mixed.filter((warning) => warning.code === 'FSTWRN003'), [{ name: 'FastifyWarning', code: 'FSTWRN003' }]);
});
