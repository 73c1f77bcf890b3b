// `node bench/cache-load-phases.mjs`: where a warm start's schema-cache load goes, step by step
// (issue 29). Fills a temporary cache directory with two boots of lib/boot-app.mjs (the bundle,
// then V8's code cache), then, in fresh processes under the boot benchmark's flags, repeats what
// the cache does with that bundle at ready(): read and inflate it and its code cache (in one
// piece each, as the cache does), checksum, copy into a string, compile with the code cache, run it,
// load the 2,000 modules. Per step: the main thread's CPU time (Linux schedstat, so time the
// process waited for a CPU is left out) and the process's page faults (minor faults, every
// thread). Medians of --runs processes; Linux only.
//
//   npm run build && node bench/cache-load-phases.mjs --runs 5 --variant distinct
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';
import { SERVER_FLAGS } from './lib/processes.mjs';
import { formatNumber, markdownTable, median } from './lib/stats.mjs';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, variant: { type: 'string', default: 'distinct' }, measure: { type: 'string' } },
});
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const flags = ['--expose-gc', ...SERVER_FLAGS];

if (args.measure === undefined) {
  const directory = mkdtempSync(join(os.tmpdir(), 'enclave-cache-phases-'));
  try {
    const env = { ...process.env, ENCLAVE_SCHEMA_CACHE: directory };
    for (let boot = 0; boot < 2; boot++) execFileSync(process.execPath, [...flags, join(benchDir, 'lib', 'boot-app.mjs'), 'enclave', args.variant], { env });
    const samples = [];
    for (let run = 0; run < Number(args.runs); run++) {
      samples.push(JSON.parse(execFileSync(process.execPath, [...flags, fileURLToPath(import.meta.url), '--measure', directory], { encoding: 'utf8' })));
    }
    const rows = samples[0].map(([step], index) => {
      const at = (column) => median(samples.map((sample) => sample[index][column]));
      return [step, formatNumber(at(1), 1), formatNumber(at(2))];
    });
    process.stdout.write(`${markdownTable(['step', 'main-thread CPU ms', 'page faults'], rows)}\n`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
} else {
  process.stdout.write(`${JSON.stringify(await measure(args.measure))}\n`);
}

// The steps of schema-cache-files.ts' prefetchLatestBundle() and readBundle(), then
// schema-cache.ts' loading of every entry, each timed on its own.
async function measure(directory) {
  const dist = join(benchDir, '..', 'packages', 'enclave', 'dist', 'schema');
  const { inflateAhead } = await import(pathToFileURL(join(dist, 'inflate-ahead.js')).href);
  const { loadModule } = await import(pathToFileURL(join(dist, 'schema-cache-modules.js')).href);
  const name = readFileSync(join(directory, 'latest'), 'latin1').trim();
  const path = join(directory, name);
  const steps = [];
  let last = counters();
  const step = (label) => {
    const now = counters();
    steps.push([label, now.cpu - last.cpu, now.faults - last.faults]);
    last = counters();
  };
  const [file, cache] = await Promise.all([inflateAhead(path), inflateAhead(`${path}.${v8.cachedDataVersionTag().toString(16)}.v8`)]);
  step('read and inflate the bundle and its code cache (thread pool; main waits)');
  const body = file.subarray(file.indexOf(10) + 1);
  crc32(body);
  step('CRC-32 of the bundle');
  const source = body.toString('latin1');
  step('copy into a one-byte string');
  const data = cache.subarray(cache.indexOf(10) + 1);
  crc32(data);
  step('CRC-32 of the code cache');
  const script = new vm.Script(source, { filename: path, lineOffset: 1, cachedData: data });
  if (script.cachedDataRejected === true) throw new Error('V8 refused the code cache: run with the flags that wrote it');
  step('vm.Script with the code cache');
  const entries = script.runInThisContext();
  step('run the bundle (its object literal)');
  for (const entry of Object.values(entries)) {
    if (entry.k !== 'x') loadModule(entry.k === 'v' ? 'validator' : 'serializer', entry.m);
  }
  step(`load its ${Object.keys(entries).length} modules`);
  return steps;
}

function counters() {
  const schedstat = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1');
  const stat = readFileSync('/proc/self/stat', 'latin1');
  return { cpu: Number(schedstat.split(' ')[0]) / 1e6, faults: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]) };
}
