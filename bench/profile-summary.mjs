// Summarizes a V8 .cpuprofile (from `node --cpu-prof`, e.g. `npm run bench -- --cpu-prof enclave`):
// the functions with the most self time, and self time grouped by where the code lives.
//
//   node bench/profile-summary.mjs bench/.results/profiles/enclave-A-round1.cpuprofile [--top 10]
import { parseArgs } from 'node:util';
import { functionLabel, readSelfTimes } from './lib/cpuprofile.mjs';
import { markdownTable } from './lib/stats.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '10' } } });
if (positionals.length === 0) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile>... [--top 10]\n');
  process.exit(1);
}

function origin(url) {
  if (!url) return '(native / V8)';
  if (url.startsWith('node:')) return 'node core';
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes('/packages/enclave/')) return 'enclave';
  if (url.includes('/bench/')) return 'bench server code';
  return url;
}

for (const file of positionals) {
  const functions = new Map();
  const urls = new Map();
  const origins = new Map();
  let total = 0;
  let idle = 0;
  for (const { callFrame, micros } of readSelfTimes(file)) {
    total += micros;
    if (callFrame.functionName === '(idle)') {
      idle += micros;
      continue;
    }
    const name = callFrame.functionName || '(anonymous)';
    const key = functionLabel(callFrame);
    functions.set(key, (functions.get(key) ?? 0) + micros);
    urls.set(key, callFrame.url);
    const where = callFrame.url ? origin(callFrame.url) : name.startsWith('(') ? name : '(native / V8)';
    origins.set(where, (origins.get(where) ?? 0) + micros);
  }
  const busy = total - idle;
  const percent = (micros) => `${((micros / busy) * 100).toFixed(1)}%`;
  const top = [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
  process.stdout.write(
    `## ${file}\n\n${(busy / 1e6).toFixed(2)} s on CPU of ${(total / 1e6).toFixed(2)} s sampled (idle ${((idle / total) * 100).toFixed(0)}%); percentages are of CPU time.\n\n`,
  );
  process.stdout.write(
    `${markdownTable(
      ['#', 'self %', 'function (file:line)'],
      top.map(([key, micros], index) => [index + 1, percent(micros), key]),
      [true, true, false],
    )}\n\n`,
  );
  // The same ranking without node core, V8 and the GC: what the framework and its dependencies
  // spend themselves, where a framework can change something.
  const ownTop = [...functions]
    .filter(([key]) => {
      const url = urls.get(key);
      return url !== '' && !url.startsWith('node:');
    })
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(values.top));
  process.stdout.write(
    `Outside node core and V8:\n\n${markdownTable(
      ['#', 'self %', 'function (file:line)'],
      ownTop.map(([key, micros], index) => [index + 1, percent(micros), key]),
      [true, true, false],
    )}\n\n`,
  );
  const grouped = [...origins].sort((a, b) => b[1] - a[1]).slice(0, 12);
  process.stdout.write(
    `${markdownTable(
      ['where', 'self %'],
      grouped.map(([where, micros]) => [where, percent(micros)]),
    )}\n\n`,
  );
}
