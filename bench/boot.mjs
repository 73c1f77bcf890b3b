// `npm run bench:boot`: 1,000 POST routes with body and response schemas, in fresh processes,
// Enclave beside Fastify, in three variants — a distinct schema per route, every route `$ref`-ing
// one shared schema added with addSchema(), and every route reusing the identical schema object.
// Reports medians of: app building start → ready() resolved, process start → ready(), RSS after
// ready(), heap used after a forced GC. Progress on stderr, the table on stdout, the JSON in
// bench/.results/boot-latest.json.
//
//   npm run bench:boot
//   npm run bench:boot -- --runs 7 --routes 1000 --variants distinct,shared-ref --node /path/to/node
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureResultsDir, nodeVersion, SERVER_FLAGS } from './lib/processes.mjs';
import { formatNumber, formatRatio, markdownTable, median } from './lib/stats.mjs';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const resultsDir = join(benchDir, '.results');
const bootApp = join(benchDir, 'lib', 'boot-app.mjs');
const allVariants = ['distinct', 'shared-ref', 'same-object'];

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    routes: { type: 'string', default: '1000' },
    variants: { type: 'string', default: allVariants.join(',') },
    frameworks: { type: 'string', default: 'enclave,fastify' },
    node: { type: 'string', default: process.execPath },
    out: { type: 'string', default: join(resultsDir, 'boot-latest.json') },
  },
});

const runs = Math.max(1, Number(args.runs));
const routes = Number(args.routes);
const variants = args.variants.split(',').filter((name) => allVariants.includes(name));
const frameworks = args.frameworks.split(',').filter((name) => name === 'enclave' || name === 'fastify');
const nodePath = resolve(args.node);
const flags = ['--expose-gc', ...SERVER_FLAGS];
const serverNode = nodeVersion(nodePath);
const log = (line) => process.stderr.write(`${line}\n`);

function bootOnce(framework, variant) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(nodePath, [...flags, bootApp, framework, variant, String(routes)], {
      cwd: benchDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${framework}/${variant} exited with ${code}`));
      else resolvePromise(JSON.parse(output.trim().split('\n').pop()));
    });
  });
}

log(`enclave boot bench — ${serverNode}, ${flags.join(' ')}; ${routes} routes; ${runs} fresh processes per cell`);
const samples = [];
const started = Date.now();
// Interleave frameworks and variants run by run, so slow drift on a shared machine spreads
// over every cell instead of landing on one.
for (let run = 1; run <= runs; run++) {
  for (const variant of variants) {
    for (const framework of frameworks) {
      const sample = await bootOnce(framework, variant);
      samples.push({ run, ...sample });
      log(
        `run ${run}/${runs} ${variant.padEnd(11)} ${framework.padEnd(7)} ready in ${formatNumber(sample.buildToReadyMs)} ms, ` +
          `RSS ${formatNumber(sample.rss / 2 ** 20, 1)} MB, heap ${formatNumber(sample.heapUsed / 2 ** 20, 1)} MB`,
      );
    }
  }
}

const cell = (framework, variant, key) =>
  median(samples.filter((sample) => sample.framework === framework && sample.variant === variant).map((sample) => sample[key]));

// The CPU ratio pairs each Enclave process with the Fastify process of the same run and variant
// (they ran seconds apart) and takes the median of those ratios, as the load benchmark does.
const pairedCpuRatio = (variant) =>
  median(
    samples
      .filter((sample) => sample.framework === 'enclave' && sample.variant === variant)
      .map((sample) => {
        const peer = samples.find((other) => other.framework === 'fastify' && other.variant === variant && other.run === sample.run);
        return peer === undefined ? Number.NaN : sample.buildToReadyCpuMs / peer.buildToReadyCpuMs;
      })
      .filter(Number.isFinite),
  );

const summary = {};
const rows = [];
const labels = { distinct: 'distinct schemas', 'shared-ref': 'shared $ref (addSchema)', 'same-object': 'identical object' };
for (const variant of variants) {
  const pick = (key) => Object.fromEntries(frameworks.map((framework) => [framework, cell(framework, variant, key)]));
  const entry = {
    buildToReadyMs: pick('buildToReadyMs'),
    buildToReadyCpuMs: pick('buildToReadyCpuMs'),
    cpuRatio: frameworks.length === 2 ? pairedCpuRatio(variant) : null,
    processToReadyMs: pick('processToReadyMs'),
    rss: pick('rss'),
    heapUsed: pick('heapUsed'),
    firstInjectMs: pick('firstInjectMs'),
  };
  summary[variant] = entry;
  const ratio = (values) => values.enclave / values.fastify;
  const mb = (bytes) => formatNumber(bytes / 2 ** 20, 1);
  rows.push([
    labels[variant],
    formatNumber(entry.buildToReadyMs.enclave),
    formatNumber(entry.buildToReadyMs.fastify),
    formatRatio(ratio(entry.buildToReadyMs)),
    formatNumber(entry.buildToReadyCpuMs.enclave),
    formatNumber(entry.buildToReadyCpuMs.fastify),
    formatRatio(entry.cpuRatio),
    formatNumber(entry.processToReadyMs.enclave),
    formatNumber(entry.processToReadyMs.fastify),
    mb(entry.rss.enclave),
    mb(entry.rss.fastify),
    formatRatio(ratio(entry.rss)),
    mb(entry.heapUsed.enclave),
    mb(entry.heapUsed.fastify),
    formatRatio(ratio(entry.heapUsed)),
  ]);
}

const cpuModel = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
const header = `Node ${serverNode}, flags \`${flags.join(' ')}\`; ${routes} POST routes with body + 201 response schemas; median of ${runs} fresh processes; ${os.platform()} ${os.arch()}, ${os.availableParallelism?.() ?? os.cpus().length} CPUs (${cpuModel})`;
const table = markdownTable(
  [
    'variant',
    'Enclave ready ms',
    'Fastify ready ms',
    'time ×',
    'Enclave ready CPU ms',
    'Fastify ready CPU ms',
    'CPU × (pairs)',
    'Enclave start→ready ms',
    'Fastify start→ready ms',
    'Enclave RSS MB',
    'Fastify RSS MB',
    'RSS ×',
    'Enclave heap MB',
    'Fastify heap MB',
    'heap ×',
  ],
  rows,
);
process.stdout.write(
  [
    `# Enclave boot benchmark — ${new Date().toISOString()}`,
    '',
    header,
    '',
    frameworks.length === 2 ? table : '(both frameworks are needed for the table; see the JSON)',
    '',
    '"ready ms" runs from the factory call to ready() resolved (the framework is already imported); "ready CPU ms" is the CPU time of all the process\'s threads over the same span (V8 compiles generated code and collects garbage on helper threads, so it can exceed the wall time), and "CPU × (pairs)" the median over runs of Enclave\'s CPU time divided by Fastify\'s in the same run; "start→ready" from process start, Node start-up and import included; RSS right after ready(); heap used after two forced GCs. × = Enclave / Fastify.',
    '',
  ].join('\n'),
);

ensureResultsDir();
writeFileSync(
  args.out,
  `${JSON.stringify({ date: new Date().toISOString(), serverNode, flags, routes, runs, summary, samples }, null, 2)}\n`,
);
log(`results written to ${args.out} (${Math.round((Date.now() - started) / 1000)} s)`);
