// `npm run bench:boot`: 1,000 POST routes with body and response schemas, in fresh processes,
// Enclave beside Fastify, in three variants — a distinct schema per route, every route `$ref`-ing
// one shared schema added with addSchema(), and every route reusing the identical schema object —
// and Enclave without its schema cache, with an empty one (cold) and a filled one (warm).
// Reports medians of: app building start → ready() resolved, process start → ready(), RSS after
// ready(), heap used after a forced GC. Progress on stderr, the table on stdout, the JSON in
// bench/.results/boot-latest.json.
//
//   npm run bench:boot
//   npm run bench:boot -- --runs 7 --routes 1000 --variants distinct,shared-ref --node /path/to/node
//   npm run bench:boot -- --cache-modes cold,first,warm   (first: the boot that writes V8's code cache)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const allCacheModes = ['cold', 'first', 'warm'];

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    routes: { type: 'string', default: '1000' },
    variants: { type: 'string', default: allVariants.join(',') },
    frameworks: { type: 'string', default: 'enclave,fastify' },
    'cache-modes': { type: 'string', default: 'cold,warm' },
    node: { type: 'string', default: process.execPath },
    out: { type: 'string', default: join(resultsDir, 'boot-latest.json') },
  },
});

const runs = Math.max(1, Number(args.runs));
const routes = Number(args.routes);
const variants = args.variants.split(',').filter((name) => allVariants.includes(name));
const frameworks = args.frameworks.split(',').filter((name) => name === 'enclave' || name === 'fastify');
const cacheModes = args['cache-modes'].split(',').filter((name) => allCacheModes.includes(name));
const nodePath = resolve(args.node);
const flags = ['--expose-gc', ...SERVER_FLAGS];
const serverNode = nodeVersion(nodePath);
const log = (line) => process.stderr.write(`${line}\n`);

// A cell is a framework, or Enclave with its schema cache in one state (issue 29):
//   enclave        no cache (ENCLAVE_SCHEMA_CACHE unset)
//   enclave-cold   an empty cache directory per process: compiles everything and writes the cache
//   enclave-first  a directory one cold boot filled: loads the compiled code, writes V8's code cache
//   enclave-warm   a directory two boots filled (compiled code and V8's code cache): the steady state
const cells = [
  ...(frameworks.includes('enclave') ? ['enclave', ...cacheModes.map((mode) => `enclave-${mode}`)] : []),
  ...(frameworks.includes('fastify') ? ['fastify'] : []),
];
const cacheRoot = mkdtempSync(join(os.tmpdir(), 'enclave-boot-cache-'));

