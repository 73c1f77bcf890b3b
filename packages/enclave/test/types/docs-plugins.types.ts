// Mirrored, type-checked, in packages/enclave/test/types/docs-plugins.types.ts
import assert from 'node:assert/strict';
import bearerAuth from '@enclavejs/bearer-auth';
import enclave, { type EnclaveInstance, type Plugin } from 'enclavejs';

// An async plugin with typed options; register() checks them.
const catalogue: Plugin<{ titles: string[] }> = async (instance, options) => {
  instance.get('/titles', async () => options.titles);
};

// A callback plugin: the same single signature, with `done`.
function health(instance: EnclaveInstance, _options: {}, done: (error?: Error) => void) {
  instance.get('/health', async () => ({ ok: true }));
  done();
}

const app = enclave();
app.register(catalogue, { titles: ['Dune', 'Kindred'], prefix: '/v1' });
app.register(health);
// @ts-expect-error `titles` is required
app.register(catalogue, {});

// Companion packages are typed too.
app.register(async (admin) => {
  await admin.register(bearerAuth, { keys: ['a-long-admin-key'] });
  admin.get('/admin/stats', async () => ({ books: 2 }));
});

assert.deepEqual((await app.inject('/v1/titles')).json(), ['Dune', 'Kindred']);
assert.equal((await app.inject('/admin/stats')).statusCode, 401);
await app.close();
