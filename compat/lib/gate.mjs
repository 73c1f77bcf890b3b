// What the two gates (npm run test:compat, npm run test:compat-types) share once their runs
// are outcomes: choosing files, writing the baseline, counting, and the verdict.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBaseline, categories } from './baseline.mjs';
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
 * selectFiles; exits on a name that matches nothing, or on --update with a file list.
 */
export function filesToRun(all, { values, positionals }, { prefix, suffix }) {
  const wanted = [...(values.files?.split(',') ?? []), ...positionals].map((f) => f.trim().replace(prefix, '')).filter(Boolean);
  const files = selectFiles(all, wanted, suffix);
  if (files.length === 0) {
    console.error(`no test file matches ${wanted.join(', ')}`);
    process.exit(1);
  }
  if (values.update && wanted.length) {
    console.error('--update rewrites the whole baseline: run it without a file list');
    process.exit(1);
  }
  return { files, wanted };
}

/**
 * The files of `all` that `wanted` names: a path or base name, with or without `suffix`; `dir/`
 * matches a folder; `*` is a wildcard. All of them when nothing is wanted.
 */
export function selectFiles(all, wanted, suffix) {
  if (wanted.length === 0) return all;
  const matches = (file, pattern) => {
    if (pattern.endsWith('/')) return file.startsWith(pattern);
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
export function writeBaseline({ merged, ceiling, rules, meta, path, rulesName, adjust = (baseline) => baseline }) {
  const { baseline, uncategorized } = buildBaseline(merged, ceiling, rules, meta);
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
