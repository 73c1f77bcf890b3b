// Turning raw runs into per-test outcomes: merging repeated runs (a test whose result
// differs between runs is flaky) and the ceiling file's shape.

// Map file -> Map name -> { status: 'pass'|'fail'|'skip'|'flaky', reason? }
export function outcomes(results) {
  const files = new Map();
  for (const [file, outcome] of Object.entries(results)) {
    const tests = new Map();
    for (const [name, test] of Object.entries(outcome.tests)) {
      if (test.status === 'pass') tests.set(name, { status: 'pass' });
      else if (test.status === 'fail') tests.set(name, { status: 'fail', reason: `[${test.kind}] ${test.reason}` });
      else tests.set(name, { status: 'skip' });
    }
    files.set(file, { tests, note: outcome.note });
  }
  return files;
}

const describe = (test) => (test ? (test.status === 'fail' ? `failed ${test.reason}` : test.status === 'pass' ? 'passed' : test.status) : 'not reported');

// Several runs of the same files -> one outcome map; a test that does not get the same
// status in every run is `flaky`, with the statuses as its reason.
export function mergeRuns(runs) {
  const maps = runs.map(outcomes);
  const merged = new Map();
  for (const file of maps[0].keys()) {
    const names = new Set(maps.flatMap((map) => [...(map.get(file)?.tests.keys() ?? [])]));
    const tests = new Map();
    for (const name of names) {
      const seen = maps.map((map) => map.get(file)?.tests.get(name));
      const statuses = new Set(seen.map((test) => test?.status ?? 'missing'));
      if (statuses.size === 1 && !statuses.has('missing')) tests.set(name, seen[0]);
      else if (statuses.size === 1) tests.set(name, { status: 'fail', reason: 'not reported' });
      else tests.set(name, { status: 'flaky', reason: seen.map((test, i) => `run ${i + 1} ${describe(test)}`).join('; ') });
    }
    const note = maps.map((map) => map.get(file)?.note).find(Boolean);
    merged.set(file, { tests, note });
  }
  return merged;
}

// compat/ceiling.json: what passes on Fastify itself under the same isolation.
export function ceilingJson(merged, meta) {
  const files = {};
  for (const [file, { tests, note }] of [...merged].sort(([a], [b]) => a.localeCompare(b))) {
    const entry = { pass: [], fail: {}, flaky: {} };
    for (const [name, test] of [...tests].sort(([a], [b]) => a.localeCompare(b))) {
      if (test.status === 'pass') entry.pass.push(name);
      else if (test.status === 'fail') entry.fail[name] = test.reason;
      else if (test.status === 'flaky') entry.flaky[name] = test.reason;
    }
    if (note) entry.note = note;
    files[file] = entry;
  }
  return { ...meta, files };
}
