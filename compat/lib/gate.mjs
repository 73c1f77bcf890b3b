// What the three gates share. The pieces (command line, file selection, baseline writing,
// totals, verdict) serve all of them, npm run test:compat-types included, whose runs are tstyche's;
// `main(suite)` is the whole run of the two whose files run under node's test runner
// (npm run test:compat, npm run test:compat-plugins). A suite says where its files come from and
// where its JSON lives:
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
import { root, workDir } from './scratch.mjs';

export const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
export const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`);

/** The committed files of a gate: compat/<prefix>baseline.json, …ceiling.json, …categories.json. */
export const gatePaths = (prefix) => ({
  baseline: join(root, 'compat', `${prefix}baseline.json`),
  ceiling: join(root, 'compat', `${prefix}ceiling.json`),
  rules: join(root, 'compat', `${prefix}categories.json`),
});

/** Both gates' command line (compat/README.md), plus a gate's own `options`. */
export function parseGateArgs(options = {}) {
  return parseArgs({
    allowPositionals: true,
    options: {
      target: { type: 'string', default: 'enclave' },
      files: { type: 'string' },
      update: { type: 'boolean', default: false },
      recategorize: { type: 'boolean', default: false },
      verbose: { type: 'boolean', short: 'v', default: false },
      quiet: { type: 'boolean', short: 'q', default: false },
      ...options,
    },
  });
}

/**
 * The files of `all` the command line names (`--files=a,b` and positionals, less `prefix`), see
 * selectFiles; exits on a name that matches nothing, or on --update with a file list (unless
 * `mergesCeiling` and the target is fastify: the ceiling then refreshes those files' entries).
 */
export function filesToRun(all, { values, positionals }, { prefix, suffix, mergesCeiling = false }) {
  const wanted = [...(values.files?.split(',') ?? []), ...positionals].map((f) => f.trim().replace(prefix, '')).filter(Boolean);
  const files = selectFiles(all, wanted, suffix);
  if (files.length === 0) {
    console.error(`no test file matches ${wanted.join(', ')}`);
    process.exit(1);
  }
  if (values.update && wanted.length && !(mergesCeiling && values.target === 'fastify')) {
    console.error('--update rewrites the whole baseline: run it without a file list');
    process.exit(1);
  }
  return { files, wanted };
}

/**
 * The files of `all` that `wanted` names: a path or base name, with or without `suffix`; `dir/`
 * (or a bare folder name) matches a folder; `*` is a wildcard. All of them when nothing is wanted.
 */
export function selectFiles(all, wanted, suffix) {
  if (wanted.length === 0) return all;
  const matches = (file, pattern) => {
    if (pattern.endsWith('/')) return file.startsWith(pattern);
    if (file.startsWith(`${pattern}/`)) return true;
    const re = new RegExp(`(^|/)${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
    return re.test(file) || re.test(file.replace(suffix, ''));
  };
  return all.filter((file) => wanted.some((pattern) => matches(file, pattern)));
}

/** Prints a gate's totals: two lines, like docs/compatibility.md's. */
export function printTotals(label, totals, unit = 'tests') {
  const line = categories.map((c) => `${c} ${totals[c]}`).join(', ');
  console.log(`\n${label} totals: ${totals.files} files, ${totals.tests} ${unit}, ceiling ${totals.ceiling}, passing ${totals.passing}`);
  console.log(`not passing by category: ${line}${totals.skipped ? ` (skipped by the tests themselves: ${totals.skipped})` : ''}`);
}

/**
 * `--update`: the baseline from `merged` (outcomes.mjs), categorised by `rules`; refuses (exit 1)
 * when a failure matches no rule, listing them in compat/.work/uncategorized.txt.
 */
