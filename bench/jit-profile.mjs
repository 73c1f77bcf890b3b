// Instructions per request by function, JIT code included: one server run under valgrind's
// callgrind with per-instruction counts, its counters zeroed after a warm-up and dumped after
// the measured requests, JIT addresses named from the perf map V8 writes (--perf-basic-prof).
// cachegrind (bench:instructions) counts the same instructions but cannot name V8's generated
// code; this names it, so two servers can be compared function by function.
//
//   node bench/jit-profile.mjs enclave A [--warm 2000] [--count 1000] [--node …] [--out file.json]
//   node bench/jit-profile.mjs --diff fastify-A.json enclave-A.json [--top 40]
import { execFileSync, fork } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { determinismFlags, slowClockEnv } from './lib/determinism.mjs';
import { ensureResultsDir, nodeVersion, startServer } from './lib/processes.mjs';
import { formatNumber, markdownTable } from './lib/stats.mjs';

const { values: args, positionals } = parseArgs({
  options: {
    warm: { type: 'string', default: '2000' },
    count: { type: 'string', default: '1000' },
    connections: { type: 'string', short: 'c', default: '1' },
    node: { type: 'string', default: process.execPath },
    out: { type: 'string' },
    diff: { type: 'boolean', default: false },
    top: { type: 'string', default: '40' },
  },
  allowPositionals: true,
});

/** Sums the self cost of a callgrind dump (written uncompressed) per function, JIT code per address. */
function readCallgrind(file) {
  const named = new Map();
  const jit = new Map();
  let fn = '';
  let object = '';
  let skipNext = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) fn = line.slice(3);
    else if (line.startsWith('ob=')) object = line.slice(3);
    else if (line.startsWith('calls=')) skipNext = true;
    else if (line.startsWith('0x')) {
      // The line after calls= is the call's inclusive cost, not this function's own.
      if (skipNext) {
        skipNext = false;
        continue;
      }
      const [address, , cost] = line.split(' ');
      const count = Number(cost ?? 0);
      if (object === '???') jit.set(address, (jit.get(address) ?? 0) + count);
      else named.set(fn, (named.get(fn) ?? 0) + count);
    }
  }
  return { named, jit };
}

/** Names JIT addresses from V8's perf map; the latest entry covering an address wins. */
function nameJit(jit, mapFile) {
  const addresses = [...jit.keys()].map((hex) => BigInt(hex)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const names = new Map();
  const entries = readFileSync(mapFile, 'utf8').trim().split('\n').reverse();
  for (const entry of entries) {
    const first = entry.indexOf(' ');
    const second = entry.indexOf(' ', first + 1);
    const start = BigInt(`0x${entry.slice(0, first)}`);
    const end = start + BigInt(`0x${entry.slice(first + 1, second)}`);
    let low = 0;
    let high = addresses.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((addresses[middle] ?? 0n) < start) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < addresses.length && (addresses[index] ?? end) < end; index++) {
      const address = addresses[index] ?? 0n;
      if (!names.has(address)) names.set(address, entry.slice(second + 1));
    }
  }
  const byName = new Map();
  for (const [hex, count] of jit) {
    const name = names.get(BigInt(hex)) ?? 'JIT (unnamed)';
    byName.set(name, (byName.get(name) ?? 0) + count);
  }
  return byName;
}

