#!/usr/bin/env node
// npm run test:compat: Fastify's own test files against Enclave, gated by compat/baseline.json.
// Usage and options: compat/README.md.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { compare, loadRules } from './lib/baseline.mjs';
import { listFiles, runFiles } from './lib/execute.mjs';
import { conclude, filesToRun, gatePaths, gateTotals, parseGateArgs, printTotals, readJson, writeBaseline, writeJson } from './lib/gate.mjs';
import { ceilingJson, mergeRuns, outcomes } from './lib/outcomes.mjs';
import { ajvResolution, fastifyVersion, prepare, root, workDir } from './lib/scratch.mjs';

const args = parseGateArgs({
  runs: { type: 'string' },
  concurrency: { type: 'string', default: '2' },
  'test-timeout': { type: 'string', default: '6000' },
  'file-timeout': { type: 'string', default: '180000' },
});
const { values } = args;
const paths = gatePaths('');

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

const { files, wanted } = filesToRun(listFiles(dir), args, { prefix: /^test\//, suffix: /\.test\.m?js$/ });

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
  const rules = loadRules(paths.rules);
  const merged = mergeRuns(results);
  const baseline = writeBaseline({ merged, ceiling: readJson(paths.ceiling), rules, meta, path: paths.baseline, rulesName: 'compat/categories.json' });
  await import('./report.mjs');
  printTotals('compat', baseline.totals);
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

const ceiling = existsSync(paths.ceiling) ? readJson(paths.ceiling) : { files: {} };
const totals = gateTotals({ current, baseline, ceiling, files, regressions, listKnown: values.verbose || wanted.length > 0 });
printTotals('compat', totals);
console.log(`wall time ${Math.round((Date.now() - started) / 1000)} s`);
for (const r of flakyNow) console.log(`flaky: ${r.file} :: ${r.name} failed (${r.reason}) then passed on a second run`);
conclude({ label: 'compat', command: 'npm run test:compat', regressions, newlyPassing });
