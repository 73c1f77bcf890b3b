// The plugins' section of docs/compatibility.md, from compat/plugins/baseline.json and
// compat/plugins/ceiling.json (the last `npm run test:compat-plugins -- --update`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { categories } from './baseline.mjs';

const glob = (pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
const pct = (part, whole) => (whole ? `${Math.round((100 * part) / whole)}%` : '–');
const line = (cells) => `| ${cells.join(' | ')} |`;

/** Per-plugin totals as a Markdown table, or null before the first --update. */
export function pluginSection(root) {
  const dir = join(root, 'compat', 'plugins');
  if (!existsSync(join(dir, 'baseline.json'))) return null;
  const read = (name) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
  const baseline = read('baseline.json');
  const ceiling = read('ceiling.json');
  const suites = read('suites.json');

  const rows = new Map();
  const empty = () => ({ files: 0, tests: 0, ceiling: 0, passing: 0, ...Object.fromEntries(categories.map((c) => [c, 0])) });
  for (const name of Object.keys(suites.plugins)) rows.set(name, empty());
  const all = empty();
  for (const file of baseline.files) {
    const r = rows.get(file.slice(0, file.indexOf('/')));
    const counts = {
      files: 1,
      ceiling: ceiling.files[file]?.pass.length ?? 0,
      passing: baseline.passing[file]?.length ?? 0,
      ...Object.fromEntries(categories.map((c) => [c, 0])),
    };
    for (const entry of Object.values(baseline.failing[file] ?? {})) counts[entry.category]++;
    counts.tests = counts.passing + categories.reduce((sum, c) => sum + counts[c], 0);
    for (const [key, n] of Object.entries(counts)) {
      r[key] += n;
      all[key] += n;
    }
  }

  const header = ['plugin', 'version', 'files', 'tests', 'ceiling', 'passing', 'of ceiling', ...categories];
  const table = [line(header), line(header.map(() => '---'))];
  const shipsNone = [];
  for (const [name, r] of rows) {
    const version = baseline.plugins?.[name] ?? '';
    if (r.files === 0) {
      shipsNone.push(`\`@fastify/${name}\` ${version}`);
      continue;
    }
    table.push(line([`@fastify/${name}`, version, r.files, r.tests, r.ceiling, r.passing, pct(r.passing, r.ceiling), ...categories.map((c) => r[c])]));
  }
  table.push(line(['**all**', '', all.files, all.tests, all.ceiling, all.passing, pct(all.passing, all.ceiling), ...categories.map((c) => all[c])]));

  const notRun = [];
  for (const [name, plugin] of Object.entries(suites.plugins)) {
    for (const [pattern, service] of Object.entries(plugin.services ?? {})) {
      const what = suites.services[service];
      const ran = baseline.files.some((file) => file.startsWith(`${name}/`) && glob(pattern).test(file.slice(name.length + 1)));
      notRun.push(
        `\`${name}/${pattern}\` needs ${what.name} on ${what.host}:${what.port}: run when it is reachable, skipped otherwise (${ran ? 'it was run' : 'it was not reachable'} for this baseline)`,
      );
    }
  }
  const bugs = {};
  for (const tests of Object.values(baseline.failing)) {
    for (const entry of Object.values(tests)) if (entry.category === 'bug') bugs[entry.ref] = (bugs[entry.ref] ?? 0) + 1;
  }
  const bugList = Object.entries(bugs)
    .sort()
    .map(([ref, n]) => `${ref}: ${n}`)
    .join(', ');

  return `## The @fastify plugins' own test suites

\`npm run test:compat-plugins\` runs the test files that each @fastify plugin ships in its npm
package against Enclave, the same way (Node ${baseline.node}, Fastify ${baseline.fastify} for the ceiling).

${table.join('\n')}

The columns mean what they mean above; \`internals\` here are tests that do not pass on Fastify
in this harness either. ${bugList ? `\`bug\` by issue: ${bugList}.` : 'No test is categorised `bug`.'}
Not run: ${shipsNone.length ? `${shipsNone.join(', ')} ship no tests in their npm package; ` : ''}${notRun.join('; ') || 'nothing else'}.
What each suite's runner is and how its files are chosen: \`compat/plugins/suites.json\`.
`;
}
