// Issue 32: an application tested under node:test's mock timers boots, answers and closes.
// mock.timers fakes setTimeout, setInterval and setImmediate (and Date): nothing boot, a request
// or close() waits for may be one of those, or the test hangs.
import { test } from 'node:test';
import { bootInjectAndClose, listenAndCloseKeptAlive } from './fixtures/fake-timer-scenario.ts';

const apis = ['setTimeout', 'setInterval', 'setImmediate', 'Date'] as const;

test('under mock.timers.enable(), an app with plugins boots, injects, counts on the fake clock and closes', { timeout: 20_000 }, async (t) => {
  t.mock.timers.enable({ apis: [...apis], now: 0 });
  await bootInjectAndClose((ms) => t.mock.timers.tick(ms));
});

test('under mock.timers.enable(), close() of a listening app with a kept-alive connection ends', { timeout: 20_000 }, async (t) => {
  t.mock.timers.enable({ apis: [...apis], now: 0 });
  await listenAndCloseKeptAlive();
});