export function writeBaseline({ merged, ceiling, rules, meta, path, rulesName, ceilingRef, adjust = (baseline) => baseline }) {
  const { baseline, uncategorized } = buildBaseline(merged, ceiling, rules, meta, ceilingRef);
  if (uncategorized.length) {
    writeFileSync(join(workDir, 'uncategorized.txt'), `${uncategorized.join('\n')}\n`);
    console.error(`\n${uncategorized.length} failures match no rule in ${rulesName} (listed in compat/.work/uncategorized.txt):`);
    for (const line of uncategorized.slice(0, 50)) console.error(`  ${line}`);
    console.error('baseline NOT written');
    process.exit(1);
  }
  const adjusted = adjust(baseline);
  writeFileSync(path, `${JSON.stringify(adjusted, null, 1)}\n`);
  return adjusted;
}

/**
 * The gate's counts for the files run: what passes now, what the baseline knows not to pass
 * (by category) and the ceiling; plus, with `listKnown`, a line per known failure.
 */
export function gateTotals({ current, baseline, ceiling, files, regressions, listKnown }) {
  const totals = { files: files.length, tests: 0, ceiling: 0, passing: 0, skipped: 0 };
  for (const c of categories) totals[c] = 0;
  for (const file of files) {
    const tests = current.get(file)?.tests;
    for (const test of tests?.values() ?? []) if (test.status === 'pass') totals.passing++;
    for (const [name, entry] of Object.entries(baseline.failing[file] ?? {})) {
      if (tests?.get(name)?.status === 'pass') continue;
      totals[entry.category]++;
      if (listKnown) console.log(`  known  ${file} :: ${name}  — ${entry.category} (${entry.ref}) ${entry.reason}`);
    }
    totals.ceiling += ceiling.files?.[file]?.pass.length ?? 0;
  }
  totals.tests = totals.passing + categories.reduce((sum, c) => sum + totals[c], 0) + regressions.filter((r) => r.name !== '(file)').length;
  return totals;
}

/** Prints the newly passing and the regressions; exits 1 on a regression. */
export function conclude({ label, command, regressions, newlyPassing, what = 'test' }) {
  if (newlyPassing.length) {
    console.log(`\n${newlyPassing.length} ${what}(s) the baseline lists as failing now pass: run ${command} -- --update`);
    for (const n of newlyPassing) console.log(`  now passing: ${n.file} :: ${n.name} (was ${n.category})`);
  }
  if (regressions.length) {
    console.error(`\n${label} gate FAILED: ${regressions.length} ${what}(s) that the baseline records as passing do not pass:`);
    for (const r of regressions) console.error(`  ✖ ${r.file} :: ${r.name}\n      ${r.reason}`);
    process.exit(1);
  }
  console.log(`\n${label} gate: ok, every ${what} the baseline records as passing still passes`);
}

/** One line per file as it finishes (none with --quiet); with -v, each failing test and why. */
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

