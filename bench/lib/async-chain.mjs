// One process of async-floor.mjs: runs `chains` chains of `functions` functions, each chain
// started from its own event-loop turn (setImmediate), as a request is. Every function
// increments a counter on the chain's state object, as scenario D's hooks do, and the functions
// run strictly one after another: the next starts only once the previous one has finished
// (for an async function: once its promise has settled). Each chain's count is checked.
//
//   node lib/async-chain.mjs <variant> <chains> <functions>
//
// Variants (see bench/README.md, "Scenario D: the async floor"):
//   sync           plain functions called in a loop: what raw's D hooks cost
//   then           async functions, waited on with `promise.then(onResolved, onRejected)`, one
//                  pair of callbacks per chain: the least a runner can do
//   then-generic   the same through a generic thenable check (read `then`, typeof, `call` it,
//                  in a try block), as a runner that accepts any thenable does
//   then-closures  `then` with a fresh pair of callbacks for every function
//   await          an async runner that `await`s each function's promise
//   enclave        Enclave's own runner for onRequest/preHandler hooks (runRequestHooks, from
//                  packages/enclave/dist: build first), with a reply whose `sent` is read as
//                  Enclave's is: what the runner costs per hook above `then`

const [variant, chainsArg, functionsArg] = process.argv.slice(2);
const chains = Number(chainsArg);
const functions = Number(functionsArg);

// Distinct closures of one arrow function literal, as the five contexts' hooks are (an arrow
// function's `this` is its own, so Enclave calls it directly, as the other variants do).
const makeFunction =
  variant === 'sync'
    ? () => (state) => {
        state.n++;
      }
    : () => async (state) => {
        state.n++;
      };
const list = Array.from({ length: functions }, makeFunction);

function runSync(state, finish) {
  for (let index = 0; index < list.length; index++) list[index](state);
  finish(state);
}

function runThen(state, finish) {
  let index = 0;
  const onResolved = () => step();
  const onRejected = (error) => finish(state, error);
  function step() {
    if (index === list.length) return finish(state);
    list[index++](state).then(onResolved, onRejected);
  }
  step();
}

function runThenGeneric(state, finish) {
  let index = 0;
  const onResolved = () => step();
  const onRejected = (error) => finish(state, error);
  function step() {
    if (index === list.length) return finish(state);
    const result = list[index++](state);
    if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return step();
    try {
      const then = result.then;
      if (typeof then !== 'function') return step();
      then.call(result, onResolved, onRejected);
    } catch (error) {
      onRejected(error);
    }
  }
  step();
}

function runThenClosures(state, finish) {
  let index = 0;
  function step() {
    if (index === list.length) return finish(state);
    list[index++](state).then(
      () => step(),
      (error) => finish(state, error),
    );
  }
  step();
}

async function runAwait(state, finish) {
  try {
    for (let index = 0; index < list.length; index++) await list[index](state);
  } catch (error) {
    return finish(state, error);
  }
  finish(state);
}

// Not a public export: the runner Enclave's request path calls for onRequest and preHandler hooks.
const { runRequestHooks } = variant === 'enclave' ? await import('../../packages/enclave/dist/lifecycle/hooks.js') : {};
// As a route's hook entries are built at ready (compiled-route.ts).
const entries = list.map((fn) => ({ fn, instance: null, order: 0, lexicalThis: true }));
// A reply is sent once it says so, was hijacked, or its response has ended: three reads.
const response = { writableEnded: false };
const replyPrototype = {
  get sent() {
    return this.sentFlag === true || this.hijacked === true || this.raw.writableEnded === true;
  },
};
// Module-level continuations, as Enclave's request path gives the runner.
const enclaveDone = (_route, request) => finish(request);
const enclaveFailed = (reply, error) => finish(reply.request, error);
function runEnclave(state) {
  const reply = Object.create(replyPrototype);
  reply.raw = response;
  reply.request = state;
  reply.sentFlag = false;
  reply.hijacked = false;
  runRequestHooks(entries, null, state, reply, enclaveDone, enclaveFailed);
}

const runners = { sync: runSync, then: runThen, 'then-generic': runThenGeneric, 'then-closures': runThenClosures, await: runAwait, enclave: runEnclave };
const run = runners[variant];
if (run === undefined) throw new Error(`unknown variant "${variant}" (one of ${Object.keys(runners).join(', ')})`);

let finished = 0;
function finish(state, error) {
  if (error !== undefined || state.n !== functions) {
    process.stderr.write(`chain ${finished}: ${state.n} of ${functions} functions ran${error === undefined ? '' : `, ${error}`}\n`);
    process.exit(1);
  }
  if (++finished < chains) setImmediate(next);
}
function next() {
  run({ n: 0 }, finish);
}
setImmediate(next);
