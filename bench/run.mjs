// `npm run bench`: Enclave against hand-written node:http, Fastify 5, Hono, Koa and Express 5 on
// loopback (SPEC §10, issue 11). Each server runs alone in its own process; autocannon runs in a
// separate worker process; every framework run is paired with a run of the raw node:http server
// just before it (raw, X, raw, Y, …), and the reported ratio is the median of those pair ratios.
// Progress goes to stderr, the tables to stdout, the full results to bench/.results/latest.json.
//
//   npm run bench                          3 rounds, 3 s runs after a 1 s warm-up (< 10 min)
//   npm run bench:quick                    1 round, 2 s runs, Enclave and Fastify only (~1 min)
//   npm run bench -- --only A,B --frameworks enclave,fastify --rounds 5 --duration 5
//   npm run bench -- --node /path/to/node  run the servers under another Node binary
//   npm run bench -- --cpu-prof enclave    write .cpuprofile files of those servers (skews them)
//   npm run bench -- --baseline <ref>      also run Enclave as built at a git commit, in the same
//                                          rounds (lib/baseline.mjs): before/after in one run
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildBaseline } from './lib/baseline.mjs';
import { ensureResultsDir, nodeVersion, SERVER_FLAGS, startLoadWorker, startServer } from './lib/processes.mjs';
import { frameworkNames, scenarioNames, scenarios } from './lib/scenarios.mjs';
import { formatNumber, formatRatio, markdownTable, median } from './lib/stats.mjs';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const resultsDir = join(benchDir, '.results');

// `npm run bench --quick` hands `--quick` to npm, not to us: npm exposes it as npm_config_quick.
const npmFlag = (name) => process.env[`npm_config_${name}`];
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: npmFlag('quick') === 'true' },
    only: { type: 'string', default: npmFlag('only') },
    frameworks: { type: 'string', default: npmFlag('frameworks') },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', short: 'c', default: '100' },
    pipelining: { type: 'string', short: 'p', default: '10' },
    node: { type: 'string', default: process.execPath },
    'cpu-prof': { type: 'string' },
    baseline: { type: 'string' },
    out: { type: 'string', default: join(resultsDir, 'latest.json') },
    help: { type: 'boolean', short: 'h' },
  },
});

if (args.help) {
  process.stdout.write(
    [
      'usage: node bench/run.mjs [--quick] [--only A,B,C,D] [--frameworks enclave,fastify,hono,koa,express]',
      '                          [--rounds 3] [--duration 3] [--warmup 1] [-c 100] [-p 10]',
      '                          [--node /path/to/node] [--cpu-prof enclave] [--baseline <git ref>] [--out file.json]',
      '',
    ].join('\n'),
  );
  process.exit(0);
}

function list(value, allowed, what) {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const item of items) if (!allowed.includes(item)) throw new Error(`unknown ${what} "${item}" (one of ${allowed.join(', ')})`);
  return items;
}

const quick = args.quick;
const options = {
  rounds: Number(args.rounds ?? (quick ? 1 : 3)),
  duration: Number(args.duration ?? (quick ? 2 : 3)),
  warmup: Number(args.warmup ?? (quick ? 0.5 : 1)),
  connections: Number(args.connections),
  pipelining: Number(args.pipelining),
  scenarios: args.only ? list(args.only.toUpperCase(), scenarioNames, 'scenario') : scenarioNames,
  // raw is the yardstick: always there, never listed.
  frameworks: (args.frameworks ? list(args.frameworks, frameworkNames, 'framework') : quick ? ['enclave', 'fastify'] : frameworkNames).filter(
    (name) => name !== 'raw',
  ),
  nodePath: resolve(args.node),
  cpuProf: args['cpu-prof'] ? list(args['cpu-prof'], frameworkNames, 'framework') : [],
  baseline: null,
};
if (args.baseline) {
  // Started server processes inherit the environment: that is how they find the baseline build.
  const { commit, entry } = buildBaseline(args.baseline, resultsDir, (line) => process.stderr.write(`${line}\n`));
  process.env.BENCH_ENCLAVE_BASELINE = entry;
  options.baseline = { ref: args.baseline, commit };
  options.frameworks.push('enclave-baseline');
}

const serverNode = nodeVersion(options.nodePath);
const cpuModel = os.cpus()[0]?.model ?? 'unknown CPU';
const machine = `${os.platform()} ${os.arch()}, ${os.availableParallelism?.() ?? os.cpus().length} CPUs (${cpuModel.trim()})`;
const loadLine = `autocannon -c ${options.connections} -p ${options.pipelining}, ${options.duration} s runs after a ${options.warmup} s warm-up, ${options.rounds} round(s)`;
const profileDir = join(resultsDir, 'profiles');

const log = (line) => process.stderr.write(`${line}\n`);

