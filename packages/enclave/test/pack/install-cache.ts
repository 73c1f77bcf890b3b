// An install cache for the tests that install the packed tarballs into applications outside the
// workspace (plugin-types.test.ts): the installed directories are kept in the OS temp directory,
// keyed by everything the installation reads, so that `npm test` on Node 22, 24 and 26 in one CI
// run reuses what the Node 20 run installed instead of installing the same files three more times.
// Only installations are cached; the checks a test makes on them run every time.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const cacheRoot = join(tmpdir(), 'enclave-install-cache');
const completeMark = '.complete';
// Long enough for one CI run on four Node versions (about 25 minutes), short enough that the
// entries of earlier builds do not pile up in the temp directory.
const unusedFor = 60 * 60 * 1000;

/**
 * A key for an installation: the tarballs' uncompressed content (npm's gzip output may differ
 * between the zlib versions of Node releases; the packed files do not) and whatever else the
 * installation depends on (package versions, the code that installs), as JSON-serialisable parts.
 */
export function installKey(tarballs: string[], parts: unknown): string {
  const hash = createHash('sha256');
  for (const tarball of tarballs)
    hash.update(
      createHash('sha256')
        .update(gunzipSync(readFileSync(tarball)))
        .digest('hex'),
    );
  hash.update(JSON.stringify(parts));
  return hash.digest('hex').slice(0, 32);
}

/** Removes the entries no run has used for an hour, and staging directories as old (a run killed mid-install leaves one). */
function evictStale(keep: string): void {
  const now = Date.now();
  for (const entry of readdirSync(cacheRoot)) {
    if (entry === keep) continue;
    const path = join(cacheRoot, entry);
    const stamp = join(path, completeMark);
    const lastUsed = statSync(existsSync(stamp) ? stamp : path).mtimeMs;
    if (now - lastUsed > unusedFor) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The directory installed for `key`: from the cache when a run installed it already, else
 * `populate` fills a fresh directory, which then enters the cache whole (renamed into place, so a
 * concurrent run sees either no entry or a complete one). `reused` says which happened.
 */
export async function cachedInstall(key: string, populate: (dir: string) => Promise<void>): Promise<{ dir: string; reused: boolean }> {
  mkdirSync(cacheRoot, { recursive: true });
  evictStale(key);
  const dir = join(cacheRoot, key);
  const stamp = join(dir, completeMark);
  if (existsSync(stamp)) {
    const now = new Date();
    utimesSync(stamp, now, now);
    return { dir, reused: true };
  }
  const staging = mkdtempSync(join(cacheRoot, `.staging-${key.slice(0, 8)}-`));
  try {
    await populate(staging);
    writeFileSync(join(staging, completeMark), '');
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another run put the same entry in place first: use that one.
    if (!existsSync(stamp)) throw error;
    return { dir, reused: true };
  }
  return { dir, reused: false };
}

/**
 * Makes `app` an application on the installation in `installed` (a directory of a cache entry):
 * its package.json a copy, its node_modules a link, so that the files a test writes stay its own.
 */
export function useInstalled(installed: string, app: string): void {
  mkdirSync(app, { recursive: true });
  copyFileSync(join(installed, 'package.json'), join(app, 'package.json'));
  symlinkSync(join(installed, 'node_modules'), join(app, 'node_modules'), 'dir');
}
