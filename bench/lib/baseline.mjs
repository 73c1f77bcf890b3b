// `npm run bench -- --baseline <ref>`: Enclave as it was at an earlier commit, built once into
// bench/.results/baseline/<commit>/ and run beside the working tree's build in the same rounds.
// "No scenario slower than before" is then one run's comparison, each build paired with the same
// raw server, rather than two runs that drift ±15% apart on a shared machine.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Builds `ref` (once per commit) and returns its commit and the path of its ESM entry. */
export function buildBaseline(ref, resultsDir, log) {
  const repo = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: repo, encoding: 'utf8' }).trim();
  const dir = join(resultsDir, 'baseline', commit);
  const packageDir = join(dir, 'packages', 'enclave');
  const marker = join(dir, '.built');
  if (!existsSync(marker)) {
    log(`building Enclave at ${ref} (${commit.slice(0, 7)}) into ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', commit], { cwd: repo, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    const quiet = { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] };
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], quiet);
    execFileSync('npm', ['run', 'build'], quiet);
    writeFileSync(marker, `${commit}\n`);
  }
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  return { commit, entry: join(packageDir, manifest.exports['.'].import.default) };
}
