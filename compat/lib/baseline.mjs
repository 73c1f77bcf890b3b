// The committed baseline: every test that does not pass on Enclave, with its category, and
// every test that does (the gate's list of what must keep passing). Categories come from the
// ceiling (internals) and from compat/categories.json, mechanically, so the baseline can be
// regenerated after any merge with `npm run test:compat -- --update`.
import { readFileSync } from 'node:fs';

export const categories = ['internals', 'difference', 'message', 'bug', 'flaky'];

const glob = (pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);

export function loadRules(path) {
  const raw = JSON.parse(readFileSync(path, 'utf8'));
  const rules = raw.rules.map((rule) => ({
    ...rule,
    fileRe: glob(rule.file ?? '*'),
    testRe: rule.test ? new RegExp(rule.test) : null,
    reasonRe: rule.reason ? new RegExp(rule.reason) : null,
  }));
  const files = Object.entries(raw.files).map(([pattern, issue]) => ({ fileRe: glob(pattern), issue }));
  return { rules, files };
}

function describeRule(rule) {
  if (rule.category === 'bug') return { ref: `issue ${rule.issue}` };
  return { ref: rule.ref };
}

// One failing test -> { category, ref } or null when nothing claims it.
function classify(file, name, reason, ceilingEntry, rules, ceilingRef) {
  if (ceilingEntry && name in ceilingEntry.flaky) return { category: 'flaky', ref: `flaky on Fastify: ${ceilingEntry.flaky[name]}` };
  if (!ceilingEntry?.pass.includes(name)) return { category: 'internals', ref: ceilingRef };
  for (const rule of rules.rules) {
    if (!rule.fileRe.test(file)) continue;
    if (rule.testRe && !rule.testRe.test(name)) continue;
    if (rule.reasonRe && !rule.reasonRe.test(reason ?? '')) continue;
    return { category: rule.category, ...describeRule(rule) };
  }
  const byFile = rules.files.find((entry) => entry.fileRe.test(file));
  if (byFile) return { category: 'bug', ref: `issue ${byFile.issue}` };
  return null;
}

// merged: Map file -> { tests: Map name -> outcome, note } (see outcomes.mjs)
export function buildBaseline(merged, ceiling, rules, meta, ceilingRef = 'fails on Fastify under the same isolation') {
  const passing = {};
  const failing = {};
  const uncategorized = [];
  const totals = { files: 0, tests: 0, ceiling: 0, passing: 0, skipped: 0 };
  for (const category of categories) totals[category] = 0;
  const files = [...new Set([...merged.keys(), ...Object.keys(ceiling.files)])].sort();
  for (const file of files) {
    totals.files++;
    const tests = merged.get(file)?.tests ?? new Map();
    const ceilingEntry = ceiling.files[file];
    const note = merged.get(file)?.note;
    const names = new Set([
      ...tests.keys(),
      ...(ceilingEntry?.pass ?? []),
      ...Object.keys(ceilingEntry?.fail ?? {}),
      ...Object.keys(ceilingEntry?.flaky ?? {}),
    ]);
    for (const name of [...names].sort()) {
      const test = tests.get(name) ?? { status: 'fail', reason: note ? `not reported: ${note}` : 'not reported' };
      if (test.status === 'skip') {
        totals.skipped++;
        continue;
      }
      totals.tests++;
      if (ceilingEntry?.pass.includes(name)) totals.ceiling++;
      if (test.status === 'pass') {
        totals.passing++;
        (passing[file] ??= []).push(name);
        continue;
      }
      const found = test.status === 'flaky' ? { category: 'flaky', ref: test.reason } : classify(file, name, test.reason, ceilingEntry, rules, ceilingRef);
      if (!found) {
        uncategorized.push(`${file} :: ${name}  ${test.reason}`);
        continue;
      }
      totals[found.category]++;
      (failing[file] ??= {})[name] = { ...found, reason: test.reason };
    }
  }
  return { baseline: { ...meta, totals, files, passing, failing }, uncategorized };
}

// The gate: compare one run against the baseline, for the files that were run.
export function compare(current, baseline, files, baselineName = 'compat/baseline.json') {
  const regressions = [];
  const newlyPassing = [];
  for (const file of files) {
    const outcome = current.get(file);
    const expected = baseline.passing[file] ?? [];
    const known = baseline.failing[file] ?? {};
    if (!(baseline.files ?? []).includes(file)) {
      regressions.push({ file, name: '(file)', reason: `not in ${baselineName}: run with --update` });
      continue;
    }
    if (!outcome || (outcome.tests.size === 0 && expected.length > 0)) {
      regressions.push({ file, name: '(file)', reason: `no result${outcome?.note ? `: ${outcome.note}` : ''}` });
      continue;
    }
    for (const name of expected) {
      const test = outcome.tests.get(name);
      if (test?.status === 'pass' || test?.status === 'skip') continue;
      const reason = test ? test.reason : `not reported${outcome.note ? ` (${outcome.note})` : ''}`;
      regressions.push({ file, name, reason });
    }
    for (const [name, test] of outcome.tests) {
      if (test.status === 'fail' && !expected.includes(name) && !(name in known)) {
        regressions.push({ file, name, reason: `${test.reason} (a test the baseline does not know)` });
      }
      if (test.status === 'pass' && name in known && known[name].category !== 'flaky') {
        newlyPassing.push({ file, name, category: known[name].category });
      }
    }
  }
  return { regressions, newlyPassing };
}