/** Runs one node:test suite's command line: a subset, the ceiling, --update or the gate; exits. */
export async function main(suite) {
  const args = parseGateArgs({
    runs: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    'test-timeout': { type: 'string', default: suite.defaults.testTimeout },
    'file-timeout': { type: 'string', default: suite.defaults.fileTimeout },
  });
  const { values } = args;
  const target = values.target;
  const dir = suite.prepare(target);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  const checked = suite.check?.(dir);

  const { files: chosen, wanted } = filesToRun(suite.listFiles(dir), args, { prefix: /^test\//, suffix: /\.test\.m?js$/, mergesCeiling: true });
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
    // Rebuild the baseline from the runs of the last full run, after editing the rules.
    results = readJson(lastPath).runs;
    values.update = true;
  } else {
    for (let i = 0; i < runs; i++) {
      results.push(await runFiles(dir, files, { ...runOptions, progress: report(runs > 1 ? `run ${i + 1} ` : '') }));
    }
  }
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  mkdirSync(suite.workDir, { recursive: true });
  // Only a run of every file can be recategorised later: a subset run must not replace it.
  if (!values.recategorize && wanted.length === 0) writeJson(lastPath, { target, ...meta, seconds, runs: results });

  if (target === 'fastify') return ceilingRun(suite, results, files, { meta, seconds, update: values.update, subset: wanted.length > 0 });
  if (values.update) return updateRun(suite, results, { meta, runs, seconds, skipped });
  return gateRun(suite, results, files, { dir, values, wanted, runOptions, report, started });
}

/**
 * A subset refreshes its files' entries in the existing ceiling (two runs of one slow file instead
 * of the whole suite), provided that ceiling was written with the same versions.
 */
export function mergeIntoCeiling(path, fresh) {
  const existing = existsSync(path) ? readJson(path) : null;
  const { files: _old, ...oldMeta } = existing ?? { files: {} };
  const { files, ...newMeta } = fresh;
  if (existing === null || JSON.stringify(oldMeta) !== JSON.stringify(newMeta)) {
    throw new Error(`${path} was written with other versions than this run's (or is missing): update it whole, without naming files`);
  }
  const merged = { ...existing.files, ...files };
  return {
    ...existing,
    files: Object.fromEntries(
      Object.keys(merged)
        .sort((a, b) => a.localeCompare(b))
        .map((file) => [file, merged[file]]),
    ),
  };
}

function ceilingRun(suite, results, files, { meta, seconds, update, subset }) {
  const merged = mergeRuns(results);
  let pass = 0;
  let fail = 0;
  for (const { tests } of merged.values()) for (const t of tests.values()) t.status === 'pass' ? pass++ : t.status !== 'skip' && fail++;
  console.log(`\nceiling: ${files.length} files, ${pass} tests passing on Fastify, ${fail} not, in ${seconds} s`);
  if (update) {
    const fresh = ceilingJson(merged, meta);
    writeJson(suite.paths.ceiling, subset ? mergeIntoCeiling(suite.paths.ceiling, fresh) : fresh);
    console.log(`wrote ${suite.paths.ceiling}`);
  }
  process.exit(0);
}

async function updateRun(suite, results, { meta, runs, seconds, skipped }) {
  const ceiling = readJson(suite.paths.ceiling);
  // A file not run here (its service is down) is left out, not recorded as failing.
  for (const [file] of skipped) delete ceiling.files[file];
  const baseline = writeBaseline({
    merged: mergeRuns(results),
    ceiling,
    rules: loadRules(suite.paths.rules),
    meta,
    path: suite.paths.baseline,
    rulesName: suite.paths.rules,
    ceilingRef: suite.ceilingRef,
  });
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
  let { regressions, newlyPassing } = compare(current, baseline, files, suite.paths.baseline);
  const retried = [...new Set(regressions.map((r) => r.file))];
  let flakyNow = [];
  if (retried.length) {
    // A regression must repeat to count: a test that passes when its file runs again is reported
    // as flaky here (add it to the baseline's flaky list if it keeps happening) instead of failing CI.
    console.log(`\nre-running ${retried.length} file(s) with unexpected failures: ${retried.join(', ')}`);
    const again = outcomes(await runFiles(dir, retried, { ...runOptions, progress: report('retry ') }));
    const second = compare(again, baseline, retried, suite.paths.baseline);
    const key = (r) => `${r.file} :: ${r.name}`;
    const repeated = new Set(second.regressions.map(key));
    flakyNow = regressions.filter((r) => !repeated.has(key(r)));
    regressions = regressions.filter((r) => repeated.has(key(r)));
    current = new Map([...current, ...again]);
    ({ newlyPassing } = compare(current, baseline, files, suite.paths.baseline));
  }
  const ceiling = existsSync(suite.paths.ceiling) ? readJson(suite.paths.ceiling) : { files: {} };
  const totals = gateTotals({ current, baseline, ceiling, files, regressions, listKnown: values.verbose || wanted.length > 0 });
  printTotals(suite.label, totals);
  console.log(`wall time ${Math.round((Date.now() - started) / 1000)} s`);
  for (const r of flakyNow) console.log(`flaky: ${r.file} :: ${r.name} failed (${r.reason}) then passed on a second run`);
  conclude({ label: suite.label, command: suite.command, regressions, newlyPassing });
}
