// The instructions an `async` function costs over a plain one when its caller must wait for it
// before calling the next: what scenario D's fifteen async hooks and async handler cost any
// framework, which raw's synchronous hooks do not pay. lib/async-chain.mjs runs chains of
// functions (one chain per event-loop turn, as a request) under valgrind's cachegrind with the
// instruction benchmark's determinism flags; per chain = (I(N2) − I(N1)) / (N2 − N1) from two
// fresh processes, so start-up and warm-up cancel, V8's optimizing compilers left out. Each
// variant's per-chain count minus the synchronous chain's, divided by the chain's length, is
// what one async function and its wait cost. See bench/README.md, "Scenario D: the async floor".
//
//   node bench/async-floor.mjs [--node …/node] [--repeats 3] [--functions 16] [--n1 2000] [--n2 4000]
//                              [--variants sync,then,then-generic,then-closures,await]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readTotals, valgrindCommand } from './lib/cachegrind.mjs';
import { determinismFlags } from './lib/determinism.mjs';
import { nodeVersion, SERVER_FLAGS } from './lib/processes.mjs';
import { formatNumber, markdownTable, median } from './lib/stats.mjs';

const { values: args } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    repeats: { type: 'string', default: '3' },
    functions: { type: 'string', default: '16' },
    n1: { type: 'string', default: '2000' },
    n2: { type: 'string', default: '4000' },
    variants: { type: 'string', default: 'sync,then,then-generic,then-closures,await' },
  },
});

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  process.stderr.write('valgrind is not installed. On Debian or Ubuntu: apt-get update && apt-get install -y valgrind\n');
  process.exit(1);
}

const nodePath = resolve(args.node);
const version = nodeVersion(nodePath);
const flags = [...SERVER_FLAGS, ...determinismFlags(version)];
const script = fileURLToPath(new URL('./lib/async-chain.mjs', import.meta.url));
const variants = args.variants.split(',');
if (variants[0] !== 'sync') variants.unshift('sync');
const functions = Number(args.functions);
const n1 = Number(args.n1);
const n2 = Number(args.n2);
const workDir = mkdtempSync(join(os.tmpdir(), 'enclave-async-floor-'));
const log = (line) => process.stderr.write(`${line}\n`);

/** Instructions (V8's optimizing compilers left out) of one process running `chains` chains. */
function count(variant, chains) {
  const file = join(workDir, 'cachegrind.out');
  const run = spawnSync(valgrindCommand(file)[0], [...valgrindCommand(file).slice(1), nodePath, ...flags, script, variant, String(chains), String(functions)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  // Valgrind notes the host's cache geometry even with --cache-sim=no; anything else is shown.
  const messages = run.stderr.split('\n').filter((line) => line !== '' && !/warning: .*(L3 cache|LL cache)/.test(line));
  if (messages.length > 0) log(messages.join('\n'));
  if (run.status !== 0) throw new Error(`${variant} ${chains} exited with ${run.status}`);
  const { measured } = readTotals(file);
  rmSync(file);
  return measured;
}

const started = Date.now();
const perChain = Object.fromEntries(variants.map((variant) => [variant, []]));
for (let repeat = 1; repeat <= Number(args.repeats); repeat++) {
  for (const variant of variants) {
    const value = (count(variant, n2) - count(variant, n1)) / (n2 - n1);
    perChain[variant].push(value);
    log(`[${Math.round((Date.now() - started) / 1000)} s] repeat ${repeat} ${variant}: ${formatNumber(value)} instructions per chain`);
  }
}
rmSync(workDir, { recursive: true, force: true });

const syncChain = median(perChain.sync);
const range = (values) => `${formatNumber(Math.min(...values))}–${formatNumber(Math.max(...values))}`;
const rows = variants.map((variant) => {
  const chain = median(perChain[variant]);
  const perFunction = (chain - syncChain) / functions;
  return [
    variant,
    formatNumber(chain),
    range(perChain[variant]),
    variant === 'sync' ? '—' : formatNumber(perFunction),
    variant === 'sync' ? '—' : formatNumber(perFunction * functions),
  ];
});
process.stdout.write(
  `Node ${version}, flags \`${flags.join(' ')}\`; chains of ${functions} functions, N1=${n1}, N2=${n2}; ` +
    `median of ${args.repeats} repeats; ${((Date.now() - started) / 60_000).toFixed(1)} min\n\n` +
    `${markdownTable(['variant', 'per chain', 'range', 'per async function over sync', `× ${functions}`], rows)}\n`,
);
