#!/usr/bin/env node
// npm run test:compat: Fastify's own test files against Enclave, gated by compat/baseline.json.
// Usage and options: compat/README.md.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBaseline, categories, compare, loadRules } from './lib/baseline.mjs';
import { listFiles, runFiles } from './lib/execute.mjs';
import { ceilingJson, mergeRuns, outcomes } from './lib/outcomes.mjs';
import { ajvResolution, fastifyVersion, prepare, root, workDir } from './lib/scratch.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    target: { type: 'string', default: 'enclave' },
    files: { type: 'string' },
    update: { type: 'boolean', default: false },
    recategorize: { type: 'boolean', default: false },
    runs: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    'test-timeout': { type: 'string', default: '6000' },
    'file-timeout': { type: 'string', default: '180000' },
    verbose: { type: 'boolean', short: 'v', default: false },
    quiet: { type: 'boolean', short: 'q', default: false },
  },
});

const paths = {
  baseline: join(root, 'compat', 'baseline.json'),
  ceiling: join(root, 'compat', 'ceiling.json'),
  rules: join(root, 'compat', 'categories.json'),
};
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`);

const target = values.target;
const dir = prepare(target);
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const ajv = ajvResolution(dir);
// ajv-i18n only holds message tables; the others must load the Ajv enclavejs validates with.
const ajvCopies = new Set(Object.entries(ajv).filter(([k]) => k !== 'ajv-i18n').map(([, v]) => v));
if (ajvCopies.size !== 1) {
  console.error('Ajv resolves to different copies:', ajv);
  process.exit(1);
}

const all = listFiles(dir);
const wanted = [...(values.files?.split(',') ?? []), ...positionals].map((f) => f.trim().replace(/^test\//, '')).filter(Boolean);
// A name matches the file with that path or base name, with or without .test.js; `dir/` matches a folder; `*` is a wildcard.
const matches = (file, pattern) => {
  if (pattern.endsWith('/')) return file.startsWith(pattern);
  const re = new RegExp(`(^|/)${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
  return re.test(file) || re.test(file.replace(/\.test\.m?js$/, ''));
};
const files = wanted.length ? all.filter((file) => wanted.some((pattern) => matches(file, pattern))) : all;
if (files.length === 0) {
  console.error(`no test file matches ${wanted.join(', ')}`);
  process.exit(1);
}
if (values.update && wanted.length) {
  console.error('--update rewrites the whole baseline: run it without a file list');
  process.exit(1);
}

const runOptions = {
  concurrency: Number(values.concurrency),
  testTimeout: Number(values['test-timeout']),
  fileTimeout: Number(values['file-timeout']),
};

function progress(label) {
  return (done, total, file, outcome) => {
    if (values.quiet) return;
    const tests = Object.values(outcome.tests);
    const failed = tests.filter((t) => t.status === 'fail').length;
    const passed = tests.filter((t) => t.status === 'pass').length;
    const note = outcome.note ? `  (${outcome.note})` : '';
    console.log(`${label}[${done}/${total}] ${file}: ${passed} pass, ${failed} fail, ${outcome.ms} ms${note}`);
    if (values.verbose) {
      for (const [name, test] of Object.entries(outcome.tests)) {
        if (test.status === 'fail') console.log(`    ✖ ${name}  [${test.kind}] ${test.reason}`);
      }
    }
  };
}

const meta = { fastify: fastifyVersion(), node: process.version };
const runs = Number(values.runs ?? (values.update ? 2 : 1));
console.log(`compat: ${files.length} test files of Fastify ${meta.fastify} against ${target}, Node ${process.version}, ${runs} run(s)`);
console.log(`ajv: enclavejs, the tests, ajv-errors, ajv-formats and ajv-merge-patch all load ${[...ajvCopies][0].replace(`${root}/`, '')}`);
const started = Date.now();
const lastPath = join(workDir, `last-${target}.json`);
let results = [];
if (values.recategorize) {
  // Rebuild the baseline from the runs of the last --update, after editing categories.json.
  results = readJson(lastPath).runs;
  values.update = true;
} else {
  for (let i = 0; i < runs; i++) {
    results.push(await runFiles(dir, files, { ...runOptions, progress: progress(runs > 1 ? `run ${i + 1} ` : '') }));
  }
}
const seconds = Math.round((Date.now() - started) / 100) / 10;
mkdirSync(workDir, { recursive: true });
if (!values.recategorize) writeJson(lastPath, { target, ...meta, seconds, runs: results });

function printTotals(totals) {
  const line = categories.map((c) => `${c} ${totals[c]}`).join(', ');
  console.log(`\ncompat totals: ${totals.files} files, ${totals.tests} tests, ceiling ${totals.ceiling}, passing ${totals.passing}`);
  console.log(`not passing by category: ${line}${totals.skipped ? ` (skipped by the tests themselves: ${totals.skipped})` : ''}`);
}

