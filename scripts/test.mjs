// The one test command (`npm test`): build, lint, type-check, then every test file with
// node's test runner. Files are listed here because Node 20's runner has no glob support.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function run(title, command, args, env = process.env) {
  console.log(`\n── ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
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
runWithSchemaCache(rest.filter((file) => /^packages\/enclave\/test\/(validation|serialization|schema)-(?!cache-)[^/]+\.test\.ts$/.test(file)));
if (covered.length > 0) {
  run('bearer-auth tests with 100% line coverage', npx('c8'), [
    '--100',
    '--include',
    `${coveredPackage}src/**`,
    '--include',
    `${coveredPackage}dist/**`,
    '--exclude',
    '**/*.d.ts',
    '--reporter',
    'text',
    process.execPath,
    ...nodeTest,
    ...covered,
  ]);
}

// Issue 29: the validation, serialization and schema test files once more with the schema cache,
// cold (an empty directory: everything compiled, the cache written), then warm (everything loaded
// from what the cold run wrote). Both runs must pass, run the same tests, and the warm one must
// really have booted from the cache: it writes almost no bundle of its own (only the property
// tests' random schemas are new) and writes V8's code cache of the bundles it loaded.
function runWithSchemaCache(files) {
  const directory = mkdtempSync(join(tmpdir(), 'enclave-schema-cache-test-'));
  const listing = () => readdirSync(directory);
  const bundles = () => listing().filter((name) => name.endsWith('.js.gz'));
  try {
    const env = { ...process.env, ENCLAVE_SCHEMA_CACHE: directory };
    const testsOf = (label) => {
      const report = join(directory, `.${label}.tap`);
      run(
        `schema tests, schema cache ${label}`,
        process.execPath,
        [
          ...nodeTest.filter((arg) => !arg.startsWith('--test-reporter')),
          '--test-reporter=dot',
          '--test-reporter-destination=stdout',
          '--test-reporter=tap',
          `--test-reporter-destination=${report}`,
          ...files,
        ],
        env,
      );
      return readFileSync(report, 'utf8')
        .split('\n')
        .filter((line) => /^\s*(not )?ok \d+ - /.test(line))
        .map((line) => line.trim().replace(/^(not )?ok \d+ - /, '$1'))
        .sort();
    };
    const cold = testsOf('cold');
    const coldBundles = bundles().length;
    const warm = testsOf('warm');
    const warmBundles = bundles().length - coldBundles;
    const codeCaches = listing().filter((name) => name.endsWith('.v8')).length;
    console.log(`schema cache: ${cold.length} tests cold and warm; bundles written cold ${coldBundles}, warm ${warmBundles}; V8 code caches ${codeCaches}`);
    const failures = [];
    if (cold.join('\n') !== warm.join('\n')) failures.push('the cold and warm runs did not run the same tests');
    if (coldBundles === 0 || warmBundles * 5 > coldBundles) failures.push('the warm run compiled as much as the cold one: it did not boot from the cache');
    if (codeCaches * 2 < coldBundles) failures.push('the warm run loaded few of the bundles the cold run wrote');
    if (failures.length > 0) {
      console.error(`\n✖ schema cache runs: ${failures.join('; ')}`);
      process.exit(1);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
