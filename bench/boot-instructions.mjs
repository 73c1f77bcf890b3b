// `npm run bench:boot-instructions`: the instructions a boot executes, counted by valgrind's
// cachegrind instead of timed, so that the load on a shared machine cannot move the figure. Each
// cell runs lib/boot-app.mjs (the boot benchmark's app) twice in fresh processes under valgrind,
// once with --routes routes and once with one route; the difference is what the extra routes
// cost from the factory call to ready() (Node start-up, imports and the checking request cancel).
// `--floor` adds lib/boot-compilers.mjs, the schema compilers' own work for the same schemas:
// what Enclave's boot would cost if its own code cost nothing. `--cache-modes cold,warm` adds
// Enclave with its schema cache (issue 29): cold on an empty directory, warm on one two earlier
// boots filled (the bundle and V8's code cache, made under the same flags). See bench/README.md.
//
//   npm run bench:boot-instructions
//   npm run bench:boot-instructions -- --variants distinct,shared-ref --repeats 3 --floor
//   npm run bench:boot-instructions -- --cache-modes cold,warm
//   npm run bench:boot-instructions -- --cache-modes cold,warm --to-ready
//
// By default a process runs on after ready(): a forced GC, one request, close() (what a boot
// leaves for later is counted). `--to-ready` ends each process as ready() resolves: the count
// then stands for what the boot benchmark times (app building start → ready() resolved).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nodeVersion, SERVER_FLAGS } from './lib/processes.mjs';
import { formatNumber, formatRatio, markdownTable, median } from './lib/stats.mjs';

const { values: args } = parseArgs({
  options: {
    variants: { type: 'string', default: 'distinct' },
    routes: { type: 'string', default: '1000' },
    repeats: { type: 'string', default: '2' },
    floor: { type: 'boolean', default: false },
    'cache-modes': { type: 'string', default: '' },
    'to-ready': { type: 'boolean', default: false },
    frameworks: { type: 'string', default: 'enclave,fastify' },
    node: { type: 'string', default: process.execPath },
  },
});

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  process.stderr.write('valgrind is not installed. On Debian or Ubuntu: apt-get update && apt-get install -y valgrind\n');
  process.exit(1);
}

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const routes = Number(args.routes);
const repeats = Number(args.repeats);
const variants = args.variants.split(',');
const nodePath = resolve(args.node);
const workDir = mkdtempSync(join(os.tmpdir(), 'enclave-boot-ir-'));
const log = (line) => process.stderr.write(`${line}\n`);

// Helper-thread work (V8's concurrent compilers, GC helpers) on the main thread, a fixed hash
// seed and no memory reducer: two runs then count within 0.2% of each other. V8's tiering is
// left at its defaults (unlike bench:instructions): warming up the schema compilers' code is
// part of what a boot costs.
const flags = ['--expose-gc', ...SERVER_FLAGS, '--single-threaded', '--hash-seed=1', '--random-seed=1', '--no-memory-reducer'];

const cacheModes = args['cache-modes'].split(',').filter((mode) => mode === 'cold' || mode === 'warm');

// The environment of a process: no schema cache, or the directory given.
function environment(cacheDir, toReady = args['to-ready']) {
  const env = { ...process.env };
  delete env.ENCLAVE_SCHEMA_CACHE;
  delete env.BOOT_EXIT_AT_READY;
  if (toReady) env.BOOT_EXIT_AT_READY = '1';
  if (cacheDir !== undefined) env.ENCLAVE_SCHEMA_CACHE = cacheDir;
  return env;
}

/** Total instructions of one `node <script> …args` process under cachegrind. */
function count(script, scriptArgs, cacheDir) {
  const file = join(workDir, 'cachegrind.out');
  const run = spawnSync(
    'valgrind',
    ['--quiet', '--tool=cachegrind', '--cache-sim=no', '--smc-check=all-non-file', `--cachegrind-out-file=${file}`, nodePath, ...flags, script, ...scriptArgs],
    { cwd: benchDir, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: environment(cacheDir) },
  );
  // Valgrind notes the host's cache geometry even with --cache-sim=no; anything else is shown.
  const messages = run.stderr.split('\n').filter((line) => line !== '' && !/warning: .*(L3 cache|LL cache)/.test(line));
  if (messages.length > 0) log(messages.join('\n'));
  if (run.status !== 0) throw new Error(`${script} ${scriptArgs.join(' ')} exited with ${run.status}`);
  const total = Number(/^summary:\s+(\d+)/m.exec(readFileSync(file, 'utf8'))?.[1]);
  rmSync(file);
  return total;
}

