// Issue 32: an application tested under node:test's mock timers boots, answers and closes.
// mock.timers fakes setTimeout, setInterval and setImmediate (and Date): nothing boot, a request
// or close() waits for may be one of those, or the test hangs.
import { after, test } from 'node:test';
import { bootInjectAndClose, listenAndCloseKeptAlive } from './fixtures/fake-timer-scenario.ts';

// Node calls MockTimers experimental and says so on stderr the first time it is enabled: known
// and expected here, so that one warning is not printed (npm test prints no warnings of its own).
const emitWarning = process.emitWarning;
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  if (rest[0] === 'ExperimentalWarning' && text.includes('MockTimers')) return;
  (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
}) as typeof process.emitWarning;
after(() => {
  process.emitWarning = emitWarning;
});

const apis = ['setTimeout', 'setInterval', 'setImmediate', 'Date'] as const;

test('under mock.timers.enable(), an app with plugins boots, injects, counts on the fake clock and closes', { timeout: 20_000 }, async (t) => {
  t.mock.timers.enable({ apis: [...apis], now: 0 });
  await bootInjectAndClose((ms) => t.mock.timers.tick(ms));
});

test('under mock.timers.enable(), close() of a listening app with a kept-alive connection ends', { timeout: 20_000 }, async (t) => {
  t.mock.timers.enable({ apis: [...apis], now: 0 });
  await listenAndCloseKeptAlive();
});
