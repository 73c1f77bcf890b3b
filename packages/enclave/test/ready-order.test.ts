// Issue 18: ready() answers its callers in the order they called it, whichever form each used
// (callback or promise), on success and on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';

function callMixed(app: any, settled: string[], failing: boolean): void {
  for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) {
    if (name === 'b' || name === 'c' || name === 'f') {
      app.ready(() => settled.push(name));
    } else if (failing) {
      app.ready().then(null, () => settled.push(name));
    } else {
      app.ready().then(() => settled.push(name));
    }
  }
}

test('ready() callbacks and promises mixed are answered in call order', async () => {
  const app = enclave();
  const settled: string[] = [];
  callMixed(app, settled, false);
  await app.ready();
  assert.deepEqual(settled, ['a', 'b', 'c', 'd', 'e', 'f']);
});

test('a failed boot reaches mixed ready() callers in call order', async () => {
  const app = enclave();
  app.register((_child: unknown, _opts: unknown, done: (error?: Error) => void) => {
    setTimeout(() => done(new Error('plugin failed')), 5);
  });
  const settled: string[] = [];
  callMixed(app, settled, true);
  await assert.rejects(app.ready(), /plugin failed/);
  assert.deepEqual(settled, ['a', 'b', 'c', 'd', 'e', 'f']);
});