/** Instructions of `routes − 1` routes: the difference between a run with all and one with one. */
function extraRoutes(script, argsFor, cacheDirFor = () => undefined) {
  return count(script, argsFor(routes), cacheDirFor(routes)) - count(script, argsFor(1), cacheDirFor(1));
}

// A cache directory per process for the cold mode (empty); for the warm mode, one per route count
// filled by two plain boots under the same flags (V8's code cache is per flag set).
let cacheDirs = 0;
function cacheDirFor(mode, variant) {
  return (routeCount) => {
    const dir = join(workDir, `cache-${++cacheDirs}`);
    if (mode === 'warm') {
      mkdirSync(dir);
      for (let boot = 0; boot < 2; boot++) {
        const run = spawnSync(nodePath, [...flags, join(benchDir, 'lib', 'boot-app.mjs'), 'enclave', variant, String(routeCount)], {
          cwd: benchDir,
          stdio: 'ignore',
          // Filling boots run to the end: the cache is written after ready().
          env: environment(dir, false),
        });
        if (run.status !== 0) throw new Error(`filling the cache for ${variant} exited with ${run.status}`);
      }
    }
    return dir;
  };
}

const started = Date.now();
const cells = {}; // cells[variant][framework] = [instructions]
for (let repeat = 1; repeat <= repeats; repeat++) {
  for (const variant of variants) {
    cells[variant] ??= {};
    for (const framework of args.frameworks.split(',').filter((name) => name === 'enclave' || name === 'fastify')) {
      const instructions = extraRoutes(join(benchDir, 'lib', 'boot-app.mjs'), (n) => [framework, variant, String(n)]);
      (cells[variant][framework] ??= []).push(instructions);
      log(`[${Math.round((Date.now() - started) / 1000)} s] repeat ${repeat} ${variant} ${framework}: ${formatNumber(instructions / 1e6)} M instructions`);
    }
    for (const mode of cacheModes) {
      const cell = `${variant}, ${mode} cache`;
      const instructions = extraRoutes(join(benchDir, 'lib', 'boot-app.mjs'), (n) => ['enclave', variant, String(n)], cacheDirFor(mode, variant));
      cells[cell] ??= {};
      (cells[cell].enclave ??= []).push(instructions);
      log(`[${Math.round((Date.now() - started) / 1000)} s] repeat ${repeat} ${cell}: ${formatNumber(instructions / 1e6)} M instructions`);
    }
  }
  if (args.floor && variants.includes('distinct')) {
    const instructions = extraRoutes(join(benchDir, 'lib', 'boot-compilers.mjs'), (n) => [String(n)]);
    (cells['distinct, compilers alone'] ??= {}).enclave = [...(cells['distinct, compilers alone']?.enclave ?? []), instructions];
    log(`[${Math.round((Date.now() - started) / 1000)} s] repeat ${repeat} compilers alone: ${formatNumber(instructions / 1e6)} M instructions`);
  }
}
rmSync(workDir, { recursive: true, force: true });

const spread = (values) => `±${formatNumber(((Math.max(...values) - Math.min(...values)) / 2 / median(values)) * 100, 1)}%`;
// A cache cell ("distinct, warm cache") is compared with Fastify's boot of the same variant.
const fastifyOf = (variant) => cells[variant].fastify ?? cells[variant.split(',')[0]]?.fastify ?? cells.distinct?.fastify;
// With --frameworks leaving one out, a cell may lack it: its column says so.
const rows = Object.keys(cells).map((variant) => {
  const enclave = cells[variant].enclave;
  const fastify = fastifyOf(variant);
  return [
    variant,
    enclave ? `${formatNumber(median(enclave) / 1e6)} M (${spread(enclave)})` : '—',
    cells[variant].fastify ? `${formatNumber(median(fastify) / 1e6)} M (${spread(fastify)})` : fastify ? `(${variant.split(',')[0]}’s)` : '—',
    enclave && fastify ? formatRatio(median(enclave) / median(fastify)) : '—',
  ];
});
process.stdout.write(
  `Node ${nodeVersion(nodePath)}, flags \`${flags.join(' ')}\`; instructions of ${routes - 1} routes ` +
    `${args['to-ready'] ? 'to ready() resolved ' : 'to the process end '}` +
    `(${routes} routes − 1 route, fresh processes), median of ${repeats}; ${((Date.now() - started) / 60_000).toFixed(1)} min\n\n` +
    `${markdownTable(['variant', 'Enclave', 'Fastify', 'Enclave ÷ Fastify'], rows)}\n`,
);