if (target === 'fastify') {
  const merged = mergeRuns(results);
  let pass = 0;
  let fail = 0;
  for (const { tests } of merged.values()) for (const t of tests.values()) t.status === 'pass' ? pass++ : t.status !== 'skip' && fail++;
  console.log(`\nceiling: ${files.length} files, ${pass} tests passing on Fastify, ${fail} not, in ${seconds} s`);
  if (values.update) {
    writeJson(paths.ceiling, ceilingJson(merged, meta));
    console.log(`wrote ${paths.ceiling}`);
  }
  process.exit(0);
}

if (values.update) {
  const ceiling = readJson(paths.ceiling);
  const merged = mergeRuns(results);
  const { baseline, uncategorized } = buildBaseline(merged, ceiling, loadRules(paths.rules), meta);
  if (uncategorized.length) {
    writeFileSync(join(workDir, 'uncategorized.txt'), `${uncategorized.join('\n')}\n`);
    console.error(`\n${uncategorized.length} failing tests match no rule in compat/categories.json (listed in compat/.work/uncategorized.txt):`);
    for (const line of uncategorized.slice(0, 50)) console.error(`  ${line}`);
    console.error('baseline NOT written');
    process.exit(1);
  }
  writeJson(paths.baseline, baseline);
  await import('./report.mjs');
  printTotals(baseline.totals);
  console.log(`wrote ${paths.baseline} (${runs} runs in ${seconds} s)`);
  process.exit(0);
}

// The gate.
if (!existsSync(paths.baseline)) {
  console.error('compat/baseline.json is missing: run npm run test:compat -- --update');
  process.exit(1);
}
const baseline = readJson(paths.baseline);
let current = outcomes(results[0]);
let { regressions, newlyPassing } = compare(current, baseline, files);
const retried = [...new Set(regressions.map((r) => r.file))];
let flakyNow = [];
if (retried.length) {
  // A regression must repeat to count: a test that passes when its file runs again is reported
  // as flaky here (add it to the baseline's flaky list if it keeps happening) instead of failing CI.
  console.log(`\nre-running ${retried.length} file(s) with unexpected failures: ${retried.join(', ')}`);
  const again = outcomes(await runFiles(dir, retried, { ...runOptions, progress: progress('retry ') }));
  const second = compare(again, baseline, retried);
  const key = (r) => `${r.file} :: ${r.name}`;
  const repeated = new Set(second.regressions.map(key));
  flakyNow = regressions.filter((r) => !repeated.has(key(r)));
  regressions = regressions.filter((r) => repeated.has(key(r)));
  current = new Map([...current, ...again]);
  ({ newlyPassing } = compare(current, baseline, files));
}

const inScope = (file) => files.includes(file);
const totals = { files: files.length, tests: 0, ceiling: 0, passing: 0, skipped: 0 };
for (const c of categories) totals[c] = 0;
for (const file of files) {
  for (const test of current.get(file)?.tests.values() ?? []) if (test.status === 'pass') totals.passing++;
  for (const entry of Object.values(baseline.failing[file] ?? {})) totals[entry.category]++;
}
const ceiling = existsSync(paths.ceiling) ? readJson(paths.ceiling) : { files: {} };
for (const file of files) totals.ceiling += ceiling.files[file]?.pass.length ?? 0;
totals.tests = totals.passing + categories.reduce((sum, c) => sum + totals[c], 0) + regressions.filter((r) => r.name !== '(file)').length;
if (values.verbose || wanted.length) {
  for (const file of files.filter(inScope)) {
    for (const [name, entry] of Object.entries(baseline.failing[file] ?? {})) {
      if (current.get(file)?.tests.get(name)?.status !== 'pass') console.log(`  known  ${file} :: ${name}  — ${entry.category} (${entry.ref}) ${entry.reason}`);
    }
  }
}
printTotals(totals);
console.log(`wall time ${seconds} s`);
for (const r of flakyNow) console.log(`flaky: ${r.file} :: ${r.name} failed (${r.reason}) then passed on a second run`);
if (newlyPassing.length) {
  console.log(`\n${newlyPassing.length} test(s) the baseline lists as failing now pass: run npm run test:compat -- --update`);
  for (const n of newlyPassing) console.log(`  now passing: ${n.file} :: ${n.name} (was ${n.category})`);
}
if (regressions.length) {
  console.error(`\ncompat gate FAILED: ${regressions.length} test(s) that the baseline records as passing do not pass:`);
  for (const r of regressions) console.error(`  ✖ ${r.file} :: ${r.name}\n      ${r.reason}`);
  process.exit(1);
}
console.log('\ncompat gate: ok, every test the baseline records as passing still passes');
