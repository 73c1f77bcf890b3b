// Copies each package's hand-written ESM entry (esm/) next to the CommonJS build, so that
// `import x from 'pkg'` and `require('pkg')` reach the same single implementation.
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const packagesDir = new URL('../packages/', import.meta.url).pathname;
for (const name of readdirSync(packagesDir)) {
  const from = join(packagesDir, name, 'esm');
  if (existsSync(from)) cpSync(from, join(packagesDir, name, 'dist', 'esm'), { recursive: true });
}
