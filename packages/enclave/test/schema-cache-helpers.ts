// Helpers of the schema cache tests (issue 29): temporary cache directories, a recording logger.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

const directories: string[] = [];
after(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** A fresh directory, removed when the test file ends. */
export function cacheDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'enclave-schema-cache-'));
  directories.push(directory);
  return directory;
}

/** A logger that records what it is given, level by level. */
export function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const record =
    (level: string) =>
    (...args: unknown[]) => {
      lines.push({ level, message: args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ') });
    };
  const logger = {
    level: 'debug',
    fatal: record('fatal'),
    error: record('error'),
    warn: record('warn'),
    info: record('info'),
    debug: record('debug'),
    trace: record('trace'),
    // Every level has its method in the logger type (FastifyBaseLogger), silent included.
    silent: record('silent'),
    child: () => logger,
  };
  return { logger, lines, at: (level: string) => lines.filter((line) => line.level === level).map((line) => line.message) };
}