const runsPerRound = options.scenarios.length * options.frameworks.length * 2;
const totalRuns = runsPerRound * options.rounds;
const estimate = options.rounds * options.scenarios.length * (options.warmup + options.frameworks.length * (2 * options.duration + options.warmup + 2.2));
log(`enclave bench — servers on ${serverNode} (${options.nodePath}) with ${SERVER_FLAGS.join(' ')}; ${loadLine}`);
log(`scenarios ${options.scenarios.join(',')}; frameworks raw + ${options.frameworks.join(',')}; ${totalRuns} runs, about ${Math.ceil(estimate / 60)} min`);
if (options.cpuProf.length > 0) {
  ensureResultsDir();
  mkdirSync(profileDir, { recursive: true });
  log(`profiling ${options.cpuProf.join(',')} into ${profileDir} — their numbers are skewed by the profiler`);
}

const worker = startLoadWorker();
const results = Object.fromEntries(options.scenarios.map((name) => [name, []]));
const started = Date.now();
let done = 0;

function progress(round, scenario, framework, result) {
  done++;
  const elapsed = (Date.now() - started) / 1000;
  const left = (elapsed / done) * (totalRuns - done);
  const warn =
    result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 ? `  ⚠ ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` : '';
  log(
    `[${String(done).padStart(String(totalRuns).length)}/${totalRuns}] round ${round} ${scenario} ${framework.padEnd(7)} ` +
      `${formatNumber(result.rps).padStart(8)} req/s  p99 ${result.p99} ms${warn}  (~${Math.ceil(left)} s left)`,
  );
}

async function measure(server, scenario, warmup) {
  return worker.run({
    port: server.port,
    pid: server.pid,
    request: scenarios[scenario].request,
    connections: options.connections,
    pipelining: options.pipelining,
    duration: options.duration,
    warmup,
  });
}

