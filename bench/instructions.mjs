// `npm run bench:instructions`: user-space instructions the server process executes per request
// (all its threads: the main thread, V8's compiler and GC helpers, libuv's pool), counted by
// valgrind's cachegrind. Each server (lib/serve.mjs) runs under valgrind; a plain keep-alive
// client (lib/request-client.mjs, its own process, not under valgrind) sends N requests over one
// keep-alive connection (-c to change) and checks every status and body. Two fresh server runs per
// cell, one with N1 requests and one with N2, so that start-up, warm-up, JIT compilation and
// shutdown cancel: per request = (I(N2) − I(N1)) / (N2 − N1). See bench/README.md.
//
//   npm run bench:instructions
//   npm run bench:instructions -- --only A,D --frameworks raw,enclave --repeats 5 --node …/node
//   npm run bench:instructions -- --frameworks enclave   exactly the frameworks listed (raw too
//                                             only when listed: combine with --table)
//   npm run bench:instructions -- --keep      keep the cachegrind.out files (for cg_annotate)
//   npm run bench:instructions -- --baseline <ref>   also Enclave as built at a git commit, in
//                                             the same repeats (lib/baseline.mjs): before/after
//   node bench/instructions.mjs --table a.json b.json   one table from several runs' results
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBaseline } from './lib/baseline.mjs';
import { readTotals, valgrindCommand } from './lib/cachegrind.mjs';
import { determinismFlags, slowClockEnv } from './lib/determinism.mjs';
import { ensureResultsDir, nodeVersion, SERVER_FLAGS, startRequestClient, startServer } from './lib/processes.mjs';
import { scenarioNames } from './lib/scenarios.mjs';
import { formatNumber, formatRatio, markdownTable, median } from './lib/stats.mjs';

