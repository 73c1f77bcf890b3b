// Fails when the modules under a source directory import each other in a circle. Every import
// counts, type-only ones too (`import type`, `import x = require()`, `import('…')` types, and
// `declare module './x.js'` augmentations): a circle of types ties the files into one unit that
// can only be read, built and changed together (issue 31).
//   node scripts/check-import-cycles.mjs [dir]    default: packages/enclave/src
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every `.ts` file under `dir` (declaration files included: they can import too). */
function listSources(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) listSources(path, out);
    else if (/\.(c|m)?ts$/.test(entry)) out.push(path);
  }
  return out;
}

/** The source file a relative specifier names (`./x.js` is written for `./x.ts`). */
function resolveRelative(from, specifier, known) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(c|m)?js$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${stem}.d.ts`, join(base, 'index.ts')]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** The files `file` imports, by any kind of import, restricted to `known`. */
export function importsOf(file, known) {
  const text = readFileSync(file, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const specifiers = info.importedFiles.map((entry) => entry.fileName);
  // preProcessFile does not report ambient module names; a relative one is an augmentation.
  for (const match of text.matchAll(/declare\s+module\s+['"](\.[^'"]+)['"]/g)) specifiers.push(match[1]);
  const targets = new Set();
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) continue;
    const target = resolveRelative(file, specifier, known);
    if (target !== undefined && target !== file) targets.add(target);
  }
  return [...targets];
}

/** The import graph of `files`: each file with the files it imports. */
export function importGraph(files) {
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file, known)]));
}

/**
 * The groups of files that import each other in a circle (strongly connected components of the
 * graph with more than one file), each sorted, by Tarjan's algorithm.
 */
export function findCircles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file)) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** The circles under `dir`, with paths relative to it. */
export function circlesUnder(dir) {
  return findCircles(importGraph(listSources(dir))).map((group) => group.map((file) => relative(dir, file)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const dir = resolve(root, process.argv[2] ?? 'packages/enclave/src');
  const circles = circlesUnder(dir);
  for (const group of circles) console.log(`${group.length} files import each other: ${group.join(', ')}`);
  console.log(circles.length === 0 ? `no import circle under ${relative(root, dir)}` : `${circles.length} import circle(s) under ${relative(root, dir)}`);
  process.exitCode = circles.length === 0 ? 0 : 1;
}
