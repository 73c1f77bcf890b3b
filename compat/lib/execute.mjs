// Runs Fastify's test files from a scratch copy, each in its own node process (two at a time
// by default), with node's test runner and the compat reporter. A file that outlives its
// time limit is killed; whatever its tests reported until then is kept and the kill recorded.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const here = new URL('..', import.meta.url).pathname;

// Not run, with the reason. Everything else under test/ that is named *.test.js / *.test.mjs is.
export const excluded = [
  ['internals/', 'unit tests of Fastify’s private modules'],
  ['types/', 'type tests of Fastify’s .d.ts files (tstyche): `npm run test:compat-types` runs them'],
  ['bundler/', 'builds Fastify with esbuild/webpack from their own package.json; no *.test.js'],
  ['scripts/', 'tests a script of Fastify’s repository (ecosystem link checker), not the framework'],
  ['build/error-serializer.test.js', 'lints the output of Fastify’s code generator (needs eslint)'],
];

export function listFiles(dir) {
  const testDir = join(dir, 'test');
  const out = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder).sort()) {
      const path = join(folder, entry);
      const rel = relative(testDir, path);
      if (excluded.some(([prefix]) => rel === prefix || rel.startsWith(prefix) || `${rel}/` === prefix)) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.test\.m?js$/.test(entry)) out.push(rel);
    }
  };
  walk(testDir);
  return out;
}

const marker = '@@compat-result ';

// Where a file runs: Fastify's files from the copy's root; a suite may say otherwise
// (each plugin's files from that plugin's folder, with the environment its test script sets).
const inCopy = (dir, file) => ({ cwd: dir, path: join(dir, 'test', file), env: {} });

function runOne(dir, file, options) {
  return new Promise((resolve) => {
    const started = Date.now();
    const where = (options.locate ?? inCopy)(dir, file);
    const env = { ...process.env, ...where.env, COMPAT_TEST_TIMEOUT: String(where.testTimeout ?? options.testTimeout) };
    delete env.NODE_TEST_CONTEXT;
    delete env.NODE_OPTIONS;
    const child = spawn(
      process.execPath,
      ['--require', join(here, 'preload.cjs'), `--test-reporter=${join(here, 'reporter.mjs')}`, '--test-force-exit', where.path],
      { cwd: where.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const records = [];
    let partial = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) if (line.startsWith(marker)) records.push(JSON.parse(line.slice(marker.length)));
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    let killed = false;
    // A file may ask for more than the default (a suite's `fileTimeouts`): its slow tests together
    // can outlast it on a loaded machine, and a killed file reports nothing of those tests.
    const timer = setTimeout(
      () => {
        killed = true;
        child.kill('SIGKILL');
      },
      Math.max(where.fileTimeout ?? 0, options.fileTimeout),
    );
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killed, stderr, records, ms: Date.now() - started });
    });
  });
}

// One file's outcome: { ms, exit, note?, tests: { name: { status, kind?, reason? } } }.
// Suites (describe) are not counted as tests: their failures show in their tests.
function collect(records, run) {
  const tests = {};
  for (const record of records) {
    if (record.suite) continue;
    let name = record.path.join(' > ');
    for (let n = 2; name in tests; n++) name = `${record.path.join(' > ')} #${n}`;
    tests[name] =
      record.status === 'fail' ? { status: 'fail', kind: record.kind, reason: record.reason, ms: record.ms } : { status: record.status, ms: record.ms };
  }
  const outcome = { ms: run.ms, exit: run.code ?? run.signal, tests };
  if (run.killed) outcome.note = `killed after the per-file limit of ${run.ms} ms; tests not reported are missing`;
  else if (records.length === 0 && run.code !== 0) {
    const lines = run.stderr.split('\n').filter((line) => /^\w*(Error|Exception)\b/.test(line));
    outcome.note = `did not load: ${(lines[0] ?? run.stderr.trim().split('\n')[0] ?? '').trim().slice(0, 300)}`;
  }
  return outcome;
}

export async function runFiles(dir, files, options) {
  const results = {};
  const queue = files.map((file) => ({ file }));
  let done = 0;
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const run = await runOne(dir, job.file, options);
      results[job.file] = collect(run.records, run);
      done++;
      if (options.progress) options.progress(done, files.length, job.file, results[job.file]);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return Object.fromEntries(files.map((file) => [file, results[file]]));
}