const npmFlag = (name) => process.env[`npm_config_${name}`];
const { values: args, positionals } = parseArgs({
  options: {
    only: { type: 'string', default: npmFlag('only') },
    frameworks: { type: 'string', default: npmFlag('frameworks') ?? 'raw,enclave,fastify' },
    repeats: { type: 'string', default: '3' },
    n1: { type: 'string', default: '2000' },
    n2: { type: 'string', default: '3000' },
    connections: { type: 'string', short: 'c', default: '1' },
    node: { type: 'string', default: process.execPath },
    keep: { type: 'boolean', default: false },
    'default-tiering': { type: 'boolean', default: false },
    'real-clock': { type: 'boolean', default: false },
    out: { type: 'string' },
    baseline: { type: 'string' },
    table: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  allowPositionals: true,
});

const kilo = (value) => `${formatNumber(value / 1000, 1)}k`;
const spread = (values) => {
  const m = median(values);
  return `±${formatNumber(((Math.max(...values) - Math.min(...values)) / 2 / m) * 100, 1)}%`;
};

/** The Markdown table of `cells[scenario][framework] = [{ perRequest }]`, and the medians. */
function tableOf(cells) {
  const scenarioList = Object.keys(cells);
  const frameworks = ['raw', 'enclave', 'enclave-baseline', 'fastify', 'hono', 'koa', 'express'].filter((name) =>
    scenarioList.some((scenario) => cells[scenario][name] !== undefined),
  );
  const others = frameworks.filter((name) => name !== 'raw');
  const headers = [
    'scenario',
    ...frameworks.flatMap((name) => [`${name} instr/req`, 'spread', 'bytes/req']),
    ...(frameworks.includes('raw') ? others.map((name) => `${name} − raw`) : []),
  ];
  const both = frameworks.includes('raw') && others.includes('enclave') && others.includes('fastify');
  if (both) headers.push('Enclave overhead ÷ Fastify overhead');
  const withBaseline = others.includes('enclave') && others.includes('enclave-baseline');
  if (withBaseline) headers.push('enclave − enclave-baseline');
  const rows = [];
  const summary = {};
  for (const scenario of scenarioList) {
    const medians = {};
    const row = [scenario];
    for (const framework of frameworks) {
      const values = (cells[scenario][framework] ?? []).map((cell) => cell.perRequest);
      medians[framework] = median(values);
      const bytes = (cells[scenario][framework] ?? []).map((cell) => cell.bytes).filter((value) => value !== undefined);
      row.push(values.length ? kilo(medians[framework]) : '—', values.length ? spread(values) : '', bytes.length ? formatNumber(median(bytes)) : '—');
    }
    if (frameworks.includes('raw')) for (const name of others) row.push(kilo(medians[name] - medians.raw));
    const ratio = both ? (medians.enclave - medians.raw) / (medians.fastify - medians.raw) : undefined;
    if (both) row.push(formatRatio(ratio));
    if (withBaseline) row.push(kilo(medians.enclave - medians['enclave-baseline']));
    rows.push(row);
    summary[scenario] = { medians, ratio, runs: cells[scenario] };
  }
  return { markdown: markdownTable(headers, rows), summary };
}

// `--table a.json b.json …`: one table from earlier runs' results (a later file's cells replace an
// earlier file's for the same scenario and framework), e.g. a run of Enclave alone after a change
// beside the raw and Fastify cells of a full run (their code did not change).
if (args.table) {
  const cells = {};
  const notes = [];
  for (const file of positionals) {
    const result = JSON.parse(readFileSync(file, 'utf8'));
    notes.push(`${result.node}, N1=${result.options.n1}, N2=${result.options.n2}, ${result.options.repeats} repeats (${result.when})`);
    for (const [scenario, entry] of Object.entries(result.summary)) {
      cells[scenario] ??= {};
      Object.assign(cells[scenario], entry.runs);
    }
  }
  process.stdout.write(`${notes.join('; ')}\n\n${tableOf(cells).markdown}\n`);
  process.exit(0);
}

if (args.help) {
  process.stdout.write(
    'usage: node bench/instructions.mjs [--only A,B,C,D] [--frameworks raw,enclave,fastify] [--repeats 3]\n' +
      '                                  [--n1 2000] [--n2 3000] [-c 1] [--node /path/to/node] [--keep] [--out file.json]\n' +
      '                                  [--default-tiering] [--baseline <git ref>]\n' +
      '       node bench/instructions.mjs --table results1.json results2.json …\n',
  );
  process.exit(0);
}

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  process.stderr.write(
    'valgrind is not installed. On Debian or Ubuntu: apt-get update && apt-get install -y valgrind\n' +
      '(other systems: the distribution\'s "valgrind" package; cachegrind is part of it)\n',
  );
  process.exit(1);
}

const list = (value, allowed, what) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      if (!allowed.includes(item)) throw new Error(`unknown ${what} "${item}" (one of ${allowed.join(', ')})`);
      return item;
    });

const options = {
  scenarios: args.only ? list(args.only.toUpperCase(), scenarioNames, 'scenario') : scenarioNames,
  frameworks: list(args.frameworks, ['raw', 'enclave', 'fastify', 'hono', 'koa', 'express'], 'framework'),
  repeats: Number(args.repeats),
  n1: Number(args.n1),
  n2: Number(args.n2),
  connections: Number(args.connections),
  nodePath: resolve(args.node),
};
if (!(options.n2 > options.n1 && options.n1 >= 0)) throw new Error('--n2 must be greater than --n1');

const resultsDir = ensureResultsDir();
if (args.baseline) {
  // Server processes inherit the environment: that is how enclave-baseline finds the build.
  const { commit, entry } = buildBaseline(args.baseline, resultsDir, (line) => process.stderr.write(`${line}\n`));
  process.env.BENCH_ENCLAVE_BASELINE = entry;
  options.baseline = { ref: args.baseline, commit };
  if (!options.frameworks.includes('enclave-baseline')) options.frameworks.push('enclave-baseline');
}
const serverNode = nodeVersion(options.nodePath);
// One directory per Node version and run, so two runs (Node 20 and 24) can go side by side.
const outDir = join(resultsDir, 'cachegrind', `${serverNode}-${process.pid}`);
mkdirSync(outDir, { recursive: true });
// The determinism flags (lib/determinism.mjs); --default-tiering turns them off.
const extraFlags = args['default-tiering'] ? [] : determinismFlags(serverNode);
const valgrindVersion = execFileSync('valgrind', ['--version'], { encoding: 'utf8' }).trim();
const log = (line) => process.stderr.write(`${line}\n`);

