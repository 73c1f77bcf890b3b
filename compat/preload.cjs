'use strict';
// Loaded into every Fastify test file the compat harness runs (`node --require`).
// Two jobs, both so that one hanging test cannot take the rest of its file down with it:
// - every test()/it() and every hook (t.after(), before(), …) without its own timeout gets
//   COMPAT_TEST_TIMEOUT ms, so a test waiting for an event that never comes (a close() that
//   never settles in t.after) fails as "timed out" and the next test still runs;
// - a ref'd timer keeps the event loop alive: without it, a test awaiting a promise nobody
//   settles lets the loop empty, and node cancels that test and every test after it.
// `--test-force-exit` ends the process once the last test has reported.
const nodeTest = require('node:test');
const { syncBuiltinESMExports } = require('node:module');

const timeout = Number(process.env.COMPAT_TEST_TIMEOUT || 6000);

// Hooks take (fn, options): the timeout goes into options unless they name one.
function hookWithTimeout(original) {
  return function (fn, options) {
    return original.call(this, fn, { timeout, ...options });
  };
}

// A test's context is only reachable from inside a test: its class's hooks are wrapped the first
// time a test runs. The wrapper keeps the function's arity, which tells node a `done` test apart.
let contextPatched = false;
function patchContext(context) {
  if (contextPatched || context === null || typeof context !== 'object') return;
  contextPatched = true;
  const proto = Object.getPrototypeOf(context);
  for (const hook of ['before', 'after', 'beforeEach', 'afterEach']) {
    if (typeof proto[hook] === 'function') proto[hook] = hookWithTimeout(proto[hook]);
  }
}

function withContextPatch(fn) {
  if (typeof fn !== 'function') return fn;
  if (fn.length >= 2) {
    return function (context, done) {
      patchContext(context);
      return fn.call(this, context, done);
    };
  }
  return function (context) {
    patchContext(context);
    return fn.call(this, context);
  };
}

function withTimeout(original) {
  const wrapped = function (...args) {
    const fnAt = args.findIndex((arg) => typeof arg === 'function');
    if (fnAt !== -1) args[fnAt] = withContextPatch(args[fnAt]);
    const at = args.findIndex((arg) => arg !== null && typeof arg === 'object');
    if (at === -1) {
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
for (const hook of ['before', 'after', 'beforeEach', 'afterEach']) {
  if (typeof nodeTest[hook] === 'function') test[hook] = nodeTest[hook] = hookWithTimeout(nodeTest[hook]);
}
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