function bootOnce(cell, variant, cacheDir) {
  return new Promise((resolvePromise, reject) => {
    const env = { ...process.env };
    delete env.ENCLAVE_SCHEMA_CACHE;
    if (cacheDir !== undefined) env.ENCLAVE_SCHEMA_CACHE = cacheDir;
    const framework = cell === 'fastify' ? 'fastify' : 'enclave';
    const child = spawn(nodePath, [...flags, bootApp, framework, variant, String(routes)], {
      cwd: benchDir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${cell}/${variant} exited with ${code}`));
      else resolvePromise({ ...JSON.parse(output.trim().split('\n').pop()), cell });
    });
  });
}

// The directory a cell's process boots from, prepared (untimed) by the boots that fill it.
async function cacheDirFor(cell, variant, run) {
  if (cell === 'enclave' || cell === 'fastify') return undefined;
  if (cell === 'enclave-warm') {
    const dir = join(cacheRoot, `warm-${variant}`);
    if (!existsSync(dir)) {
      await bootOnce('enclave', variant, dir);
      await bootOnce('enclave', variant, dir);
    }
    return dir;
  }
  const dir = join(cacheRoot, `${cell}-${variant}-${run}`);
  if (cell === 'enclave-first') await bootOnce('enclave', variant, dir);
  return dir;
}

log(`enclave boot bench — ${serverNode}, ${flags.join(' ')}; ${routes} routes; ${runs} fresh processes per cell; cells ${cells.join(', ')}`);
const samples = [];
const started = Date.now();
try {
  // Interleave cells and variants run by run, so slow drift on a shared machine spreads over
  // every cell instead of landing on one.
  for (let run = 1; run <= runs; run++) {
    for (const variant of variants) {
      for (const cell of cells) {
        const sample = await bootOnce(cell, variant, await cacheDirFor(cell, variant, run));
        samples.push({ run, ...sample });
        log(
          `run ${run}/${runs} ${variant.padEnd(11)} ${cell.padEnd(13)} ready in ${formatNumber(sample.buildToReadyMs)} ms, ` +
            `RSS ${formatNumber(sample.rss / 2 ** 20, 1)} MB, heap ${formatNumber(sample.heapUsed / 2 ** 20, 1)} MB`,
        );
      }
    }
  }
} finally {
  rmSync(cacheRoot, { recursive: true, force: true });
}

const of = (cell, variant) => samples.filter((sample) => sample.cell === cell && sample.variant === variant);
const cellMedian = (cell, variant, key) => median(of(cell, variant).map((sample) => sample[key]));

// Ratios pair each process with the other cell's process of the same run and variant (seconds
// apart), and take the median of those ratios.
const pairedRatio = (cell, peer, variant, key) =>
  median(
    of(cell, variant)
      .map((sample) => {
        const other = of(peer, variant).find((candidate) => candidate.run === sample.run);
        return other === undefined ? Number.NaN : sample[key] / other[key];
      })
      .filter(Number.isFinite),
  );

const labels = {
  distinct: 'distinct schemas',
  'shared-ref': 'shared $ref (addSchema)',
  'same-object': 'identical object',
};
const cellLabels = {
  enclave: 'Enclave, no cache',
  'enclave-cold': 'Enclave, cold cache',
  'enclave-first': 'Enclave, first warm boot',
  'enclave-warm': 'Enclave, warm cache',
  fastify: 'Fastify',
};
const summary = {};
const rows = [];
const mb = (bytes) => formatNumber(bytes / 2 ** 20, 1);
for (const variant of variants) {
  summary[variant] = {};
  for (const cell of cells) {
    const entry = {
      buildToReadyMs: cellMedian(cell, variant, 'buildToReadyMs'),
      buildToReadyCpuMs: cellMedian(cell, variant, 'buildToReadyCpuMs'),
      processToReadyMs: cellMedian(cell, variant, 'processToReadyMs'),
      rss: cellMedian(cell, variant, 'rss'),
      heapUsed: cellMedian(cell, variant, 'heapUsed'),
      firstInjectMs: cellMedian(cell, variant, 'firstInjectMs'),
      timeVsFastify: pairedRatio(cell, 'fastify', variant, 'buildToReadyMs'),
      cpuVsFastify: pairedRatio(cell, 'fastify', variant, 'buildToReadyCpuMs'),
      rssVsFastify: pairedRatio(cell, 'fastify', variant, 'rss'),
      timeVsNoCache: pairedRatio(cell, 'enclave', variant, 'buildToReadyMs'),
      cpuVsNoCache: pairedRatio(cell, 'enclave', variant, 'buildToReadyCpuMs'),
    };
    summary[variant][cell] = entry;
    rows.push([
      labels[variant],
      cellLabels[cell],
      formatNumber(entry.buildToReadyMs),
      formatRatio(entry.timeVsFastify),
      formatRatio(entry.timeVsNoCache),
      formatNumber(entry.buildToReadyCpuMs),
      formatRatio(entry.cpuVsFastify),
      formatRatio(entry.cpuVsNoCache),
      formatNumber(entry.processToReadyMs),
      mb(entry.rss),
      formatRatio(entry.rssVsFastify),
      mb(entry.heapUsed),
      formatNumber(entry.firstInjectMs, 1),
    ]);
  }
}

const cpuModel = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
const header = `Node ${serverNode}, flags \`${flags.join(' ')}\`; ${routes} POST routes with body + 201 response schemas; median of ${runs} fresh processes; ${os.platform()} ${os.arch()}, ${os.availableParallelism?.() ?? os.cpus().length} CPUs (${cpuModel})`;
const table = markdownTable(
  [
    'variant',
    'boot',
    'ready ms',
    '× Fastify',
    '× no cache',
    'ready CPU ms',
    'CPU × Fastify',
    'CPU × no cache',
    'start→ready ms',
    'RSS MB',
    'RSS × Fastify',
    'heap MB',
    'first request ms',
  ],
  rows,
  [false, false, true, true, true, true, true, true, true, true, true, true, true],
);
process.stdout.write(
  [
    `# Enclave boot benchmark — ${new Date().toISOString()}`,
    '',
    header,
    '',
    table,
    '',
    '"ready ms" runs from the factory call to ready() resolved (the framework is already imported); "ready CPU ms" is the CPU time of all the process\'s threads over the same span (V8 compiles generated code and collects garbage on helper threads, so it can exceed the wall time); "start→ready" from process start, Node start-up and import included; RSS right after ready(); heap used after two forced GCs; "first request" is the first inject() after ready (lazy work shows there). Each × is the median over runs of the ratio to Fastify\'s (or Enclave without a cache\'s) process of the same run. Cache states: cold = an empty directory (everything compiled, the cache written); first warm boot = a directory one cold boot filled (compiled code loaded, V8\'s code cache written); warm = the steady state.',
    '',
  ].join('\n'),
);

ensureResultsDir();
writeFileSync(args.out, `${JSON.stringify({ date: new Date().toISOString(), serverNode, flags, routes, runs, cells, summary, samples }, null, 2)}\n`);
log(`results written to ${args.out} (${Math.round((Date.now() - started) / 1000)} s)`);
