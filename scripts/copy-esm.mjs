// Copies a package's hand-written ESM entry (esm/) next to its CommonJS build (dist/), so that
// `import x from 'pkg'` and `require('pkg')` reach the same single implementation; and its
// hand-written ambient declarations (ambient/, enclavejs's module `fastify`) into dist/ambient/,
// referenced from the top of dist/index.d.ts (tsc cannot emit that reference itself: the
// declaration names the package by its own name, which only resolves once it is built).
//   node scripts/copy-esm.mjs            every package (the workspace build)
//   node scripts/copy-esm.mjs <dir>...   the packages in these directories (a package's prepack)
// A file already equal to its source is left alone: `npm test` packs the packages (which runs
// this) while other test files import the built ones, and a rewrite could be read half-written.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const packagesDir = new URL('../packages/', import.meta.url).pathname;
const args = process.argv.slice(2);
const packageDirs = args.length > 0 ? args.map((dir) => resolve(dir)) : readdirSync(packagesDir).map((name) => join(packagesDir, name));

function copyChanged(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) copyChanged(source, target);
    else if (!existsSync(target) || !readFileSync(source).equals(readFileSync(target))) copyFileSync(source, target);
  }
}

/** Puts `/// <reference path="./ambient/<file>" />` lines at the top of dist/index.d.ts, once. */
function referenceAmbient(dir) {
  const entry = join(dir, 'dist', 'index.d.ts');
  const text = readFileSync(entry, 'utf8');
  const lines = readdirSync(join(dir, 'ambient'))
    .filter((name) => name.endsWith('.d.ts'))
    .map((name) => `/// <reference path="./ambient/${name}" />`)
    .filter((line) => !text.includes(line));
  if (lines.length > 0) writeFileSync(entry, `${lines.join('\n')}\n${text}`);
}

for (const dir of packageDirs) {
  const from = join(dir, 'esm');
  if (existsSync(from)) copyChanged(from, join(dir, 'dist', 'esm'));
  if (existsSync(join(dir, 'ambient'))) {
    copyChanged(join(dir, 'ambient'), join(dir, 'dist', 'ambient'));
    referenceAmbient(dir);
  }
}
