#!/usr/bin/env node
// npm run test:compat-types: Fastify's own type tests (test/types/*.tst.ts, run by tstyche)
// against Enclave's published declarations, gated by compat/types-baseline.json. The type-level
// twin of npm run test:compat; usage and options: compat/README.md.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { compare, loadRules } from './lib/baseline.mjs';
import { conclude, filesToRun, gatePaths, gateTotals, parseGateArgs, printTotals, readJson, writeBaseline, writeJson } from './lib/gate.mjs';
import { ceilingJson, mergeRuns, outcomes } from './lib/outcomes.mjs';
import { fastifyVersion, workDir } from './lib/scratch.mjs';
import { runTypeTests } from './lib/type-run.mjs';
import { listTypeTests, prepareTypes, typeTargets, typescriptVersion } from './lib/type-scratch.mjs';

const args = parseGateArgs();
const { values } = args;
const paths = gatePaths('types-');
const target = values.target;
if (!typeTargets[target]) {
  console.error(`unknown target ${target} (enclave or fastify)`);
  process.exit(1);
}
const { files, wanted } = filesToRun(listTypeTests(), args, { prefix: /^(test\/)?types\//, suffix: /\.tst\.ts$/ });

const { Runner } = await import('tstyche/api');
const meta = { fastify: fastifyVersion(), typescript: typescriptVersion(), tstyche: Runner.version, node: process.version };
const lastPath = join(workDir, `types-last-${target}.json`);
const started = Date.now();
let results;
if (values.recategorize) {
  // Rebuild the baseline from the last full run, after editing types-categories.json.
  if (!existsSync(lastPath)) {
    console.error(`${lastPath} is missing: --recategorize reuses the last full run of --target ${target}`);
    process.exit(1);
  }
  results = readJson(lastPath).results;
  values.update = true;
} else {
  console.log(
    `compat-types: ${files.length} type-test files of Fastify ${meta.fastify} against ${typeTargets[target]}, TypeScript ${meta.typescript}, tstyche ${meta.tstyche}`,
  );
  const dir = prepareTypes(target);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  const progress = (round, count, again) => {
    if (!values.quiet) console.log(`${round}: ${count} file(s), ${again} with stray errors to neutralise, ${Math.round((Date.now() - started) / 1000)} s`);
  };
  // A `declare module 'enclavejs'` block is the same check as Fastify's `declare module 'fastify'`.
  const normalise = (text) => text.replaceAll(`'${typeTargets[target]}'`, "'fastify'");
  results = await runTypeTests(dir, files, { progress, normalise });
  // Only a run of every file can be recategorised later.
  if (wanted.length === 0) {
    mkdirSync(workDir, { recursive: true });
    writeJson(lastPath, { target, ...meta, results });
  }
}
const seconds = Math.round((Date.now() - started) / 1000);

for (const [file, { tests, note }] of Object.entries(results)) {
  const all = Object.values(tests);
  const failed = all.filter((test) => test.status !== 'pass');
  if (!values.quiet) console.log(`${file}: ${all.length - failed.length} pass, ${failed.length} fail${note ? `  (${note})` : ''}`);
  if (values.verbose) for (const [name, test] of Object.entries(tests)) if (test.status !== 'pass') console.log(`    ✖ ${name}  ${test.reason}`);
}
const merged = mergeRuns([results]);

if (target === 'fastify') {
  let pass = 0;
  for (const { tests } of merged.values()) for (const test of tests.values()) if (test.status === 'pass') pass++;
  console.log(`\nceiling: ${files.length} files, ${pass} checks passing on Fastify, in ${seconds} s`);
  if (values.update) {
    writeJson(paths.ceiling, ceilingJson(merged, meta));
    console.log(`wrote ${paths.ceiling}`);
  }
  process.exit(0);
}

if (values.update) {
  const ceiling = readJson(paths.ceiling);
  const baseline = writeBaseline({
    merged,
    ceiling,
    rules: loadRules(paths.rules),
    meta,
    path: paths.baseline,
    rulesName: 'compat/types-categories.json',
    adjust: (draft) => withFastifyReasons(draft, ceiling),
  });
  await import('./report.mjs');
  printTotals('compat-types', baseline.totals, 'checks');
  console.log(`wrote ${paths.baseline} (in ${seconds} s)`);
  process.exit(0);
}

// A check that fails on Fastify too is `internals`; its ref says why it fails there (most often
// a name Fastify's tests import from one of its own modules that Fastify does not export).
function withFastifyReasons(baseline, ceiling) {
  for (const [file, failing] of Object.entries(baseline.failing)) {
    for (const [name, entry] of Object.entries(failing)) {
      const onFastify = ceiling.files[file]?.fail[name];
      if (entry.category === 'internals' && onFastify) entry.ref = `fails on Fastify too: ${onFastify.replace(/^\[\w+\] /, '')}`;
    }
  }
  return baseline;
}

// The gate.
if (!existsSync(paths.baseline)) {
  console.error('compat/types-baseline.json is missing: run npm run test:compat-types -- --update');
  process.exit(1);
}
const baseline = readJson(paths.baseline);
const current = outcomes(results);
const { regressions, newlyPassing } = compare(current, baseline, files, 'compat/types-baseline.json');
const ceiling = existsSync(paths.ceiling) ? readJson(paths.ceiling) : { files: {} };
const totals = gateTotals({ current, baseline, ceiling, files, regressions, listKnown: values.verbose || wanted.length > 0 });
printTotals('compat-types', totals, 'checks');
console.log(`wall time ${seconds} s`);
conclude({ label: 'compat-types', command: 'npm run test:compat-types', regressions, newlyPassing, what: 'check' });