function profileFlags(framework, scenario, round) {
  if (!options.cpuProf.includes(framework)) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${framework}-${scenario}-round${round}.cpuprofile`];
}

async function runPair(round, scenario, raw, framework, rawWarmup) {
  const rawResult = await measure(raw, scenario, rawWarmup);
  progress(round, scenario, 'raw', rawResult);
  let server;
  try {
    server = await startServer({
      nodePath: options.nodePath,
      framework,
      scenario,
      extraFlags: profileFlags(framework, scenario, round),
    });
    const result = await measure(server, scenario, options.warmup);
    progress(round, scenario, framework, result);
    results[scenario].push({
      round,
      framework,
      raw: rawResult,
      result,
      ratio: result.rps / rawResult.rps,
      cpuRatio: result.requestsPerCpuSecond / rawResult.requestsPerCpuSecond,
    });
  } catch (err) {
    done++;
    log(`  ✖ ${framework}/${scenario} round ${round}: ${err.message}`);
    results[scenario].push({ round, framework, raw: rawResult, error: err.message });
  } finally {
    await server?.stop();
  }
}

try {
  for (let round = 1; round <= options.rounds; round++) {
    // Rotate the framework order each round so no framework always runs first or last.
    const shift = (round - 1) % options.frameworks.length;
    const order = [...options.frameworks.slice(shift), ...options.frameworks.slice(0, shift)];
    for (const scenario of options.scenarios) {
      // One raw server per scenario and round, warmed once, measured before every framework.
      const raw = await startServer({
        nodePath: options.nodePath,
        framework: 'raw',
        scenario,
        extraFlags: profileFlags('raw', scenario, round),
      });
      try {
        for (const [index, framework] of order.entries()) {
          await runPair(round, scenario, raw, framework, index === 0 ? options.warmup : 0);
        }
      } finally {
        await raw.stop();
      }
    }
  }
} finally {
  await worker.stop();
}

// ─── report ────────────────────────────────────────────────────────────────────────────────

function summarize(scenario) {
  const runs = results[scenario];
  const rawRuns = runs.map((run) => run.raw);
  const rows = [
    {
      framework: 'raw',
      rps: median(rawRuns.map((run) => run.rps)),
      p50: median(rawRuns.map((run) => run.p50)),
      p99: median(rawRuns.map((run) => run.p99)),
      ratio: 1,
      ratios: [],
      perCpu: median(rawRuns.map((run) => run.requestsPerCpuSecond ?? Number.NaN)),
      cpuRatio: 1,
      failures: rawRuns.filter((run) => run.non2xx > 0 || run.errors > 0 || run.timeouts > 0).length,
      errors: 0,
    },
  ];
  for (const framework of options.frameworks) {
    const mine = runs.filter((run) => run.framework === framework);
    const ok = mine.filter((run) => run.result);
    rows.push({
      framework,
      rps: median(ok.map((run) => run.result.rps)),
      p50: median(ok.map((run) => run.result.p50)),
      p99: median(ok.map((run) => run.result.p99)),
      ratio: median(ok.map((run) => run.ratio)),
      ratios: ok.map((run) => run.ratio),
      perCpu: median(ok.map((run) => run.result.requestsPerCpuSecond ?? Number.NaN)),
      cpuRatio: median(ok.map((run) => run.cpuRatio ?? Number.NaN)),
      failures: ok.filter((run) => run.result.non2xx > 0 || run.result.errors > 0 || run.result.timeouts > 0).length,
      errors: mine.length - ok.length,
    });
  }
  const fastify = rows.find((row) => row.framework === 'fastify');
  for (const row of rows) {
    row.vsFastify = fastify ? row.ratio / fastify.ratio : Number.NaN;
    row.cpuVsFastify = fastify ? row.cpuRatio / fastify.cpuRatio : Number.NaN;
  }
  return rows;
}

const labels = {
  raw: 'raw node:http',
  enclave: 'Enclave',
  fastify: 'Fastify 5',
  hono: 'Hono (node-server)',
  koa: 'Koa + @koa/router',
  express: 'Express 5',
  'enclave-baseline': options.baseline ? `Enclave at ${baselineName(options.baseline)}` : '',
};

function baselineName({ ref, commit }) {
  return commit.startsWith(ref) ? commit.slice(0, 7) : `${ref} (${commit.slice(0, 7)})`;
}

/** Per round, Enclave's ratio to raw divided by the baseline build's: before/after in one round. */
function againstBaseline(scenario, key) {
  const runs = results[scenario].filter((run) => run.result);
  const perRound = [];
  for (const run of runs.filter((candidate) => candidate.framework === 'enclave')) {
    const before = runs.find((candidate) => candidate.framework === 'enclave-baseline' && candidate.round === run.round);
    if (before) perRound.push(run[key] / before[key]);
  }
  return perRound;
}
const header = `Node ${serverNode}, server flags \`${SERVER_FLAGS.join(' ')}\`; ${loadLine}; ${machine}`;
const summaries = {};
const out = [`# Enclave load benchmark — ${new Date().toISOString()}`, '', header, ''];
for (const scenario of options.scenarios) {
  const rows = summarize(scenario);
  summaries[scenario] = rows;
  const hasFastify = options.frameworks.includes('fastify');
  const table = markdownTable(
    [
      'framework',
      'req/s',
      'p50 ms',
      'p99 ms',
      '× raw (median of pairs)',
      'pair ratios',
      ...(hasFastify ? ['× Fastify'] : []),
      'req/CPU-s',
      '× raw per CPU-s',
      ...(hasFastify ? ['× Fastify per CPU-s'] : []),
    ],
    rows.map((row) => [
      `${labels[row.framework]}${row.failures > 0 ? ' ⚠' : ''}${row.errors > 0 ? ` (${row.errors} failed)` : ''}`,
      formatNumber(row.rps),
      formatNumber(row.p50, 1),
      formatNumber(row.p99, 1),
      formatRatio(row.ratio),
      row.ratios.map((ratio) => ratio.toFixed(2)).join(' '),
      ...(hasFastify ? [formatRatio(row.vsFastify)] : []),
      formatNumber(row.perCpu),
      formatRatio(row.cpuRatio),
      ...(hasFastify ? [formatRatio(row.cpuVsFastify)] : []),
    ]),
  );
  out.push(`## ${scenario} — ${scenarios[scenario].title}`, '', table, '');
  if (options.baseline) {
    const rps = againstBaseline(scenario, 'ratio');
    const cpu = againstBaseline(scenario, 'cpuRatio');
    const rounds = (values) => values.map((value) => value.toFixed(2)).join(' ');
    out.push(
      `Enclave ÷ ${labels['enclave-baseline']}, each against the raw run paired with it, per round: ` +
        `req/s ${formatRatio(median(rps))} (${rounds(rps)}), per CPU-s ${formatRatio(median(cpu))} (${rounds(cpu)}).`,
      '',
    );
  }
  if (rows.some((row) => row.failures > 0)) out.push('⚠ = some run saw non-2xx responses, socket errors or timeouts: its req/s is not comparable.', '');
}
out.push(
  "req/s, p50 and p99 are medians over rounds; × raw is the median of each run divided by the raw node:http run just before it; × Fastify divides that by Fastify's. " +
    'req/CPU-s is requests served per CPU-second the server process used during the measured run (from /proc): the cost per request, robust to the server getting less than a full core on a shared machine; its ratios are pair medians too.',
);
process.stdout.write(`${out.join('\n')}\n`);

ensureResultsDir();
writeFileSync(
  args.out,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      serverNode,
      serverNodePath: options.nodePath,
      harnessNode: process.version,
      serverFlags: SERVER_FLAGS,
      machine,
      options,
      summaries,
      runs: results,
    },
    null,
    2,
  )}\n`,
);
log(`results written to ${args.out} (${Math.round((Date.now() - started) / 1000)} s)`);
