// What `npm run test:compat` and `npm run test:compat-plugins` share: option parsing, the
// ceiling and --update runs, and the gate itself (compare one run with the committed baseline,
// re-run a file before calling a failure a regression). A suite (compat/run.mjs,
// compat/run-plugins.mjs) says where its files come from and where its JSON lives:
//   { label, command, paths: { baseline, ceiling, rules }, workDir, defaults: { testTimeout,
//     fileTimeout }, prepare(target) -> dir, listFiles(dir) -> files, locate?(dir, file),
//     check?(dir) -> a line to print, skip?(files) -> [[file, why]], meta() -> {...},
//     heading(files, target, runs), ceilingRef?, report (module URL) }
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBaseline, categories, compare, loadRules } from './baseline.mjs';
import { runFiles } from './execute.mjs';
import { ceilingJson, mergeRuns, outcomes } from './outcomes.mjs';

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`);

function parseOptions(defaults) {
  return parseArgs({
    allowPositionals: true,
    options: {
      target: { type: 'string', default: 'enclave' },
      files: { type: 'string' },
      update: { type: 'boolean', default: false },
      recategorize: { type: 'boolean', default: false },
      runs: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      'test-timeout': { type: 'string', default: defaults.testTimeout },
      'file-timeout': { type: 'string', default: defaults.fileTimeout },
      verbose: { type: 'boolean', short: 'v', default: false },
      quiet: { type: 'boolean', short: 'q', default: false },
    },
  });
}

// A name matches the file with that path or base name, with or without .test.js; `dir/` (or a
// bare folder name) matches a folder; `*` is a wildcard.
function matches(file, pattern) {
  if (pattern.endsWith('/')) return file.startsWith(pattern);
  if (file.startsWith(`${pattern}/`)) return true;
  const re = new RegExp(`(^|/)${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
  return re.test(file) || re.test(file.replace(/\.test\.m?js$/, ''));
}

