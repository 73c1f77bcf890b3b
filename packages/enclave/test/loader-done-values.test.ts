// What a plugin or an after() callback reports through `done`, a throw or a rejection (issue 32):
// only no value (`undefined`, `null`) is success. `0`, `false` and `''` are failures, as for hooks
// (docs/differences.md): Fastify's loader lets them pass, and the application boots without the
// plugin having finished. Each becomes FST_ERR_PLUGIN_NOT_VALID naming who failed with what.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

const falsyValues = [0, false, ''] as const;

/** ready() rejects with the loader's coded error for `value`, and no later plugin loads. */
async function assertFailsWith(register: (app: any) => void, value: unknown, who: RegExp, pluginName?: string) {
  const app = enclave();
  register(app);
  let laterLoaded = false;
  app.register(async function later() {
    laterLoaded = true;
  });
  await assert.rejects(app.ready(), (error: any) => {
    assert.equal(error.code, 'FST_ERR_PLUGIN_NOT_VALID');
    assert.match(error.message, who);
    assert.match(error.message, new RegExp(`non-Error value: (number|boolean|the string) '?${value}'?$`));
    assert.match(error.hint, /done\(\) or done\(null\) to succeed/);
    assert.equal(error.plugin, pluginName);
    return true;
  });
  assert.equal(laterLoaded, false, 'a plugin registered after the failure is not loaded');
}

describe('a falsy value passed to done, thrown or rejected fails the plugin', () => {
  for (const value of falsyValues) {
    const label = JSON.stringify(value);
    test(`done(${label})`, async () => {
      const register = (app: any) =>
        app.register(function reportsFalsy(_instance: unknown, _options: unknown, done: (error?: unknown) => void) {
          done(value);
        });
      await assertFailsWith(register, value, /^fastify-plugin: Plugin 'reportsFalsy' failed/, 'reportsFalsy');
    });

    test(`an async plugin rejecting with ${label}`, async () => {
      const register = (app: any) =>
        app.register(async function rejectsFalsy() {
          throw value;
        });
      await assertFailsWith(register, value, /^fastify-plugin: Plugin 'rejectsFalsy' failed/, 'rejectsFalsy');
    });

    test(`a callback plugin throwing ${label}`, async () => {
      const register = (app: any) =>
        app.register(function throwsFalsy(_instance: unknown, _options: unknown, _done: () => void) {
          throw value;
        });
      await assertFailsWith(register, value, /^fastify-plugin: Plugin 'throwsFalsy' failed/, 'throwsFalsy');
    });

    test(`after()'s done(${label})`, async () => {
      const register = (app: any) => {
        app.register(async function loadsFine() {});
        app.after((_error: unknown, done: (error?: unknown) => void) => done(value));
      };
      await assertFailsWith(register, value, /^fastify-plugin: An after\(\) callback of 'root' failed/);
    });

    test(`after()'s done(${label}) inside a plugin names that plugin`, async () => {
      const register = (app: any) =>
        app.register(async function outer(instance: any) {
          instance.register(async function inner() {});
          instance.after((_error: unknown, _self: unknown, done: (error?: unknown) => void) => done(value));
        });
      await assertFailsWith(register, value, /^fastify-plugin: An after\(\) callback of 'outer' failed/, 'outer');
    });
  }

  test('done(), done(undefined) and done(null) are success, for plugins and after() alike', async () => {
    const app: any = enclave();
    const loaded: string[] = [];
    for (const [name, value] of [
      ['none', []],
      ['undefined', [undefined]],
      ['null', [null]],
    ] as const) {
      app.register(function succeeds(_instance: unknown, _options: unknown, done: (...args: unknown[]) => void) {
        loaded.push(`plugin ${name}`);
        done(...value);
      });
      app.after((_error: unknown, done: (...args: unknown[]) => void) => {
        loaded.push(`after ${name}`);
        done(...value);
      });
    }
    await app.ready();
    assert.deepEqual(loaded, ['plugin none', 'after none', 'plugin undefined', 'after undefined', 'plugin null', 'after null']);
  });
});