async function profile(framework, scenario) {
  const resultsDir = ensureResultsDir();
  const version = nodeVersion(args.node);
  const outFile = join(resultsDir, `callgrind-${framework}-${scenario}-${version}-${process.pid}.out`);
  const wrapper = [
    'valgrind',
    '--quiet',
    '--tool=callgrind',
    '--dump-instr=yes',
    '--compress-strings=no',
    '--compress-pos=no',
    '--smc-check=all-non-file',
    `--callgrind-out-file=${outFile}`,
  ];
  const server = await startServer({
    nodePath: args.node,
    framework,
    scenario,
    extraFlags: [...determinismFlags(version), '--perf-basic-prof'],
    wrapper,
    patience: 20,
    env: slowClockEnv(),
  });
  const client = fork(fileURLToPath(new URL('./lib/request-client.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const count = Number(args.count);
  try {
    await new Promise((resolve, reject) => {
      let pauses = 0;
      client.on('message', (message) => {
        if (message.paused) {
          execFileSync('callgrind_control', [pauses++ === 0 ? '--zero' : '--dump', String(server.pid)], { stdio: 'ignore' });
          client.send({ resume: message.id });
        } else if (message.ok) resolve(message.result);
        else reject(new Error(message.error));
      });
      const warm = Number(args.warm);
      client.send({ id: 0, port: server.port, scenario, count: warm + count, pauseAfter: warm, connections: Number(args.connections) });
    });
  } finally {
    client.disconnect();
    await server.stop();
  }
  // The zeroed-and-dumped part is the second file (`.1`); the first is the dump at exit.
  const { named, jit } = readCallgrind(`${outFile}.1`);
  rmSync(outFile, { force: true });
  rmSync(`${outFile}.1`, { force: true });
  const functions = nameJit(jit, `/tmp/perf-${server.pid}.map`);
  for (const [name, cost] of named) functions.set(name, (functions.get(name) ?? 0) + cost);
  rmSync(`/tmp/perf-${server.pid}.map`, { force: true });
  // --perf-basic-prof also makes V8 write an isolate log into the server's directory.
  const benchDir = fileURLToPath(new URL('.', import.meta.url));
  for (const name of readdirSync(benchDir)) {
    if (name.startsWith('isolate-') && name.endsWith(`-${server.pid}-v8.log`)) rmSync(join(benchDir, name), { force: true });
  }
  const perRequest = Object.fromEntries([...functions].map(([name, cost]) => [name, cost / count]).sort((a, b) => b[1] - a[1]));
  const total = Object.values(perRequest).reduce((sum, value) => sum + value, 0);
  // As in instructions.mjs, V8's optimizing compilers are counted apart: on Node 24 a recompile
  // can land inside the measured requests (10k+ per request of them on A).
  const compiler = Object.entries(perRequest)
    .filter(([name]) => /v8::internal::(compiler|maglev|turboshaft)::/.test(name))
    .reduce((sum, [, value]) => sum + value, 0);
  const result = { framework, scenario, node: version, count, total, compiler, measured: total - compiler, perRequest };
  const file = args.out ?? join(resultsDir, `jit-profile-${framework}-${scenario}-${version}.json`);
  writeFileSync(file, JSON.stringify(result, null, 1));
  process.stdout.write(
    `${framework} ${scenario} (${version}): ${formatNumber(total - compiler)} instructions/request without V8's optimizing compilers ` +
      `(${formatNumber(total)} with them); ${file}\n`,
  );
  for (const [name, value] of Object.entries(perRequest).slice(0, Number(args.top))) {
    process.stdout.write(`${formatNumber(value).padStart(8)}  ${name}\n`);
  }
}

/** Two profiles side by side: per-function difference, largest first. */
function diff(fileA, fileB) {
  const a = JSON.parse(readFileSync(fileA, 'utf8'));
  const b = JSON.parse(readFileSync(fileB, 'utf8'));
  // JIT names carry an address-free description; strip the tier marker so a function compiled
  // by Maglev in one run and TurboFan in the other still lines up.
  // Paths and line numbers are dropped too, so two checkouts (or two versions of a file) line up;
  // anonymous functions of one file are then summed together.
  const normal = (name) =>
    name
      .replace(/^(JS|LazyCompile|Function):[*~^+']?/, '')
      .replace(/(file:\/\/)?\/\S*?\/(packages|node_modules|bench)\//, '$2/')
      .replace(/:\d+:\d+$/, '');
  const sum = (profileData) => {
    const map = new Map();
    for (const [name, value] of Object.entries(profileData.perRequest)) map.set(normal(name), (map.get(normal(name)) ?? 0) + value);
    return map;
  };
  const left = sum(a);
  const right = sum(b);
  const names = new Set([...left.keys(), ...right.keys()]);
  const rows = [...names]
    .map((name) => [name, left.get(name) ?? 0, right.get(name) ?? 0])
    .map(([name, x, y]) => [name, x, y, y - x])
    .sort((p, q) => Math.abs(q[3]) - Math.abs(p[3]))
    .slice(0, Number(args.top))
    .map(([name, x, y, d]) => [name.slice(0, 110), formatNumber(x), formatNumber(y), formatNumber(d)]);
  process.stdout.write(
    `${a.framework} ${a.scenario}: ${formatNumber(a.total)}/request; ${b.framework} ${b.scenario}: ${formatNumber(b.total)}/request; ` +
      `difference ${formatNumber(b.total - a.total)}\n\n`,
  );
  process.stdout.write(`${markdownTable(['function', a.framework, b.framework, 'difference'], rows)}\n`);
}

if (args.diff) diff(positionals[0], positionals[1]);
else await profile(positionals[0], positionals[1]);