function progress(values) {
  return (label) => (done, total, file, outcome) => {
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

function printTotals(label, totals) {
  const line = categories.map((c) => `${c} ${totals[c]}`).join(', ');
  console.log(`\n${label} totals: ${totals.files} files, ${totals.tests} tests, ceiling ${totals.ceiling}, passing ${totals.passing}`);
  console.log(`not passing by category: ${line}${totals.skipped ? ` (skipped by the tests themselves: ${totals.skipped})` : ''}`);
}

/** Runs one suite's command line: a subset, the ceiling, --update or the gate; exits. */
export async function main(suite) {
  const { values, positionals } = parseOptions(suite.defaults);
  const target = values.target;
  const dir = suite.prepare(target);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  const checked = suite.check?.(dir);

  const all = suite.listFiles(dir);
  const wanted = [...(values.files?.split(',') ?? []), ...positionals].map((f) => f.trim().replace(/^test\//, '')).filter(Boolean);
  const chosen = wanted.length ? all.filter((file) => wanted.some((pattern) => matches(file, pattern))) : all;
  if (chosen.length === 0) {
    console.error(`no test file matches ${wanted.join(', ')}`);
    process.exit(1);
  }
  if (values.update && wanted.length) {
    console.error('--update rewrites the whole baseline: run it without a file list');
    process.exit(1);
  }
  // Files whose service (Redis, …) cannot be reached are not run, and the output says so.
  const skipped = (await suite.skip?.(chosen)) ?? [];
  const files = chosen.filter((file) => !skipped.some(([name]) => name === file));

  const runOptions = {
    concurrency: Number(values.concurrency),
    testTimeout: Number(values['test-timeout']),
    fileTimeout: Number(values['file-timeout']),
    locate: suite.locate,
  };
  const report = progress(values);
  const meta = suite.meta();
  const runs = Number(values.runs ?? (values.update ? 2 : 1));
  console.log(suite.heading(files, target, runs));
  if (checked) console.log(checked);
  for (const [file, why] of skipped) console.log(`skipped: ${file} — ${why}`);
  const started = Date.now();
  const lastPath = join(suite.workDir, `last-${target}.json`);
  let results = [];
  if (values.recategorize) {
    // Rebuild the baseline from the runs of the last --update, after editing the rules.
    results = readJson(lastPath).runs;
    values.update = true;
  } else {
    for (let i = 0; i < runs; i++) {
      results.push(await runFiles(dir, files, { ...runOptions, progress: report(runs > 1 ? `run ${i + 1} ` : '') }));
    }
  }
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  mkdirSync(suite.workDir, { recursive: true });
  if (!values.recategorize) writeJson(lastPath, { target, ...meta, seconds, runs: results });

  if (target === 'fastify') return ceilingRun(suite, results, files, { meta, seconds, update: values.update });
  if (values.update) return updateRun(suite, results, { meta, runs, seconds, skipped });
  return gateRun(suite, results, files, { dir, values, wanted, runOptions, report, started });
}

function ceilingRun(suite, results, files, { meta, seconds, update }) {
  const merged = mergeRuns(results);
  let pass = 0;
  let fail = 0;
  for (const { tests } of merged.values()) for (const t of tests.values()) t.status === 'pass' ? pass++ : t.status !== 'skip' && fail++;
  console.log(`\nceiling: ${files.length} files, ${pass} tests passing on Fastify, ${fail} not, in ${seconds} s`);
  if (update) {
    writeJson(suite.paths.ceiling, ceilingJson(merged, meta));
    console.log(`wrote ${suite.paths.ceiling}`);
  }
  process.exit(0);
}

async function updateRun(suite, results, { meta, runs, seconds, skipped }) {
  const ceiling = readJson(suite.paths.ceiling);
  // A file not run here (its service is down) is left out, not recorded as failing.
  for (const [file] of skipped) delete ceiling.files[file];
  const merged = mergeRuns(results);
  const rules = loadRules(suite.paths.rules);
  const { baseline, uncategorized } = buildBaseline(merged, ceiling, rules, meta, suite.ceilingRef);
  if (uncategorized.length) {
    const list = join(suite.workDir, 'uncategorized.txt');
    writeFileSync(list, `${uncategorized.join('\n')}\n`);
    console.error(`\n${uncategorized.length} failing tests match no rule in ${suite.paths.rules} (listed in ${list}):`);
    for (const line of uncategorized.slice(0, 50)) console.error(`  ${line}`);
    console.error('baseline NOT written');
    process.exit(1);
  }
  writeJson(suite.paths.baseline, baseline);
  await import(suite.report);
  printTotals(suite.label, baseline.totals);
  console.log(`wrote ${suite.paths.baseline} (${runs} runs in ${seconds} s)`);
  process.exit(0);
}

async function gateRun(suite, results, files, { dir, values, wanted, runOptions, report, started }) {
  if (!existsSync(suite.paths.baseline)) {
    console.error(`${suite.paths.baseline} is missing: run ${suite.command} -- --update`);
    process.exit(1);
  }
  const baseline = readJson(suite.paths.baseline);
  let current = outcomes(results[0]);
  let { regressions, newlyPassing } = compare(current, baseline, files);
  const retried = [...new Set(regressions.map((r) => r.file))];
  let flakyNow = [];
  if (retried.length) {
    // A regression must repeat to count: a test that passes when its file runs again is reported
    // as flaky here (add it to the baseline's flaky list if it keeps happening) instead of failing CI.
    console.log(`\nre-running ${retried.length} file(s) with unexpected failures: ${retried.join(', ')}`);
    const again = outcomes(await runFiles(dir, retried, { ...runOptions, progress: report('retry ') }));
    const second = compare(again, baseline, retried);
    const key = (r) => `${r.file} :: ${r.name}`;
    const repeated = new Set(second.regressions.map(key));
    flakyNow = regressions.filter((r) => !repeated.has(key(r)));
    regressions = regressions.filter((r) => repeated.has(key(r)));
    current = new Map([...current, ...again]);
    ({ newlyPassing } = compare(current, baseline, files));
  }

  const totals = { files: files.length, tests: 0, ceiling: 0, passing: 0, skipped: 0 };
  for (const c of categories) totals[c] = 0;
  for (const file of files) {
    for (const test of current.get(file)?.tests.values() ?? []) if (test.status === 'pass') totals.passing++;
    for (const [name, entry] of Object.entries(baseline.failing[file] ?? {})) {
      if (current.get(file)?.tests.get(name)?.status !== 'pass') totals[entry.category]++;
    }
  }
  const ceiling = existsSync(suite.paths.ceiling) ? readJson(suite.paths.ceiling) : { files: {} };
  for (const file of files) totals.ceiling += ceiling.files[file]?.pass.length ?? 0;
  totals.tests = totals.passing + categories.reduce((sum, c) => sum + totals[c], 0) + regressions.filter((r) => r.name !== '(file)').length;
  if (values.verbose || wanted.length) {
    for (const file of files) {
      for (const [name, entry] of Object.entries(baseline.failing[file] ?? {})) {
        if (current.get(file)?.tests.get(name)?.status !== 'pass') console.log(`  known  ${file} :: ${name}  — ${entry.category} (${entry.ref}) ${entry.reason}`);
      }
    }
  }
  printTotals(suite.label, totals);
  console.log(`wall time ${Math.round((Date.now() - started) / 1000)} s`);
  for (const r of flakyNow) console.log(`flaky: ${r.file} :: ${r.name} failed (${r.reason}) then passed on a second run`);
  if (newlyPassing.length) {
    console.log(`\n${newlyPassing.length} test(s) the baseline lists as failing now pass: run ${suite.command} -- --update`);
    for (const n of newlyPassing) console.log(`  now passing: ${n.file} :: ${n.name} (was ${n.category})`);
  }
  if (regressions.length) {
    console.error(`\n${suite.label} gate FAILED: ${regressions.length} test(s) that the baseline records as passing do not pass:`);
    for (const r of regressions) console.error(`  ✖ ${r.file} :: ${r.name}\n      ${r.reason}`);
    process.exit(1);
  }
  console.log(`\n${suite.label} gate: ok, every test the baseline records as passing still passes`);
}