const client = startRequestClient();

/** One server run under valgrind serving `count` requests; returns its total instruction count. */
async function measure(framework, scenario, count, tag) {
  const file = join(outDir, `${framework}-${scenario}-${count}-${tag}.out`);
  const server = await startServer({
    nodePath: options.nodePath,
    framework,
    scenario,
    extraFlags,
    wrapper: valgrindCommand(file),
    patience: 10,
    env: { BENCH_HEAP_OUT: `${file}.heap`, ...(args['real-clock'] ? {} : slowClockEnv()) },
  });
  let served;
  try {
    served = await client.run({ port: server.port, scenario, count, connections: options.connections });
  } finally {
    await server.stop();
  }
  const totals = readTotals(file);
  const heap = JSON.parse(readFileSync(`${file}.heap`, 'utf8'));
  rmSync(`${file}.heap`);
  if (!args.keep) rmSync(file);
  return { ...totals, ...heap, seconds: served.seconds };
}

const started = Date.now();
const cells = {}; // cells[scenario][framework] = [{ perRequest, i1, i2 }]
for (let repeat = 1; repeat <= options.repeats; repeat++) {
  for (const scenario of options.scenarios) {
    cells[scenario] ??= {};
    // Rotate the order every repeat so nobody always runs first.
    const order = options.frameworks.map((_, index, all) => all[(index + repeat - 1) % all.length]);
    for (const framework of order) {
      const first = await measure(framework, scenario, options.n1, `r${repeat}`);
      const second = await measure(framework, scenario, options.n2, `r${repeat}`);
      const perRequest = (second.measured - first.measured) / (options.n2 - options.n1);
      const withCompiler = (second.total - first.total) / (options.n2 - options.n1);
      // Exact only when neither run collected garbage (the new space is sized so none does).
      const bytes = first.collections === 0 && second.collections === 0 ? (second.heapUsed - first.heapUsed) / (options.n2 - options.n1) : undefined;
      (cells[scenario][framework] ??= []).push({ perRequest, withCompiler, bytes, i1: first, i2: second });
      log(
        `[${Math.round((Date.now() - started) / 1000)} s] repeat ${repeat} ${scenario} ${framework}: ` +
          `${formatNumber(perRequest)} instructions/request, ${bytes === undefined ? `GC ran (${first.collections}, ${second.collections})` : `${formatNumber(bytes)} bytes allocated/request`} ` +
          `(client ${second.seconds.toFixed(1)} s for ${options.n2})`,
      );
    }
  }
}
await client.stop();
const minutes = (Date.now() - started) / 60_000;

const { markdown, summary } = tableOf(cells);
const lines = [
  `Node ${serverNode}, server flags \`${[...SERVER_FLAGS, ...extraFlags].join(' ')}\`; ${valgrindVersion} cachegrind; ` +
    `N1=${options.n1}, N2=${options.n2}, ${options.connections} keep-alive connections, no pipelining; ` +
    `median of ${options.repeats} repeats; ${os.platform()} ${os.arch()}; ${minutes.toFixed(1)} min`,
  '',
  markdown,
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
const outFile = args.out ?? join(resultsDir, 'instructions-latest.json');
writeFileSync(outFile, JSON.stringify({ node: serverNode, valgrind: valgrindVersion, options, minutes, summary, when: new Date().toISOString() }, null, 2));
log(`results: ${outFile}${args.keep ? `; cachegrind files: ${outDir}` : ''}`);
