// The one test command (`npm test`): build, lint, type-check, then every test file with
// node's test runner. Files are listed here because Node 20's runner has no glob support.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function run(title, command, args) {
  console.log(`\n── ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✖ ${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

function findTests(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    // Hidden directories hold generated copies (bench/.results/baseline/ is a whole checkout).
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (/\.test\.(ts|mts|mjs|cjs|js)$/.test(entry)) out.push(relative(root, path));
  }
  return out;
}

const npx = (bin) => join(root, 'node_modules', '.bin', bin);
const coveredPackage = 'packages/bearer-auth/';
const all = ['packages', 'examples', 'bench', 'compat'].flatMap((dir) => findTests(join(root, dir)));
const covered = all.filter((file) => file.startsWith(coveredPackage));
const rest = all.filter((file) => !file.startsWith(coveredPackage));

run('build', 'npm', ['run', 'build', '--silent']);
run('lint', npx('biome'), ['check', '.']);
run('type-check (tests and type tests)', npx('tsc'), ['-p', 'tsconfig.test.json']);
const nodeTest = ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec'];
run('tests', process.execPath, [...nodeTest, ...rest]);
if (covered.length > 0) {
  run('bearer-auth tests with 100% line coverage', npx('c8'), [
    '--100', '--include', `${coveredPackage}src/**`, '--include', `${coveredPackage}dist/**`,
    '--exclude', '**/*.d.ts', '--reporter', 'text',
    process.execPath, ...nodeTest, ...covered,
  ]);
}
