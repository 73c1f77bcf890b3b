'use strict';
// Loaded into every Fastify test file the compat harness runs (`node --require`).
// Two jobs, both so that one hanging test cannot take the rest of its file down with it:
// - every test()/it() without its own timeout gets COMPAT_TEST_TIMEOUT ms, so a test waiting
//   for an event that never comes fails as "timed out" and the next test still runs;
// - a ref'd timer keeps the event loop alive: without it, a test awaiting a promise nobody
//   settles lets the loop empty, and node cancels that test and every test after it.
// `--test-force-exit` ends the process once the last test has reported.
const nodeTest = require('node:test');
const { syncBuiltinESMExports } = require('node:module');

const timeout = Number(process.env.COMPAT_TEST_TIMEOUT || 15000);

function withTimeout(original) {
  const wrapped = function (...args) {
    const at = args.findIndex((arg) => arg !== null && typeof arg === 'object');
    if (at === -1) {
      const fnAt = args.findIndex((arg) => typeof arg === 'function');
      args.splice(fnAt === -1 ? args.length : fnAt, 0, { timeout });
    } else if (args[at].timeout === undefined) {
      args[at] = { ...args[at], timeout };
    }
    return original.apply(this, args);
  };
  // test.before, test.mock, describe, … stay the runner's own; only the test-making ones wrap.
  for (const key of Object.keys(original)) wrapped[key] = original[key];
  for (const key of ['skip', 'todo', 'only']) {
    if (typeof original[key] === 'function') wrapped[key] = withTimeout(original[key]);
  }
  return wrapped;
}

const test = withTimeout(nodeTest);
const it = withTimeout(nodeTest.it);
test.test = test;
test.it = it;
// `const { test } = require('node:test')` and ESM named imports read these properties...
nodeTest.test = test;
nodeTest.it = it;
syncBuiltinESMExports();
// ...and `const test = require('node:test')` gets the wrapped function itself.
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'node:test' || request === 'test') return test;
  return load.call(this, request, ...rest);
};
setInterval(() => {}, 2 ** 30);
