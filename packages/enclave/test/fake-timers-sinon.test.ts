// Issue 32: an application tested under @sinonjs/fake-timers boots, answers and closes.
// Every timer and clock is faked; process.nextTick and queueMicrotask are not: version 15 fakes
// them too by default, and then Fastify's own boot (and node:test's runner) cannot run either —
// they are how promise-based code takes its turns, not timers (see docs/testing.md).
import { test } from 'node:test';
import FakeTimers from '@sinonjs/fake-timers';
import { bootInjectAndClose, listenAndCloseKeptAlive } from './fixtures/fake-timer-scenario.ts';

function installClock(t: { after: (fn: () => void) => void }) {
  const clock = FakeTimers.install({ now: 0, toNotFake: ['nextTick', 'queueMicrotask'] });
  t.after(() => clock.uninstall());
  return clock;
}

test('under @sinonjs/fake-timers, an app with plugins boots, injects, counts on the fake clock and closes', { timeout: 20_000 }, async (t) => {
  const clock = installClock(t);
  await bootInjectAndClose(async (ms) => {
    await clock.tickAsync(ms);
  });
});

test('under @sinonjs/fake-timers, close() of a listening app with a kept-alive connection ends', { timeout: 20_000 }, async (t) => {
  installClock(t);
  await listenAndCloseKeptAlive();
});
