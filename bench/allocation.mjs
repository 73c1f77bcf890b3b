// Bytes allocated per request: each server (lib/serve.mjs) runs with the instruction benchmark's
// determinism flags (lib/determinism.mjs: a 64 MB new space and no scavenge task, so no
// collection runs in a few thousand requests) but without valgrind, and the heap it reports at
// exit is compared between a run of N1 and a run of N2 requests: (heap(N2) − heap(N1)) / (N2 − N1).
// What a server allocates per request is what garbage collection costs it in proportion, and
// the instruction count leaves collection out. Seconds per cell. See bench/README.md.
//
//   node bench/allocation.mjs                 A–D, raw, Enclave, Fastify, 3 repeats
//   node bench/allocation.mjs --only A --frameworks raw,enclave --node …/node -c 10
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { determinismFlags } from './lib/determinism.mjs';
import { ensureResultsDir, nodeVersion, startRequestClient, startServer } from './lib/processes.mjs';
import { frameworkNames, scenarioNames } from './lib/scenarios.mjs';
import { formatNumber, markdownTable, median } from './lib/stats.mjs';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: scenarioNames.join(',') },
    frameworks: { type: 'string', default: 'raw,enclave,fastify' },
    repeats: { type: 'string', default: '3' },
    n1: { type: 'string', default: '2000' },
    n2: { type: 'string', default: '5000' },
    connections: { type: 'string', short: 'c', default: '1' },
    node: { type: 'string', default: process.execPath },
  },
});
const scenarioList = args.only.toUpperCase().split(',');
const frameworks = args.frameworks.split(',');
for (const name of frameworks) if (!frameworkNames.includes(name)) throw new Error(`unknown framework "${name}"`);
const [n1, n2, repeats, connections] = [args.n1, args.n2, args.repeats, args.connections].map(Number);
const nodePath = resolve(args.node);
const serverNode = nodeVersion(nodePath);
const extraFlags = determinismFlags(serverNode);
const heapFile = join(ensureResultsDir(), `allocation-${process.pid}.json`);

const client = startRequestClient();

/** The heap in use when a fresh server that served `count` requests stops, and its GC count. */
async function heapAfter(framework, scenario, count) {
  const server = await startServer({ nodePath, framework, scenario, extraFlags, env: { BENCH_HEAP_OUT: heapFile } });
  try {
    await client.run({ port: server.port, scenario, count, connections });
  } finally {
    await server.stop();
  }
  const heap = JSON.parse(readFileSync(heapFile, 'utf8'));
  rmSync(heapFile);
  return heap;
}

const cells = {};
for (let repeat = 0; repeat < repeats; repeat++) {
  for (const scenario of scenarioList) {
    for (const framework of frameworks) {
      const first = await heapAfter(framework, scenario, n1);
      const second = await heapAfter(framework, scenario, n2);
      const collected = first.collections + second.collections;
      const bytes = collected === 0 ? (second.heapUsed - first.heapUsed) / (n2 - n1) : Number.NaN;
      ((cells[scenario] ??= {})[framework] ??= []).push(bytes);
      process.stderr.write(`${scenario} ${framework}: ${collected === 0 ? `${formatNumber(bytes)} bytes/request` : `GC ran (${collected})`}\n`);
    }
  }
}
await client.stop();

const row = (scenario) => [
  scenario,
  ...frameworks.map((name) => {
    const values = cells[scenario][name];
    const spread = Math.max(...values) - Math.min(...values);
    return `${formatNumber(median(values))} (±${formatNumber(spread / 2)})`;
  }),
];
process.stdout.write(
  `Node ${serverNode}, N1=${n1}, N2=${n2}, ${connections} keep-alive connection(s), median of ${repeats} (± half the range)\n\n` +
    `${markdownTable(['scenario', ...frameworks], scenarioList.map(row))}\n`,
);
