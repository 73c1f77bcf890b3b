// Which plugin a `register`, `after` or `await` belongs to (SPEC §3.1, §3.5), decided without
// async context tracking: on Node 20 and 22 an AsyncLocalStorage turns promise hooks on, and
// that slows every later request of the process, so the loader must never start one.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, test } from 'node:test';
import plugin from '@enclavejs/plugin';
import enclave from 'enclavejs';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Counts AsyncLocalStorage entries (the only ways a store becomes active) while `body` runs. */
async function countStorageEntries(body: () => Promise<void>): Promise<number> {
  const proto = AsyncLocalStorage.prototype as any;
  const { run, enterWith } = proto;
  let entries = 0;
  proto.run = function (this: unknown, ...args: unknown[]) {
    entries++;
    return run.apply(this, args);
  };
  proto.enterWith = function (this: unknown, ...args: unknown[]) {
    entries++;
    return enterWith.apply(this, args);
  };
  try {
    await body();
  } finally {
    proto.run = run;
    proto.enterWith = enterWith;
  }
  return entries;
}

describe('no async context while loading', () => {
  test('booting nested, wrapped and awaited plugins enters no AsyncLocalStorage', async () => {
    const order: string[] = [];
    const entries = await countStorageEntries(async () => {
      const app = enclave();
      app.register(async function outer(instance: any) {
        await instance.register(
          plugin(async function shared(inner: any) {
            inner.decorate('shared', 1);
          }),
        );
        order.push(`outer sees shared=${instance.shared}`);
        instance.register(async function child() {
          await tick();
          order.push('child');
        });
        await instance.after();
        order.push('outer after child');
      });
      await app.ready();
      await app.close();
    });
    assert.deepEqual(order, ['outer sees shared=1', 'child', 'outer after child']);
    assert.equal(entries, 0);
  });
});

describe('attribution after the first await of a body', () => {
  test("awaiting the parent's instance from a child body, after an await, loads what it queued there", async () => {
    const app = enclave();
    const order: string[] = [];
    app.register(async function child() {
      await tick();
      await app.register(async function late() {
        order.push('late');
      });
      order.push('child continues');
    });
    app.register(async function sibling() {
      order.push('sibling');
    });
    await app.ready();
    assert.deepEqual(order, ['late', 'child continues', 'sibling']);
  });

  test('a wrapped plugin registering on its shared instance after an await queues on itself', async () => {
    const app = enclave();
    const order: string[] = [];
    app.register(
      plugin(async function wrapped(instance: any) {
        await tick();
        instance.register(async function fromWrapped() {
          order.push('from wrapped');
        });
        await instance;
        order.push('wrapped continues');
      }),
    );
    app.register(async function next() {
      order.push('next');
    });
    await app.ready();
    assert.deepEqual(order, ['from wrapped', 'wrapped continues', 'next']);
  });
});

describe('attribution across applications', () => {
  test("a plugin body registering on another application queues on that application's root", async () => {
    const other = enclave();
    const loaded: string[] = [];
    const app = enclave();
    app.register(async function builder() {
      other.register(async function forOther(instance: any) {
        instance.decorate('fromBuilder', true);
        loaded.push('forOther');
      });
    });
    await app.ready();
    assert.deepEqual(loaded, [], 'the other application loads its plugin on its own ready()');
    await other.ready();
    assert.deepEqual(loaded, ['forOther']);
    await app.close();
    await other.close();
  });
});
