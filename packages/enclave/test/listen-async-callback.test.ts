// Issue 18: listen() with an async callback emits Fastify's FSTWRN003 warning (a rejection of
// that callback would go unhandled); a plain callback does not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';

/**
 * The warnings `run` emits, caught at process.emitWarning: caught there rather than by a
 * 'warning' listener, so the expected warning is asserted without Node also printing it in the
 * test output (npm test prints no warning it did not mean to).
 */
async function warningsDuring(run: () => Promise<void>): Promise<Array<{ name: string; code?: string | undefined }>> {
  const seen: Array<{ name: string; code?: string | undefined }> = [];
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, options?: { type?: string; code?: string }) => {
    if (typeof warning === 'string') seen.push({ name: options?.type ?? 'Warning', code: options?.code });
    else seen.push({ name: warning.name, code: (warning as { code?: string }).code });
  }) as typeof process.emitWarning;
  try {
    await run();
  } finally {
    process.emitWarning = emitWarning;
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
  assert.deepEqual(
    plain.filter((warning) => warning.code === 'FSTWRN003'),
    [],
  );
  const mixedApp = enclave();
  const mixed = await warningsDuring(async () => {
    await new Promise<void>((resolve) => mixedApp.listen(where, async () => resolve()));
    await mixedApp.close();
  });
  assert.deepEqual(
    mixed.filter((warning) => warning.code === 'FSTWRN003'),
    [{ name: 'FastifyWarning', code: 'FSTWRN003' }],
  );
});
