// Mirrored, type-checked, in packages/enclave/test/types/docs-decorators.types.ts
import assert from 'node:assert/strict';
import plugin from '@enclavejs/plugin';
import enclave, { type Plugin } from 'enclavejs';

class Clock {
  now(): number {
    return 1_700_000_000_000;
  }
}

// 1. decorate() returns the instance typed with the decorator.
const app = enclave().decorate('clock', new Clock());
const started: number = app.clock.now();

// 2. A plugin declares what it decorates (wrapped by @enclavejs/plugin, so the decorator lands in
//    the registering context), and register() returns the instance typed with it.
interface Greeter {
  greet(name: string): string;
}
const greeterPlugin: Plugin<{ greeting: string }, { greeter: Greeter }> = plugin(async (instance, options) => {
  instance.decorate('greeter', { greet: (name: string) => `${options.greeting}, ${name}` });
});

const withGreeter = app.register(greeterPlugin, { greeting: 'Hello' });
withGreeter.get('/hello/:name', async function (request) {
  const { name } = request.params as { name: string };
  return { message: this.greeter.greet(name), at: started }; // `this` is withGreeter
});
// The type exists only where the decorator does: `enclave().greeter` does not compile.

// 3. Interface merging, for what every instance, request or reply has.
declare module 'enclavejs' {
  interface EnclaveRequest {
    requestStartedAt: number;
  }
}
app.decorateRequest('requestStartedAt', 0);
app.addHook('onRequest', async (request) => {
  request.requestStartedAt = app.clock.now();
});

await withGreeter.ready();
const answer = await app.inject('/hello/Ada');
assert.deepEqual(answer.json(), { message: 'Hello, Ada', at: 1_700_000_000_000 });
await app.close();
